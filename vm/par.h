/* par.h — the CTAs of one launch on several host threads (vm_config.jobs),
 * with results bit-identical to one thread's.
 *
 * Ownership: a vm_par (one per parallel attempt of a launch) owns the
 * workers (their vm_launch copies and CTA slots), the shadow state of every
 * global allocation and the undo copies of the chunks written; vm_run
 * creates and frees it around the attempt.  Workers borrow the module, the
 * mem_space and the launch's constants.  The helper threads that run the
 * workers (all but the first, which the launching thread runs) belong to
 * par.c and outlive launches: they wait for queued workers.
 *
 * How results stay those of one thread.  One thread runs the blocks one
 * after another in launch order, so block i sees the global writes of
 * blocks < i and none of blocks > i.  Workers take blocks in that order (runs
 * of consecutive blocks, shorter towards the end), each running its blocks
 * one after another, so data that flows between blocks of one worker flows
 * in launch order.  Every global access first updates
 * the shadow word of each 4 bytes it touches: which worker touched it and
 * how (read, written, reduced by one commutative atomic).  Two workers
 * touching one word where one of them writes it is a conflict: data would
 * flow between their blocks in an order that may differ from one thread's.
 * Integer atomics whose result nothing reads (add, and, or, xor, min, max of
 * one kind) commute, so several workers may reduce into one word.  When
 * every block has run without a conflict, every word was written by one
 * worker's blocks in launch order (or only reduced by commuting reductions),
 * and read by other workers only if nobody wrote it: the memory, the printf
 * output (kept per block and written in launch order) and the instruction
 * counts are one thread's.
 * On a conflict, a fault, a deadlock or the instruction limit, the workers
 * stop, the chunks written are copied back from their undo copies (taken
 * before the first write to each chunk) and the launch runs again on one
 * thread, which gives exactly one thread's result and report.  A time limit
 * stops the workers and is reported as is (it depends on timing anyway).
 *
 * Buffers that no store of the kernel can reach (bc_flow_store_roots
 * with the launch's parameter values) are read-only for the launch: their
 * reads need no shadow, and a write to one (the analysis missed a way to
 * it) stops the launch like a conflict, so the analysis decides speed only.
 *
 * Launches that run on one thread from the start: one block, resident CTAs
 * or a cooperative launch (blocks interleave by design), hooks (the checker,
 * the debugger, statistics) unless they declare thread_safe, and kernels
 * that call malloc/free or host functions or read %clock/%clock64/
 * %globaltimer (whose values count the instructions of earlier blocks).
 */
#ifndef PTXEMU_PAR_H
#define PTXEMU_PAR_H

#include <stddef.h>
#include <stdint.h>

struct vm_launch;

/* Shadow word (16 bits per 4 bytes of memory): the kind in the top 4 bits,
 * below it the tag of the worker that touched it (0: several workers, for
 * reads and reductions).  0 = untouched. */
typedef uint16_t par_word;
#define PAR_TAG_BITS 12
#define PAR_TAG_MASK ((1u << PAR_TAG_BITS) - 1)
#define PAR_MAX_WORKERS ((int)PAR_TAG_MASK)
#define PAR_K_READ (1u << PAR_TAG_BITS)
#define PAR_K_WRITE (2u << PAR_TAG_BITS)
#define PAR_K_RED(cls) ((2u + (uint32_t)(cls)) << PAR_TAG_BITS)

/* How an access uses memory (the `write` argument of vm_xlate): */
enum {
    PAR_READ = 0,
    PAR_WRITE = 1,
    PAR_RED = 2        /* + class - 1: a reduction that commutes with its class */
};
/* Reduction classes (1..13): by operation and, where it matters, size and sign. */
enum { PAR_RC_ADD32 = 1, PAR_RC_ADD64, PAR_RC_AND, PAR_RC_OR, PAR_RC_XOR, PAR_RC_UMIN32, PAR_RC_UMAX32,
       PAR_RC_SMIN32, PAR_RC_SMAX32, PAR_RC_UMIN64, PAR_RC_UMAX64, PAR_RC_SMIN64, PAR_RC_SMAX64 };

#define PAR_CHUNK 4096u        /* undo granularity */
/* A chunk's undo state: saved chunks (ZERO or COPIED) may be written.  A chunk
 * of zeros (a buffer cleared before the launch, the usual output) is not
 * copied: the undo buffer's pages are never touched, and a rollback clears it. */
enum { PAR_CH_NONE, PAR_CH_SAVING, PAR_CH_COPIED, PAR_CH_ZERO };
#define PAR_CH_SAVED(s) ((s) >= PAR_CH_COPIED)

/* The shadow of one global allocation. */
typedef struct par_alloc {
    uint64_t base, size;
    uint8_t *host;
    const char *name;          /* the allocation's name, for the note on a conflict */
    par_word *word;            /* per 4 bytes: kind | worker tag */
    uint8_t *chunk;            /* per PAR_CHUNK bytes: PAR_CH_* */
    uint8_t *undo;             /* saved chunks, as they were when the launch started */
    size_t word_bytes, chunk_bytes;
    int populate;              /* its shadow arrays are mapped before the first blocks, a share by each worker (up to PAR_POPULATE_MAX in all) */
    int ro;                    /* no store of the kernel reaches it (bc_flow_store_roots): reads are
                                  not tracked (no shadow), a write stops the launch like a conflict */
} par_alloc;

typedef struct vm_par vm_par;

/* Whether the launch may run on several threads (see above); with a reason
 * when not, for --time's report. */
int vm_par_eligible(const struct vm_launch *L, const char **why);

/* Runs the launch on cfg.jobs threads.  Returns the number of threads with
 * *st when it ran to an end (ok, or a time limit); 0 when the launch must
 * run on one thread instead (it could not start, or it stopped and global
 * memory is as before the launch), with the reason in note. */
int vm_par_run(struct vm_launch *L, int *st, char *note, size_t len);

/* The shadow of allocation i of the launch's mem_space. */
par_alloc *vm_par_alloc(vm_par *P, int i);

/* A worker's periodic check (instead of the one-thread limits): the global
 * instruction limit, the time limit, another worker's stop. */
int vm_par_limits(struct vm_launch *L);

/* The slow path of par_track for one word: 0, or -1 on a conflict. */
int par_word_slow(struct vm_launch *L, par_alloc *a, uint64_t wi, int how);

/* A write to a read-only allocation: notes it as the conflict; returns -1. */
int par_ro_write(struct vm_launch *L, par_alloc *a, uint64_t off);

/* par_track for a whole warp accessing n consecutive bytes from off (lane l
 * at off + l * n / 32): untouched words are claimed eight at a time (four without cmpxchg16b). */
int par_track_row(struct vm_launch *L, uint32_t tag, par_alloc *a, uint64_t off, uint64_t n, int how);

#define PAR_ONES4 0x0001000100010001ull   /* one state in each of four shadow words */

/* Whether nothing needs recording for a whole warp's access of the n bytes from
 * off (word-aligned, a multiple of 16 bytes from a multiple of 16): every shadow
 * word is already this worker's (its chunk saved) or, for a read, read by
 * several workers.  The usual access after a worker's first to its data, four
 * words a load; 0 sends it to par_track_row.  Not for a read-only allocation (no shadow). */
static inline int par_row_steady(const par_alloc *a, uint32_t tag, uint64_t off, uint64_t n, int how)
{
    if ((off | n) & 15) return 0;
    const uint64_t mine = PAR_ONES4 * (PAR_K_WRITE | tag), steady = how == PAR_READ ? PAR_ONES4 * PAR_K_READ : mine;
    const uint64_t *q = (const uint64_t *)(a->word + off / 4);
    for (uint64_t k = 0; k < n / 16; k++) {
        uint64_t v = __atomic_load_n(q + k, __ATOMIC_RELAXED);
        if (v != mine && v != steady) return 0;
    }
    return 1;
}

/* Records an access of n bytes at offset off of allocation a by the worker
 * with tag `tag`: 0, or -1 when it conflicts with another worker's (the caller then
 * treats the access as a fault, which makes the launch run again on one
 * thread).  Must come before the access itself. */
static inline int par_track(struct vm_launch *L, uint32_t tag, par_alloc *a, uint64_t off, uint64_t n, int how)
{
    if (a->ro) return how == PAR_READ ? 0 : par_ro_write(L, a, off);
    uint64_t w0 = off >> 2, w1 = (off + n - 1) >> 2;
    for (uint64_t wi = w0; wi <= w1; wi++) {
        /* acquire: a word another worker moved to a shared reduction was saved (its chunk
         * read by ensure_saved) before that move; this worker's access comes after the save */
        uint32_t s = __atomic_load_n(&a->word[wi], __ATOMIC_ACQUIRE);
        if (s == (PAR_K_WRITE | tag)) continue;                     /* this worker's: anything goes */
        if (how == PAR_READ && (s == (PAR_K_READ | tag) || s == PAR_K_READ)) continue;
        if (how >= PAR_RED && (s & ~PAR_TAG_MASK) == PAR_K_RED(how - PAR_RED + 1) && ((s & PAR_TAG_MASK) == tag || !(s & PAR_TAG_MASK)))
            continue;
        if (par_word_slow(L, a, wi, how)) return -1;
    }
    return 0;
}

#endif
