/* check.h — the warp-synchronous bug checker behind `ptxemu check`.
 *
 * chk_run runs one launch (an rt_case) under several schedules — the
 * hardware-like one and seeded adversarial ones — with VM hooks that look
 * for data races (vector clocks per thread, shadow memory for shared and
 * global words), reads of memory nothing wrote, misused membermasks and
 * barriers, deadlocks, faults and results that depend on the schedule.
 * The design and the finding kinds are described in docs/CHECKING.md.
 *
 * Seeds: schedule k of a run with base seed S uses chk_schedule_seed(S, k)
 * (S itself for k = 0).  Seed 0 is the hardware-like schedule (no pick
 * hook, CTAs in linear order); any other seed is an adversarial schedule
 * whose every choice comes from that seed, so `--seed X --schedules 1`
 * replays the schedule that used X.
 *
 * Ownership: a chk_result owns its findings and, from chk_run, the module
 * it loaded to describe locations (chk_result_free); the rt_case, module,
 * memory and options given are borrowed.  Library code: nothing here exits; the writers print only to
 * the FILE they are given.
 */
#ifndef PTXEMU_CHECK_H
#define PTXEMU_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include "runcase.h"

typedef enum chk_kind {
    CHK_RACE, CHK_DEADLOCK, CHK_MASK, CHK_BARRIER, CHK_MEMORY, CHK_UNINIT, CHK_SCHEDULE,
    CHK_NKINDS
} chk_kind;

/* "race", "deadlock", "mask", "barrier", "memory", "uninit", "schedule". */
extern const char *const chk_kind_names[CHK_NKINDS];

/* One side of a finding: an instruction executed by one thread. */
typedef struct chk_site {
    int valid;                   /* 0: this side is absent */
    uint32_t pc;
    int has_thread;              /* cta/tid are meaningful */
    uint32_t cta[3], tid[3];
    const char *access;          /* "read", "write", "atomic", ... or NULL */
} chk_site;

typedef struct chk_finding {
    chk_kind kind;
    char msg[512];               /* one line */
    char *detail;                /* extra lines (deadlock report), malloc'd, or NULL */
    chk_site at, other;
    uint64_t seed;               /* the schedule seed that first showed it */
    int schedule;                /* its schedule number */
    uint64_t count;              /* dynamic occurrences over all schedules */
    char key[96];                /* deduplication key (kind, static site) */
} chk_finding;

/* A range of global memory whose final contents are compared across
 * schedules (the `schedule` finding). */
typedef struct chk_region { uint64_t addr, size; } chk_region;

/* Progress of a long check: called after each schedule ends (from the
 * thread that ran it, one call at a time) with the schedules done, the
 * total, and the distinct findings so far. */
typedef void (*chk_progress_fn)(void *ctx, int done, int total, int findings);

typedef struct chk_opts {
    int schedules;               /* 0: CHK_DEFAULT_SCHEDULES */
    uint64_t seed;               /* base seed (0: start with the hardware-like schedule) */
    int max_findings;            /* distinct findings kept; 0: CHK_DEFAULT_MAX_FINDINGS */
    double timeout;              /* seconds per schedule; 0: default */
    uint64_t insn_limit;         /* instructions per schedule (a fuzzer's bound); 0: the default
                                    (none for schedule 0, 2e8 for adversarial ones) */
    const char *const *libs;     /* --load libraries for .extern functions */
    int nlibs;
    int resident;                /* vm_config.resident: CTAs in flight (0: default) */
    int jobs;                    /* schedules run at once on host threads (0: one per CPU) */
    int all_schedules;           /* run every schedule, also those schedule 0 shows cannot differ */
    const chk_region *regions;   /* compared across schedules; NULL: every live allocation */
    int nregions;
    chk_progress_fn progress;    /* or NULL */
    void *progress_ctx;
} chk_opts;

#define CHK_DEFAULT_SCHEDULES 12
#define CHK_DEFAULT_MAX_FINDINGS 100

typedef struct chk_result {
    chk_finding *findings;
    int nfindings, cap;
    uint64_t dropped;            /* distinct findings beyond max_findings */
    int schedules;               /* schedules run */
    int schedule_free;           /* the kernel's code is schedule-free (1), not (0), or not asked (-1:
                                    --all-schedules, --seed, one schedule) */
    int skipped;                 /* schedules not run: schedule 0 showed a launch of schedule-free code
                                    race-free, so they could not differ (docs/CHECKING.md) */
    int limited;                 /* schedules cut by the time or instruction limit */
    uint64_t blocks;             /* blocks in the launch */
    uint64_t sampled0;           /* blocks schedule 0 instrumented (the others ran unchecked) */
    uint64_t sampled_adv;        /* blocks each adversarial schedule instrumented (at most) */
    int independent;             /* 1: schedule 0 found the blocks independent, so adversarial schedules
                                    ran only their sampled blocks; -1: dependent (dep_why); 0: not asked */
    char dep_why[200];
    vm_status status;            /* how schedule 0 ended */
    char end_msg[1024];          /* schedule 0's failure message, if it did not end ok */
    chk_site end_at;             /* where schedule 0 stopped, when it did not end ok (valid set) */
    vm_fault end_fault;          /* schedule 0's own fault record (status, pc, thread, msg; report
                                    dropped), for callers that map it (exec's CUDA errors) */
    uint64_t base_seed;
    const struct ptxemu_module *mod;  /* the module, to describe pcs */
    struct ptxemu_module *own_mod;    /* == mod when chk_run loaded it (freed with the result) */
    const char *case_path;       /* borrowed from the case */
} chk_result;

/* The checker's schedules, for other tools (the debugger) to replay them:
 * chk_sched_init configures seed's schedule (returns 0 for seed 0, the
 * hardware-like one, which needs no pick hook) and sets the slice and CTA
 * order a launch must use; chk_sched_pick is then the vm_hooks.pick choice. */
typedef struct chk_sched {
    int adversarial;
    uint64_t rng;
    int split_pct, single_pct, low_pct, high_pct, skip_pct;
} chk_sched;

int chk_sched_init(chk_sched *S, uint64_t seed, int *slice, uint64_t *cta_order_seed);
uint32_t chk_sched_pick(chk_sched *S, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc);

/* The seed of schedule k for base seed `base`: base for k = 0, otherwise a
 * nonzero mix of both (splitmix64 of base + k * 0x9E3779B97F4A7C15). */
uint64_t chk_schedule_seed(uint64_t base, int k);

/* Runs the checker on the launch a case file describes (a thin layer over
 * chk_run_launch: the case's buffers are the compared regions).  Returns
 * PTXEMU_EXIT_OK (no finding), PTXEMU_EXIT_MISMATCH (findings),
 * PTXEMU_EXIT_PTX (diags filled), PTXEMU_EXIT_USAGE (r->end_msg says why),
 * or the exit status of an abnormal end of schedule 0 that no finding
 * explains (a trap, an assert, a wild-pointer fault, a limit). */
int chk_run(const rt_case *c, const chk_opts *o, chk_result *r, diag_list *diags);

/* Runs the checker on one launch of function `kernel` of m (for programs
 * whose launches no case file describes, e.g. `ptxemu exec --check`).
 * `mem` holds the device memory as it is before the launch, with m placed
 * in it (var_addr from vm_place_module); cfg is the launch as for vm_run
 * (its hooks, slice, cta_order_seed, timeout and insn_limit are the
 * checker's to choose and are ignored; its output receives schedule 0's
 * device printf).  Every schedule runs on its own copy of mem; afterwards
 * mem holds what the hardware-like schedule 0 left, as after a plain
 * launch, and r the findings (r->status: how schedule 0 ended; r->mod is
 * m, borrowed).  o->regions (or every live allocation) are compared across
 * schedules.  Returns as chk_run (never PTXEMU_EXIT_PTX). */
int chk_run_launch(const struct ptxemu_module *m, int kernel, const vm_config *cfg, mem_space *mem,
                   const uint64_t *var_addr, const chk_opts *o, chk_result *r);
void chk_result_free(chk_result *r);

/* Reports.  `replay` is the command line prefix that reruns the launch
 * (e.g. "ptxemu check case.txt"); the text report appends the seed options. */
void chk_write_text(const chk_result *r, FILE *f, const char *replay);
void chk_write_json(const chk_result *r, FILE *f);
void chk_write_sarif(const chk_result *r, FILE *f);

#endif
