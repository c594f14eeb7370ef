/* check_int.h — inside the checker: one schedule of a launch (check.c) and
 * the loop that runs and merges schedules (check_run.c).
 *
 * Ownership: a chk_launch is read-only while schedules run (threads share
 * it); each chk_sched_out belongs to the one schedule that fills it.
 */
#ifndef PTXEMU_CHECK_INT_H
#define PTXEMU_CHECK_INT_H

#include "check.h"

/* __activemask() groupings: a value computed from the lanes an activemask
 * returned (the mask itself, or the result of a collective over such a
 * mask, coll_pc; UINT32_MAX: none) for the lanes `group`. */
typedef struct chk_am_event { uint32_t am_pc, coll_pc, group; } chk_am_event;
/* Such a value stored to global memory by only some lanes of its group
 * (`stored` of `group`, over the whole schedule): a leader publishing for
 * lanes that need not have been there — the warp-primitives article's wrong
 * use of activemask. */
typedef struct chk_am_candidate { int valid; uint32_t am_pc, coll_pc, store_pc, stored, group; } chk_am_candidate;

/* What every schedule of one checked launch shares (read-only). */
typedef struct chk_launch {
    const ptxemu_module *m;
    int kernel;
    vm_config cfg;               /* the caller's launch; hooks, slice, order, limits reset per schedule */
    const uint64_t *var_addr;
    const chk_opts *o;
    const uint8_t *sem;          /* per pc: release/acquire semantics (chk_sem_table) */
    const uint8_t *atoms;        /* per pc: commutative atomics with unused results (chk_atom_table) */
    int max_findings;
    int adv_sampled;             /* adversarial schedules instrument a sample of the blocks */
    int independent;             /* schedule 0 found the blocks independent: adversarial schedules
                                    run only their sampled blocks (and a hardware-like reference) */
    const mem_space *snap;       /* the device memory before the launch */
    int schedule_free;           /* the kernel's code is schedule-free (check_run.c): schedule 0 records
                                    the footprints and unordered plain/atomic pairs, to show the others
                                    cannot differ */
    int sf_atomics;              /* ... and it has atomics (so plain reads unordered with them matter) */
} chk_launch;

/* What one schedule found and how it ended. */
typedef struct chk_sched_out {
    chk_result found;            /* findings only (no cap; merged in schedule order) */
    vm_status status;
    vm_fault fault;              /* owns fault.report */
    uint64_t hash;               /* FNV-1a of the compared regions after the launch */
    int ran_activemask;
    int explained;               /* a finding explains an abnormal end */
    uint64_t seed;
    uint64_t instrumented;       /* blocks run with the checker's hooks (the others: plain, hardware-like) */
    chk_am_candidate am;         /* the first grouping-dependent store by part of a group */
    int foot;                    /* schedule 0 recorded the blocks' footprints: */
    int dependent;               /* ... and found them dependent (dep_why says why) */
    int unordered_atomic;        /* a plain read and an atomic on one word, unordered (not a race, but
                                    what the read sees depends on the schedule) */
    char dep_why[200];
    int partial;                 /* only the sampled blocks ran (independent blocks): */
    int differs;                 /* ... and left memory different from their hardware-like reference */
    uint64_t diff_addr;          /* the first differing byte */
} chk_sched_out;

/* Changed chunks of the compared memory (chk_mem_restore). */
typedef struct chk_chunks { uint64_t *addr; uint8_t *data; size_t n, cap; } chk_chunks;
#define CHK_CHUNK 4096u

/* Puts work back to snap over the compared regions (o->regions, or every
 * allocation), recording the chunks that had changed in `changed` (NULL:
 * not recorded). */
void chk_mem_restore(mem_space *work, const mem_space *snap, const chk_opts *o, chk_chunks *changed);
/* Whether two sets of changed chunks are the same; *first: the first differing address. */
int chk_chunks_equal(const chk_chunks *a, const chk_chunks *b, uint64_t *first);
void chk_chunks_free(chk_chunks *c);

/* Per pc: the op + 1 of atomics that commute and whose result is unused, else CHK_ATOM_ANY. */
#define CHK_ATOM_ANY 15u
uint8_t *chk_atom_table(const bc_module *m);

/* Sampling (docs/CHECKING.md, "Large launches"). */
#define CHK_FULL_THREADS 100000u     /* schedule 0 instruments every block below this many threads */
#define CHK_SAMPLE_THREADS 65536u    /* ... else about this many threads' worth of blocks */
#define CHK_ADV_FULL_THREADS 8192u   /* adversarial schedules instrument every block below this */
#define CHK_ADV_BLOCKS 8u            /* ... else this many blocks each */

uint64_t *chk_sample_blocks(uint64_t nctas, uint32_t tpb, uint64_t seed, uint64_t *n);

/* Runs schedule k of X on mem (which it changes); device printf goes to
 * out (NULL: dropped). */
void chk_schedule_run(const chk_launch *X, int k, mem_space *mem, vm_output_fn out, void *out_ctx, chk_sched_out *so);
/* The same, instrumenting only the blocks (of those the schedule would)
 * whose linear index is in [lo, hi); with skip the others do not run at
 * all (independent blocks), else they run as uninstrumented blocks do. */
typedef struct chk_part { uint64_t lo, hi; int skip; } chk_part;
void chk_schedule_run_part(const chk_launch *X, int k, mem_space *mem, vm_output_fn out, void *out_ctx, chk_sched_out *so,
                           const chk_part *part);
void chk_sched_out_free(chk_sched_out *so);

/* Records a finding (deduplicated by kind and key) in r, which keeps at
 * most max distinct ones; returns the new entry to fill, or NULL when it
 * was counted into an existing one (count += n) or dropped (cap). */
chk_finding *chk_add_finding(chk_result *r, int max, chk_kind kind, const char *key, uint64_t seed, int schedule,
                             uint64_t n);

/* ---- definedness (check_def.c) ---- */

/* Where an undefined value came from. */
typedef struct chk_origin {
    int valid;
    uint32_t pc, tid;            /* the load (or shuffle) and its thread */
    uint64_t cta;
    int space;                   /* BC_SP_SHARED / BC_SP_LOCAL; -1: a shuffle (addr = the source lane) */
    uint64_t addr;
    int shfl;
} chk_origin;

/* Called for each use of an undefined value: lane of w at pc uses it as
 * `what` ("an address", ...). */
typedef void (*chk_def_report)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                               const char *what, const chk_origin *o);
typedef struct chk_def chk_def;

/* The part of the definedness state that the access hook tests inline
 * (chk_def_quiet_read), so that the usual load needs no call: check_def.c
 * owns it and keeps it current. */
typedef struct chk_def_quick {
    uint64_t shared_size;
    int nwarps;
    uint8_t **sh_def;            /* [CTA slot]: bit per shared byte, 1 defined */
    int *taint;                  /* [CTA slot * nwarps + warp]: a register of the warp may hold an undefined byte */
} chk_def_quick;
const chk_def_quick *chk_def_quick_of(const chk_def *D);

/* Whether chk_def_access would do nothing for a read (not a write) of
 * `size` bytes at shared offset addr by a lane of warp `warp` of CTA slot
 * `slot`: its fast path, a warp with no undefined register reading defined
 * bytes within one byte of the map. */
static inline int chk_def_quiet_read(const chk_def_quick *q, int slot, int warp, uint64_t addr, int size)
{
    if (!q->taint || q->taint[slot * q->nwarps + warp] || size <= 0 || size > 8 || (addr & 7) + (uint64_t)size > 8 ||
        addr + (uint64_t)size > q->shared_size)
        return 0;
    unsigned m = ((1u << size) - 1) << (addr & 7);
    return (q->sh_def[slot][addr >> 3] & m) == m;
}

const chk_am_candidate *chk_def_am_candidate(chk_def *D);

chk_def *chk_def_new(const bc_module *m, chk_def_report report, void *ctx);
void chk_def_free(chk_def *D);
void chk_def_cta_begin(chk_def *D, vm_launch *L, vm_cta *cta);
/* Before lanes of w execute pc (the step hook). */
void chk_def_step(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc);
/* A memory access (the access hook). */
void chk_def_access(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space, uint64_t addr,
                    int size, int flags);
/* A warp collective completed for lanes P (the sync hook). */
void chk_def_coll(chk_def *D, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t P);

/* Per pc: SEM_* bits of .release/.acquire accesses read from the PTX text,
 * or NULL (malloc'd). */
uint8_t *chk_sem_table(const ptxemu_module *m);

/* The first instruction of the kernel with a source line (for findings
 * about the whole launch). */
void chk_launch_site(const ptxemu_module *m, int kernel, chk_site *s);

#endif
