/* sched.c — the launch: CTAs in linear order, and inside a CTA the
 * scheduler that picks which lane group of which warp issues next.
 *
 * Policy (hardware-like): warps take turns; inside a warp the ready lane
 * group with the lowest pc issues (so branches reconverge as on the GPU),
 * except that a lane group left waiting for more than VM_AGE_LIMIT ticks of
 * its warp goes first (vm.h: 4 turns that used their whole slice, or 4096
 * short ones) — that keeps an intra-warp spin lock from starving its
 * holder.  A hook may replace the choice (the checker's adversarial
 * schedules, the debugger).
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#define VM_MXCSR_DEFAULT 0x1f80u       /* every exception masked, round to nearest, no FTZ/DAZ */
#endif
#include "vm.h"
#include "par.h"
#include "pool.h"

const char *vm_status_name(vm_status s)
{
    static const char *const n[] = { "ok", "fault", "trap", "assert", "deadlock", "limit", "error", "paused" };
    return (unsigned)s < sizeof n / sizeof *n ? n[s] : "?";
}

double vm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- module placement -------------------------------------------------------- */

int vm_place_module(const bc_module *m, mem_space *mem, uint64_t **var_addr, char *msg, size_t len)
{
    uint64_t *va = calloc((size_t)(m->nvars ? m->nvars : 1), sizeof *va);
    if (!va) { snprintf(msg, len, "out of memory"); return -1; }
    uint64_t gbase = 0;
    if (m->global_size) {
        gbase = mem_alloc_bytes(mem, m->global_size, "module .global data");
        if (!gbase) { free(va); snprintf(msg, len, "cannot allocate %llu bytes of .global data", (unsigned long long)m->global_size); return -1; }
        mem_write(mem, gbase, m->global_image, m->global_size);
    }
    uint64_t dyn_base = (m->shared_static + 15) & ~15ull;
    for (int i = 0; i < m->nvars; i++) {
        const bc_var *v = &m->vars[i];
        if (v->space == BC_SP_GLOBAL) va[i] = gbase + v->offset;
        else if (v->is_extern_shared) va[i] = dyn_base;
        else va[i] = v->offset;
    }
    /* pointers inside .global/.const data */
    for (int i = 0; i < m->nrelocs; i++) {
        const bc_reloc *r = &m->relocs[i];
        const bc_var *t = &m->vars[r->var];
        uint64_t a = va[r->var] + (uint64_t)r->addend;
        if (r->generic && t->space == BC_SP_SHARED) a += MEM_SHARED_WINDOW;
        if (r->generic && t->space == BC_SP_CONST) a += MEM_CONST_WINDOW;
        if (r->space == BC_SP_GLOBAL) mem_write(mem, gbase + r->at, &a, 8);
    }
    *var_addr = va;
    return 0;
}

/* ---- CTA state ------------------------------------------------------------------ */

/* The slot memory pool: register files, local and shared memory of freed
 * CTA slots, kept for the next launch.  Without it every launch allocated
 * them anew (16 KiB of stack per thread: 4 MB for a block of 256), and the
 * kernel faulted in and zeroed each page again: a launch of 4 small blocks
 * took 250 us on one thread, 1.1 ms with --jobs 2.  A pooled local buffer
 * is all zero (vm_cta_free clears what was written); a register file or
 * shared memory keeps stale values, which nothing reads: cta_reset zeroes
 * shared memory and the registers a thread may read before writing them
 * (zero_ranges), and vm_cta_alloc sets the constant slots. */
enum { POOL_REGS, POOL_LOCAL, POOL_SHARED };
enum { SLOT_MMAP_MIN = 64 << 10 };     /* larger buffers are mappings of their own */

/* A zeroed buffer of n bytes: a mapping of its own when large (its pages are mapped as
 * they are first touched, by the thread that runs the block). */
static void *new_buffer(size_t n)
{
    if (n < SLOT_MMAP_MIN) return calloc(1, n ? n : 1);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
static void release_buffer(void *p, size_t n)
{
    if (n < SLOT_MMAP_MIN) free(p);
    else munmap(p, n);
}
static vm_pool slot_pool = VM_POOL_INIT((size_t)512 << 20, release_buffer);

/* A buffer of n bytes of the kind: a pooled one, else a zeroed new one. */
static void *pool_take(size_t n, int kind)
{
    void *p = vm_pool_take(&slot_pool, n, kind);
    return p ? p : new_buffer(n);
}

/* Keeps buffer p (as pool_take would return it) for a later launch, or frees it. */
static void pool_give(void *p, size_t n, int kind) { vm_pool_give(&slot_pool, p, n, kind); }

/* Every warp's register file is one buffer, and every warp's local memory another:
 * two mappings per slot, not two per warp (each mapping is a system call that takes
 * the memory-map lock, and a parallel launch's workers allocate their slots at once). */
static size_t local_bytes(const vm_cta *c) { return (size_t)c->local_stride * BC_WARP; }

void vm_cta_free(vm_cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) {
        vm_warp *w = &c->warps[i];
        if (w->local && w->local_hw)
            for (int l = 0; l < BC_WARP; l++) memset(w->local + (size_t)l * c->local_stride, 0, w->local_hw);
        for (int l = 0; l < BC_WARP; l++) free(w->stack[l].v);
    }
    if (c->warps) {
        pool_give(c->warps[0].R, c->regs_bytes * (size_t)c->nwarps, POOL_REGS);
        pool_give(c->warps[0].local, local_bytes(c) * (size_t)c->nwarps, POOL_LOCAL);
    }
    free(c->warps);
    pool_give(c->shared, c->shared_bytes, POOL_SHARED);
    memset(c, 0, sizeof *c);
}

int vm_cta_alloc_buffers(const vm_launch *L, vm_cta *c)
{
    memset(c, 0, sizeof *c);
    c->nwarps = L->nwarps;
    c->nthreads = L->nthreads;
    c->local_size = L->cfg.local_size;
    c->local_stride = L->local_stride;
    c->shared_bytes = L->shared_size + VM_RESERVED_SMEM;
    c->regs_bytes = (size_t)L->m->nslots * BC_WARP * sizeof(uint64_t);
    c->warps = calloc((size_t)c->nwarps, sizeof *c->warps);
    c->shared = pool_take(c->shared_bytes, POOL_SHARED);
    if (!c->warps || !c->shared) return -1;
    uint64_t *regs = pool_take(c->regs_bytes * (size_t)c->nwarps, POOL_REGS);
    uint8_t *local = pool_take(local_bytes(c) * (size_t)c->nwarps, POOL_LOCAL);
    if (!regs || !local) {         /* (warp 0 holds neither: vm_cta_free gives back nothing more) */
        pool_give(regs, c->regs_bytes * (size_t)c->nwarps, POOL_REGS);
        pool_give(local, local_bytes(c) * (size_t)c->nwarps, POOL_LOCAL);
        return -1;
    }
    for (int i = 0; i < c->nwarps; i++) {
        c->warps[i].R = regs + (size_t)i * L->m->nslots * BC_WARP;
        c->warps[i].local = local + (size_t)i * local_bytes(c);
    }
    return 0;
}

void vm_cta_set_consts(const vm_launch *L, vm_cta *c)
{
    for (int i = 0; i < c->nwarps; i++)
        for (uint32_t s = 0; s < L->m->nconsts; s++)
            for (int l = 0; l < BC_WARP; l++) c->warps[i].R[s * BC_WARP + l] = L->consts[s];
}

int vm_cta_alloc(vm_launch *L, vm_cta *c)
{
    if (vm_cta_alloc_buffers(L, c)) return -1;
    vm_cta_set_consts(L, c);
    return 0;
}

/* Resets the CTA's lanes for block `linear`, keeping its buffers. */
static void cta_reset(vm_launch *L, vm_cta *c, uint64_t linear)
{
    const bc_func *k = &L->m->funcs[L->kfunc];
    c->linear = linear;
    c->ctaid[0] = (uint32_t)(linear % L->cfg.grid[0]);
    c->ctaid[1] = (uint32_t)(linear / L->cfg.grid[0] % L->cfg.grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)L->cfg.grid[0] * L->cfg.grid[1]));
    c->live_warps = 0;
    memset(c->bar, 0, sizeof c->bar);
    memset(c->shared, 0, L->shared_size + VM_RESERVED_SMEM);
    for (int i = 0; i < c->nwarps; i++) {
        vm_warp *w = &c->warps[i];
        w->id = i;
        uint32_t n = L->nthreads - (uint32_t)i * BC_WARP;
        w->present = n >= BC_WARP ? 0xffffffffu : (1u << n) - 1;
        w->live = w->present;
        w->excused = 0;
        w->called = 0;
        w->tick = 0;
        w->fin_ok = 0;
        memset(w->bar_arrived, 0, sizeof w->bar_arrived);
        memset(w->bar_pred, 0, sizeof w->bar_pred);
        /* a block starts from zeroed registers and local memory, whatever ran in
         * the slot before (so results never depend on which slot a block gets) */
        for (int r = 0; r < L->nzero; r++)
            memset(w->R + (size_t)L->zero[r].first * BC_WARP, 0, (size_t)L->zero[r].count * BC_WARP * sizeof *w->R);
        if (w->local_hw) {
            for (int l = 0; l < BC_WARP; l++) memset(w->local + (size_t)l * L->local_stride, 0, w->local_hw);
            w->local_hw = 0;
        }
        vm_fill_pcs(w->pc, k->pc_begin);
        if (w->present == 0xffffffffu) memset(w->state, LANE_READY, sizeof w->state);
        else for (int l = 0; l < BC_WARP; l++) w->state[l] = (w->present >> l) & 1 ? LANE_READY : LANE_EXITED;
        memset(w->lastrun, 0, sizeof w->lastrun);
        for (int l = 0; l < BC_WARP; l++) w->stack[l].n = w->stack[l].depth = 0;
        if (w->live) c->live_warps |= 1u << i;
    }
}

/* ---- scheduling ---------------------------------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* pick_group's pass over a divergent warp, 8 lanes per AVX2 operation: the
 * lowest pc of the ready lanes (*best) and its lanes (returned), the next
 * pc above it (*next), and the ready lanes whose last issue tick is below
 * `old` (*aged: a lane waited too long). */
__attribute__((target("avx2"))) static uint32_t pick_scan_avx2(const vm_warp *w, uint32_t ready, uint64_t old,
                                                               uint32_t *best, uint32_t *next, uint32_t *aged)
{
    const __m256i ones = _mm256_set1_epi32(-1), bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i p[4], mn = ones;
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
        __m256i r = _mm256_set1_epi32((int)(ready >> (8 * k)));
        __m256i rdy = _mm256_cmpeq_epi32(_mm256_and_si256(r, bit), bit);
        p[k] = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(w->pc + 8 * k)), _mm256_andnot_si256(rdy, ones));
        mn = _mm256_min_epu32(mn, p[k]);
    }
    __m256i t = _mm256_min_epu32(mn, _mm256_permute2x128_si256(mn, mn, 1));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0x4e));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0xb1));
    uint32_t b = (uint32_t)_mm256_cvtsi256_si32(t), g = 0;
    __m256i bv = _mm256_set1_epi32((int)b), mn2 = ones;
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
        __m256i eq = _mm256_cmpeq_epi32(p[k], bv);
        g |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(eq)) << (8 * k);
        mn2 = _mm256_min_epu32(mn2, _mm256_or_si256(p[k], eq));
    }
    t = _mm256_min_epu32(mn2, _mm256_permute2x128_si256(mn2, mn2, 1));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0x4e));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0xb1));
    *next = (uint32_t)_mm256_cvtsi256_si32(t);
    *best = b;
    /* ticks stay far below 2^63: a signed compare orders them */
    uint32_t a = 0;
    __m256i ov = _mm256_set1_epi64x((long long)old);
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) {
        __m256i lr = _mm256_loadu_si256((const __m256i *)(w->lastrun + 4 * k));
        a |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(ov, lr))) << (4 * k);
    }
    *aged = a & ready;
    return g;
}

/* The ready lanes at pc p, and in *next the lowest pc of a ready lane above
 * p (UINT32_MAX: none), 8 lanes per operation (no branch per lane). */
__attribute__((target("avx2"))) static uint32_t lanes_at_avx2(const vm_warp *w, uint32_t ready, uint32_t p,
                                                              uint32_t *next)
{
    const __m256i pv = _mm256_set1_epi32((int)p), ones = _mm256_set1_epi32(-1);
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128), flip = _mm256_set1_epi32(INT32_MIN);
    __m256i mn = ones;
    uint32_t g = 0;
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
        __m256i pc = _mm256_loadu_si256((const __m256i *)(w->pc + 8 * k));
        __m256i r = _mm256_set1_epi32((int)(ready >> (8 * k)));
        __m256i rdy = _mm256_cmpeq_epi32(_mm256_and_si256(r, bit), bit);
        __m256i eq = _mm256_cmpeq_epi32(pc, pv);
        g |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(eq)) << (8 * k);
        /* pc > p, unsigned: a signed compare of both with the top bit flipped */
        __m256i above = _mm256_cmpgt_epi32(_mm256_xor_si256(pc, flip), _mm256_xor_si256(pv, flip));
        mn = _mm256_min_epu32(mn, _mm256_or_si256(pc, _mm256_andnot_si256(_mm256_and_si256(rdy, above), ones)));
    }
    __m256i t = _mm256_min_epu32(mn, _mm256_permute2x128_si256(mn, mn, 1));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0x4e));
    t = _mm256_min_epu32(t, _mm256_shuffle_epi32(t, 0xb1));
    *next = (uint32_t)_mm256_cvtsi256_si32(t);
    return g & ready;
}

/* mark_run's store of tick t for the lanes of g, 4 lanes per blend of the
 * old row and t (no branch per lane: the loop's exit was mispredicted for
 * every group size; no masked store: those are microcoded on AMD's Zen 1). */
__attribute__((target("avx2"))) static void mark_lanes_avx2(uint64_t *lastrun, uint32_t g, uint64_t t)
{
    const __m256i bits = _mm256_setr_epi64x(1, 2, 4, 8), tv = _mm256_set1_epi64x((long long)t);
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) {
        __m256i b = _mm256_and_si256(_mm256_set1_epi64x((long long)(g >> (4 * k))), bits);
        __m256i *p = (__m256i *)(lastrun + 4 * k), old = _mm256_loadu_si256(p);
        _mm256_storeu_si256(p, _mm256_blendv_epi8(old, tv, _mm256_cmpeq_epi64(b, bits)));
    }
}

/* mark_run's store of tick t for every lane: 8 plain stores (masked stores are
 * slow on some CPUs). */
__attribute__((target("avx2"))) static void mark_all_avx2(uint64_t *lastrun, uint64_t t)
{
    const __m256i tv = _mm256_set1_epi64x((long long)t);
    _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(lastrun + 4 * k), tv);
}

/* 1 when the scheduler's AVX2 passes may run: the CPU has AVX2 and
 * PTXEMU_NO_AVX2 is not set (the tests' base-loop runs then take the scalar
 * passes, which must decide the same, as a CPU without AVX2 would). */
static int cpu_avx2(void)
{
    static int v = -1;                 /* threads may race to set it, to the same value */
    int r = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (r < 0) {
        __builtin_cpu_init();
        const char *off = getenv("PTXEMU_NO_AVX2");
        r = __builtin_cpu_supports("avx2") && !(off && *off) ? 1 : 0;
        __atomic_store_n(&v, r, __ATOMIC_RELAXED);
    }
    return r;
}
#endif

/* The default choice: lowest pc, unless a lane has waited too long.  Also
 * sets *stop to the lowest pc of the other ready lanes above the group's
 * (where the group will meet them), or 0 when the caller must find it. */
static inline __attribute__((always_inline)) uint32_t pick_group(vm_warp *w, uint32_t ready, uint32_t *pc, uint32_t *stop)
{
    /* every ready lane at one pc (the common case): both rules pick that group */
    uint32_t p0 = w->pc[__builtin_ctz(ready)], diff = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (cpu_avx2()) {     /* (the scan below also finds a uniform group) */
        if (ready == 0xffffffffu && vm_pcs_all_at_avx2(w->pc, p0)) { *pc = p0; *stop = UINT32_MAX; return ready; }
        /* in a warp's first VM_AGE_LIMIT ticks no lane can have waited too long:
         * old 0 finds none (issue ticks are never negative) */
        uint32_t best, next, aged;
        uint32_t g = pick_scan_avx2(w, ready, w->tick > VM_AGE_LIMIT ? w->tick - VM_AGE_LIMIT : 0, &best, &next, &aged);
        if (aged) {
            /* the lane that waited longest (the first of the lowest tick) goes first */
            int oldest = __builtin_ctz(aged);
            for (uint32_t mm = aged & (aged - 1); mm; mm &= mm - 1)
                if (w->lastrun[__builtin_ctz(mm)] < w->lastrun[oldest]) oldest = __builtin_ctz(mm);
            if (w->pc[oldest] != best) {
                *pc = w->pc[oldest];
                return lanes_at_avx2(w, ready, *pc, stop);
            }
        }
        *pc = best;
        *stop = next;
        return g;
    }
#endif
    if (ready == 0xffffffffu) for (int l = 0; l < BC_WARP; l++) diff |= w->pc[l] ^ p0;
    else for (uint32_t mm = ready; mm; mm &= mm - 1) diff |= w->pc[__builtin_ctz(mm)] ^ p0;
    if (!diff) { *pc = p0; *stop = UINT32_MAX; return ready; }
    /* one pass: the lowest pc and its lanes, the next pc above it, the lane
     * that waited longest (the first of the lowest issue tick, as before) */
    uint32_t best = UINT32_MAX, next = UINT32_MAX, g = 0;
    uint64_t oldrun = UINT64_MAX;
    int oldest = -1;
    for (uint32_t mm = ready; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint32_t p = w->pc[l];
        if (p < best) { next = best; best = p; g = 1u << l; }
        else if (p == best) g |= 1u << l;
        else if (p < next) next = p;
        if (w->lastrun[l] < oldrun) { oldrun = w->lastrun[l]; oldest = l; }
    }
    if (w->tick - oldrun > VM_AGE_LIMIT && w->pc[oldest] != best) {
        *pc = w->pc[oldest];
        *stop = 0;
        g = 0;
        for (uint32_t mm = ready; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if (w->pc[l] == *pc) g |= 1u << l;
        }
        return g;
    }
    *pc = best;
    *stop = next;
    return g;
}

/* A new turn of w: group g issues at the new tick (for the ageing rule). */
static inline void mark_run(vm_warp *w, uint32_t g)
{
    uint64_t t = ++w->tick;
#if defined(__x86_64__) && defined(__GNUC__)
    if (g == 0xffffffffu && cpu_avx2()) { mark_all_avx2(w->lastrun, t); return; }
    if ((g & (g - 1)) && cpu_avx2()) { mark_lanes_avx2(w->lastrun, g, t); return; }
#endif
    if (g == 0xffffffffu) for (int l = 0; l < BC_WARP; l++) w->lastrun[l] = t;
    else for (uint32_t mm = g; mm; mm &= mm - 1) w->lastrun[__builtin_ctz(mm)] = t;
}

/* Live lanes in LANE_READY (0): the state bytes are tested 16 at a time
 * (SSE2, part of every x86-64), else 8 at a time. */
static uint32_t ready_lanes(const vm_warp *w)
{
#if defined(__x86_64__) && defined(__GNUC__)
    const __m128i z = _mm_setzero_si128();
    uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)w->state), z));
    uint32_t hi = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(w->state + 16)), z));
    return (lo | hi << 16) & w->live;
#endif
    const uint64_t k7f = 0x7f7f7f7f7f7f7f7full;
    uint32_t r = 0;
    for (int k = 0; k < BC_WARP / 8; k++) {
        uint64_t v;
        memcpy(&v, w->state + 8 * k, 8);
        uint64_t z = ~(((v & k7f) + k7f) | v | k7f);                     /* 0x80 in each zero byte, exactly */
        r |= (uint32_t)(((z >> 7) * 0x0102040810204080ull) >> 56) << (8 * k); /* gathers byte i's bit to bit i */
    }
    return r & w->live;
}

static vm_status check_limits(vm_launch *L)
{
    if (L->par) return vm_par_limits(L);
    if (L->cfg.insn_limit && L->insns > L->cfg.insn_limit)
        return vm_fail(L, L->cur_cta, NULL, -1, 0, VM_LIMIT, "instruction limit of %llu reached",
                       (unsigned long long)L->cfg.insn_limit);
    if (L->cfg.timeout > 0 && vm_now() - L->start_time > L->cfg.timeout)
        return vm_fail(L, L->cur_cta, NULL, -1, 0, VM_LIMIT, "time limit of %g s reached", L->cfg.timeout);
    if (L->stop_requested) return vm_fail(L, L->cur_cta, NULL, -1, 0, VM_LIMIT, "stopped");
    return VM_OK;
}

/* Points the fault at the first blocked lane of c. */
static void point_at_blocked(vm_launch *L, vm_cta *c)
{
    for (int i = 0; i < c->nwarps; i++) {
        vm_warp *w = &c->warps[i];
        if (!w->live) continue;
        int l = __builtin_ctz(w->live);
        L->fault.pc = w->pc[l];
        L->fault.warp = i;
        L->fault.lane = l;
        uint32_t lin = (uint32_t)i * BC_WARP + (uint32_t)l;
        L->fault.tid[0] = lin % L->cfg.block[0];
        L->fault.tid[1] = lin / L->cfg.block[0] % L->cfg.block[1];
        L->fault.tid[2] = lin / (L->cfg.block[0] * L->cfg.block[1]);
        break;
    }
}

/* Each warp of c with ready lanes issues one lane group; *progress is set
 * when one did, *any_ready when some warp had ready lanes.  Resumable: a
 * pause (VM_PAUSED) leaves next_warp on the paused warp. */
static inline __attribute__((always_inline)) vm_status warps_turn(vm_launch *L, vm_cta *c, int *progress, int *any_ready)
{
    const vm_hooks *H = L->cfg.hooks;
    int slice = L->cfg.slice > 0 ? L->cfg.slice : VM_SLICE;
    for (; L->next_warp < c->nwarps; L->next_warp++) {
        vm_warp *w = &c->warps[L->next_warp];
        uint32_t ready = w->live ? ready_lanes(w) : 0;
        if (!ready) continue;
        *any_ready = 1;
        uint32_t pc, stop = 0;
        uint32_t g = H && H->pick ? H->pick(H->ctx, L, c, w, ready, &pc) : pick_group(w, ready, &pc, &stop);
        if (g & ~ready) { g &= ready; stop = 0; }
        if (!g) continue;
        mark_run(w, g);
        vm_status st = vm_exec(L, c, w, g, pc, slice, stop);
        if (st) return st;
        *progress = 1;
    }
    L->next_warp = 0;
    return VM_OK;
}

int vm_repick(vm_launch *L, vm_cta *c, vm_warp *w, uint32_t *group, uint32_t *pc, uint32_t *stop, int *budget,
              vm_status *st)
{
    uint32_t ready = w->live ? ready_lanes(w) : 0;
    if (!ready) return 0;
    for (int i = 0; i < c->nwarps; i++)
        if (&c->warps[i] != w && c->warps[i].live && ready_lanes(&c->warps[i])) return 0;
    /* the rest of this round (cta_round after warps_turn: w issued, so no
     * deadlock), then the next one up to w, whose lower warps cannot issue */
    L->turn_progress = 0;
    if ((++L->turns & 63) == 0 && (*st = check_limits(L))) return 0;
    uint32_t g = pick_group(w, ready, pc, stop);
    mark_run(w, g);
    *group = g;
    *budget = L->cfg.slice > 0 ? L->cfg.slice : VM_SLICE;
    return 1;
}

int vm_next_turn(vm_launch *L, vm_cta *c, vm_turn *t)
{
    if (vm_next_turn_whole(L, c, t)) return 1;
    L->turn_progress = 1;              /* warps_turn's *progress for the warp that issued */
    for (int i = L->next_warp + 1; i < c->nwarps; i++) {
        vm_warp *x = &c->warps[i];
        uint32_t ready = x->live ? ready_lanes(x) : 0;
        if (!ready) continue;
        uint32_t p, s = 0;
        uint32_t g = pick_group(x, ready, &p, &s);
        if (!g) continue;
        mark_run(x, g);
        L->next_warp = i;
        t->w = x, t->group = g, t->pc = p, t->stop = s;
        t->budget = L->cfg.slice > 0 ? L->cfg.slice : VM_SLICE;
        return 1;
    }
    return 0;
}

/* One round over the warps of the single CTA in flight. */
static inline __attribute__((always_inline)) vm_status cta_round(vm_launch *L, vm_cta *c)
{
    int any_ready = 0;
    vm_status st = warps_turn(L, c, &L->turn_progress, &any_ready);
    if (st) return st;
    if (!c->live_warps) return VM_OK;
    if (!L->turn_progress && !any_ready) {
        st = vm_fail(L, c, NULL, -1, 0, VM_DEADLOCK, "no thread of block (%u,%u,%u) can proceed",
                     c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        L->fault.report = warp_blocked_report(L, c);
        point_at_blocked(L, c);
        return st;
    }
    L->turn_progress = 0;
    if ((++L->turns & 63) == 0) return check_limits(L);
    return VM_OK;
}

/* resident > 1: one round over the warps of CTA c, as cta_round, except that
 * a CTA whose lanes all wait (no warp ready, none issued in the round) is
 * marked stuck instead of failing: the launch deadlocks only when every CTA
 * in flight is. */
static __attribute__((noinline)) vm_status cta_round_multi(vm_launch *L, vm_cta *c)
{
    int any_ready = 0;
    vm_status st = warps_turn(L, c, &c->progress, &any_ready);
    if (st) return st;
    if (c->live_warps && !c->progress && !any_ready) c->stuck = 1;
    c->progress = 0;
    return VM_OK;
}

/* Every CTA in flight is stuck: the deadlock names each of them. */
static vm_status deadlock_multi(vm_launch *L)
{
    char names[400] = "";
    size_t n = 0;
    int count = 0;
    vm_cta *first = NULL;
    char *rep = NULL;
    size_t rlen = 0;
    for (int i = 0; i < L->nres; i++) {
        vm_cta *c = &L->ctas[i];
        if (!c->live) continue;
        if (!first) first = c;
        count++;
        if (n < sizeof names - 40)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s(%u,%u,%u)", n ? ", " : "", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        else if (n < sizeof names - 4) n += (size_t)snprintf(names + n, sizeof names - n, ", ...");
        char *r = warp_blocked_report(L, c);
        char head[96];
        int hl = snprintf(head, sizeof head, " block (%u,%u,%u):\n", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        size_t add = (size_t)hl + (r ? strlen(r) : 0);
        char *nr = realloc(rep, rlen + add + 1);
        if (nr) {
            rep = nr;
            memcpy(rep + rlen, head, (size_t)hl);
            if (r) memcpy(rep + rlen + hl, r, strlen(r));
            rlen += add;
            rep[rlen] = 0;
        }
        free(r);
    }
    vm_status st = vm_fail(L, first, NULL, -1, 0, VM_DEADLOCK, "no thread of %s %s can proceed (%d resident)",
                           count > 1 ? "blocks" : "block", names, L->nres);
    L->fault.report = rep;
    point_at_blocked(L, first);
    return st;
}

/* Whether the kernel (or a .func of the module) reads %envreg1 or %envreg2:
 * the address of cooperative_groups' grid-sync workspace. */
static int uses_grid_sync(const bc_module *m, int kernel)
{
    for (int f = 0; f < m->nfuncs; f++) {
        const bc_func *fn = &m->funcs[f];
        if (f != kernel && fn->is_entry) continue;
        for (uint32_t pc = fn->pc_begin; pc < fn->pc_end; pc++)
            if (m->code[pc].op == OP_SREG && m->code[pc].imm == BC_SR_ENVREG && (m->code[pc].m1 == 1 || m->code[pc].m1 == 2))
                return 1;
    }
    return 0;
}

int vm_kernel_reach(const bc_module *m, int kernel, uint8_t *reach)
{
    int *todo = malloc(((size_t)m->nfuncs + 1) * sizeof *todo);
    if (!todo) return -1;
    memset(reach, 0, (size_t)m->nfuncs);
    int n = 0, indirect = 0;
    reach[kernel] = 1;
    todo[n++] = kernel;
    while (n > 0) {
        const bc_func *fn = &m->funcs[todo[--n]];
        for (uint32_t pc = fn->pc_begin; pc < fn->pc_end; pc++) {
            const bc_insn *in = &m->code[pc];
            if (in->op == OP_CALLI) indirect = 1;
            if (in->op == OP_CALL && in->imm >= 0 && in->imm < m->nfuncs && !reach[in->imm]) { reach[in->imm] = 1; todo[n++] = (int)in->imm; }
        }
    }
    if (indirect)
        for (int f = 0; f < m->nfuncs; f++) reach[f] |= !m->funcs[f].is_entry && m->funcs[f].kind == BC_FN_DEFINED;
    free(todo);
    return 0;
}

/* The kernel's static shared memory, laid out as ptxas does for it alone:
 * the static .shared variables that the kernel, or a function it may call,
 * uses (vm_kernel_reach), in declaration order, each at its alignment.
 * off[v] gets each one's offset (off may be NULL); returns the bytes, or -1
 * when out of host memory. */
int64_t vm_kernel_shared_layout(const bc_module *m, int kernel, uint64_t *off)
{
    uint8_t *reach = calloc((size_t)m->nfuncs + 1, 1), *used = calloc((size_t)m->nvars + 1, 1);
    if (!reach || !used || vm_kernel_reach(m, kernel, reach)) { free(reach); free(used); return -1; }
    for (int i = 0; i < m->nconst_relocs; i++) {
        const bc_const_reloc *r = &m->const_relocs[i];
        if (r->func >= 0 && r->func < m->nfuncs && reach[r->func]) used[r->var] = 1;
    }
    uint64_t size = 0;
    for (int v = 0; v < m->nvars; v++) {
        const bc_var *bv = &m->vars[v];
        if (bv->space != BC_SP_SHARED || bv->is_extern_shared || !used[v]) continue;
        uint64_t a = bv->align ? bv->align : 1;
        size = (size + a - 1) / a * a;
        if (off) off[v] = size;
        size += bv->size;
    }
    free(reach); free(used);
    return (int64_t)size;
}

/* The register slots that cta_reset zeroes: those of the kernel and of
 * every .func that a thread may read before writing (vm/flow.c; all of them
 * if the analysis is missing) and the hidden ones. */
static int zero_ranges(vm_launch *L)
{
    const bc_module *m = L->m;
    L->zero = malloc(((size_t)m->nslots / 2 + 2) * sizeof *L->zero);
    if (!L->zero) return -1;
    uint32_t lo = m->nconsts, hi = m->nslots;
    for (uint32_t s = lo; s < hi; s++) {
        int f = -1;
        if (m->maybe_uninit && !m->maybe_uninit[s]) continue;
        for (int i = 0; i < m->nfuncs && f < 0; i++)
            if (s >= m->funcs[i].slot_base && s < m->funcs[i].slot_base + m->funcs[i].nslots) f = i;
        if (f >= 0 && m->funcs[f].is_entry && f != L->kfunc) continue;   /* another kernel's */
        vm_zero_range *last = L->nzero ? &L->zero[L->nzero - 1] : NULL;
        if (last && last->first + last->count == s) last->count++;
        else L->zero[L->nzero++] = (vm_zero_range){ s, 1 };
    }
    return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b) { while (b) { uint64_t t = a % b; a = b; b = t; } return a; }

vm_launch *vm_launch_new(const bc_module *m, mem_space *mem, const uint64_t *var_addr, int kernel,
                         const vm_config *cfg, vm_fault *fault)
{
    memset(fault, 0, sizeof *fault);
    /* cache-line aligned and whole lines: the checker runs launches on several threads,
     * and a neighbour's data on a line of this one's counters slows both (see vm/par.c) */
    size_t lsz = (sizeof(vm_launch) + VM_CACHE_LINE - 1) & ~(size_t)(VM_CACHE_LINE - 1);
    vm_launch *L = aligned_alloc(VM_CACHE_LINE, lsz);
    if (L) memset(L, 0, lsz);
    if (!L) { snprintf(fault->msg, sizeof fault->msg, "out of memory"); fault->status = VM_ERROR; return NULL; }
    L->m = m;
    L->code = m->code;
    L->mem = mem;
    L->cfg = *cfg;
    L->hooks0 = cfg->hooks;
    L->kfunc = kernel;
    L->start_time = vm_now();
    if (!L->cfg.local_size) {
        /* the default stack grows to fit a kernel with large local arrays */
        uint64_t need = ((uint64_t)m->funcs[kernel].frame_size + VM_DEFAULT_LOCAL + 4095) & ~4095ull;
        L->cfg.local_size = (uint32_t)(need > VM_DEFAULT_LOCAL ? (need < (64u << 20) ? need : 64u << 20) : VM_DEFAULT_LOCAL);
    }
    L->local_stride = vm_local_stride(L->cfg.local_size);
    for (int i = 0; i < 3; i++) {
        if (!L->cfg.grid[i]) L->cfg.grid[i] = 1;
        if (!L->cfg.block[i]) L->cfg.block[i] = 1;
    }
    uint64_t nthreads = (uint64_t)L->cfg.block[0] * L->cfg.block[1] * L->cfg.block[2];
    const bc_func *k = &m->funcs[kernel];
    uint64_t *sh_off = calloc((size_t)m->nvars + 1, sizeof *sh_off);
    int64_t sh_static = sh_off ? vm_kernel_shared_layout(m, kernel, sh_off) : -1;
    if (sh_static < 0) { free(sh_off); snprintf(fault->msg, sizeof fault->msg, "out of memory"); fault->status = VM_ERROR; free(L); return NULL; }
    L->shared_static = (uint64_t)sh_static;
    L->shared_dyn_base = (L->shared_static + 15) & ~15ull;
    if (nthreads > 1024)
        snprintf(fault->msg, sizeof fault->msg, "block of %llu threads: at most 1024 are allowed", (unsigned long long)nthreads);
    else if (L->cfg.grid[1] > 65535 || L->cfg.grid[2] > 65535 || L->cfg.grid[0] > 0x7fffffffu || L->cfg.block[2] > 64)
        snprintf(fault->msg, sizeof fault->msg, "grid or block dimensions out of range");
    else if (L->cfg.params_size < (size_t)k->param_size)
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' takes %d bytes of parameters, %zu given", k->name,
                 k->param_size, L->cfg.params_size);
    else if (k->reqntid[0] && (L->cfg.block[0] != (uint32_t)k->reqntid[0] ||
                               L->cfg.block[1] != (uint32_t)(k->reqntid[1] ? k->reqntid[1] : 1) ||
                               L->cfg.block[2] != (uint32_t)(k->reqntid[2] ? k->reqntid[2] : 1)))
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' requires a block of exactly %lld,%lld,%lld threads (.reqntid)",
                 k->name, (long long)k->reqntid[0], (long long)(k->reqntid[1] ? k->reqntid[1] : 1),
                 (long long)(k->reqntid[2] ? k->reqntid[2] : 1));
    else if (k->maxntid[0] && nthreads > (uint64_t)k->maxntid[0] * (uint64_t)(k->maxntid[1] ? k->maxntid[1] : 1) *
                                         (uint64_t)(k->maxntid[2] ? k->maxntid[2] : 1))
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' allows at most %lld threads per block (.maxntid); the launch has %llu",
                 k->name, (long long)(k->maxntid[0] * (k->maxntid[1] ? k->maxntid[1] : 1) * (k->maxntid[2] ? k->maxntid[2] : 1)),
                 (unsigned long long)nthreads);
    else if (L->shared_dyn_base + L->cfg.dyn_shared > VM_MAX_SHARED)
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' needs %llu bytes of shared memory per block (%llu static + %llu "
                 "dynamic); a block may have at most %u (227 KB) on the H100/H200: ask for less dynamic shared memory", k->name,
                 (unsigned long long)(L->shared_dyn_base + L->cfg.dyn_shared),
                 (unsigned long long)L->shared_static, (unsigned long long)L->cfg.dyn_shared, VM_MAX_SHARED);
    else if ((uint64_t)k->frame_size > L->cfg.local_size)
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' needs %d bytes of local memory per thread", k->name, k->frame_size);
    if (fault->msg[0]) { fault->status = VM_ERROR; fault->bad_launch = 1; free(sh_off); free(L); return NULL; }
    L->nthreads = (uint32_t)nthreads;
    L->nwarps = (int)((nthreads + BC_WARP - 1) / BC_WARP);
    L->nctas = (uint64_t)L->cfg.grid[0] * L->cfg.grid[1] * L->cfg.grid[2];
    L->shared_size = (L->shared_dyn_base + L->cfg.dyn_shared + VM_SMEM_GRANULE - 1) & ~(uint64_t)(VM_SMEM_GRANULE - 1);
    L->cta_a = 1;
    if (L->cfg.cta_order_seed && L->nctas > 1) {
        uint64_t s = L->cfg.cta_order_seed * 0x9E3779B97F4A7C15ull;
        L->cta_a = s % L->nctas | 1;
        while (gcd64(L->cta_a, L->nctas) != 1) L->cta_a++;
        L->cta_b = (s >> 32) % L->nctas;
    }
    L->consts = malloc((size_t)(m->nconsts ? m->nconsts : 1) * sizeof *L->consts);
    if (!L->consts) { snprintf(fault->msg, sizeof fault->msg, "out of memory"); fault->status = VM_ERROR; free(sh_off); free(L); return NULL; }
    if (m->nconsts) memcpy(L->consts, m->consts, m->nconsts * sizeof *L->consts);
    for (int i = 0; i < m->nconst_relocs; i++) {
        const bc_const_reloc *r = &m->const_relocs[i];
        const bc_var *v = &m->vars[r->var];
        uint64_t base = v->space != BC_SP_SHARED ? var_addr[r->var] : v->is_extern_shared ? L->shared_dyn_base : sh_off[r->var];
        L->consts[r->slot] = base + (uint64_t)r->addend;
    }
    free(sh_off);
    L->const_bank = m->const_image;
    L->frames_full = (cfg->hooks && cfg->hooks->step) || !m->call_save;
    if (zero_ranges(L)) { snprintf(fault->msg, sizeof fault->msg, "out of memory"); fault->status = VM_ERROR; free(L->consts); free(L); return NULL; }
    /* a kernel that reads the grid-sync workspace pointer is launched cooperatively */
    int coop = uses_grid_sync(m, kernel);
    uint64_t res = L->cfg.resident > 0 ? (uint64_t)L->cfg.resident : 1;
    if (coop && L->cfg.resident <= 0) {
        if (L->nctas <= VM_COOP_AUTO) res = L->nctas;
        else
            snprintf(fault->msg, sizeof fault->msg, "kernel '%s' uses grid-wide sync (a cooperative launch): all %llu blocks "
                     "must be resident at once; pass --resident %llu (set automatically up to %d blocks)",
                     k->name, (unsigned long long)L->nctas, (unsigned long long)L->nctas, VM_COOP_AUTO);
    } else if (coop && res < L->nctas)
        snprintf(fault->msg, sizeof fault->msg, "kernel '%s' uses grid-wide sync (a cooperative launch): all %llu blocks "
                 "must be resident at once, --resident %llu is too few", k->name, (unsigned long long)L->nctas,
                 (unsigned long long)res);
    if (fault->msg[0]) { fault->status = VM_ERROR; fault->bad_launch = 1; free(L->consts); free(L->zero); free(L); return NULL; }
    if (res > L->nctas) res = L->nctas;
    L->nres = (int)res;
    L->ctas = calloc((size_t)L->nres, sizeof *L->ctas);
    int bad = !L->ctas;
    for (int i = 0; i < L->nres && !bad; i++) {
        bad = vm_cta_alloc(L, &L->ctas[i]);
        L->ctas[i].slot = i;
    }
    if (!bad && coop) {
        /* cooperative_groups' grid_workspace { unsigned wsSize; unsigned barrier; } */
        L->grid_ws = mem_alloc_bytes(mem, 8, "grid sync workspace");
        uint32_t ws[2] = { 8, 0 };
        if (L->grid_ws) mem_write(mem, L->grid_ws, ws, sizeof ws);
        else bad = 1;
    }
    if (bad) {
        vm_launch_free(L);
        snprintf(fault->msg, sizeof fault->msg, "out of host memory for %d block(s) of %llu threads", (int)res, (unsigned long long)nthreads);
        fault->status = VM_ERROR;
        return NULL;
    }
    L->cur_cta = &L->ctas[0];
    return L;
}

/* Starts the next block of the launch order in slot c. */
const vm_hooks vm_skip_block;

/* Starts the next block of the launch order in slot c; returns 0 when
 * hooks.select skipped it (c stays free). */
static int cta_start(vm_launch *L, vm_cta *c)
{
    uint64_t b = (L->cta_a * L->next_cta + L->cta_b) % L->nctas;
    if (L->hooks0 && L->hooks0->select && L->nres == 1) {
        const vm_hooks *sel = L->hooks0->select(L->hooks0->ctx, L, b);
        if (sel == &vm_skip_block) { L->next_cta++; return 0; }
        L->cfg.hooks = sel;
    }
    const vm_hooks *H = L->cfg.hooks;
    L->next_cta++;
    cta_reset(L, c, b);
    c->live = 1;
    c->stuck = c->progress = 0;
    L->next_warp = 0;
    L->turn_progress = 0;
    if (H && H->cta_begin) H->cta_begin(H->ctx, L, c);
    return 1;
}

/* resident > 1: rounds over the slots, a turn of each CTA in slot order;
 * a slot that is free when its turn comes takes the next block.  Resumable
 * at (cur_slot, next_warp). */
static vm_status step_multi(vm_launch *L)
{
    const vm_hooks *H = L->cfg.hooks;
    while (!L->finished) {
        for (; L->cur_slot < L->nres; L->cur_slot++) {
            vm_cta *c = &L->ctas[L->cur_slot];
            if (!c->live) {
                if (L->next_cta >= L->nctas) continue;
                cta_start(L, c);
            }
            if (c->stuck) continue;
            L->cur_cta = c;
            vm_status st = cta_round_multi(L, c);
            if (st) return st;
            if (!c->live_warps) {
                c->live = 0;
                if (H && H->cta_end) H->cta_end(H->ctx, L, c);
                st = check_limits(L);
                if (st) return st;
            }
        }
        L->cur_slot = 0;
        int live = 0, stuck = 0;
        for (int i = 0; i < L->nres; i++) {
            live += L->ctas[i].live;
            stuck += L->ctas[i].live && L->ctas[i].stuck;
        }
        if (!live && L->next_cta >= L->nctas) { L->finished = 1; break; }
        if (live && stuck == live && (live == L->nres || L->next_cta >= L->nctas)) return deadlock_multi(L);
        if ((++L->turns & 63) == 0) {
            vm_status st = check_limits(L);
            if (st) return st;
        }
    }
    return VM_OK;
}

vm_status vm_launch_step(vm_launch *L)
{
    if (L->nres > 1) return step_multi(L);
    vm_cta *c = &L->ctas[0];
    while (!L->finished) {
        if (!c->live) {
            if (L->next_cta >= L->nctas) { L->finished = 1; break; }
            if (!cta_start(L, c)) continue;
        }
        vm_status st = cta_round(L, c);
        if (st) return st;
        if (!c->live_warps) {
            c->live = 0;
            const vm_hooks *H = L->cfg.hooks;     /* hooks.select may have changed them */
            if (H && H->cta_end) H->cta_end(H->ctx, L, c);
            st = check_limits(L);
            if (st) return st;
        }
    }
    return VM_OK;
}

vm_status vm_run_block(vm_launch *L, vm_cta *c, uint64_t pos)
{
    const vm_hooks *H = L->cfg.hooks;
    uint64_t b = (L->cta_a * pos + L->cta_b) % L->nctas;
    cta_reset(L, c, b);
    c->live = 1;
    c->stuck = c->progress = 0;
    L->cur_cta = c;
    L->next_warp = 0;
    L->turn_progress = 0;
    if (H && H->cta_begin) H->cta_begin(H->ctx, L, c);
    while (c->live_warps) {
        vm_status st = cta_round(L, c);
        if (st) return st;
    }
    c->live = 0;
    if (H && H->cta_end) H->cta_end(H->ctx, L, c);
    return check_limits(L);
}

vm_cta *vm_launch_find_cta(vm_launch *L, uint64_t linear)
{
    for (int i = 0; i < L->nres; i++)
        if (L->ctas[i].live && L->ctas[i].linear == linear) return &L->ctas[i];
    return NULL;
}

int vm_launch_cta_started(const vm_launch *L, uint64_t linear)
{
    if (linear >= L->nctas) return 0;
    /* the launch position i of block `linear` = a^-1 (linear - b) mod n */
    uint64_t n = L->nctas, a = L->cta_a % n;
    __int128 t = 0, nt = 1, r = (__int128)n, nr = (__int128)a;
    while (nr) {
        __int128 q = r / nr, x;
        x = t - q * nt; t = nt; nt = x;
        x = r - q * nr; r = nr; nr = x;
    }
    if (t < 0) t += n;
    uint64_t d = (linear + n - L->cta_b % n) % n;
    uint64_t i = (uint64_t)(((unsigned __int128)d * (unsigned __int128)(uint64_t)t) % n);
    return i < L->next_cta;
}

void vm_launch_free(vm_launch *L)
{
    if (!L) return;
    for (int i = 0; L->ctas && i < L->nres; i++) vm_cta_free(&L->ctas[i]);
    free(L->ctas);
    if (L->grid_ws) mem_free(L->mem, L->grid_ws);
    free(L->consts);
    free(L->zero);
    free(L->fault.report);
    free(L);
}

static vm_status run_launch(const bc_module *m, mem_space *mem, const uint64_t *var_addr, int kernel,
                            const vm_config *cfg, vm_fault *fault, uint64_t *insns)
{
    vm_launch *L = vm_launch_new(m, mem, var_addr, kernel, cfg, fault);
    if (!L) return fault->status;
    vm_status st = VM_OK;
    const char *why = NULL;
    char note[sizeof fault->threads_note] = "";
    int pst = VM_OK, threads = 1;
    if (vm_par_eligible(L, &why)) {
        threads = vm_par_run(L, &pst, note, sizeof note);
        if (!threads) {
            /* it stopped (a conflict between blocks, a fault, a limit): memory is as
             * before the launch; one thread gives the result and the report */
            double start = L->start_time;
            const vm_hooks *H = cfg->hooks;
            vm_launch_free(L);
            if (H && H->restart) H->restart(H->ctx);
            if (!(L = vm_launch_new(m, mem, var_addr, kernel, cfg, fault))) return fault->status;
            L->start_time = start;
            L->cfg.jobs = 1;
            threads = 1;
        }
    } else if (cfg->jobs > 1) snprintf(note, sizeof note, "%s", why);
    st = (vm_status)pst;
    if (!L->finished && st == VM_OK)
        do st = vm_launch_step(L); while (st == VM_PAUSED);
    *fault = L->fault;
    fault->threads = threads;
    snprintf(fault->threads_note, sizeof fault->threads_note, "%s", note);
    L->fault.report = NULL;            /* moved to the caller */
    if (insns) *insns = L->lane_insns;
    vm_launch_free(L);
    return st;
}

/* The host's floating-point results are the GPU's only in the default mode: round to nearest,
 * subnormals kept.  A host program built with -ffast-math (or that changed the rounding) runs
 * with other bits in the SSE control register, which `exec` shares; the launch runs with the
 * default and gives the program's register back (the workers it starts inherit the default). */
vm_status vm_run(const bc_module *m, mem_space *mem, const uint64_t *var_addr, int kernel,
                 const vm_config *cfg, vm_fault *fault, uint64_t *insns)
{
#if defined(__x86_64__)
    unsigned csr = _mm_getcsr();
    _mm_setcsr(VM_MXCSR_DEFAULT);
    vm_status st = run_launch(m, mem, var_addr, kernel, cfg, fault, insns);
    _mm_setcsr(csr);
    return st;
#else
    return run_launch(m, mem, var_addr, kernel, cfg, fault, insns);
#endif
}
