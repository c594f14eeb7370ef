/* profile.h — per-line costs of one kernel launch, counted the way Nsight
 * Compute's source view counts them: per instruction through the VM's
 * hooks, then summed per PTX line and per CUDA source line (inlined code on
 * the line where it was written, as Nsight Compute shows it).
 *
 * Ownership: a prof_profile owns its per-instruction counters and borrows
 * the bc_module (which must outlive it); a prof_report owns everything in
 * it (prof_report_free), strings included, so it outlives the module.
 * Nothing here prints or exits: writers take the FILE the caller opened.
 */
#ifndef PTXEMU_PROFILE_H
#define PTXEMU_PROFILE_H

#include <stdio.h>
#include <stdint.h>
#include "ptxemu.h"
#include "memstats.h"

/* The counters, in report order, named as in the JSON and CSV output
 * (docs/PROFILING.md says what each one means and what it is compared to). */
#define PROF_COUNTERS(X) \
    X(warp_instructions)      /* warp-level instructions issued (a lane group at a PTX instruction) */ \
    X(thread_instructions)    /* lanes of those groups (guard true or false): / warp_instructions = active lanes */ \
    X(divergent_branches)     /* branches whose lanes did not all go the same way */ \
    X(shared_wavefronts)      /* shared-memory wavefronts ("L1 Wavefronts Shared") */ \
    X(shared_wavefronts_ideal) /* one per 128-byte phase ("L1 Wavefronts Shared Ideal") */ \
    X(shared_bank_conflicts)  /* wavefronts beyond the ideal ("L1 Wavefronts Shared Excessive") */ \
    X(global_instructions)    /* warp-level global loads and stores that accessed memory */ \
    X(global_requests)        /* 128-byte lines they touched ("L1 Tag Requests Global") */ \
    X(global_sectors)         /* 32-byte sectors they touched ("L2 Theoretical Sectors Global") */ \
    X(global_sectors_ideal)   /* ceil(bytes asked / 32) ("L2 Theoretical Sectors Global Ideal") */ \
    X(barrier_waits)          /* warp arrivals at a CTA barrier that had to wait for other warps */ \
    X(collective_waits)       /* arrivals at a .sync warp collective that had to wait for other lanes */

typedef struct prof_counters {
#define X(n) uint64_t n;
    PROF_COUNTERS(X)
#undef X
} prof_counters;

enum {
#define X(n) PROF_C_##n,
    PROF_COUNTERS(X)
#undef X
    PROF_NCOUNTERS
};

/* Name and value of counter i (0 <= i < PROF_NCOUNTERS). */
const char *prof_counter_name(int i);
uint64_t prof_counter(const prof_counters *c, int i);
/* The counter named `name`, or -1. */
int prof_counter_index(const char *name);
/* Average active lanes per warp instruction (thread / warp instructions), 0 if none. */
double prof_active_lanes(const prof_counters *c);

/* ---- collecting ---------------------------------------------------------------------- */

typedef struct prof_profile prof_profile;

/* A profile of one launch of kernel `kernel` (a function index) of m;
 * NULL when out of memory. */
prof_profile *prof_new(const bc_module *m, int kernel);
void prof_free(prof_profile *p);
/* Hooks that count into p (ctx = p): access, step (never pausing), sync and
 * pick; the launch's vm_config.hooks. */
void prof_hooks(prof_profile *p, vm_hooks *h);
/* Closes what is still being gathered; call once after the launch. */
void prof_finish(prof_profile *p);
/* The counters of bytecode instruction pc. */
const prof_counters *prof_pc(const prof_profile *p, uint32_t pc);

/* Launches `kernel` of m on d like ptxemu_launch, with the profile's hooks
 * in place of cfg->hooks (which must be NULL: the profiler does not chain).
 * *out receives the finished profile (also after a fault: what ran until
 * then), or NULL when the kernel is unknown or memory ran out. */
vm_status prof_launch(ptxemu_device *d, const ptxemu_module *m, const char *kernel, const vm_config *cfg,
                      vm_fault *fault, uint64_t *insns, prof_profile **out);

/* ---- reports ------------------------------------------------------------------------- */

/* A PTX line and the counters of its instructions. */
typedef struct prof_ptx_line {
    int line;                    /* line in the .ptx file */
    char *text;                  /* the instruction as written (trimmed), or NULL */
    int cuda;                    /* index of its CUDA line in prof_report.lines, -1: none */
    prof_counters c;
} prof_ptx_line;

/* A CUDA source line: the innermost .loc of its instructions. */
typedef struct prof_line {
    char *file;                  /* the .file path as the PTX names it */
    int line;
    char *source;                /* the line's text when the file was found, else NULL */
    prof_counters c;
    int *ptx;                    /* indices into prof_report.ptx_lines, in PTX order */
    int nptx;
} prof_line;

/* The source of one .file, split into lines (for the HTML view). */
typedef struct prof_file {
    char *path;                  /* as the PTX names it */
    char *found;                 /* where it was read from, or NULL when not found */
    char **lines;                /* lines[0] is line 1 */
    int nlines;
} prof_file;

typedef struct prof_report {
    char *kernel;
    char *ptx_path;
    prof_counters totals;
    prof_line *lines;            /* by file (in .file order), then line */
    int nlines;
    prof_ptx_line *ptx_lines;    /* by PTX line */
    int nptx_lines;
    prof_file *files;            /* the files of `lines` */
    int nfiles;
} prof_report;

/* Where to look for a .file path: as written (relative to the current
 * directory), relative to the .ptx file's folder and up to 4 of its
 * ancestors, then under each of dirs[0..ndirs) (by the path, then by its
 * last component). */
typedef struct prof_source_opts {
    const char *const *dirs;
    int ndirs;
    int no_sources;              /* do not read source files at all */
} prof_source_opts;

/* Sums p per PTX line and per CUDA line into r.  ptx_text (the module's
 * text, may be NULL) gives the PTX lines' text; src says where the CUDA
 * files are.  Returns 0, or -1 when out of memory. */
int prof_report_build(const prof_profile *p, const ptxemu_module *m, const prof_source_opts *src, prof_report *r);
void prof_report_free(prof_report *r);

/* ---- output (runtime/profile_out.c) -------------------------------------------------- */

/* JSON: {"kernel", "ptx", "totals", "lines": [{"file", "line", "source"?, COUNTERS..., "ptx_lines": [N...]}],
 * "ptx_lines": [{"line", "text"?, COUNTERS...}]}; every counter an integer,
 * plus "active_lanes" (average, two decimals). */
void prof_write_json(const prof_report *r, FILE *f);
/* CSV: a header, then one row per CUDA line (kind "cuda") and per PTX line (kind "ptx"). */
void prof_write_csv(const prof_report *r, FILE *f);
/* Text: totals, then the `top` costliest CUDA lines (0: all) with their source,
 * ordered by counter `sort` (-1: by cost = warp_instructions + shared_wavefronts + global_sectors). */
void prof_write_text(const prof_report *r, FILE *f, int top, int sort);
/* HTML: one self-contained page (no network): the CUDA sources annotated
 * line by line, heat colours per counter, a column chooser, each line's PTX
 * folded underneath. */
void prof_write_html(const prof_report *r, FILE *f);

/* ---- comparing two JSON profiles (runtime/profile_json.c) ----------------------------- */

/* Reads a JSON profile written by prof_write_json into r (lines and totals;
 * PTX lines too).  Returns 0, or -1 with msg (what is wrong, where). */
int prof_read_json(const char *path, prof_report *r, char *msg, size_t len);
/* What changed per CUDA line from a to b, for code review: lines are paired
 * by file and source text (so an edit that moves lines still pairs them),
 * by line number where the text is unknown.  Returns the number of lines
 * that changed. */
int prof_write_diff(const prof_report *a, const prof_report *b, const char *name_a, const char *name_b, FILE *f);

#endif
