/* dbg.h — the stepping debugger behind `ptxemu debug`, and its command
 * language: each command is one line of text (gdb / cuda-gdb names) whose
 * whole output goes to the FILE* given at creation (nothing here writes to
 * stdout on its own, nor exits).  The same commands and options give the
 * same output: the schedule is the hardware-like one, or a seeded
 * adversarial one, never the clock.
 *
 * Three files, each calling only the ones below it: dbg.c (this header: the
 * command language, parsing and formatting), dbg_expr.c (dbg_expr.h: the
 * expression language) and dbg_engine.c (dbg_engine.h: the launch,
 * breakpoints, stepping, focus and state queries).
 *
 * Ownership: a dbg_session borrows the rt_case (which must outlive it) and
 * owns everything else (dbg_free).
 */
#ifndef PTXEMU_DBG_H
#define PTXEMU_DBG_H

#include <stdint.h>
#include <stdio.h>
#include "casefile.h"
#include "runcase.h"

typedef struct dbg_session dbg_session;

typedef struct dbg_opts {
    uint64_t seed;              /* launch seed and adversarial schedule seed */
    int adversarial;            /* split lane groups with a seeded RNG */
    const char *const *libs;    /* --load libraries */
    int nlibs;
    int resident;               /* vm_config.resident: CTAs in flight (0: default) */
} dbg_opts;

/* Loads the case's module and prepares (but does not start) its launch.
 * Returns NULL with a message (or PTX diagnostics rendered) in `err`
 * on failure; *exit_code is then the ptxemu exit status. */
dbg_session *dbg_new(const rt_case *c, const dbg_opts *o, FILE *out, FILE *err, int *exit_code);
void dbg_free(dbg_session *s);

/* Runs one command line.  Returns 1 when the command was `quit`, else 0. */
int dbg_exec(dbg_session *s, const char *line);

/* The one-line banner printed when a session starts. */
void dbg_banner(dbg_session *s);

/* Command names (for completion), NULL-terminated. */
extern const char *const dbg_command_names[];

#endif
