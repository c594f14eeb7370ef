/* commands.h — the `ptxemu` commands, one file each (run.c, test.c, dis.c,
 * check.c, debug.c, exec.c, profile.c), each defining its descriptor (name, summary, usage,
 * entry point).  Only the dispatcher (ptxemu.c) runs them: a command never
 * calls another (a command names only its own descriptor, for its usage).
 * Ownership: the descriptors are constant; argv is borrowed (a command may
 * reorder it); each entry point returns the process exit status. */
#ifndef PTXEMU_COMMANDS_H
#define PTXEMU_COMMANDS_H

#include "tools.h"

extern const tool_command tool_cmd_run;     /* run.c */
extern const tool_command tool_cmd_test;    /* test.c */
extern const tool_command tool_cmd_dis;     /* dis.c */
extern const tool_command tool_cmd_check;   /* check.c */
extern const tool_command tool_cmd_debug;   /* debug.c */
extern const tool_command tool_cmd_exec;    /* exec.c */
extern const tool_command tool_cmd_profile; /* profile.c */

#endif
