/* vm.h — the simulated SM: one kernel launch over a grid of CTAs, each CTA a
 * set of warps, each warp 32 lanes with their own program counters
 * (independent thread scheduling).
 *
 * Ownership: a vm_launch owns the state of its CTA slots (registers, shared
 * and local memory, call stacks; one slot per resident CTA, reused as blocks
 * finish); it borrows the
 * bc_module and the global mem_space, which must outlive it.  Library code:
 * nothing here prints or exits — every stop is a vm_status plus vm_fault.
 */
#ifndef PTXEMU_VM_H
#define PTXEMU_VM_H

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>                 /* (its AVX2 intrinsics need AVX2 callers: vm_pcs_all_at_avx2) */
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdint.h>
#include "bc.h"
#include "mem.h"

typedef enum vm_status {
    VM_OK = 0,
    VM_FAULT,          /* illegal/misaligned address, stack overflow, ... */
    VM_TRAP,           /* trap instruction, or a .sync lane outside its mask */
    VM_ASSERT,         /* __assertfail */
    VM_DEADLOCK,       /* no thread of a CTA can ever proceed */
    VM_LIMIT,          /* instruction budget or time limit */
    VM_ERROR,          /* unsupported at run time, out of host memory */
    VM_PAUSED          /* a step hook asked to stop before an instruction (resumable) */
} vm_status;

const char *vm_status_name(vm_status s);

/* How a launch's host threads spent it (vm/par.c; all zero when it ran on one thread):
 * the times in seconds from the launch's start. */
typedef struct vm_par_times {
    double setup;              /* shadow memory and workers set up, before the first block */
    double last_start;         /* the last worker's first block began */
    double first_end, end;     /* the first worker found no block left; the last one did */
    double busy;               /* the workers' time inside blocks, summed */
    uint32_t blocks_min, blocks_max;   /* blocks one worker ran */
} vm_par_times;

/* Where and why a launch stopped. */
typedef struct vm_fault {
    vm_status status;
    uint32_t pc;               /* the faulting instruction */
    uint32_t cta[3], tid[3];
    int warp, lane;
    char msg[512];
    char *report;              /* deadlock: the blocked warps, one per line (malloc'd) */
    int bad_launch;            /* the launch configuration was refused before it ran */
    int threads;               /* host threads the launch ran on (vm_config.jobs) */
    char threads_note[160];    /* why one, when more were asked for */
    vm_par_times par;          /* threads > 1: where their time went */
} vm_fault;

/* Lane states. */
enum { LANE_READY, LANE_EXITED, LANE_WAIT_COLL, LANE_WAIT_BAR };
enum { VM_SLICE = 256 };        /* instructions a group may issue per turn (vm_config.slice 0) */
/* The ageing rule of the default schedule (vm/sched.c): a warp's tick (vm_warp.tick) goes up
 * by 1 at each turn and by VM_AGE_SLICE more when the turn ended because its group used up
 * its instruction slice (it looped without diverging or meeting other lanes: a spin loop, or
 * a long loop); a ready lane whose last turn is more than VM_AGE_LIMIT ticks back goes first.
 * So an intra-warp spin lock's holder runs after 4 full turns of the spinners, as when every
 * turn counted 1 and the limit was 4, while lanes waiting for others to reconverge with them
 * (a divergent branch, recursion: short turns) wait up to 4096 turns, as the GPU's lanes wait
 * at its reconvergence points: `calls` issued 1.8 M instructions of 3.3 lanes before, 0.64 M
 * of 9.3 after (docs/PERFORMANCE.md, step 120). */
enum { VM_AGE_LIMIT = 4096, VM_AGE_SLICE = 1024 };

#define VM_NBAR 16
/* Alignment that keeps data of different host threads off one cache line
 * (two 64-byte lines: the adjacent-line prefetcher pairs them). */
#define VM_CACHE_LINE 128

typedef struct vm_warp {
    int id;
    uint32_t pc[BC_WARP];
    uint8_t state[BC_WARP];
    uint32_t live;             /* lanes that exist and have not exited */
    uint32_t present;          /* lanes that exist (a partial last warp has fewer) */
    uint64_t *R;               /* registers [slot][lane] */
    uint8_t *local;            /* BC_WARP * local_size bytes */
    uint64_t lastrun[BC_WARP]; /* issue tick of each lane (fairness) */
    uint64_t local_hw;         /* bytes of each lane's local memory that may have been written */
    /* collectives */
    uint32_t coll_mask[BC_WARP];
    uint32_t excused;          /* lanes predicated off at a collective */
    /* barriers */
    uint8_t bar_id[BC_WARP];
    uint32_t bar_arrived[VM_NBAR];   /* lanes arrived in the current phase */
    uint32_t bar_pred[VM_NBAR];      /* .red predicate values of arrived lanes */
    /* call stacks: per lane a stack of saved words */
    struct vm_stack { uint64_t *v; uint32_t n, cap, depth; } stack[BC_WARP];
    uint32_t called;           /* lanes whose stack depth is above 0 (inside a .func) */
    uint64_t tick;
    /* the fused handlers' work on final rows (bc_fuse_head.fin, bc_fuse_bra.fin1/2): bit id set
     * when id's was done for this warp in this block, with its result (an OP_LDS_FMA's shapes,
     * a compare's lanes) */
    uint64_t fin_ok;
    uint32_t fin_val[BC_FIN_MAX];
} vm_warp;

typedef struct vm_barrier {
    uint32_t warps;            /* warps counted in this phase */
    uint32_t expected;         /* thread count (0: all) */
    int red;                   /* .red kind of the phase (0 none) */
    uint32_t popc;             /* .red: true predicates of the counted warps */
    uint32_t threads;          /* live threads of the counted warps */
    int kinds;                 /* bit per form used: 1 sync, 2 arrive, 4 red */
    uint32_t whole;            /* warps that arrived whole at bar.sync full_pc through bar_sync_fast */
    uint32_t whole_pc;
} vm_barrier;

typedef struct vm_cta {
    uint32_t ctaid[3];
    uint64_t linear;
    int nwarps;
    uint32_t nthreads;
    vm_warp *warps;
    uint32_t live_warps;       /* warps with a live lane */
    uint8_t *shared;
    vm_barrier bar[VM_NBAR];
    int slot;                  /* index in vm_launch.ctas */
    uint64_t local_size;       /* bytes of local memory per lane */
    uint64_t local_stride;     /* lane l's local memory starts at vm_warp.local + l * local_stride (vm_local_stride) */
    uint64_t shared_bytes;     /* size of shared */
    size_t regs_bytes;         /* size of each vm_warp.R */
    int live;                  /* the slot holds a block that has not finished */
    int stuck;                 /* resident > 1: no lane can ever proceed again */
    int progress;              /* resident > 1: some warp issued in this round */
} vm_cta;

typedef struct vm_launch vm_launch;

/* Hooks for the checker and the debugger; any may be NULL.  Called with the
 * lanes that perform the event. */
/* Flags of a memory access. */
enum { VM_ACC_WRITE = 1, VM_ACC_ATOMIC = 2, VM_ACC_VOLATILE = 4, VM_ACC_READ = 8 };

typedef struct vm_hooks {
    void *ctx;
    /* a memory access of `size` bytes by one lane, after address resolution:
     * space is BC_SP_GLOBAL (addr = guest address), BC_SP_SHARED (offset in
     * the CTA's shared memory) or BC_SP_LOCAL (offset in the lane's local
     * memory); const/param reads are not reported.  flags: VM_ACC_*; an
     * atomic read-modify-write has WRITE|READ|ATOMIC. */
    void (*access)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                   int space, uint64_t addr, int size, int flags);
    /* optional, with access: the reads of one ld.global or ld.shared by the
     * lanes `lanes`, reported in one call (addr[l] as access would get it;
     * flags VM_ACC_READ, maybe VOLATILE), in place of a call of access per
     * lane, after the lanes' loads, in lane order; a fault at lane k reports
     * the lanes below k first, as the per-lane calls would have */
    void (*access_lanes)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc,
                         int space, const uint64_t *addr, int size, int flags);
    /* membar / fence executed by lanes */
    void (*fence)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc);
    /* lanes of w exited */
    void (*exit)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc);
    /* a CTA starts (before any of its instructions) / finishes */
    void (*cta_begin)(void *ctx, vm_launch *L, vm_cta *cta);
    void (*cta_end)(void *ctx, vm_launch *L, vm_cta *cta);
    /* a barrier completed for the given warps, or a warp collective for mask */
    void (*sync)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, int barrier_id);
    /* chooses the lanes to issue in w: a non-empty subset of `ready` whose
     * lanes all sit at one pc (returned in *pc); 0 skips the warp this turn.
     * The default picks the lowest pc with an ageing rule for fairness. */
    uint32_t (*pick)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc);
    /* misuse that does not stop the launch (mask or barrier rule broken) */
    void (*misuse)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                   const char *kind, const char *msg);
    /* before each instruction a lane group issues; nonzero pauses the launch
     * before it (vm_launch_step returns VM_PAUSED and can be called again);
     * `lanes` are those whose guard holds, L->group the whole issuing group */
    int (*step)(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc);
    /* Nonzero: the hooks may be called from several host threads at once
     * (vm_config.jobs > 1; each worker passes its own vm_launch copy).  Such a
     * launch may stop and run again on one thread (see vm/par.h): restart, if
     * set, is called before that, to drop what was recorded.  Launches whose
     * hooks are not thread-safe, or that have step, pick or select, use one
     * thread. */
    int thread_safe;
    void (*restart)(void *ctx);
    /* resident == 1 only, read from vm_config.hooks: before block `linear`
     * starts, returns the hooks in force for it (NULL: none, so the block
     * runs on the plain fast paths) until the next block starts, or
     * &vm_skip_block to not run the block at all; the checker instruments a
     * sample of the blocks this way, and skips blocks that cannot change
     * its comparison (docs/CHECKING.md, "Large launches"). */
    const struct vm_hooks *(*select)(void *ctx, vm_launch *L, uint64_t linear);
} vm_hooks;

/* The value hooks.select returns for a block that is not to run. */
extern const vm_hooks vm_skip_block;

/* Output sink for device printf. */
typedef void (*vm_output_fn)(void *ctx, const char *text, size_t len);

/* ---- builtin services: what the VM asks of the layer above ------------------
 * Builtins whose meaning lies outside the SM (device printf's formatting,
 * host functions behind `.extern .func`) are reached through these
 * callbacks, so the VM never depends on the runtime.  They run only on such
 * calls (never on the hot path). */

/* Reads n bytes of guest memory at a generic address as the calling lane
 * sees it: 0, or -1 (unreadable). */
typedef int (*vm_read_fn)(void *ctx, uint64_t addr, void *dst, size_t n);

/* Device printf (`vprintf(fmt, args)`): formats the call, reading the format
 * string and the argument buffer through rd, and writes the text through
 * out (out may be NULL: the text is dropped).  *ret gets what vprintf
 * returns to the kernel.  0, or -1 with a message in err when guest memory
 * was unreadable (the launch then faults). */
typedef int (*vm_printf_fn)(vm_read_fn rd, void *rd_ctx, uint64_t fmt, uint64_t args,
                            vm_output_fn out, void *out_ctx, int *ret, char *err, size_t errlen);

/* Most arguments passed to an `.extern` function (further ones are dropped). */
#define VM_EXTERN_MAX_ARGS 64
/* vm_extern_fn's answer when nothing defines the function. */
#define VM_EXTERN_UNDEFINED 1

/* Calls the host function behind `.extern .func` f: args holds the raw bits
 * of its first nargs parameters (declaration order, zero-extended).  0 with
 * *ret (the first return value's bits), VM_EXTERN_UNDEFINED when no host
 * library defines f, or -1 with a message in err. */
typedef int (*vm_extern_fn)(void *ctx, const bc_func *f, int nargs, const uint64_t *args,
                            uint64_t *ret, char *err, size_t errlen);

/* A launch's builtin services; any may be NULL. */
typedef struct vm_builtins {
    vm_printf_fn device_printf;  /* NULL: a vprintf call is an error */
    vm_extern_fn extern_call;    /* NULL: every `.extern` call is undefined */
    void *extern_ctx;
} vm_builtins;

typedef struct vm_config {
    uint32_t grid[3], block[3];
    uint64_t dyn_shared;
    const void *params;        /* the kernel parameter buffer */
    size_t params_size;
    uint32_t local_size;       /* local memory (stack) per thread; 0: default */
    uint64_t insn_limit;       /* 0: none */
    double timeout;            /* seconds, 0: none */
    uint64_t seed;
    vm_output_fn output;
    void *output_ctx;
    const vm_hooks *hooks;
    const vm_builtins *builtins; /* device printf, `.extern` calls (outlives the launch), or NULL: none */
    uint64_t cta_order_seed;   /* 0: CTAs in linear order; else a seeded permutation */
    int slice;                 /* instructions per turn (0: default) */
    /* CTAs in flight at once.  0: one (CTAs one after another), except that a
     * kernel using grid-wide sync (cooperative_groups::this_grid().sync(),
     * which reads the workspace pointer from %envreg1/%envreg2) is launched
     * cooperatively with the whole grid resident when it has at most
     * VM_COOP_AUTO blocks.  N > 1: up to N blocks in flight, a turn of each in
     * slot order, the next block (in the usual order) starting as one ends. */
    int resident;
    /* Host threads running the CTAs of the launch (0 or 1: one).  The result
     * is bit-identical to one thread's: see vm/par.h for when a launch runs
     * on one thread anyway. */
    int jobs;
} vm_config;

#define VM_COOP_AUTO 64

#define VM_DEFAULT_LOCAL (16u << 10)
/* The host bytes from one lane's local memory to the next lane's: its size
 * and a cache line.  The sizes are multiples of 4 KB; without the line,
 * every lane's word at one offset would have the same address bits below
 * 4 KB, so a warp's loads after its stores to local memory would wait on
 * the store buffer's 4K-aliasing check, lane after lane, and all 32 lines
 * fall into one set of the host's L1 cache. */
static inline uint64_t vm_local_stride(uint64_t size) { return size + 64; }
/* Shared memory, as on sm_90 (conformance README, "hardware facts"): a CTA's
 * window is its static bytes (the static .shared variables its kernel can
 * reach, laid out for it alone as ptxas does), 16-aligned, then the dynamic
 * ones, rounded up to VM_SMEM_GRANULE; any user access beyond it faults.  The 1 KB the
 * system reserves per CTA (what %reserved_smem_offset_* point into) sits at
 * shared offsets [VM_RESERVED_SMEM_BASE, + VM_RESERVED_SMEM), far outside
 * every window, so running past the user's data never reaches it; its host
 * bytes follow the window's in vm_cta.shared. */
#define VM_SMEM_GRANULE 128u
#define VM_RESERVED_SMEM 1024u
#define VM_RESERVED_SMEM_BASE 0x01000000u
/* the most shared memory a block may have on an H100/H200 (227 KB) */
#define VM_MAX_SHARED 232448u

struct vm_launch {
    const bc_module *m;
    const bc_insn *code;
    mem_space *mem;
    vm_config cfg;
    uint64_t local_stride;     /* vm_local_stride(cfg.local_size) */
    int kfunc;
    uint64_t *consts;          /* the constant pool with addresses patched in */
    uint64_t *var_addr;        /* per module variable: its address in its space */
    uint8_t *const_bank;
    uint64_t shared_size;      /* the CTA's shared window (user bytes, rounded up to VM_SMEM_GRANULE) */
    uint64_t shared_static;    /* the kernel's static shared bytes (the variables it can reach) */
    uint64_t shared_dyn_base;  /* where dynamic shared memory starts (the static bytes, 16-aligned) */
    uint64_t nctas;
    uint32_t nthreads;
    int nwarps;
    uint64_t insns;            /* instructions issued (lane groups) */
    uint64_t lane_insns;       /* lane-instructions */
    vm_fault fault;
    uint64_t global_base;      /* module .global image placement */
    double start_time;
    uint64_t rng;
    vm_cta *cur_cta;           /* the CTA whose warps are issuing */
    vm_cta *ctas;              /* the CTA slots: nres blocks in flight at most */
    int nres;
    int cur_slot;              /* resident > 1: the slot visited in this round */
    uint64_t next_cta;         /* CTAs started so far */
    int next_warp;             /* round-robin position */
    int turn_progress;         /* some warp issued in this round */
    unsigned turns;
    int finished;
    uint64_t cta_a, cta_b;     /* CTA order permutation: (a*i + b) mod n */
    uint64_t gc_base, gc_size; /* the global allocation last hit (gc_size 0: none) */
    uint8_t *gc_host;
    uint64_t gc2_base, gc2_size; /* and the one hit before it (kernels read two buffers in turn) */
    uint8_t *gc2_host;
    struct par_alloc *gc2_pa;
    uint64_t gc3_base, gc3_size; /* and the one before that (scan: in, out, block_sums in turn) */
    uint8_t *gc3_host;
    struct par_alloc *gc3_pa;
    int stop_requested;
    uint64_t grid_ws;          /* cooperative launch: the grid-sync workspace (%envreg1:%envreg2), else 0 */
    struct vm_zero_range { uint32_t first, count; } *zero;   /* register slots zeroed at a block's start */
    int frames_full;           /* calls save the callee's registers (the debugger reads outer frames
                                  from them), not only the caller's live ones */
    int nzero;
    /* a worker of a parallel launch (vm/par.h); all NULL/0 otherwise */
    struct vm_par *par;
    uint32_t par_tag;          /* the running block's owner tag in the shadow words */
    struct par_alloc *gc_pa;   /* shadow of the global allocation hit last */
    const uint8_t *par_atom_how; /* per pc: how an atom uses memory (PAR_WRITE or a reduction) */
    uint64_t par_flushed;      /* instructions already added to the launch's total */
    const vm_hooks *hooks0;    /* vm_config.hooks as given (hooks.select may swap cfg.hooks per block) */
    uint32_t group;            /* the lane group vm_exec is issuing (for hooks called from it:
                                  the step hook's `lanes` are those of it whose guard holds) */
};
typedef struct vm_zero_range vm_zero_range;

/* Swaps the two cached global allocations. */
static inline void vm_gc_swap(vm_launch *L)
{
    uint64_t b = L->gc_base, n = L->gc_size;
    uint8_t *h = L->gc_host;
    struct par_alloc *pa = L->gc_pa;
    L->gc_base = L->gc2_base; L->gc_size = L->gc2_size; L->gc_host = L->gc2_host; L->gc_pa = L->gc2_pa;
    L->gc2_base = b; L->gc2_size = n; L->gc2_host = h; L->gc2_pa = pa;
}

/* Makes the third cached global allocation the first; the first becomes
 * the second and the second the third. */
static inline void vm_gc_rotate3(vm_launch *L)
{
    vm_gc_swap(L);
    uint64_t b = L->gc_base, n = L->gc_size;
    uint8_t *h = L->gc_host;
    struct par_alloc *pa = L->gc_pa;
    L->gc_base = L->gc3_base; L->gc_size = L->gc3_size; L->gc_host = L->gc3_host; L->gc_pa = L->gc3_pa;
    L->gc3_base = b; L->gc3_size = n; L->gc3_host = h; L->gc3_pa = pa;
}

/* Places the module's variables in mem (once per module per mem_space):
 * returns 0, or -1 with msg. */
int vm_place_module(const bc_module *m, mem_space *mem, uint64_t **var_addr, char *msg, size_t len);

/* Starts the helper threads of parallel launches (vm/par.c) now, up to
 * jobs - 1 in all, so that a launch soon after finds them running: a new
 * thread took up to 3 ms to start on a 2-core VM, a tenth of a short
 * launch.  Optional; a launch starts what it lacks. */
void vm_par_warm(int jobs);

/* Runs a whole launch of kernel `kernel`.  var_addr from vm_place_module. */
vm_status vm_run(const bc_module *m, mem_space *mem, const uint64_t *var_addr, int kernel,
                 const vm_config *cfg, vm_fault *fault, uint64_t *insns);

/* The functions the kernel may run: reach[f] = 1 for the kernel, the
 * functions it calls directly or through them, and every defined .func when
 * any of them makes an indirect call (reach holds m->nfuncs bytes); 0, or -1
 * when out of host memory. */
int vm_kernel_reach(const bc_module *m, int kernel, uint8_t *reach);

/* The kernel's static shared memory as ptxas lays it out for it alone (the
 * .shared variables it and the functions it may call use): the bytes, and
 * each variable's offset in off[var] unless off is NULL; -1 when out of host
 * memory.  The CTA's shared window is this (16-aligned) plus the dynamic bytes. */
int64_t vm_kernel_shared_layout(const bc_module *m, int kernel, uint64_t *off);

/* The same, one piece at a time (the debugger): create, then step until it
 * returns something other than VM_PAUSED, or until vm_launch_finished. */
vm_launch *vm_launch_new(const bc_module *m, mem_space *mem, const uint64_t *var_addr, int kernel,
                         const vm_config *cfg, vm_fault *fault);
/* Runs until the launch ends (VM_OK with L->finished set), stops (fault,
 * deadlock, limit) or a step hook pauses it (VM_PAUSED). */
vm_status vm_launch_step(vm_launch *L);
void vm_launch_free(vm_launch *L);
/* The in-flight CTA running block `linear`, or NULL. */
vm_cta *vm_launch_find_cta(vm_launch *L, uint64_t linear);
/* Whether block `linear` has started (in flight or finished). */
int vm_launch_cta_started(const vm_launch *L, uint64_t linear);

/* Resolves a generic address for lane `lane`: the space and the address
 * within it (as for the access hook). */
void vm_resolve(const vm_launch *L, int space, uint64_t addr, int *rspace, uint64_t *raddr);
/* Host pointer of n bytes at (space, addr) as lane `lane` of w sees them, or NULL. */
uint8_t *vm_xlate(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, int space, uint64_t addr, uint64_t n, int write);

/* ---- inside the VM (exec.c, warp.c, sched.c) ------------------------------- */

/* Bits set in a lane mask (baseline x86-64 has no popcnt: __builtin_popcount is a libgcc call). */
static inline uint32_t vm_popc32(uint32_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#else
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
#endif
}

/* Every lane's pc of a warp set to v: eight 16-byte stores where SSE2 is
 * there (every x86-64), since GCC unrolls the plain loop into 32 scalar ones. */
static inline void vm_fill_pcs(uint32_t *pcs, uint32_t v)
{
#ifdef __SSE2__
    const __m128i x = _mm_set1_epi32((int)v);
    _Pragma("GCC unroll 8") for (int k = 0; k < BC_WARP; k += 4) _mm_storeu_si128((__m128i *)(pcs + k), x);
#else
    for (int l = 0; l < BC_WARP; l++) pcs[l] = v;
#endif
}

/* Bit l set where bit 0 of slot rg[l] is (a predicate row, or a vote's): bit 0 of 4 slots
 * to their sign bits and movmskpd where AVX2 is built in, of 2 slots by SSE2 (every x86-64),
 * else lane by lane (a loop of shifts and ors took 257 host instructions a warp). */
static inline uint32_t vm_pred_bits(const uint64_t *rg)
{
    uint32_t g = 0;
#if defined(__AVX2__)
    for (int k = 0; k < BC_WARP; k += 4)
        g |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(rg + k)), 63))) << k;
#elif defined(__SSE2__)
    for (int k = 0; k < BC_WARP; k += 2)
        g |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(_mm_slli_epi64(_mm_loadu_si128((const __m128i *)(rg + k)), 63))) << k;
#else
    for (int l = 0; l < BC_WARP; l++) g |= (uint32_t)(rg[l] & 1) << l;
#endif
    return g;
}

double vm_now(void);           /* monotonic seconds */
int vm_cta_alloc(vm_launch *L, vm_cta *c);
/* vm_cta_alloc in two steps: the buffers (none of the registers' or local memory's pages
 * touched), then the
 * constant slots of every warp's registers (vm/par.c: by the thread that runs the slot). */
int vm_cta_alloc_buffers(const vm_launch *L, vm_cta *c);
void vm_cta_set_consts(const vm_launch *L, vm_cta *c);
void vm_cta_free(vm_cta *c);
/* Runs the block at launch position pos in slot c from start to end (one
 * CTA in flight; a parallel launch's workers). */
vm_status vm_run_block(vm_launch *L, vm_cta *c, uint64_t pos);

/* vm_exec's group regrouped or ended its turn, with no hooks and one CTA in
 * flight.  If no other warp of c can issue before w's next turn (none has
 * ready lanes), does what the scheduler would do up to then (the end of the
 * round, its limit check, the next pick for w) and returns 1 with w's next
 * group, its pc, where it stops and its budget; else 0 (and *st on a limit). */
int vm_repick(vm_launch *L, vm_cta *c, vm_warp *w, uint32_t *group, uint32_t *pc, uint32_t *stop, int *budget,
              vm_status *st);
#if defined(__x86_64__) && defined(__GNUC__)
/* 1 when all 32 lanes' pcs are p: four loads, one vptest (for callers built for AVX2, or
 * marked target("avx2")). */
__attribute__((target("avx2"))) static inline int vm_pcs_all_at_avx2(const uint32_t *pcs, uint32_t p)
{
    const __m256i pv = _mm256_set1_epi32((int)p);
    __m256i d = _mm256_setzero_si256();
    _Pragma("GCC unroll 4") for (int k = 0; k < BC_WARP; k += 8)
        d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(pcs + k)), pv));
    return _mm256_testz_si256(d, d);
}
#endif

/* A turn vm_next_turn hands over: the warp, its group, the group's pc, where it stops, its budget. */
typedef struct vm_turn { vm_warp *w; uint32_t group, pc, stop; int budget; } vm_turn;
/* vm_exec's warp, with no hooks and one CTA in flight, ended its turn having issued (every lane
 * waits at a barrier): the next warp of the round that the scheduler's loop would run, its group
 * picked and marked as that loop picks and marks it, becomes the turn's.  Returns 1 with *t set
 * (L->next_warp on its warp); 0 at the round's end, which is the scheduler's (its bookkeeping and
 * limit checks).  vm_next_turn_whole is its usual case, inline (in vm_exec's AVX2 copy its
 * loops are vectors): the next warp whole, every lane ready at one pc (pick_group's first rule). */
int vm_next_turn(vm_launch *L, vm_cta *c, vm_turn *t);
static inline int vm_next_turn_whole(vm_launch *L, vm_cta *c, vm_turn *t)
{
    int i = L->next_warp + 1;
    if (i >= c->nwarps) return 0;
    vm_warp *x = &c->warps[i];
    if (x->live != 0xffffffffu) return 0;
    uint32_t p0 = x->pc[0];
#if defined(__AVX2__)
    /* every state byte 0 (LANE_READY), every pc p0: two vptests */
    const __m256i st = _mm256_loadu_si256((const __m256i *)x->state);
    if (!_mm256_testz_si256(st, st) || !vm_pcs_all_at_avx2(x->pc, p0)) return 0;
#else
    uint32_t d = 0;
    uint8_t st = 0;
    for (int l = 0; l < BC_WARP; l++) st |= x->state[l];      /* LANE_READY is 0 */
    for (int l = 0; l < BC_WARP; l++) d |= x->pc[l] ^ p0;
    if (st | d) return 0;
#endif
    uint64_t tick = ++x->tick;
    for (int l = 0; l < BC_WARP; l++) x->lastrun[l] = tick;
    L->turn_progress = 1;
    L->next_warp = i;
    t->w = x, t->group = 0xffffffffu, t->pc = p0, t->stop = UINT32_MAX;
    t->budget = L->cfg.slice > 0 ? L->cfg.slice : VM_SLICE;
    return 1;
}

/* Runs lanes `mask` of w (all at pc) until they diverge, block, exit, or
 * `budget` instructions have issued.  stop: the lowest pc above pc of the
 * warp's other ready lanes (UINT32_MAX: none), where the group stops to
 * merge with them; 0: vm_exec finds it. */
vm_status vm_exec(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t mask, uint32_t pc, int budget, uint32_t stop);

/* Records a fault at pc for the lowest lane of `lanes`. */
vm_status vm_fail(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, vm_status st,
                  const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* warp.c: collectives and barriers.  Each is called with the lanes that
 * execute the instruction at pc (guard true) and the whole issued group. */
vm_status warp_collective(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t group, uint32_t pc);
vm_status warp_barrier(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc);
/* warp_barrier for the usual case, a whole warp (every lane live; the
 * caller checks that no hook watches) at `bar.sync` with one constant id and
 * no thread count: the same effects without the per-lane checks, and the
 * lanes' pcs written.  Returns 1 when the arrival completed the barrier (the
 * lanes then wait at pc + 1, ready), 0 when the warp waits, -1 when the
 * instruction is not of that form (nothing done: warp_barrier decides). */
int warp_bar_whole(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t pc);
/* A collective that the issuing group completes by itself: all of it
 * executes I (no lane guarded off) with one membermask that needs no other
 * lane, and no hook watches.  Delivers the results as the rendezvous would
 * and returns 1 (the group goes on at pc + 1); 0: warp_collective decides. */
int warp_collective_group(vm_launch *L, vm_warp *w, const bc_insn *I, uint32_t group);
/* After lanes of w exited: completes what no longer waits for them. */
void warp_on_exit(vm_launch *L, vm_cta *cta, vm_warp *w);
/* Lines describing why each blocked lane of the CTA waits (deadlock report). */
char *warp_blocked_report(vm_launch *L, vm_cta *cta);

#endif
