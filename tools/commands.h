/* commands.h — the entry point of each `ptxemu` command, one file each
 * (run.c, test.c, dis.c, check.c, debug.c).  Only the dispatcher (ptxemu.c)
 * calls them: a command never calls another.
 * Ownership: argv is borrowed (a command may reorder it); each returns the
 * process exit status (PTXEMU_EXIT_*). */
#ifndef PTXEMU_COMMANDS_H
#define PTXEMU_COMMANDS_H

int tool_cmd_run(int argc, char **argv);     /* run.c */
int tool_cmd_test(int argc, char **argv);    /* test.c */
int tool_cmd_dis(int argc, char **argv);     /* dis.c */
int tool_cmd_check(int argc, char **argv);   /* check.c */
int tool_cmd_debug(int argc, char **argv);   /* debug.c */

#endif
