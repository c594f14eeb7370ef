/* tools.h — what the commands share (tools/common.c): the command
 * descriptor, usage errors, case loading from a case file or inline launch
 * arguments, run options and failure printing.  Commands include this and
 * commands.h (for their own descriptor), never another command.
 *
 * Messages follow one shape: "ptxemu CMD: what went wrong, where; what to
 * do" (compiler-style FILE:LINE:COL diagnostics for case files and PTX).
 * Ownership: callers own what they pass in; nothing here keeps pointers. */
#ifndef PTXEMU_TOOLS_H
#define PTXEMU_TOOLS_H

#include <stdio.h>
#include "casefile.h"
#include "runcase.h"

/* A macro's value as a string literal (defaults in usage texts). */
#define TOOL_STR(x) TOOL_STR_(x)
#define TOOL_STR_(x) #x

/* The most host threads --jobs accepts. */
#define TOOL_MAX_JOBS 1024

/* One `ptxemu` command. */
typedef struct tool_command {
    const char *name;
    const char *summary;         /* one line, for `ptxemu help` */
    const char *usage;           /* the whole usage text (synopsis, options, exit status),
                                    for `ptxemu help NAME` and `ptxemu NAME --help` */
    int (*main)(int argc, char **argv);   /* argv: the arguments after NAME */
    int operands_end_options;    /* the arguments after the first operand belong to it (a
                                    program to run): --help there is not this command's */
} tool_command;

/* Prints c's usage. */
void tool_print_usage(const tool_command *c, FILE *f);
/* Prints "ptxemu NAME: MESSAGE" and then c's usage to stderr; returns
 * PTXEMU_EXIT_USAGE. */
int tool_usage_error(const tool_command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether arg is one of the options c's usage text lists. */
int tool_is_option(const tool_command *c, const char *arg);

/* Loads a case from CASE.txt or FILE.ptx + inline launch arguments
 * (argv[0] is the file); *used = arguments consumed.  0 or an exit code
 * (the message printed). */
int tool_load_case(const tool_command *cmd, int argc, char **argv, int *used, rt_case *c);
void tool_print_diags(const diag_list *d, const char *text, size_t len);
void tool_print_failure(const tool_command *cmd, const rt_run_result *r);

/* Applies option a with value v common to run-like commands (--timeout,
 * --limit, --seed, --stack, --load (into libs, at most 16), --resident,
 * --jobs): 0; -1 when a is not one of them; -2 when v is not a valid value
 * for a (the caller says so). */
int tool_parse_run_opt(const char *a, const char *v, rt_run_opts *o, const char **libs, int *nlibs);
/* --jobs default: the number of online CPUs (at least 1). */
int tool_default_jobs(void);

#endif
