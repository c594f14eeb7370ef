/* tools.h — what the commands share (tools/common.c): case loading from a
 * case file or inline launch arguments, run options, usage and failure
 * printing.  Commands include this and commands.h (for their own entry
 * point), never another command.
 * Ownership: callers own what they pass in; nothing here keeps pointers. */
#ifndef PTXEMU_TOOLS_H
#define PTXEMU_TOOLS_H

#include <stdio.h>
#include "casefile.h"
#include "runcase.h"

/* The tool's usage: every command and its options. */
void tool_usage(FILE *f);

/* Loads a case from CASE.txt or FILE.ptx + inline launch arguments
 * (argv[0] is the file); *used = arguments consumed.  0 or an exit code. */
int tool_load_case(int argc, char **argv, int *used, rt_case *c);
void tool_print_diags(const diag_list *d, const char *text, size_t len);
void tool_print_failure(const rt_run_result *r);

/* Applies option a with value v common to run-like commands (--timeout,
 * --limit, --seed, --stack, --load (into libs, at most 16), --resident):
 * 0, or -1 when a is not one of them. */
int tool_parse_run_opt(const char *a, const char *v, rt_run_opts *o, const char **libs, int *nlibs);

#endif
