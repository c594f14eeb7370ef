/* par.c — several host threads running the CTAs of one launch, with one
 * thread's results (the scheme: par.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "vm.h"
#include "par.h"

#define PAR_MMAP_MIN (64u << 10)   /* larger zeroed arrays come from mmap: zero pages, freed at once */
#define PAR_POPULATE_MAX (16u << 20)  /* shadow words of one launch mapped at once, up to this many bytes */
#define PAR_GUIDED 4           /* a worker takes 1/(workers * PAR_GUIDED) of the blocks left at once */

/* One block's printf output, kept until the launch ends. */
typedef struct par_out { uint64_t pos; char *text; size_t len; } par_out;

/* Workers are cache-line aligned and a multiple of lines long: each runs
 * in its own vm_launch copy, and one worker's counters sharing a line with
 * the next one's launch fields slowed `calls` on two threads by 25%. */
typedef struct par_worker {
    _Alignas(VM_CACHE_LINE) vm_launch L;  /* the worker's copy of the launch, one CTA slot */
    vm_par *P;
    struct par_worker *next_task;   /* the helper threads' queue (below) */
    char *buf;                 /* printf output of the running block */
    size_t len, cap;
    int oom;
    int borrowed;              /* L.ctas is the launch's own slot (the first worker's) */
    int oom_slot;              /* no memory for its slot: it runs no block */
    double begin, end, busy;   /* vm_now() at its first block and when it found none left; time in blocks */
    uint32_t blocks;           /* blocks it ran */
} par_worker;

struct vm_par {
    vm_launch *L;              /* the launch (the caller's) */
    par_alloc *allocs;         /* one per mem_space allocation (index = allocation index) */
    int nallocs;
    uint8_t *atom_how;         /* per pc: PAR_WRITE, or the PAR_RED + class of an atom whose result is unused */
    par_worker *workers;
    int nworkers;
    uint64_t next;             /* next launch position to start (atomic) */
    int stop;                  /* a worker stopped the launch (atomic) */
    uint64_t insns;            /* instructions issued, for the instruction limit (atomic) */
    pthread_mutex_t lock;      /* guards what follows */
    pthread_cond_t idle;       /* signalled when running drops to 0 */
    int running;               /* workers handed to helper threads and not yet finished (changed under
                                * lock, atomically: tp_finish watches it without the lock) */
    vm_status status;          /* why the launch stopped (the first worker's) */
    vm_fault fault;
    int conflict;              /* the stop was a conflict between blocks */
    char conflict_msg[160];
    par_out *outs;
    size_t nouts, capouts;
    double start;              /* vm_now() when the launch began (for vm_par_times) */
};

/* ---- eligibility ---------------------------------------------------------------------- */

int vm_par_eligible(const vm_launch *L, const char **why)
{
    const vm_hooks *H = L->cfg.hooks;
    const bc_module *m = L->m;
    *why = NULL;
    if (L->cfg.jobs <= 1) *why = "--jobs 1";
    else if (L->nctas < 2) *why = "one block";
    else if (L->nres > 1) *why = "resident blocks or a cooperative launch";
    else if (H && (!H->thread_safe || H->step || H->pick || H->select)) *why = "hooks (checker, debugger or statistics)";
    if (*why) return 0;
    for (int f = 0; f < m->nfuncs && !*why; f++) {
        const bc_func *fn = &m->funcs[f];
        if (f != L->kfunc && fn->is_entry) continue;
        for (uint32_t pc = fn->pc_begin; pc < fn->pc_end && !*why; pc++) {
            const bc_insn *I = &m->code[pc];
            if (I->op == OP_CALL_FFI) *why = "calls to host functions";
            else if (I->op == OP_CALL_BUILTIN && (m->funcs[I->imm].builtin == BC_BUILTIN_MALLOC ||
                                                 m->funcs[I->imm].builtin == BC_BUILTIN_FREE))
                *why = "device malloc/free";
            else if (I->op == OP_SREG && (I->imm == BC_SR_CLOCK || I->imm == BC_SR_CLOCK64 || I->imm == BC_SR_GLOBALTIMER))
                *why = "%clock or %globaltimer";
        }
    }
    return !*why;
}

/* ---- shadow memory -------------------------------------------------------------------- */

/* A zeroed array of n bytes (huge pages where they are taken, mapped on
 * demand; shadow_populate maps a worker's share of them at once). */
static void *zalloc(size_t n)
{
    if (n < PAR_MMAP_MIN) return calloc(1, n ? n : 1);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, n, MADV_HUGEPAGE);       /* fewer page faults, which two threads would also contend on */
#endif
    return p;
}

/* Maps worker k's share (of n) of the pages of the shadow arrays marked for
 * it.  The shadow is read before it is written, so a page that is only mapped
 * on demand is first the shared zero page and then, on the first write, a
 * fresh page whose mapping change interrupts the other workers' cores (a TLB
 * flush).  Populated after the huge-page advice, so in huge pages
 * (MAP_POPULATE maps small ones first); a kernel without MADV_POPULATE_WRITE
 * (before 5.14) leaves them to their first write.  Each worker maps its share
 * before its first block (the launching thread mapping them all took 0.6-8 ms
 * for softmax's 4 MB, which the launch waited for); shares are whole huge
 * pages, the first worker's the rest (a small array is all its), and a share
 * whose worker never starts is mapped by whoever touches it first. */
static void populate_share(void *p, size_t bytes, int k, int n)
{
#ifdef MADV_POPULATE_WRITE
    const size_t huge = (size_t)2 << 20;
    if (bytes < PAR_MMAP_MIN) return;            /* calloc'ed: no mapping of its own */
    size_t per = (bytes / (size_t)n + huge - 1) & ~(huge - 1);
    size_t lo = per * (size_t)k, hi = k == n - 1 || per * (size_t)(k + 1) > bytes ? bytes : per * (size_t)(k + 1);
    if (lo < hi) madvise((uint8_t *)p + lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p, (void)bytes, (void)k, (void)n;
#endif
}
static void shadow_populate(vm_par *P, int k, int n)
{
    for (int i = 0; i < P->nallocs; i++) {
        const par_alloc *a = &P->allocs[i];
        if (!a->populate) continue;
        populate_share(a->word, a->word_bytes, k, n);
        populate_share(a->chunk, a->chunk_bytes, k, n);
    }
}

static void zfree(void *p, size_t n)
{
    if (!p) return;
    if (n < PAR_MMAP_MIN) free(p);
    else munmap(p, n);
}

static void shadow_free(vm_par *P)
{
    for (int i = 0; i < P->nallocs; i++) {
        par_alloc *a = &P->allocs[i];
        zfree(a->word, a->word_bytes);
        zfree(a->chunk, a->chunk_bytes);
        zfree(a->undo, a->size);
    }
    free(P->allocs);
    P->allocs = NULL;
}

/* Marks in w the allocation holding v, or ending at v (a pointer one past
 * a buffer's end, used with negative offsets). */
static void mark_holder(const mem_space *mem, uint64_t v, uint8_t *w)
{
    int i = mem_find(mem, v, 1);
    if (i < 0 && v) i = mem_find(mem, v - 1, 1);
    if (i >= 0) w[i] = 1;
}

/* Per allocation: whether a store of the kernel may reach it.  A parameter
 * word whose bytes a store address derives from may hold a pointer anywhere
 * in it: every 4- and 8-byte value at a 4-byte boundary in or across it is
 * taken for one. */
static uint8_t *writable_allocs(const vm_launch *L)
{
    const mem_space *mem = L->mem;
    uint64_t roots = L->m->store_roots ? L->m->store_roots[L->kfunc] : 1ull << BC_ROOT_ANY;
    uint8_t *w = calloc((size_t)(mem->n ? mem->n : 1), 1);
    if (!w) return NULL;
    if (roots >> BC_ROOT_ANY & 1) { memset(w, 1, (size_t)mem->n); return w; }
    const uint8_t *pb = L->cfg.params;
    uint64_t np = L->cfg.params_size;
    for (uint64_t k = 0; k < BC_ROOT_GLOBALS; k++) {
        if (!(roots >> k & 1)) continue;
        for (uint64_t j = k * 8 >= 4 ? k * 8 - 4 : 0; j <= k * 8 + 4 && pb; j += 4) {
            uint32_t v32;
            uint64_t v64;
            if (j + 4 <= np) { memcpy(&v32, pb + j, 4); mark_holder(mem, v32, w); }
            if (j + 8 <= np) { memcpy(&v64, pb + j, 8); mark_holder(mem, v64, w); }
        }
    }
    if (roots >> BC_ROOT_GLOBALS & 1)
        for (int v = 0; v < L->m->nvars; v++)
            if (L->m->vars[v].space == BC_SP_GLOBAL && L->var_addr) mark_holder(mem, L->var_addr[v], w);
    return w;
}

static int shadow_new(vm_par *P, const vm_launch *L)
{
    const mem_space *mem = L->mem;
    P->nallocs = mem->n;
    P->allocs = calloc((size_t)(mem->n ? mem->n : 1), sizeof *P->allocs);
    uint8_t *writable = writable_allocs(L);
    if (!P->allocs || !writable) { free(writable); return -1; }
    int bad = 0;
    size_t populated = 0;
    for (int i = 0; i < mem->n && !bad; i++) {
        const mem_alloc *al = &mem->allocs[i];
        par_alloc *a = &P->allocs[i];
        a->base = al->base;
        a->size = al->size;
        a->host = al->host;
        a->name = al->name;
        a->ro = !writable[i];
        if (!al->live || !al->size || a->ro) continue;
        a->word_bytes = (size_t)((al->size + 3) / 4) * sizeof *a->word;
        a->chunk_bytes = (size_t)((al->size + PAR_CHUNK - 1) / PAR_CHUNK);
        a->populate = a->word_bytes <= PAR_POPULATE_MAX - populated;
        if (a->populate) populated += a->word_bytes;
        a->word = zalloc(a->word_bytes);
        a->chunk = zalloc(a->chunk_bytes);
        a->undo = zalloc(al->size);      /* written before it is read: never populated */
        bad = !a->word || !a->chunk || !a->undo;
    }
    free(writable);
    return bad ? -1 : 0;
}

par_alloc *vm_par_alloc(vm_par *P, int i)
{
    return &P->allocs[i];
}

/* Whether the n bytes at p are all zero (a 4 KB chunk: 256 bytes per step). */
static int all_zero(const uint8_t *p, uint64_t n)
{
    uint64_t k = 0;
    for (; k + 256 <= n; k += 256) {   /* a block of words or'ed together (vectorised), then one test */
        uint64_t v[32], o = 0;
        memcpy(v, p + k, sizeof v);
        for (int j = 0; j < 32; j++) o |= v[j];
        if (o) return 0;
    }
    for (; k < n; k++) if (p[k]) return 0;
    return 1;
}

/* Saves the chunk holding word wi (once per launch) before anything in it
 * changes: a word becomes written or reduced only after this, so the chunk
 * holds its values from before the launch while it is checked or copied. */
static void ensure_saved(par_alloc *a, uint64_t wi)
{
    uint64_t c = wi * 4 / PAR_CHUNK;
    uint8_t s = __atomic_load_n(&a->chunk[c], __ATOMIC_ACQUIRE);
    if (PAR_CH_SAVED(s)) return;
    uint8_t none = PAR_CH_NONE;
    if (s == PAR_CH_NONE && __atomic_compare_exchange_n(&a->chunk[c], &none, PAR_CH_SAVING, 0, __ATOMIC_ACQ_REL,
                                                        __ATOMIC_ACQUIRE)) {
        uint64_t off = c * PAR_CHUNK, n = a->size - off < PAR_CHUNK ? a->size - off : PAR_CHUNK;
        uint8_t done = PAR_CH_ZERO;
        if (!all_zero(a->host + off, n)) { memcpy(a->undo + off, a->host + off, n); done = PAR_CH_COPIED; }
        __atomic_store_n(&a->chunk[c], done, __ATOMIC_RELEASE);
        return;
    }
    while (!PAR_CH_SAVED(__atomic_load_n(&a->chunk[c], __ATOMIC_ACQUIRE))) { /* another worker is saving it */ }
}


/* Notes the first conflict: "block (x,y,z) " and then fmt's text. */
static void note_conflict(vm_launch *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_conflict(vm_launch *L, const char *fmt, ...)
{
    vm_par *P = L->par;
    pthread_mutex_lock(&P->lock);
    if (!P->conflict) {
        P->conflict = 1;
        const uint32_t *c = L->cur_cta->ctaid;
        int n = snprintf(P->conflict_msg, sizeof P->conflict_msg, "block (%u,%u,%u) ", c[0], c[1], c[2]);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(P->conflict_msg + n, sizeof P->conflict_msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&P->lock);
}

/* A word that two workers use, one of them writing. */
static void conflict(vm_launch *L, par_alloc *a, uint64_t wi)
{
    note_conflict(L, "and a block on another thread both use bytes %llu..%llu of '%s', one of them writing",
                  (unsigned long long)wi * 4, (unsigned long long)wi * 4 + 3, a->name ? a->name : "?");
}

int par_ro_write(vm_launch *L, par_alloc *a, uint64_t off)
{
    note_conflict(L, "writes byte %llu of '%s', a buffer that no pointer the kernel's stores use points into",
                  (unsigned long long)off, a->name ? a->name : "?");
    return -1;
}

/* The state a word in state s moves to when the worker with tag t accesses
 * it as `how`, or 0 for a conflict. */
static uint32_t next_state(uint32_t s, uint32_t t, int how)
{
    uint32_t kind = s & ~PAR_TAG_MASK, owner = s & PAR_TAG_MASK;
    int mine = owner == t;
    if (!s) return how == PAR_READ ? PAR_K_READ | t : how == PAR_WRITE ? PAR_K_WRITE | t : PAR_K_RED(how - PAR_RED + 1) | t;
    if (kind == PAR_K_READ) {
        if (how == PAR_READ) return mine || !owner ? s : PAR_K_READ;
        return mine ? PAR_K_WRITE | t : 0;           /* read, then written or reduced: one worker's */
    }
    if (kind == PAR_K_WRITE) return mine ? s : 0;
    /* reduced */
    if (how >= PAR_RED && kind == PAR_K_RED(how - PAR_RED + 1)) return mine || !owner ? s : kind;
    return mine ? PAR_K_WRITE | t : 0;               /* this worker alone also reads it or reduces it otherwise */
}

/* Whether moving a word from state s to n changes memory it guards: the
 * chunk must be saved first. */
static inline int needs_save(uint32_t s, uint32_t n)
{
    uint32_t nk = n & ~PAR_TAG_MASK, sk = s & ~PAR_TAG_MASK;
    return nk != PAR_K_READ && (sk == 0 || sk == PAR_K_READ);
}

int par_word_slow(vm_launch *L, par_alloc *a, uint64_t wi, int how)
{
    uint32_t t = L->par_tag;
    par_word s = __atomic_load_n(&a->word[wi], __ATOMIC_ACQUIRE);
    for (;;) {
        uint32_t n = next_state(s, t, how);
        if (!n) {
            conflict(L, a, wi);
            return -1;
        }
        if (n == s) return 0;
        if (needs_save(s, n)) ensure_saved(a, wi);
        if (__atomic_compare_exchange_n(&a->word[wi], &s, (par_word)n, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 0;
    }
}

/* Eight shadow words (16 bytes) in one compare-exchange, where the CPU has
 * one (every x86-64 CPU with AVX2 does): a warp's row is half as many
 * locked operations, each as dear as one of 8 bytes.  Not under
 * ThreadSanitizer, which has no 16-byte atomics. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_THREAD__)
#include <cpuid.h>
#define PAR_CX16 1
static int cx16(void)
{
    static int v = -1;                 /* threads may race to set it, to the same value */
    int r = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (r < 0) {
        unsigned a, b, c, d;
        r = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_CMPXCHG16B) ? 1 : 0;
        __atomic_store_n(&v, r, __ATOMIC_RELAXED);
    }
    return r;
}

/* Replaces the 16 bytes at q (lo, hi) by n twice; 0 when they changed.
 * (Inline assembly: clang calls a library function for a 16-byte __sync.) */
static inline int cas16(uint64_t *q, uint64_t lo, uint64_t hi, uint64_t n)
{
    unsigned char ok;
    __asm__ __volatile__("lock cmpxchg16b %1\n\tsete %0"
                         : "=q"(ok), "+m"(*(volatile unsigned __int128 *)q), "+a"(lo), "+d"(hi)
                         : "b"(n), "c"(n)
                         : "memory", "cc");
    return ok;
}
#else
#define PAR_CX16 0
#endif

int par_track_row(vm_launch *L, uint32_t tag, par_alloc *a, uint64_t off, uint64_t n, int how)
{
    if (a->ro) return how == PAR_READ ? 0 : par_ro_write(L, a, off);
    /* a write or reduction saves the row's chunks first (usually one, already
     * saved: one load), so no word below needs to */
    if (how != PAR_READ)
        for (uint64_t c = off / PAR_CHUNK; c <= (off + n - 1) / PAR_CHUNK; c++)
            if (!PAR_CH_SAVED(__atomic_load_n(&a->chunk[c], __ATOMIC_ACQUIRE))) ensure_saved(a, c * PAR_CHUNK / 4);
    const uint64_t ones = PAR_ONES4;
    uint64_t w0 = off >> 2, w1 = (off + n - 1) >> 2;
    uint64_t mine = ones * (PAR_K_WRITE | tag);     /* this worker's: anything goes */
    uint64_t steady = how == PAR_READ ? ones * PAR_K_READ : mine;   /* read by several workers */
#if PAR_CX16
    const int wide = cx16();
#endif
    uint64_t wi = w0;
#if PAR_CX16
    if (wide && how == PAR_WRITE && !((w0 | (w1 + 1)) & 7))
        /* the usual first write: untouched words claimed eight at a time (the
         * state next_state gives), until a group in another state */
        for (; wi <= w1; wi += 8) {
            uint64_t *q = (uint64_t *)(a->word + wi);
            uint64_t lo = __atomic_load_n(q, __ATOMIC_RELAXED), hi = __atomic_load_n(q + 1, __ATOMIC_RELAXED);
            if (lo == mine && hi == mine) continue;
            if ((lo | hi) || !cas16(q, 0, 0, mine)) break;
        }
#endif
    while (wi <= w1) {
#if PAR_CX16
        if (wide && wi % 8 == 0 && wi + 7 <= w1) {   /* eight words in one state: one 16-byte step */
            uint64_t *q = (uint64_t *)(a->word + wi);
            uint64_t lo = __atomic_load_n(q, __ATOMIC_RELAXED), hi = __atomic_load_n(q + 1, __ATOMIC_RELAXED);
            if (lo == hi && (lo == mine || lo == steady)) { wi += 8; continue; }
            uint32_t s = (uint32_t)(lo & 0xffff), nx = next_state(s, tag, how);
            if (lo == ones * s && hi == lo && nx) {
                if (nx == s || cas16(q, lo, hi, ones * nx)) wi += 8;
                continue;                   /* on a lost race (or a torn read), these eight again */
            }
        }
#endif
        if (wi % 4 == 0 && wi + 3 <= w1) {
            uint64_t *q = (uint64_t *)(a->word + wi), v = __atomic_load_n(q, __ATOMIC_RELAXED);
            if (v == mine || v == steady) { wi += 4; continue; }
            uint32_t s = (uint32_t)(v & 0xffff), nx = next_state(s, tag, how);
            if (v == ones * s && nx) {      /* four words in one state: one step for all of them */
                if (nx == s) { wi += 4; continue; }
                if (__atomic_compare_exchange_n(q, &v, ones * nx, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) wi += 4;
                continue;                   /* on a lost race, this group again */
            }
            /* reads of words only ever read, none of them by this worker alone:
             * shared by several workers, four at a time */
            const uint64_t kinds = 0xf000f000f000f000ull, read4 = ones * PAR_K_READ;
            uint64_t tagged = (v ^ ones * tag) & 0x0fff0fff0fff0fffull;   /* 0 in a word of tag */
            if (how == PAR_READ && (v & kinds) == read4 && !((tagged - ones) & ~tagged & 0x8000800080008000ull)) {
                if (__atomic_compare_exchange_n(q, &v, read4, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) wi += 4;
                continue;
            }
        }
        if (par_track(L, tag, a, wi * 4, 4, how)) return -1;
        wi++;
    }
    return 0;
}

/* Copies every saved chunk back: global memory as it was before the launch. */
static void rollback(vm_par *P)
{
    for (int i = 0; i < P->nallocs; i++) {
        par_alloc *a = &P->allocs[i];
        if (!a->chunk) continue;
        for (uint64_t c = 0; c * PAR_CHUNK < a->size; c++) {
            if (!PAR_CH_SAVED(a->chunk[c])) continue;
            uint64_t off = c * PAR_CHUNK, n = a->size - off < PAR_CHUNK ? a->size - off : PAR_CHUNK;
            if (a->chunk[c] == PAR_CH_ZERO) memset(a->host + off, 0, n);
            else memcpy(a->host + off, a->undo + off, n);
        }
    }
}

/* ---- reductions ------------------------------------------------------------------------ */

/* Slots that some instruction may read (conservatively: every operand field
 * but d, and every word of the operand lists). */
static uint8_t *slots_read(const bc_module *m)
{
    uint8_t *r = calloc((size_t)m->nslots + 1, 1);
    if (!r) return NULL;
#define MARK(s) do { uint32_t s_ = (s) / BC_WARP; if (s_ < m->nslots) r[s_] = 1; } while (0)
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const bc_insn *I = &m->code[pc];
        MARK(I->a); MARK(I->b); MARK(I->c); MARK(I->e);
        if (I->guard != BC_NO_GUARD) MARK(I->guard);
    }
    for (uint32_t k = 0; k < m->nextra; k++) MARK(m->extra[k]);
#undef MARK
    return r;
}

/* The reduction class of an atomic operation, or 0 when it does not commute. */
static int red_class(int op, int kind)
{
    int is64 = kind == BC_K_U64 || kind == BC_K_S64;
    int integer = kind == BC_K_U32 || kind == BC_K_S32 || is64;
    int sgn = kind == BC_K_S32 || kind == BC_K_S64;
    if (!integer) return 0;
    switch (op) {
    case BC_RED_ADD: return is64 ? PAR_RC_ADD64 : PAR_RC_ADD32;
    case BC_RED_AND: return PAR_RC_AND;
    case BC_RED_OR: return PAR_RC_OR;
    case BC_RED_XOR: return PAR_RC_XOR;
    case BC_RED_MIN: return is64 ? (sgn ? PAR_RC_SMIN64 : PAR_RC_UMIN64) : (sgn ? PAR_RC_SMIN32 : PAR_RC_UMIN32);
    case BC_RED_MAX: return is64 ? (sgn ? PAR_RC_SMAX64 : PAR_RC_UMAX64) : (sgn ? PAR_RC_SMAX32 : PAR_RC_UMAX32);
    }
    return 0;
}

/* Per pc: how an atom uses memory (a reduction when nothing reads its result). */
static uint8_t *atom_kinds(const bc_module *m)
{
    uint8_t *how = calloc((size_t)m->ncode + 1, 1);
    uint8_t *rd = slots_read(m);
    if (!how || !rd) { free(how); free(rd); return NULL; }
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const bc_insn *I = &m->code[pc];
        if (I->op != OP_ATOM) continue;
        int cls = red_class(I->m1, I->m2);
        int unused = !I->n || !rd[I->d / BC_WARP];
        how[pc] = (uint8_t)(cls && unused ? PAR_RED + cls - 1 : PAR_WRITE);
    }
    free(rd);
    return how;
}

/* ---- workers -------------------------------------------------------------------------- */

static void capture(void *ctx, const char *text, size_t len)
{
    par_worker *wk = ctx;
    if (wk->len + len > wk->cap) {
        size_t nc = (wk->cap + len) * 2;
        char *nb = realloc(wk->buf, nc);
        if (!nb) { wk->oom = 1; return; }
        wk->buf = nb;
        wk->cap = nc;
    }
    memcpy(wk->buf + wk->len, text, len);
    wk->len += len;
}

/* The first stop wins; later ones (other workers noticing it) are dropped. */
static void stop_with(vm_par *P, vm_status st, const vm_fault *f)
{
    pthread_mutex_lock(&P->lock);
    if (!P->status) {
        P->status = st;
        P->fault = *f;
        P->fault.report = NULL;
    }
    pthread_mutex_unlock(&P->lock);
    __atomic_store_n(&P->stop, 1, __ATOMIC_RELEASE);
}

static int keep_output(vm_par *P, uint64_t pos, par_worker *wk)
{
    pthread_mutex_lock(&P->lock);
    int bad = 0;
    if (P->nouts == P->capouts) {
        size_t nc = P->capouts ? P->capouts * 2 : 64;
        par_out *no = realloc(P->outs, nc * sizeof *no);
        if (no) { P->outs = no; P->capouts = nc; } else bad = 1;
    }
    if (!bad) {
        P->outs[P->nouts++] = (par_out){ pos, wk->buf, wk->len };
        wk->buf = NULL;
        wk->len = wk->cap = 0;
    }
    pthread_mutex_unlock(&P->lock);
    return bad ? -1 : 0;
}

/* A helper's CTA slot, without its constant slots (worker_main sets them); -1 when out
 * of memory.  The launching thread allocates every helper's before it starts them
 * (vm_par_run): a mapping is a system call that waits for every other thread's page
 * faults and mappings in progress, and helpers allocating their slots at once, beside
 * the first worker's faults, queued on the memory-map lock (1-8 ms before the last of
 * 16 began a block; the first pages of each register file, where the constants go, took
 * the launching thread another 0.5 ms for 15 slots). */
static int worker_slot(par_worker *wk)
{
    vm_launch *W = &wk->L;
    W->ctas = calloc(1, sizeof *W->ctas);
    W->cur_cta = W->ctas;
    return !W->ctas || vm_cta_alloc_buffers(W, W->ctas) ? -1 : 0;
}

static void *worker_main(void *arg)
{
    par_worker *wk = arg;
    vm_par *P = wk->P;
    vm_launch *W = &wk->L;
    uint64_t pos = 0, end = 0;       /* the run of launch positions taken, [pos, end) */
    if (wk->oom_slot) return NULL;       /* a helper with no slot takes no block: the others run them all */
    if (!wk->borrowed) vm_cta_set_consts(W, W->ctas);
    shadow_populate(P, (int)(wk - P->workers), P->nworkers);
    wk->begin = vm_now();
    while (!__atomic_load_n(&P->stop, __ATOMIC_ACQUIRE)) {
        if (pos == end) {
            /* a run of consecutive blocks, a 1/(workers * PAR_GUIDED) share of
             * those left: neighbouring blocks, which often touch neighbouring
             * memory, mostly run on one worker (no cache line or undo chunk
             * passed between cores), and the runs shrink towards the end, so
             * the workers still finish together */
            uint64_t seen = __atomic_load_n(&P->next, __ATOMIC_RELAXED);
            uint64_t run = (seen < W->nctas ? W->nctas - seen : 0) / ((uint64_t)P->nworkers * PAR_GUIDED);
            if (!run) run = 1;
            pos = __atomic_fetch_add(&P->next, run, __ATOMIC_RELAXED);
            if (pos >= W->nctas) break;
            end = pos + run < W->nctas ? pos + run : W->nctas;
        }
        wk->len = 0;
        double t = vm_now();
        vm_status st = vm_run_block(W, &W->ctas[0], pos);
        wk->busy += vm_now() - t;
        wk->blocks++;
        if (!st && wk->oom) st = vm_fail(W, W->cur_cta, NULL, -1, 0, VM_ERROR, "out of host memory for printf output");
        if (!st && wk->len && keep_output(P, pos, wk))
            st = vm_fail(W, W->cur_cta, NULL, -1, 0, VM_ERROR, "out of host memory for printf output");
        if (st) {
            stop_with(P, st, &W->fault);
            break;
        }
        pos++;
    }
    wk->end = vm_now();
    return NULL;
}

/* ---- helper threads ---------------------------------------------------------------- */

/* Threads that run workers, started once and kept for later launches (a
 * launch of a few short blocks cost more in pthread_create and
 * pthread_join than in its blocks).  A launch queues its workers but the
 * first, which it runs itself; a helper takes one, runs it and counts it
 * done in its vm_par.  A queued worker that no helper took when the launch's
 * own is done is taken back (the blocks are all taken by then).  After a
 * fork the child has no helpers: it starts its own. */
static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tp_queued = PTHREAD_COND_INITIALIZER;
static par_worker *tp_queue;   /* workers waiting for a helper */
static int tp_idle;            /* helpers asleep, waiting for work */
static int tp_spinning;        /* helpers watching tp_queue before they sleep (no wake-up needed) */
static int tp_threads;         /* helpers started */

/* How long a helper, and a launch waiting for its helpers, watch for the other side before
 * they sleep: waking a sleeping thread on another core (a futex wake, an interrupt between
 * cores, in a virtual machine an exit to the hypervisor) took ~15 us of a launch of 4 small
 * blocks, which back-to-back launches (a CUDA program under `exec`) pay every time. */
#define TP_SPIN_SECS 100e-6

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
/* Spins while `busy` holds, for at most TP_SPIN_SECS (the clock read every 64 rounds). */
#define TP_WATCH(busy) do { \
        double t0_ = vm_now(); \
        for (int i_ = 1; (busy); i_++) { cpu_relax(); if (i_ % 64 == 0 && vm_now() - t0_ > TP_SPIN_SECS) break; } \
    } while (0)
static pthread_once_t tp_once = PTHREAD_ONCE_INIT;

static void tp_after_fork(void)
{
    pthread_mutex_init(&tp_lock, NULL);
    pthread_cond_init(&tp_queued, NULL);
    tp_queue = NULL;
    tp_idle = 0;
    tp_spinning = 0;
    tp_threads = 0;
}

static void tp_init(void) { pthread_atfork(NULL, NULL, tp_after_fork); }

static void *worker_main(void *arg);

static void worker_done(vm_par *P)
{
    pthread_mutex_lock(&P->lock);
    if (__atomic_sub_fetch(&P->running, 1, __ATOMIC_RELEASE) == 0) pthread_cond_signal(&P->idle);   /* tp_finish may spin on it */
    pthread_mutex_unlock(&P->lock);
}

static void *tp_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&tp_lock);
    for (;;) {
        if (!tp_queue) {               /* the next launch may follow at once: watch a while */
            tp_spinning++;
            pthread_mutex_unlock(&tp_lock);
            TP_WATCH(!__atomic_load_n(&tp_queue, __ATOMIC_RELAXED));
            pthread_mutex_lock(&tp_lock);
            tp_spinning--;
        }
        while (!tp_queue) {
            tp_idle++;
            pthread_cond_wait(&tp_queued, &tp_lock);
            tp_idle--;
        }
        par_worker *wk = tp_queue;
        __atomic_store_n(&tp_queue, wk->next_task, __ATOMIC_RELAXED);   /* spinners read it without the lock */
        pthread_mutex_unlock(&tp_lock);
        vm_par *P = wk->P;             /* wk may be freed once it is counted done */
        worker_main(wk);
        worker_done(P);
        pthread_mutex_lock(&tp_lock);
    }
    return NULL;
}

/* Starts one more helper (tp_lock held); -1 when the system refuses. */
static int tp_start(void)
{
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int bad = pthread_create(&t, &a, tp_main, NULL);
    pthread_attr_destroy(&a);
    if (bad) return -1;
    tp_threads++;
    return 0;
}

void vm_par_warm(int jobs)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);   /* more than the cores: started when a launch needs them */
    if (cpus > 0 && jobs > cpus) jobs = (int)cpus;
    pthread_once(&tp_once, tp_init);
    pthread_mutex_lock(&tp_lock);
    while (tp_threads < jobs - 1 && tp_threads < PAR_MAX_WORKERS && !tp_start()) {}
    pthread_mutex_unlock(&tp_lock);
}

/* Queues worker wk for a helper, starting one if none is idle; -1 when no
 * helper could be started (the launch then has one worker fewer). */
static int tp_submit(par_worker *wk)
{
    pthread_once(&tp_once, tp_init);
    pthread_mutex_lock(&tp_lock);
    int queued = 0;
    par_worker **q = &tp_queue;
    for (; *q; q = &(*q)->next_task) queued++;
    if (tp_idle + tp_spinning <= queued && tp_start()) {   /* every free helper has a worker waiting already */
        pthread_mutex_unlock(&tp_lock);
        return -1;
    }
    wk->next_task = NULL;
    __atomic_store_n(q, wk, __ATOMIC_RELEASE);   /* a spinning helper sees it without the lock */
    pthread_mutex_lock(&wk->P->lock);
    __atomic_add_fetch(&wk->P->running, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&wk->P->lock);
    /* a spinning helper takes it (it checks the queue under the lock before it sleeps) */
    int wake = tp_spinning <= queued;
    pthread_mutex_unlock(&tp_lock);
    if (wake) pthread_cond_signal(&tp_queued);   /* after the unlock: the helper woken need not wait for the lock */
    return 0;
}

/* Takes P's workers that no helper has taken out of the queue, and waits
 * for the others to finish. */
static void tp_finish(vm_par *P)
{
    pthread_mutex_lock(&tp_lock);
    for (par_worker **q = &tp_queue; *q;) {
        if ((*q)->P == P) {
            __atomic_store_n(q, (*q)->next_task, __ATOMIC_RELAXED);
            pthread_mutex_lock(&P->lock);
            __atomic_sub_fetch(&P->running, 1, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&P->lock);
        }
        else q = &(*q)->next_task;
    }
    pthread_mutex_unlock(&tp_lock);
    TP_WATCH(__atomic_load_n(&P->running, __ATOMIC_ACQUIRE));   /* the helpers usually end within a block of this one */
    pthread_mutex_lock(&P->lock);
    while (P->running) pthread_cond_wait(&P->idle, &P->lock);
    pthread_mutex_unlock(&P->lock);
}

static int worker_init(vm_par *P, par_worker *wk, const vm_launch *L)
{
    wk->P = P;
    vm_launch *W = &wk->L;
    *W = *L;
    memset(&W->fault, 0, sizeof W->fault);
    W->insns = W->lane_insns = 0;
    W->gc_base = W->gc_size = W->gc2_base = W->gc2_size = W->gc3_base = W->gc3_size = 0;
    W->gc_host = W->gc2_host = W->gc3_host = NULL;
    W->gc_pa = W->gc2_pa = W->gc3_pa = NULL;
    W->next_cta = 0;
    W->next_warp = 0;
    W->turns = 0;
    W->finished = 0;
    W->cur_slot = 0;
    W->nres = 1;
    W->par = P;
    W->par_tag = (uint32_t)(wk - P->workers) + 1;
    W->par_atom_how = P->atom_how;
    W->cfg.output = capture;
    W->cfg.output_ctx = wk;
    /* the first worker runs on the launching thread in the launch's own slot
     * (unused while the workers run: one resident CTA); the others get
     * theirs from vm_par_run before they start (worker_slot) */
    wk->borrowed = wk == P->workers;
    W->ctas = wk->borrowed ? L->ctas : NULL;
    W->cur_cta = W->ctas;
    return 0;
}

static void worker_free(par_worker *wk)
{
    if (!wk->borrowed && wk->L.ctas) {
        vm_cta_free(wk->L.ctas);
        free(wk->L.ctas);
    }
    free(wk->L.fault.report);
    free(wk->buf);
}

int vm_par_limits(vm_launch *W)
{
    vm_par *P = W->par;
    vm_launch *L = P->L;
    /* the instruction limit counts every worker's instructions */
    uint64_t total = __atomic_add_fetch(&P->insns, W->insns - W->par_flushed, __ATOMIC_RELAXED);
    W->par_flushed = W->insns;
    if (__atomic_load_n(&P->stop, __ATOMIC_ACQUIRE)) return vm_fail(W, W->cur_cta, NULL, -1, 0, VM_LIMIT, "stopped");
    if (L->cfg.insn_limit && total > L->cfg.insn_limit)
        return vm_fail(W, W->cur_cta, NULL, -1, 0, VM_LIMIT, "instruction limit of %llu reached",
                       (unsigned long long)L->cfg.insn_limit);
    if (L->cfg.timeout > 0 && vm_now() - L->start_time > L->cfg.timeout)
        return vm_fail(W, W->cur_cta, NULL, -1, 0, VM_LIMIT, "time limit of %g s reached", L->cfg.timeout);
    if (L->stop_requested) return vm_fail(W, W->cur_cta, NULL, -1, 0, VM_LIMIT, "stopped");
    return VM_OK;
}

/* The workers' times (vm_par_times), from the launch's start; workers that ran no block
 * (a helper out of memory) are left out. */
static void par_times(const vm_par *P, double setup, vm_par_times *t)
{
    memset(t, 0, sizeof *t);
    t->setup = setup;
    t->blocks_min = UINT32_MAX;
    for (int i = 0; i < P->nworkers; i++) {
        const par_worker *wk = &P->workers[i];
        if (!wk->begin) continue;
        double b = wk->begin - P->start, e = wk->end - P->start;
        t->last_start = b > t->last_start ? b : t->last_start;
        t->first_end = !t->first_end || e < t->first_end ? e : t->first_end;
        t->end = e > t->end ? e : t->end;
        t->busy += wk->busy;
        t->blocks_min = wk->blocks < t->blocks_min ? wk->blocks : t->blocks_min;
        t->blocks_max = wk->blocks > t->blocks_max ? wk->blocks : t->blocks_max;
    }
    if (t->blocks_min == UINT32_MAX) t->blocks_min = 0;
}

static int cmp_out(const void *a, const void *b)
{
    const par_out *x = a, *y = b;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Writes the kept printf output of the blocks that finished, in launch order
 * (after a time limit, blocks after one that did not finish may be among them). */
static void flush_outputs(vm_par *P, vm_launch *L)
{
    if (P->nouts) qsort(P->outs, P->nouts, sizeof *P->outs, cmp_out);
    for (size_t i = 0; i < P->nouts; i++)
        if (L->cfg.output) L->cfg.output(L->cfg.output_ctx, P->outs[i].text, P->outs[i].len);
}

static void par_free(vm_par *P)
{
    for (int i = 0; i < P->nworkers; i++) worker_free(&P->workers[i]);
    free(P->workers);
    for (size_t i = 0; i < P->nouts; i++) free(P->outs[i].text);
    free(P->outs);
    free(P->atom_how);
    shadow_free(P);
    pthread_cond_destroy(&P->idle);
    pthread_mutex_destroy(&P->lock);
    free(P);
}

int vm_par_run(vm_launch *L, int *st_out, char *note, size_t len)
{
    vm_par *P = calloc(1, sizeof *P);
    if (!P) { snprintf(note, len, "out of host memory"); return 0; }
    pthread_mutex_init(&P->lock, NULL);
    pthread_cond_init(&P->idle, NULL);
    P->L = L;
    P->start = vm_now();
    uint64_t nw = (uint64_t)L->cfg.jobs < L->nctas ? (uint64_t)L->cfg.jobs : L->nctas;
    if (nw > PAR_MAX_WORKERS) nw = PAR_MAX_WORKERS;
    P->workers = aligned_alloc(VM_CACHE_LINE, nw * sizeof *P->workers);
    if (P->workers) memset(P->workers, 0, nw * sizeof *P->workers);
    int bad = !P->workers || shadow_new(P, L) || !(P->atom_how = atom_kinds(L->m));
    for (uint64_t i = 0; i < nw && !bad; i++) {
        P->nworkers++;
        bad = worker_init(P, &P->workers[i], L);
    }
    if (bad) { snprintf(note, len, "out of host memory for the workers"); par_free(P); return 0; }
    for (int i = 1; i < P->nworkers; i++) P->workers[i].oom_slot = worker_slot(&P->workers[i]) != 0;
    /* started: the workers the launch is split into (a helper may come too late
     * to find a block left: the count does not depend on timing) */
    int started = 1;
    for (int i = 1; i < P->nworkers && !tp_submit(&P->workers[i]); i++) started++;
    double setup = vm_now() - P->start;
    worker_main(&P->workers[0]);
    tp_finish(P);
    uint64_t insns = 0, lane = 0;
    for (int i = 0; i < P->nworkers; i++) {
        insns += P->workers[i].L.insns;
        lane += P->workers[i].L.lane_insns;
    }
    int timed_out = P->status == VM_LIMIT && strstr(P->fault.msg, "time limit");
    int done = !P->status || timed_out ? started : 0;
    if (!done) {
        rollback(P);
        if (P->conflict) snprintf(note, len, "%s", P->conflict_msg);
        else snprintf(note, len, "%s in a block (run again on one thread for its report)", vm_status_name(P->status));
    } else {
        L->insns = insns;
        L->lane_insns = lane;
        L->next_cta = L->nctas;
        L->finished = !P->status;
        if (P->status) L->fault = P->fault;
        flush_outputs(P, L);
        par_times(P, setup, &L->fault.par);
        *st_out = P->status;
    }
    par_free(P);
    return done;
}
