/* tools.h — shared pieces of the command-line commands (the files in tools/).
 * Ownership: callers own what they pass in; nothing here keeps pointers. */
#ifndef PTXEMU_TOOLS_H
#define PTXEMU_TOOLS_H

#include "casefile.h"
#include "runcase.h"

/* Loads a case from CASE.txt or FILE.ptx + inline launch arguments
 * (argv[0] is the file); *used = arguments consumed.  0 or an exit code. */
int tool_load_case(int argc, char **argv, int *used, rt_case *c);
void tool_print_diags(const diag_list *d, const char *text, size_t len);
void tool_print_failure(const rt_run_result *r);

int tool_cmd_test(int argc, char **argv);    /* test.c */
int tool_cmd_check(int argc, char **argv);   /* check.c */
int tool_cmd_debug(int argc, char **argv);   /* debug.c */
int tool_cmd_profile(int argc, char **argv); /* profile.c */

#endif
