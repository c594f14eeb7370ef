/* memstats.h — memory-access statistics of a launch, counted the way Nsight
 * Compute counts them on sm_90: shared-memory wavefronts and bank conflicts,
 * global-memory requests and 32-byte sectors, per warp-level instruction.
 *
 * Ownership: an rt_memstats is a plain value filled through the VM's access
 * hook (rt_memstats_hooks); it owns nothing.
 */
#ifndef PTXEMU_MEMSTATS_H
#define PTXEMU_MEMSTATS_H

#include <stdint.h>
#include "vm.h"

/* The counters, named as in the case-file format's expect-stat lines. */
#define RT_MEMSTATS(X) \
    X(shared_load_wavefronts) X(shared_store_wavefronts) \
    X(shared_load_bank_conflicts) X(shared_store_bank_conflicts) \
    X(global_load_requests) X(global_store_requests) \
    X(global_load_sectors) X(global_store_sectors)

/* One warp-level request as it closes: what the profiler attributes to its pc. */
typedef struct rt_memstats_request {
    uint32_t pc;
    int space, write;            /* BC_SP_SHARED or BC_SP_GLOBAL; a store */
    int lanes;                   /* lanes that took part */
    uint64_t bytes;              /* bytes the lanes asked for, all together */
    uint64_t wavefronts, wavefronts_ideal;   /* shared: one ideal wavefront per phase */
    uint64_t sectors, sectors_ideal;         /* global: 32-byte sectors; ideal = ceil(bytes / 32) */
    uint64_t lines;              /* global: distinct 128-byte lines (L1 tag requests) */
} rt_memstats_request;

typedef struct rt_memstats {
#define X(n) uint64_t n;
    RT_MEMSTATS(X)
#undef X
    /* the warp-level request being gathered (lanes of one issue) */
    const void *cur_warp;
    uint32_t cur_pc;
    int cur_lane, cur_space, cur_write, cur_n;
    uint64_t addr[BC_WARP];
    int size[BC_WARP];
    /* optional: called with every request as it closes (the profiler) */
    void (*on_request)(void *ctx, const rt_memstats_request *r);
    void *request_ctx;
} rt_memstats;

void rt_memstats_init(rt_memstats *s);
/* Hooks that count into s (ctx = s). */
void rt_memstats_hooks(rt_memstats *s, vm_hooks *h);
/* Closes the request being gathered; call once after the launch. */
void rt_memstats_finish(rt_memstats *s);
/* The counter named `name`; -1 if there is none. */
int rt_memstats_get(const rt_memstats *s, const char *name, uint64_t *value);

#endif
