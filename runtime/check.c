/* check.c — the checker's engine: the VM hooks (happens-before race
 * detection, uninitialised reads, mask and barrier rules), the adversarial
 * scheduler, and the loop over schedules.  Reports: check_out.c.
 *
 * Happens-before.  Every thread of the CTA in flight has a vector clock:
 * its own clock `clk` plus a `base` vector (reference-counted and shared
 * copy-on-write, so that a barrier that joins 1024 threads costs one vector
 * per distinct base, not one per thread).  Program order orders a thread's
 * own accesses only; lanes of one warp are different threads.  Orderings:
 *   - a CTA barrier: each arriving lane publishes its clock (bar.arrive
 *     too); at completion every released lane acquires the join;
 *   - a warp collective (sync hook, id -1): its lanes join each other;
 *   - flags: a volatile or atomic write by a thread that has executed a
 *     fence releases its clock (as of that fence) to the word; a volatile
 *     or atomic read of the word acquires it.  .release/.acq_rel accesses
 *     imply the fence before them, .acquire the one after (sem_table).
 * Other CTAs: CTAs have no mutual order, so a word last touched by another
 * CTA conflicts unless a flag carried knowledge of that CTA; that knowledge
 * is kept per thread: a sparse map inside the vectors from a CTA to a
 * shared, never-modified snapshot of the clocks of its threads that its
 * release carried.
 *
 * Shadow memory: per 4-byte word the last write and up to CHK_NREADS
 * concurrent reads (epoch, pc, bytes touched, flags).  Shared memory has an
 * array reset per CTA; global memory a hash table of the touched words.
 * Uninitialised reads: a bit per shared byte (per CTA) and per local byte
 * (per thread, allocated on first use).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "check_int.h"
#include "ptxemu.h"
#include "pool.h"

const char *const chk_kind_names[CHK_NKINDS] = {
    "race", "deadlock", "mask", "barrier", "memory", "uninit", "schedule"
};

#define BIT(l) (1u << (l))
#define CHK_NREADS 3
#define REC_VALID 0x80
#define REC_FENCED 0x40          /* the thread had executed a fence before */
#define MARKED (VM_ACC_ATOMIC | VM_ACC_VOLATILE)
#define SEM_REL 1                /* .release / .acq_rel: a fence before the access */
#define SEM_ACQ 2                /* .acquire / .acq_rel: a fence after it */

/* ---- random numbers ------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t chk_schedule_seed(uint64_t base, int k)
{
    if (k == 0) return base;
    uint64_t s = base + (uint64_t)k * 0x9E3779B97F4A7C15ull;
    uint64_t r = splitmix(&s);
    return r ? r : 1;
}

/* ---- vector clocks --------------------------------------------------------------- */

/* Knowledge of another (finished) CTA: the clocks of its threads that a
 * release of that CTA carried (snap->v, shared and never modified). */
typedef struct fent { uint64_t cta; struct vc *snap; } fent;

typedef struct vc {
    uint32_t refs, n;
    fent *fm;                    /* knowledge of other CTAs */
    int nfm, capfm;
    uint32_t v[];
} vc;

static vc *vc_new(uint32_t n)
{
    vc *x = calloc(1, sizeof *x + (size_t)n * sizeof(uint32_t));
    if (!x) abort();
    x->refs = 1;
    x->n = n;
    return x;
}

static void vc_unref(vc *x)
{
    while (x && --x->refs == 0) {
        /* snapshots chain through their own knowledge: free iteratively
         * along the last entry, recursively (shallow) for the others */
        vc *next = x->nfm ? x->fm[x->nfm - 1].snap : NULL;
        for (int i = 0; i + 1 < x->nfm; i++) vc_unref(x->fm[i].snap);
        free(x->fm);
        free(x);
        x = next;
    }
}

/* Adds knowledge of CTA `cta` (its thread clocks snap->v) to x. */
static void fm_put(vc *x, uint64_t cta, vc *snap)
{
    for (int i = 0; i < x->nfm; i++) {
        if (x->fm[i].cta != cta) continue;
        vc *o = x->fm[i].snap;
        if (o == snap) return;
        uint32_t k = 0;
        while (k < o->n && o->v[k] >= snap->v[k]) k++;
        if (k == o->n) return;                       /* already known */
        vc *m = vc_new(o->n);
        for (k = 0; k < o->n; k++) m->v[k] = o->v[k] > snap->v[k] ? o->v[k] : snap->v[k];
        vc_unref(o);
        x->fm[i].snap = m;
        return;
    }
    if (x->nfm == x->capfm) {
        x->capfm = x->capfm ? x->capfm * 2 : 4;
        x->fm = realloc(x->fm, (size_t)x->capfm * sizeof *x->fm);
        if (!x->fm) abort();
    }
    snap->refs++;
    x->fm[x->nfm++] = (fent){ cta, snap };
}

static const vc *fm_get(const vc *x, uint64_t cta)
{
    for (int i = 0; i < x->nfm; i++) if (x->fm[i].cta == cta) return x->fm[i].snap;
    return NULL;
}

static vc *vc_copy(const vc *a)
{
    vc *x = vc_new(a->n);
    memcpy(x->v, a->v, (size_t)a->n * sizeof(uint32_t));
    for (int i = 0; i < a->nfm; i++) fm_put(x, a->fm[i].cta, a->fm[i].snap);
    return x;
}

static void vc_max(vc *x, const vc *a)
{
    for (uint32_t i = 0; i < x->n; i++) if (a->v[i] > x->v[i]) x->v[i] = a->v[i];
    for (int i = 0; i < a->nfm; i++) fm_put(x, a->fm[i].cta, a->fm[i].snap);
}

/* ---- shadow memory ---------------------------------------------------------------- */

typedef struct rec {             /* 16 bytes */
    uint32_t cta;                /* linear CTA index (low 32 bits) */
    uint32_t clk, pc;
    uint16_t tid;                /* linear thread index in the CTA */
    uint8_t flags;               /* VM_ACC_* | REC_* */
    uint8_t bytes;               /* low 4 bits: bytes of the word touched; reads: high 4 bits: age */
} rec;

#define RBYTES(r) ((r)->bytes & 15)
/* Concurrent reads of a word; when all are valid, a new read replaces the
 * oldest (the lowest age). */
typedef struct rset { rec r[CHK_NREADS]; } rset;
/* Shared memory: a word's last write and reads, per CTA (records of an
 * earlier CTA are stale: invalid). */
typedef struct shadow { rec w; rset rd; } shadow;

/* Open-addressing table from a word key to a slot in a pool. */
typedef struct wtab { uint64_t *keys; uint32_t *idx; size_t cap, n; } wtab;

static size_t wtab_find(wtab *t, uint64_t key, int *found)
{
    size_t mask = t->cap - 1, i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (t->idx[i] && t->keys[i] != key) i = (i + 1) & mask;
    *found = t->idx[i] != 0;
    return i;
}

/* Returns the pool index (1-based) for key, inserting `next` if absent. */
static uint32_t wtab_get(wtab *t, uint64_t key, uint32_t next, int *inserted)
{
    if (t->n * 2 >= t->cap) {
        wtab o = *t;
        t->cap = o.cap ? o.cap * 2 : 1024;
        t->keys = calloc(t->cap, sizeof *t->keys);
        t->idx = calloc(t->cap, sizeof *t->idx);
        if (!t->keys || !t->idx) abort();
        for (size_t i = 0; i < o.cap; i++)
            if (o.idx[i]) { int f; size_t j = wtab_find(t, o.keys[i], &f); t->keys[j] = o.keys[i]; t->idx[j] = o.idx[i]; }
        free(o.keys);
        free(o.idx);
    }
    int f;
    size_t i = wtab_find(t, key, &f);
    *inserted = !f;
    if (!f) { t->keys[i] = key; t->idx[i] = next; t->n++; }
    return t->idx[i];
}

static uint32_t wtab_lookup(wtab *t, uint64_t key)
{
    if (!t->cap) return 0;
    int f;
    size_t i = wtab_find(t, key, &f);
    return f ? t->idx[i] : 0;
}

static void wtab_clear(wtab *t)
{
    if (t->cap) { memset(t->idx, 0, t->cap * sizeof *t->idx); }
    t->n = 0;
}

static void wtab_free(wtab *t) { free(t->keys); free(t->idx); memset(t, 0, sizeof *t); }

/* One page of records (see gp_get), and which 4 KB parts of it were
 * written since it was mapped. */
#define GP_PARTS 4               /* 64-bit words of `written`: pages of up to 256 x 4 KB */
typedef struct gpage {
    uint8_t *mem;
    uint64_t written[GP_PARTS];
} gpage;

/* Pages of records over guest global memory (see gp_get). */
typedef struct gptab {
    wtab map;                    /* page number -> index + 1 in pages */
    gpage **pages;
    uint32_t n, cap;
    gpage **free;                /* recycled pages */
    uint32_t nfree, capfree;
    size_t elem;                 /* bytes per word */
    uint64_t last_key;
    gpage *last;
} gptab;

/* ---- global shadow pages ------------------------------------------------------------ */

/* Pages of per-word records in guest global memory, mapped on demand
 * (untouched parts cost no memory): the last write of each word (kept for
 * the whole launch: other blocks' writes conflict), and the reads (with
 * one CTA in flight, only its own reads matter: the read pages are taken
 * back at each CTA's start and reused without clearing, their records
 * being stale). */
#define GP_BITS 14               /* words per page: 1 << GP_BITS */

/* Pages of finished schedules, kept for the next one (vm/pool.h, up to
 * 64 MB): `exec --check` mapped, faulted in and unmapped its pages at every
 * launch, a quarter of a small launch's check.  A page is cleared when it is
 * taken again: records of another launch would look live. */
static void gp_release(void *p, size_t n) { munmap(p, n); }
static vm_pool gp_pool = VM_POOL_INIT((size_t)64 << 20, gp_release);

static gpage *gp_map(size_t bytes)
{
    gpage *g = calloc(1, sizeof *g);
    if (!g || bytes > (size_t)GP_PARTS * 64 * 4096) abort();
    g->mem = vm_pool_take(&gp_pool, bytes, 0);
    if (g->mem) {                      /* cleared: every part written */
        memset(g->mem, 0, bytes);
        memset(g->written, 0xff, sizeof g->written);
        return g;
    }
    g->mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->mem == MAP_FAILED) abort();
    return g;
}

/* Writes a zero to 4 KB part k of a fresh page before anything reads it:
 * read first, a part would map the shared zero page, and the first write
 * then replaces that mapping, which with several threads interrupts every
 * other core to flush it from its TLB (a third of histogram's check). */
static __attribute__((noinline)) void gp_write_part(gpage *g, size_t k)
{
    *(volatile uint8_t *)(g->mem + (k << 12)) = 0;
    g->written[k >> 6] |= 1ull << (k & 63);
}

/* The page of `word`'s key in T (created, or taken from the free list). */
static gpage *gp_page(gptab *T, uint64_t key)
{
    int ins;
    uint32_t i = wtab_get(&T->map, key, T->n + 1, &ins);
    if (ins) {
        if (T->n == T->cap) {
            T->cap = T->cap ? T->cap * 2 : 64;
            T->pages = realloc(T->pages, (size_t)T->cap * sizeof *T->pages);
            if (!T->pages) abort();
        }
        T->pages[T->n++] = T->nfree ? T->free[--T->nfree] : gp_map(T->elem << GP_BITS);
    }
    T->last_key = key;
    return T->last = T->pages[i - 1];
}

/* The record of `word` in T (its page created, or taken from the free list),
 * to be written (write: its part of the page is written first, see
 * gp_write_part) or only read. */
static inline void *gp_get(gptab *T, uint64_t word, int write)
{
    uint64_t key = word >> GP_BITS;
    gpage *g = T->last && T->last_key == key ? T->last : gp_page(T, key);
    size_t off = (size_t)(word & ((1u << GP_BITS) - 1)) * T->elem;
    if (write)                         /* the record's first and last byte's parts */
        for (size_t k = off >> 12; k <= (off + T->elem - 1) >> 12; k++)
            if (!(g->written[k >> 6] >> (k & 63) & 1)) gp_write_part(g, k);
    return g->mem + off;
}

/* The pages go to the free list (their records stay, stale). */
static void gp_recycle(gptab *T)
{
    if (!T->n) return;
    if (T->nfree + T->n > T->capfree) {
        T->capfree = T->nfree + T->n;
        T->free = realloc(T->free, (size_t)T->capfree * sizeof *T->free);
        if (!T->free) abort();
    }
    memcpy(T->free + T->nfree, T->pages, (size_t)T->n * sizeof *T->pages);
    T->nfree += T->n;
    T->n = 0;
    T->last = NULL;
    wtab_clear(&T->map);
}

static void gp_free(gptab *T)
{
    for (uint32_t i = 0; i < T->n; i++) { vm_pool_give(&gp_pool, T->pages[i]->mem, T->elem << GP_BITS, 0); free(T->pages[i]); }
    for (uint32_t i = 0; i < T->nfree; i++) { vm_pool_give(&gp_pool, T->free[i]->mem, T->elem << GP_BITS, 0); free(T->free[i]); }
    free(T->pages);
    free(T->free);
    wtab_free(&T->map);
}

/* A flag word that carried a release. */
typedef struct syncloc { vc *rel; uint64_t rel_cta; } syncloc;

/* ---- checker state ------------------------------------------------------------------ */

typedef struct thr {
    uint32_t clk;
    vc *base;
    uint64_t fence_seq;
    uint32_t fence_clk;
    uint8_t fenced;
    uint32_t suspect;            /* lanes named in our mask that joined another rendezvous */
    uint32_t suspect_pc;
} thr;

typedef struct arrival { uint32_t tid, clk, pc; int aligned; vc *base; } arrival;
typedef struct arrlist { arrival *a; int n, cap; } arrlist;

typedef chk_sched sched;

typedef struct ck {
    chk_result *res;
    int max_findings;
    uint64_t seed;
    int schedule;
    sched S;
    vm_hooks H;                  /* the hooks of instrumented blocks */
    chk_def *def;                /* definedness of values (check_def.c) */
    const chk_def_quick *defq;   /* its state the access hook tests inline */
    const uint64_t *sample;      /* sorted linear indices of the instrumented blocks; NULL: all */
    uint64_t nsample;
    int skip_others;             /* blocks outside the sample do not run at all (independent blocks) */
    /* block independence (the hardware-like schedule of a sampled launch) */
    vm_hooks Hfoot;              /* for blocks outside the sample: the footprint only */
    gptab fp;                    /* per global word: first block + 1 (24 bits), FP_* flags, atomic op */
    const uint8_t *atoms;        /* per pc: the atomic's op + 1 when commutative with an unused result, else FP_OP_ANY */
    int foot, dependent;
    int note_unordered;          /* schedule-free code: record unordered plain read / atomic pairs */
    int unordered_atomic;
    uint32_t dep_pc;
    char dep_why[160];
    /* launch geometry */
    uint32_t n;                  /* threads per CTA */
    uint32_t block[3], grid[3];
    int nwarps;
    uint64_t cta;                /* linear index of the CTA in flight */
    uint32_t ctaid[3];
    uint64_t seq;                /* event counter */
    uint64_t steps;
    thr *t;
    /* shared memory */
    uint64_t shared_size;
    shadow *sh;
    wtab sh_sync;
    syncloc *sh_locs; uint32_t nsh_locs, capsh_locs;
    /* global memory */
    wtab gl;
    gptab gw, gr;                /* last writes (whole launch), reads (CTA in flight when one) */
    int gr_tag;                  /* read records are per CTA (one CTA in flight: pages recycled) */
    wtab gl_sync;
    syncloc *gl_locs; uint32_t ngl_locs, capgl_locs;
    uint32_t local_size;
    /* barriers */
    arrlist *pend;               /* [warp * VM_NBAR + id] */
    uint64_t bar_done_step[VM_NBAR];
    vc *bar_join[VM_NBAR];
    uint8_t *bar_seen;           /* [id][thread] bit: the thread executed barrier id in this CTA */
    uint32_t bar_nseen[VM_NBAR]; /* distinct threads that executed barrier id */
    uint32_t bar_count[VM_NBAR]; /* the thread count it was last executed with (0: all) */
    int ran_activemask;
    int pauses;                  /* consecutive pauses at aligned barriers */
    const uint8_t *sem;          /* per pc: SEM_* of release/acquire accesses, or NULL */
    /* resident > 1: the per-CTA fields above of each CTA slot; the fields of
     * slot `cur` live in this struct, the others in slots[] */
    struct ck *slots;
    int nslots, cur;
} ck;

/* The fields that belong to the CTA in flight (threads, barriers, shared shadow). */
#define CK_CTA_FIELDS(X) X(cta) X(ctaid) X(t) X(pend) X(bar_done_step) X(bar_join) X(bar_seen) X(bar_nseen) \
    X(bar_count) X(sh) X(sh_sync) X(sh_locs) X(nsh_locs) X(capsh_locs) X(pauses)
#define CK_COPY(f) memcpy(&to->f, &from->f, sizeof to->f);
static void ck_copy_cta(struct ck *to, const struct ck *from) { CK_CTA_FIELDS(CK_COPY) }

/* Makes CTA slot `slot`'s state the current one (resident > 1). */
static inline void ck_switch(ck *C, int slot)
{
    if (!C->slots || slot == C->cur) return;
    ck_copy_cta(&C->slots[C->cur], C);
    ck_copy_cta(C, &C->slots[slot]);
    C->cur = slot;
}

static void thread_coords(const ck *C, uint32_t lin, uint32_t tid[3])
{
    tid[0] = lin % C->block[0];
    tid[1] = lin / C->block[0] % C->block[1];
    tid[2] = lin / (C->block[0] * C->block[1]);
}

static void grid_coords(const ck *C, uint64_t lin, uint32_t c[3])
{
    c[0] = (uint32_t)(lin % C->grid[0]);
    c[1] = (uint32_t)(lin / C->grid[0] % C->grid[1]);
    c[2] = (uint32_t)(lin / ((uint64_t)C->grid[0] * C->grid[1]));
}

static void site_set(const ck *C, const vm_launch *L, chk_site *s, uint32_t pc, uint32_t lin, uint64_t cta_lin,
                     const char *access)
{
    memset(s, 0, sizeof *s);
    s->valid = 1;
    s->pc = pc;
    s->has_thread = 1;
    s->access = access;
    thread_coords(C, lin, s->tid);
    (void)L;
    grid_coords(C, cta_lin, s->cta);
}

chk_finding *chk_add_finding(chk_result *r, int max, chk_kind kind, const char *key, uint64_t seed, int schedule,
                             uint64_t n)
{
    for (int i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == kind && !strcmp(r->findings[i].key, key)) { r->findings[i].count += n; return NULL; }
    if (r->nfindings >= max) { r->dropped += n; return NULL; }
    if (r->nfindings == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->findings = realloc(r->findings, (size_t)r->cap * sizeof *r->findings);
        if (!r->findings) abort();
    }
    chk_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->count = n;
    f->seed = seed;
    f->schedule = schedule;
    snprintf(f->key, sizeof f->key, "%s", key);
    return f;
}

/* A finding of this schedule (its list is not capped: the merge caps). */
static chk_finding *add_finding(chk_result *r, int max, chk_kind kind, const char *key, uint64_t seed, int schedule)
{
    (void)max;
    return chk_add_finding(r, INT32_MAX, kind, key, seed, schedule, 1);
}

/* ---- CTA lifetime ------------------------------------------------------------------ */

static void arr_clear(arrlist *al)
{
    for (int i = 0; i < al->n; i++) vc_unref(al->a[i].base);
    al->n = 0;
}

static void cta_reset_state(ck *C)
{
    if (C->t)
        for (uint32_t i = 0; i < C->n; i++) {
            vc_unref(C->t[i].base);
        }
    if (C->pend)
        for (int i = 0; i < C->nwarps * VM_NBAR; i++) arr_clear(&C->pend[i]);
    for (int i = 0; i < VM_NBAR; i++) { vc_unref(C->bar_join[i]); C->bar_join[i] = NULL; C->bar_done_step[i] = 0; }
    if (C->bar_seen) memset(C->bar_seen, 0, (size_t)VM_NBAR * (C->n / 8 + 1));
    memset(C->bar_nseen, 0, sizeof C->bar_nseen);
    memset(C->bar_count, 0, sizeof C->bar_count);
    for (uint32_t i = 0; i < C->nsh_locs; i++) vc_unref(C->sh_locs[i].rel);
    C->nsh_locs = 0;
    wtab_clear(&C->sh_sync);
}

static void h_cta_begin(void *ctx, vm_launch *L, vm_cta *cta)
{
    ck *C = ctx;
    if (L->nres > 1 && !C->slots) {          /* each slot keeps its own state: nothing is reset by another CTA */
        C->slots = calloc((size_t)L->nres, sizeof *C->slots);
        if (!C->slots) abort();
        C->nslots = L->nres;
        C->cur = 0;
    }
    ck_switch(C, cta->slot);
    if (!C->t) {
        C->n = L->nthreads;
        C->nwarps = L->nwarps;
        memcpy(C->block, L->cfg.block, sizeof C->block);
        memcpy(C->grid, L->cfg.grid, sizeof C->grid);
        C->t = calloc(C->n, sizeof *C->t);
        C->pend = calloc((size_t)C->nwarps * VM_NBAR, sizeof *C->pend);
        C->shared_size = L->shared_size;
        C->sh = calloc(C->shared_size / 4 + 2, sizeof *C->sh);
        C->local_size = L->cfg.local_size;
        C->bar_seen = calloc((size_t)VM_NBAR * (C->n / 8 + 1), 1);
        if (!C->t || !C->pend || !C->sh || !C->bar_seen) abort();
    } else {
        cta_reset_state(C);               /* shared shadow records of the last CTA are stale */
    }
    chk_def_cta_begin(C->def, L, cta);
    if (L->nres == 1) {                       /* only this CTA's global reads matter from now on */
        C->gr_tag = 1;
        gp_recycle(&C->gr);
    }
    C->cta = cta->linear;
    memcpy(C->ctaid, cta->ctaid, sizeof C->ctaid);
    vc *z = vc_new(C->n);
    z->refs = C->n;
    for (uint32_t i = 0; i < C->n; i++) {
        memset(&C->t[i], 0, sizeof C->t[i]);
        C->t[i].clk = 1;
        C->t[i].base = z;
    }
}

/* ---- vector clock operations on threads ------------------------------------------- */

static inline uint32_t vget(const ck *C, uint32_t t, uint32_t u)
{
    return u == t ? C->t[t].clk : C->t[t].base->v[u];
}

/* Makes thread t's base private (copy-on-write). */
static vc *own_base(ck *C, uint32_t t)
{
    vc *b = C->t[t].base;
    if (b->refs > 1) {
        vc *x = vc_copy(b);
        b->refs--;
        C->t[t].base = x;
        b = x;
    }
    return b;
}

/* Join of a set of (thread, clock, base) into a new vector. */
typedef struct jsrc { uint32_t tid, clk; vc *base; } jsrc;

static vc *join(ck *C, const jsrc *s, int n)
{
    vc *J = vc_new(C->n);
    vc *seen[64];
    int ns = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < ns && seen[k] != s[i].base) k++;
        if (k < ns) continue;
        if (ns < 64) seen[ns++] = s[i].base;
        vc_max(J, s[i].base);
    }
    for (int i = 0; i < n; i++) if (s[i].clk > J->v[s[i].tid]) J->v[s[i].tid] = s[i].clk;
    return J;
}

static void assign(ck *C, uint32_t t, vc *J)
{
    J->refs++;
    vc_unref(C->t[t].base);
    C->t[t].base = J;
}

/* ---- race detection --------------------------------------------------------------- */

static inline int cur_cta(const ck *C, const rec *r) { return r->cta == (uint32_t)C->cta; }

static inline int hb(const ck *C, const rec *r, uint32_t t)
{
    if (cur_cta(C, r)) return r->clk <= vget(C, t, r->tid);
    const vc *snap = fm_get(C->t[t].base, r->cta);
    return snap && r->clk <= snap->v[r->tid];
}

static inline int same_thread(const ck *C, const rec *r, uint32_t t) { return cur_cta(C, r) && r->tid == t; }

/* Conflicting marked accesses that are synchronisation, not races. */
static inline int benign(const rec *r, int flags, int fenced)
{
    int pm = r->flags & MARKED, cm = flags & MARKED;
    /* a plain load next to atomic updates (the first read of a CAS loop)
     * sees a stale but whole value: not reported */
    if (((r->flags & VM_ACC_ATOMIC) && !(flags & VM_ACC_WRITE)) || ((flags & VM_ACC_ATOMIC) && !(r->flags & VM_ACC_WRITE)))
        return 1;
    if (!pm || !cm) return 0;
    if ((r->flags | flags) & VM_ACC_ATOMIC) return 1;
    return (r->flags & REC_FENCED) || fenced;
}

static const char *acc_name(int flags)
{
    if (flags & VM_ACC_ATOMIC) return "atomic";
    if (flags & VM_ACC_WRITE) return flags & VM_ACC_VOLATILE ? "volatile write" : "write";
    return flags & VM_ACC_VOLATILE ? "volatile read" : "read";
}

static void report_race(ck *C, vm_launch *L, int space, uint64_t addr, uint32_t t, uint32_t pc, int flags, const rec *r)
{
    char key[96];
    uint32_t a = pc < r->pc ? pc : r->pc, b = pc < r->pc ? r->pc : pc;
    snprintf(key, sizeof key, "race:%u:%u", a, b);
    chk_finding *f = add_finding(C->res, C->max_findings, CHK_RACE, key, C->seed, C->schedule);
    if (!f) return;
    site_set(C, L, &f->at, pc, t, C->cta, acc_name(flags));
    site_set(C, L, &f->other, r->pc, r->tid, r->cta, acc_name(r->flags));
    const char *sp = space == BC_SP_SHARED ? "shared" : "global";
    if (!cur_cta(C, r))
        snprintf(f->msg, sizeof f->msg,
                 "%s of %s memory at 0x%llx races with a %s by block (%u,%u,%u) thread (%u,%u,%u): "
                 "blocks are not ordered without a fence and an atomic or volatile flag",
                 acc_name(flags), sp, (unsigned long long)addr, acc_name(r->flags), f->other.cta[0], f->other.cta[1],
                 f->other.cta[2], f->other.tid[0], f->other.tid[1], f->other.tid[2]);
    else
        snprintf(f->msg, sizeof f->msg,
                 "%s of %s memory at 0x%llx races with a %s by thread (%u,%u,%u)%s: no barrier, __syncwarp or "
                 "fenced flag orders them",
                 acc_name(flags), sp, (unsigned long long)addr, acc_name(r->flags), f->other.tid[0], f->other.tid[1],
                 f->other.tid[2], r->tid / 32 == t / 32 ? " of the same warp" : "");
}

/* A plain store that writes the bytes already there (same value). */
static int silent_store(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space, uint64_t word,
                        uint8_t bytes, uint64_t addr, int size)
{
    const bc_insn *I = &L->code[pc];
    if (I->op < OP_ST_GLOBAL || I->op > OP_ST_GENERIC || size > 64) return 0;
    uint32_t sz = I->m1, nv = I->n;
    if (sz * nv != (uint32_t)size) return 0;
    const uint32_t *sl = nv > 1 ? &L->m->extra[I->x] : &I->b;
    uint8_t img[64];
    for (uint32_t k = 0; k < nv; k++) memcpy(img + k * sz, &w->R[sl[k] + (uint32_t)lane], sz);
    uint8_t *p = vm_xlate(L, cta, w, lane, space, word * 4, 4, 0);
    if (!p) return 0;
    for (int b = 0; b < 4; b++) {
        if (!(bytes & (1u << b))) continue;
        uint64_t a = word * 4 + (uint64_t)b;
        if (p[b] != img[a - addr]) return 0;
    }
    return 1;
}

/* Whether a record counts: valid, and for per-CTA records (shared memory,
 * recycled global read pages) made by the CTA in flight. */
static inline int live(const ck *C, const rec *r, int tagged)
{
    return (r->flags & REC_VALID) && (!tagged || cur_cta(C, r));
}

/* Makes read slot k the newest: its age is one above the other valid
 * ones (ages are renumbered from 0 when they would pass 15). */
static void read_renumber(const ck *C, rset *rs, int k, int tagged)
{
    int order[CHK_NREADS], n = 0;
    for (int i = 0; i < CHK_NREADS; i++) {
        if (i == k || !live(C, &rs->r[i], tagged)) continue;
        int j = n++;
        while (j > 0 && (rs->r[order[j - 1]].bytes >> 4) > (rs->r[i].bytes >> 4)) { order[j] = order[j - 1]; j--; }
        order[j] = i;
    }
    for (int i = 0; i < n; i++) rs->r[order[i]].bytes = (uint8_t)(RBYTES(&rs->r[order[i]]) | i << 4);
    rs->r[k].bytes = (uint8_t)(RBYTES(&rs->r[k]) | n << 4);
}

/* Records the read nr of `bytes` by thread t in rs: the reads it supersedes
 * (the thread's own, and those of the same bytes that happen before it) are
 * dropped, then it takes the first free slot, or the oldest read's, and is
 * the newest (one above the others' ages).  The records' liveness is read
 * once (lv: the live ones kept). */
static inline __attribute__((always_inline)) void read_insert(const ck *C, rset *rs, const rec *nr, uint32_t t,
                                                              uint8_t bytes, int tagged)
{
    /* one pass: the first free slot, and over the reads kept the oldest (the first of the
     * lowest age) and the highest age; with no free slot all are kept and the oldest goes,
     * which leaves the highest age among the others (the oldest is not above it) */
    int slot = -1, oldest = -1, lo = 16, mx = -1;
    for (int i = 0; i < CHK_NREADS; i++) {
        rec *r = &rs->r[i];
        if (live(C, r, tagged)) {
            if (!same_thread(C, r, t) && !(RBYTES(r) == bytes && hb(C, r, t))) {
                int a = r->bytes >> 4;
                if (a < lo) lo = a, oldest = i;
                if (a > mx) mx = a;
                continue;
            }
            r->flags = 0;
        }
        if (slot < 0) slot = i;
    }
    if (slot < 0) slot = oldest;
    rs->r[slot] = *nr;
    if (mx >= 15) read_renumber(C, rs, slot, tagged);
    else rs->r[slot].bytes = (uint8_t)(RBYTES(&rs->r[slot]) | (mx + 1) << 4);
}

/* Schedule-free code (check_run.c): whether this access and an earlier one
 * of another thread are a plain read and an atomic that nothing orders;
 * benign() keeps them from being races, but what the read sees depends on
 * the schedule, so the other schedules must run. */
static void note_unordered(ck *C, const rec *wr, const rset *rs, int wtag, int rtag, uint8_t bytes, uint32_t t,
                           int flags, int fenced)
{
    /* two atomics commute (schedule-free code has one commutative operation) */
    if (wr && live(C, wr, wtag) && (wr->bytes & bytes) && ((wr->flags ^ flags) & VM_ACC_ATOMIC) &&
        !same_thread(C, wr, t) && benign(wr, flags, fenced) && !hb(C, wr, t))
        C->unordered_atomic = 1;
    if (!(flags & VM_ACC_ATOMIC)) return;
    for (int i = 0; i < CHK_NREADS; i++) {
        const rec *r = &rs->r[i];
        if (live(C, r, rtag) && (r->bytes & bytes) && !(r->flags & VM_ACC_ATOMIC) && !same_thread(C, r, t) &&
            benign(r, flags, fenced) && !hb(C, r, t))
            C->unordered_atomic = 1;
    }
}

/* One access to one word: w its last write, rs its reads; wtag/rtag: the
 * records are per CTA. */
static inline __attribute__((always_inline)) void check_word(ck *C, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, rec *wr, rset *rs, int wtag, int rtag,
                       int space, uint64_t addr, int size, uint64_t word, uint32_t t, uint32_t pc, int flags,
                       uint8_t bytes)
{
    int fenced = C->t[t].fenced;
    int write = (flags & VM_ACC_WRITE) != 0;
    const rec *bad = NULL;
    /* blocks: only writes of different values race directly; a read of
     * another block's write shows as a schedule finding when the order of
     * the blocks changes the result */
    if (wr && live(C, wr, wtag) && (wr->bytes & bytes) && !same_thread(C, wr, t) && !benign(wr, flags, fenced) &&
        !hb(C, wr, t) && (write || cur_cta(C, wr)) &&
        !(write && !(flags & VM_ACC_ATOMIC) && silent_store(L, cta, w, lane, pc, space, word, bytes, addr, size)))
        bad = wr;
    if (write && !bad)
        for (int i = 0; i < CHK_NREADS; i++) {
            rec *r = &rs->r[i];
            if (live(C, r, rtag) && (r->bytes & bytes) && cur_cta(C, r) && !same_thread(C, r, t) &&
                !benign(r, flags, fenced) && !hb(C, r, t)) { bad = r; break; }
        }
    if (C->note_unordered && !bad) note_unordered(C, wr, rs, wtag, rtag, bytes, t, flags, fenced);
    if (bad) report_race(C, L, space, addr, t, pc, flags, bad);
    rec nr = { (uint32_t)C->cta, C->t[t].clk, pc, (uint16_t)t, (uint8_t)(flags | REC_VALID | (fenced ? REC_FENCED : 0)),
               bytes };
    if (write) {
        *wr = nr;
        for (int i = 0; i < CHK_NREADS; i++) if (rs->r[i].bytes & bytes) rs->r[i].flags = 0;
        return;
    }
    read_insert(C, rs, &nr, t, bytes, rtag);
}

/* ---- flags: release and acquire ------------------------------------------------------ */

static syncloc *sync_loc(ck *C, int space, uint64_t word, int create)
{
    wtab *t = space == BC_SP_SHARED ? &C->sh_sync : &C->gl_sync;
    syncloc **pool = space == BC_SP_SHARED ? &C->sh_locs : &C->gl_locs;
    uint32_t *np = space == BC_SP_SHARED ? &C->nsh_locs : &C->ngl_locs;
    uint32_t *cp = space == BC_SP_SHARED ? &C->capsh_locs : &C->capgl_locs;
    if (!create) { uint32_t i = wtab_lookup(t, word); return i ? &(*pool)[i - 1] : NULL; }
    int ins;
    uint32_t i = wtab_get(t, word, *np + 1, &ins);
    if (ins) {
        if (*np == *cp) {
            *cp = *cp ? *cp * 2 : 64;
            *pool = realloc(*pool, (size_t)*cp * sizeof **pool);
            if (!*pool) abort();
        }
        memset(&(*pool)[*np], 0, sizeof **pool);
        (*np)++;
    }
    return &(*pool)[i - 1];
}

static void release(ck *C, int space, uint64_t word, uint32_t t)
{
    thr *T = &C->t[t];
    syncloc *s = sync_loc(C, space, word, 1);
    if (!s->rel) s->rel = vc_new(C->n);
    else if (s->rel_cta != C->cta) {
        /* the word last carried a release of another (finished) CTA: that
         * vector becomes knowledge of that CTA, and the word's vector starts
         * over for this one */
        vc *old = s->rel, *x = vc_new(C->n);
        for (int i = 0; i < old->nfm; i++) fm_put(x, old->fm[i].cta, old->fm[i].snap);
        fm_put(x, s->rel_cta, old);
        vc_unref(old);
        s->rel = x;
    } else if (s->rel->refs > 1) {
        vc *x = vc_copy(s->rel);                    /* snapshots are never modified */
        vc_unref(s->rel);
        s->rel = x;
    }
    vc_max(s->rel, T->base);
    if (T->fence_clk > s->rel->v[t]) s->rel->v[t] = T->fence_clk;
    s->rel_cta = C->cta;
}

static void acquire(ck *C, int space, uint64_t word, uint32_t t)
{
    syncloc *s = sync_loc(C, space, word, 0);
    if (!s || !s->rel) return;
    vc *b = own_base(C, t);
    if (s->rel_cta == C->cta) vc_max(b, s->rel);
    else {
        /* the clocks of the releasing CTA's threads that its release carried */
        fm_put(b, s->rel_cta, s->rel);
        for (int i = 0; i < s->rel->nfm; i++) fm_put(b, s->rel->fm[i].cta, s->rel->fm[i].snap);
    }
}

/* ---- hooks ----------------------------------------------------------------------------- */

/* The definedness tracker found a use of an undefined value. */
static void report_use(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, const char *what,
                       const chk_origin *o)
{
    ck *C = ctx;
    ck_switch(C, cta->slot);
    uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)lane;
    char key[96];
    snprintf(key, sizeof key, "uninit:%u:%u", pc, o->valid ? o->pc : UINT32_MAX);
    chk_finding *f = add_finding(C->res, C->max_findings, CHK_UNINIT, key, C->seed, C->schedule);
    if (!f) return;
    if (!o->valid) {
        site_set(C, L, &f->at, pc, t, C->cta, "use");
        snprintf(f->msg, sizeof f->msg, "an uninitialised value is used %s", what);
        return;
    }
    /* the report sits at the load (the origin); the use is the other side */
    site_set(C, L, &f->at, o->pc, o->tid, o->cta, o->shfl ? "shuffle" : "read");
    site_set(C, L, &f->other, pc, t, C->cta, "use");
    int uline = L->code[pc].line;
    if (o->shfl)
        snprintf(f->msg, sizeof f->msg,
                 "a shuffle took a value from lane %llu, which is outside its membermask (the value is undefined); it is "
                 "used %s at ptx line %d", (unsigned long long)o->addr, what, uline);
    else
        snprintf(f->msg, sizeof f->msg, "read of %s memory at 0x%llx that %s wrote; the value is used %s at ptx line %d",
                 o->space == BC_SP_SHARED ? "shared" : "local", (unsigned long long)o->addr,
                 o->space == BC_SP_SHARED ? "no thread of the block" : "this thread never", what, uline);
}

static inline int bits_all_set(const uint8_t *bm, uint64_t a, int n)
{
    if (n <= 8 && (a & 7) + (uint64_t)n <= 8) {          /* within one byte of the map */
        unsigned m = ((1u << n) - 1) << (a & 7);
        return (bm[a >> 3] & m) == m;
    }
    for (int i = 0; i < n; i++) if (!(bm[(a + (uint64_t)i) >> 3] & (1u << ((a + (uint64_t)i) & 7)))) return 0;
    return 1;
}

static inline void bits_set(uint8_t *bm, uint64_t a, int n)
{
    if (n <= 8 && (a & 7) + (uint64_t)n <= 8) { bm[a >> 3] |= (uint8_t)(((1u << n) - 1) << (a & 7)); return; }
    for (int i = 0; i < n; i++) bm[(a + (uint64_t)i) >> 3] |= (uint8_t)(1u << ((a + (uint64_t)i) & 7));
}

/* Thread t executes a fence (membar/fence, or the one implied by a
 * release or acquire access). */
static void thread_fence(ck *C, uint32_t t)
{
    thr *T = &C->t[t];
    T->fenced = 1;
    T->fence_seq = C->seq;
    T->fence_clk = T->clk;
    T->clk++;
}

static void foot_record(ck *C, uint64_t block, uint32_t pc, uint64_t addr, int size, int flags);

/* One lane's access (the access hook's work); always inline, so that the
 * callers below get a copy for the constant space and flags of a plain
 * shared load, the usual access, with the tests for other kinds folded away. */
static inline __attribute__((always_inline)) void access_one(ck *C, vm_launch *L, vm_cta *cta, vm_warp *w, int lane,
                                                             uint32_t pc, int space, uint64_t addr, int size, int flags)
{
    ck_switch(C, cta->slot);
    uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)lane;
    if (t >= C->n || size <= 0) return;
    C->seq++;
    /* definedness: the usual load of defined shared bytes is tested here, with no
     * call, and a global access matters to it only when it writes (a store of an
     * undefined value is a use) */
    if (!(space == BC_SP_SHARED && (flags & (VM_ACC_READ | VM_ACC_WRITE)) == VM_ACC_READ &&
          chk_def_quiet_read(C->defq, cta->slot, w->id, addr, size)) &&
        !(space == BC_SP_GLOBAL && !(flags & VM_ACC_WRITE)))
        chk_def_access(C->def, L, cta, w, lane, pc, space, addr, size, flags);
    if (space != BC_SP_SHARED && space != BC_SP_GLOBAL) return;
    if (space == BC_SP_GLOBAL && C->foot && !C->dependent) foot_record(C, cta->linear, pc, addr, size, flags);
    int sem = C->sem && (flags & MARKED) ? C->sem[pc] : 0;
    /* st.release / atom.acq_rel: a fence.acq_rel, then the access */
    if (sem & SEM_REL) thread_fence(C, t);
    if (space == BC_SP_SHARED && addr + (uint64_t)size > C->shared_size) return;
    /* the words touched, and the bytes of each (one whole word: the usual access) */
    uint64_t wd0 = addr >> 2, wd1 = (addr + (uint64_t)size - 1) >> 2;
    for (uint64_t wd = wd0; wd <= wd1; wd++) {
        uint8_t bytes = 0xf;
        if (size != 4 || (addr & 3)) {
            uint64_t lo = wd * 4 > addr ? wd * 4 : addr, hi = wd * 4 + 4 < addr + (uint64_t)size ? wd * 4 + 4 : addr + (uint64_t)size;
            bytes = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - wd * 4));
        }
        if (space == BC_SP_SHARED) {
            shadow *sw = &C->sh[wd];
            check_word(C, L, cta, w, lane, &sw->w, &sw->rd, 1, 1, space, addr, size, wd, t, pc, flags, bytes);
        } else {
            /* a read is recorded among the reads and looks at the write; a write replaces
             * the write and clears only read records there are (their parts were written) */
            int wrt = (flags & VM_ACC_WRITE) != 0;
            rset *rs = gp_get(&C->gr, wd, !wrt);
            rec *wr = gp_get(&C->gw, wd, wrt);
            check_word(C, L, cta, w, lane, wr, rs, 0, C->gr_tag, space, addr, size, wd, t, pc, flags, bytes);
        }
        if (flags & MARKED) {
            if (flags & VM_ACC_READ) acquire(C, space, wd, t);
            if ((flags & VM_ACC_WRITE) && C->t[t].fenced) release(C, space, wd, t);
        }
    }
    /* ld.acquire: the access, then a fence.acq_rel */
    if (sem & SEM_ACQ) { C->seq++; thread_fence(C, t); }
}

static void h_access(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space, uint64_t addr,
                     int size, int flags)
{
    if (space == BC_SP_SHARED && flags == VM_ACC_READ) access_one(ctx, L, cta, w, lane, pc, BC_SP_SHARED, addr, size, VM_ACC_READ);
    else access_one(ctx, L, cta, w, lane, pc, space, addr, size, flags);
}

/* The reads of one load instruction by `lanes`, in lane order; plain shared
 * reads of 4 bytes and plain global reads each get their own copy of the
 * access path. */
static void h_access_lanes(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc, int space,
                           const uint64_t *addr, int size, int flags)
{
#define EACH_LANE(SPACE, SIZE, FLAGS) \
    for (uint32_t mm = lanes; mm; mm &= mm - 1) \
        access_one(ctx, L, cta, w, __builtin_ctz(mm), pc, SPACE, addr[__builtin_ctz(mm)], SIZE, FLAGS)
    if (space == BC_SP_SHARED && flags == VM_ACC_READ && size == 4) EACH_LANE(BC_SP_SHARED, 4, VM_ACC_READ);
    else if (space == BC_SP_GLOBAL && flags == VM_ACC_READ) EACH_LANE(BC_SP_GLOBAL, size, VM_ACC_READ);
    else EACH_LANE(space, size, flags);
#undef EACH_LANE
}

static void h_fence(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    ck *C = ctx;
    (void)L; (void)pc;
    ck_switch(C, cta->slot);
    C->seq++;
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)__builtin_ctz(mm);
        if (t < C->n) thread_fence(C, t);
    }
}

static int step(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    ck *C = ctx;
    ck_switch(C, cta->slot);
    C->steps++;
    const bc_insn *I = &L->code[pc];
    if (I->op == OP_ACTIVEMASK) C->ran_activemask = 1;
    if (I->op != OP_BAR) {
        chk_def_step(C->def, L, cta, w, lanes, pc);
        return 0;
    }
    if (C->S.adversarial && (I->flags & BC_IF_ALIGNED) && lanes && lanes != w->live) {
        /* a split group ran ahead to an aligned barrier: pause it there while
         * other lanes of the warp can still come (h_pick then holds it) */
        for (uint32_t mm = w->live & ~lanes; mm; mm &= mm - 1)
            if (w->state[__builtin_ctz(mm)] == LANE_READY && C->pauses < 1000) { C->pauses++; return 1; }
    }
    C->pauses = 0;
    chk_def_step(C->def, L, cta, w, lanes, pc);
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)l;
        uint64_t id = w->R[I->a + (uint32_t)l];
        if (id >= VM_NBAR || t >= C->n) continue;
        arrlist *al = &C->pend[w->id * VM_NBAR + (int)id];
        if (al->n == al->cap) {
            al->cap = al->cap ? al->cap * 2 : 32;
            al->a = realloc(al->a, (size_t)al->cap * sizeof *al->a);
            if (!al->a) abort();
        }
        thr *T = &C->t[t];
        T->base->refs++;
        al->a[al->n++] = (arrival){ t, T->clk, pc, (I->flags & BC_IF_ALIGNED) != 0, T->base };
        uint8_t *seen = &C->bar_seen[(size_t)id * (C->n / 8 + 1) + t / 8];
        if (!(*seen & (1u << (t & 7)))) { *seen |= (uint8_t)(1u << (t & 7)); C->bar_nseen[id]++; }
        C->bar_count[id] = I->n ? (uint32_t)w->R[I->b + (uint32_t)l] : 0;
        T->clk++;
    }
    return 0;
}

static void barrier_complete(ck *C, vm_launch *L, vm_cta *cta, int id)
{
    uint32_t warps = cta->bar[id].warps;
    int n = 0;
    for (uint32_t ww = warps; ww; ww &= ww - 1) n += C->pend[__builtin_ctz(ww) * VM_NBAR + id].n;
    jsrc *s = calloc((size_t)(n ? n : 1), sizeof *s);
    if (!s) abort();
    int k = 0;
    uint32_t pc0 = UINT32_MAX, pc1 = UINT32_MAX, t1 = 0;
    for (uint32_t ww = warps; ww; ww &= ww - 1) {
        arrlist *al = &C->pend[__builtin_ctz(ww) * VM_NBAR + id];
        uint32_t wpc = UINT32_MAX, lanes = 0;
        for (int i = 0; i < al->n; i++) {
            arrival *a = &al->a[i];
            s[k++] = (jsrc){ a->tid, a->clk, a->base };
            /* .aligned: the lanes of a warp execute the same barrier instruction
             * (a lane's second arrival in the phase is reported by the VM) */
            if (lanes & BIT(a->tid % BC_WARP)) continue;
            lanes |= BIT(a->tid % BC_WARP);
            if (wpc == UINT32_MAX) wpc = a->pc;
            else if (a->pc != wpc && (a->aligned || L->code[wpc].flags & BC_IF_ALIGNED) && pc1 == UINT32_MAX) {
                pc0 = wpc;
                pc1 = a->pc;
                t1 = a->tid;
            }
        }
    }
    vc_unref(C->bar_join[id]);
    C->bar_join[id] = join(C, s, k);
    free(s);
    for (uint32_t ww = warps; ww; ww &= ww - 1) arr_clear(&C->pend[__builtin_ctz(ww) * VM_NBAR + id]);
    if (pc1 != UINT32_MAX) {
        char key[96];
        uint32_t a = pc0 < pc1 ? pc0 : pc1, b = pc0 < pc1 ? pc1 : pc0;
        snprintf(key, sizeof key, "barrier:split:%u:%u", a, b);
        chk_finding *f = add_finding(C->res, C->max_findings, CHK_BARRIER, key, C->seed, C->schedule);
        if (f) {
            site_set(C, L, &f->at, pc1, t1, C->cta, "barrier");
            site_set(C, L, &f->other, pc0, 0, C->cta, "barrier");
            f->other.has_thread = 0;
            snprintf(f->msg, sizeof f->msg,
                     "aligned barrier %d completed with lanes of one warp at different instructions (ptx lines %d and %d): "
                     "the lanes of a warp must reach bar.sync/__syncthreads together, at the same instruction",
                     id, L->code[pc0].line, L->code[pc1].line);
        }
    }
}

/* Lanes that named others in their mask while those others completed a
 * different rendezvous: remember, and report if the others never come. */
static void coll_suspects(ck *C, vm_launch *L, vm_warp *w, uint32_t P)
{
    int first = __builtin_ctz(P);
    uint32_t M = w->coll_mask[first];
    uint32_t pcP = w->pc[first] - 1;
    for (int l = 0; l < BC_WARP; l++) {
        uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)l;
        if (t >= C->n) break;
        thr *T = &C->t[t];
        if (P & BIT(l)) {
            /* l completes: were lanes it named elsewhere, and did they exit instead of joining? */
            uint32_t gone = T->suspect & ~P & ~w->live & M;
            if (gone) {
                char key[96];
                snprintf(key, sizeof key, "mask:gone:%u:%u", pcP, T->suspect_pc);
                chk_finding *f = add_finding(C->res, C->max_findings, CHK_MASK, key, C->seed, C->schedule);
                if (f) {
                    site_set(C, L, &f->at, pcP, t, C->cta, "collective");
                    site_set(C, L, &f->other, T->suspect_pc, (uint32_t)w->id * BC_WARP + (uint32_t)__builtin_ctz(gone),
                             C->cta, "collective");
                    snprintf(f->msg, sizeof f->msg,
                             "%s with membermask 0x%08x completed without lanes 0x%08x of the mask: they took part in "
                             "another collective with a different mask and exited (lanes of one mask must execute the "
                             "same collectives)",
                             bc_op_name[L->code[pcP].op], M, gone);
                }
            }
            T->suspect = 0;
            continue;
        }
        if (w->state[l] == LANE_WAIT_COLL && (w->coll_mask[l] & P) && w->coll_mask[l] != M) {
            T->suspect |= w->coll_mask[l] & P;
            T->suspect_pc = pcP;
        }
    }
}

static void h_sync(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, int id)
{
    ck *C = ctx;
    ck_switch(C, cta->slot);
    if (id >= 0) {
        if (C->bar_done_step[id] != C->steps || !C->bar_join[id]) {
            barrier_complete(C, L, cta, id);
            C->bar_done_step[id] = C->steps;
        }
        for (uint32_t mm = lanes; mm; mm &= mm - 1) {
            uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)__builtin_ctz(mm);
            if (t < C->n) assign(C, t, C->bar_join[id]);
        }
        return;
    }
    if (!lanes) return;
    chk_def_coll(C->def, L, cta, w, lanes);
    jsrc s[BC_WARP];
    int k = 0;
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)__builtin_ctz(mm);
        if (t < C->n) s[k++] = (jsrc){ t, C->t[t].clk, C->t[t].base };
    }
    vc *J = join(C, s, k);
    for (int i = 0; i < k; i++) { assign(C, s[i].tid, J); C->t[s[i].tid].clk++; }
    vc_unref(J);
    coll_suspects(C, L, w, lanes);
}

static uint32_t shfl_src(int l, uint32_t b, uint32_t c, int mode)
{
    uint32_t off = b & 31, seg = (c >> 8) & 31, first = (uint32_t)l & seg;
    switch (mode) {
    case BC_SHFL_UP: return (uint32_t)(l - (int)off) & 31;
    case BC_SHFL_DOWN: return (uint32_t)(l + (int)off) & 31;
    case BC_SHFL_BFLY: return (uint32_t)(l ^ (int)off) & 31;
    default: return (first | (off & ~seg)) & 31;
    }
}

static void h_misuse(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, const char *kind,
                     const char *msg)
{
    ck *C = ctx;
    ck_switch(C, cta->slot);
    uint32_t t = (uint32_t)w->id * BC_WARP + (uint32_t)lane;
    const bc_insn *I = &L->code[pc];
    chk_kind k = !strcmp(kind, "mask") ? CHK_MASK : CHK_BARRIER;
    /* Part of a warp at an aligned barrier is fine when the rest exits or
     * arrives later at the same instruction; barrier_complete reports the
     * real defect (threads completing it at different instructions). */
    if (strstr(msg, "part of a warp")) return;
    char text[512];
    snprintf(text, sizeof text, "%s", msg);
    if (I->op == OP_SHFL && strstr(msg, "source lane")) {
        uint32_t M = w->coll_mask[lane];
        uint32_t j = shfl_src(lane, (uint32_t)w->R[I->b + (uint32_t)lane], (uint32_t)w->R[I->c + (uint32_t)lane], I->m1);
        int exited = !(w->live & BIT(j));
        if (M & BIT(j)) {
            if (!exited) return;
            snprintf(text, sizeof text, "shfl.sync in lane %d reads lane %u, which is in the membermask 0x%08x but has %s",
                     lane, j, M, (w->present & BIT(j)) ? "exited" : "no thread (partial warp)");
        } else {
            /* Reading past the end of a partial mask with up/down/bfly (the
             * tail of a reduction over the first n lanes) is the idiom the
             * CUDA guide shows; reading a lane inside the mask's span, or
             * naming a lane outside the mask with idx, is the bug. */
            int lo = __builtin_ctz(M), hi = 31 - __builtin_clz(M);
            if (I->m1 != BC_SHFL_IDX && ((int)j < lo || (int)j > hi)) return;
            snprintf(text, sizeof text,
                     "shfl.sync in lane %d reads lane %u, which is outside the membermask 0x%08x (%s): the value is undefined",
                     lane, j, M, exited ? "and has exited" : "it runs elsewhere");
        }
    } else if (strstr(msg, "not in its own membermask")) {
        snprintf(text, sizeof text, "lane %d executes %s with membermask 0x%08x, which does not contain the lane itself",
                 lane, bc_op_name[I->op], (uint32_t)w->R[I->x + (uint32_t)lane]);
    }
    char key[96];
    snprintf(key, sizeof key, "%s:%u:%.60s", kind, pc, msg);
    chk_finding *f = add_finding(C->res, C->max_findings, k, key, C->seed, C->schedule);
    if (!f) return;
    site_set(C, L, &f->at, pc, t, C->cta, k == CHK_MASK ? "collective" : "barrier");
    snprintf(f->msg, sizeof f->msg, "%s", text);
}

/* ---- the adversarial scheduler ------------------------------------------------------- */

static int rnd_pct(sched *S, int pct) { return pct > 0 && (int)(splitmix(&S->rng) % 100) < pct; }

static uint32_t h_pick(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc)
{
    return chk_sched_pick(&((ck *)ctx)->S, L, cta, w, ready, pc);
}

uint32_t chk_sched_pick(chk_sched *S, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc)
{
    if (cta->nwarps > 1 && rnd_pct(S, S->skip_pct)) return 0;
    /* the distinct pcs of the ready lanes, in the order of their lowest lane */
    uint32_t pcs[BC_WARP], grp[BC_WARP];
    int np = 0, held = 0;
    uint32_t first = w->pc[__builtin_ctz(ready)];
    uint32_t same = 0;
    for (uint32_t mm = ready; mm; mm &= mm - 1) same |= (uint32_t)(w->pc[__builtin_ctz(mm)] == first) << __builtin_ctz(mm);
    if (same == ready) { pcs[0] = first; grp[0] = ready; np = 1; }
    if (!np) {
        int8_t tab[64];                         /* pc hash -> group + 1 */
        memset(tab, 0, sizeof tab);
        for (uint32_t mm = ready; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t pc0 = w->pc[l], h = (pc0 * 0x9E3779B1u) >> 26;
            while (tab[h] && pcs[tab[h] - 1] != pc0) h = (h + 1) & 63;
            if (!tab[h]) { pcs[np] = pc0; grp[np] = 0; tab[h] = (int8_t)++np; }
            grp[tab[h] - 1] |= BIT(l);
        }
    }
    /* an aligned barrier waits for the whole warp while other lanes can still come */
    uint32_t cand[BC_WARP];
    int nc = 0;
    for (int k = 0; k < np; k++) {
        const bc_insn *I = &L->code[pcs[k]];
        if (I->op == OP_BAR && (I->flags & BC_IF_ALIGNED) && grp[k] != w->live) { held++; continue; }
        cand[nc++] = (uint32_t)k;
    }
    int pick;
    if (!nc) {
        pick = 0;
        for (int k = 1; k < np; k++) if (pcs[k] < pcs[pick]) pick = k;
    } else {
        int lo = (int)cand[0], hi = (int)cand[0];
        for (int i = 1; i < nc; i++) {
            if (pcs[cand[i]] < pcs[lo]) lo = (int)cand[i];
            if (pcs[cand[i]] > pcs[hi]) hi = (int)cand[i];
        }
        if (rnd_pct(S, S->low_pct)) pick = lo;
        else if (rnd_pct(S, S->high_pct)) pick = hi;
        else pick = (int)cand[splitmix(&S->rng) % (uint64_t)nc];
    }
    uint32_t g = grp[pick];
    *pc = pcs[pick];
    const bc_insn *I = &L->code[*pc];
    if (__builtin_popcount(g) > 1 && !(I->op == OP_BAR && (I->flags & BC_IF_ALIGNED))) {
        if (rnd_pct(S, S->single_pct)) {
            int n = __builtin_popcount(g), k = (int)(splitmix(&S->rng) % (uint64_t)n);
            uint32_t mm = g;
            while (k--) mm &= mm - 1;
            g = BIT(__builtin_ctz(mm));
        } else if (rnd_pct(S, S->split_pct)) {
            uint32_t sub = g & (uint32_t)splitmix(&S->rng);
            if (sub) g = sub;
        }
    }
    return g;
}

int chk_sched_init(chk_sched *S, uint64_t seed, int *slice, uint64_t *cta_order_seed)
{
    memset(S, 0, sizeof *S);
    *slice = 0;
    *cta_order_seed = seed;
    if (!seed) return 0;
    S->adversarial = 1;
    S->rng = seed;
    uint64_t r = splitmix(&S->rng);
    static const int split[] = { 30, 60, 90, 100 }, single[] = { 0, 10, 40, 80 }, low[] = { 0, 20, 50, 80 },
                     high[] = { 0, 30, 60 }, skip[] = { 0, 10, 30, 50 }, sl[] = { 1, 2, 4, 8, 32 };
    S->split_pct = split[r % 4];
    S->single_pct = single[(r >> 8) % 4];
    S->low_pct = low[(r >> 16) % 4];
    S->high_pct = high[(r >> 24) % 3];
    S->skip_pct = skip[(r >> 32) % 4];
    *slice = sl[(r >> 40) % 5];
    return 1;
}

/* ---- after a schedule ------------------------------------------------------------------ */

void chk_launch_site(const ptxemu_module *m, int kernel, chk_site *s)
{
    memset(s, 0, sizeof *s);
    if (kernel < 0 || kernel >= m->bc->nfuncs) return;
    const bc_func *f = &m->bc->funcs[kernel];
    s->valid = 1;
    s->pc = f->pc_begin;
    for (uint32_t pc = f->pc_begin; pc < f->pc_end; pc++)
        if (m->bc->code[pc].src >= 0) { s->pc = pc; break; }
}

static void fault_site(const vm_fault *ft, chk_site *s, const char *access)
{
    memset(s, 0, sizeof *s);
    s->valid = 1;
    s->pc = ft->pc;
    s->has_thread = 1;
    memcpy(s->cta, ft->cta, sizeof s->cta);
    memcpy(s->tid, ft->tid, sizeof s->tid);
    s->access = access;
}

/* A deadlock at a counted barrier that more distinct threads executed than
 * its count: the first `count` completed a phase and the rest wait for a
 * phase that never completes (96 threads at `bar.sync 1, 64`). */
static void over_subscribed(ck *C)
{
    if (!C->pend) return;
    for (int id = 0; id < VM_NBAR; id++) {
        uint32_t cnt = C->bar_count[id];
        if (!cnt || C->bar_nseen[id] <= cnt) continue;
        const arrival *a = NULL;
        uint32_t waiting = 0;
        for (int wi = 0; wi < C->nwarps; wi++) {
            const arrlist *al = &C->pend[wi * VM_NBAR + id];
            if (al->n && !a) a = &al->a[0];
            waiting += (uint32_t)al->n;
        }
        if (!a) continue;
        char key[96];
        snprintf(key, sizeof key, "barrier:over:%u", a->pc);
        chk_finding *f = add_finding(C->res, C->max_findings, CHK_BARRIER, key, C->seed, C->schedule);
        if (!f) continue;
        site_set(C, NULL, &f->at, a->pc, a->tid, C->cta, "barrier");
        snprintf(f->msg, sizeof f->msg,
                 "more threads arrive at barrier %d than its thread count %u: %u threads of the block executed it, so "
                 "after the completed phases %u threads wait for a phase that never completes",
                 id, cnt, C->bar_nseen[id], waiting);
    }
}

/* Turns how a schedule ended into findings; returns 1 if it explained the end. */
static int classify_end(ck *C, vm_status status, const vm_fault *ft)
{
    char key[96];
    chk_finding *f;
    if (status == VM_DEADLOCK) {
        const char *rep = ft->report ? ft->report : "";
        int coll = strstr(rep, "waiting in ") != NULL;
        snprintf(key, sizeof key, "deadlock:%u", ft->pc);
        f = add_finding(C->res, C->max_findings, CHK_DEADLOCK, key, C->seed, C->schedule);
        if (f) {
            fault_site(ft, &f->at, "blocked");
            snprintf(f->msg, sizeof f->msg, "%s%s", ft->msg,
                     coll ? " (lanes wait in warp collectives that can never complete)" : "");
            f->detail = strdup(rep);
        }
        over_subscribed(C);
        if (coll) {
            snprintf(key, sizeof key, "mask:deadlock:%u", ft->pc);
            f = add_finding(C->res, C->max_findings, CHK_MASK, key, C->seed, C->schedule);
            if (f) {
                fault_site(ft, &f->at, "blocked");
                snprintf(f->msg, sizeof f->msg,
                         "lanes named in a membermask wait in a different collective, with a different mask, or at a "
                         "barrier, so the collective never completes");
                f->detail = strdup(rep);
            }
        }
        return 1;
    }
    if (status == VM_FAULT) {
        const char *m = ft->msg;
        int ours = !strncmp(m, "misaligned", 10) || strstr(m, "past the end of") || strstr(m, "inside freed") ||
                   strstr(m, "in shared space") || strstr(m, "in local space") ||
                   (strstr(m, "illegal address") && strstr(m, "generic space") && !strstr(m, "not in any allocation") &&
                    !strstr(m, "null pointer"));
        if (!ours) return 0;
        snprintf(key, sizeof key, "memory:%u", ft->pc);
        f = add_finding(C->res, C->max_findings, CHK_MEMORY, key, C->seed, C->schedule);
        if (f) {
            fault_site(ft, &f->at, strstr(m, " write ") ? "write" : "read");
            snprintf(f->msg, sizeof f->msg, "%s", m);
        }
        return 1;
    }
    return 0;
}

/* ---- the run ----------------------------------------------------------------------------- */

static void ck_free_cta(ck *C)
{
    cta_reset_state(C);
    free(C->t);
    if (C->pend) for (int i = 0; i < C->nwarps * VM_NBAR; i++) free(C->pend[i].a);
    free(C->pend);
    free(C->sh);
    free(C->bar_seen);
    wtab_free(&C->sh_sync);
    free(C->sh_locs);
}

static void ck_free(ck *C)
{
    for (int i = 0; i < C->nslots; i++) {
        ck_switch(C, i);
        ck_free_cta(C);
    }
    if (!C->slots) ck_free_cta(C);
    free(C->slots);
    gp_free(&C->gw);
    gp_free(&C->gr);
    gp_free(&C->fp);
    for (uint32_t i = 0; i < C->ngl_locs; i++) vc_unref(C->gl_locs[i].rel);
    free(C->gl_locs);
    wtab_free(&C->gl_sync);
}

/* Release and acquire semantics of strong accesses.  The compiler marks
 * .volatile, .relaxed, .acquire, .release and .acq_rel accesses alike
 * (VM_ACC_VOLATILE), so the qualifiers are read from the instruction's
 * PTX line.  Returns a byte per pc (SEM_*), or NULL. */
uint8_t *chk_sem_table(const ptxemu_module *m)
{
    const bc_module *bc = m->bc;
    if (!m->text || !bc->ncode) return NULL;
    int nlines = 1;
    for (size_t i = 0; i < m->len; i++) nlines += m->text[i] == '\n';
    size_t *start = malloc((size_t)(nlines + 1) * sizeof *start);
    uint8_t *sem = calloc(bc->ncode, 1);
    if (!start || !sem) abort();
    int n = 0;
    start[n++] = 0;
    for (size_t i = 0; i < m->len; i++) if (m->text[i] == '\n') start[n++] = i + 1;
    for (uint32_t pc = 0; pc < bc->ncode; pc++) {
        const bc_insn *I = &bc->code[pc];
        if (I->line < 1 || I->line > n) continue;
        const char *p = m->text + start[I->line - 1], *end = m->text + m->len;
        /* the mnemonic: up to the first blank after the guard */
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        if (p < end && *p == '@') { while (p < end && *p != ' ' && *p != '\t' && *p != '\n') p++; while (p < end && (*p == ' ' || *p == '\t')) p++; }
        const char *q = p;
        while (q < end && *q != ' ' && *q != '\t' && *q != '\n' && *q != ';') q++;
        if (!((q - p > 3 && !strncmp(p, "ld.", 3)) || (q - p > 3 && !strncmp(p, "st.", 3)) ||
              (q - p > 5 && !strncmp(p, "atom.", 5)) || (q - p > 4 && !strncmp(p, "red.", 4))))
            continue;
        for (const char *s = p; s < q; s++) {
            if (*s != '.') continue;
            size_t k = (size_t)(q - s);
            if (k >= 8 && !strncmp(s, ".release", 8)) sem[pc] |= SEM_REL;
            else if (k >= 8 && !strncmp(s, ".acquire", 8)) sem[pc] |= SEM_ACQ;
            else if (k >= 8 && !strncmp(s, ".acq_rel", 8)) sem[pc] |= SEM_REL | SEM_ACQ;
        }
    }
    free(start);
    return sem;
}

/* ---- sampling ------------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The blocks the schedule of `seed` instruments (sorted, malloc'd; *n of
 * them), or NULL for every block.  The hardware-like schedule instruments every block of a launch
 * below CHK_FULL_THREADS threads, else about CHK_SAMPLE_THREADS threads'
 * worth of blocks evenly spread (the first and the last included); an
 * adversarial schedule of a launch of CHK_ADV_FULL_THREADS threads or more
 * instruments CHK_ADV_BLOCKS blocks: the first, the last and seeded random
 * ones.  The other blocks run on the plain fast paths (hardware-like). */
uint64_t *chk_sample_blocks(uint64_t nctas, uint32_t tpb, uint64_t seed, uint64_t *n)
{
    uint64_t threads = nctas * tpb, want;
    int k = seed != 0;                         /* the sample depends on the seed only, so a seed replays */
    if (k == 0) {
        if (threads < CHK_FULL_THREADS) return NULL;
        want = CHK_SAMPLE_THREADS / (tpb ? tpb : 1);
    } else {
        if (threads < CHK_ADV_FULL_THREADS) return NULL;
        want = CHK_ADV_BLOCKS;
    }
    if (want < 2) want = 2;
    if (want >= nctas) return NULL;
    uint64_t *v = malloc((size_t)want * sizeof *v);
    if (!v) return NULL;
    uint64_t m = 0, rng = seed ^ 0x5851F42D4C957F2Dull;
    for (uint64_t i = 0; i < want; i++) {
        uint64_t b;
        if (k == 0) b = i * (nctas - 1) / (want - 1);
        else if (i < 2) b = i ? nctas - 1 : 0;
        else {
            int dup;
            do {
                b = splitmix(&rng) % nctas;
                dup = 0;
                for (uint64_t j = 0; j < m; j++) dup |= v[j] == b;
            } while (dup);
        }
        v[m++] = b;
    }
    qsort(v, (size_t)m, sizeof *v, cmp_u64);
    *n = m;
    return v;
}

/* ---- block independence ------------------------------------------------------------- */

/* The hardware-like schedule of a launch whose adversarial schedules
 * sample blocks records which blocks touch each global word, and how.
 * Blocks are independent when no word is written by one block and read or
 * written by another, except words that every block only updates with one
 * commutative atomic operation whose result it does not use.  Then a block
 * does the same whatever runs before it, so an adversarial schedule need
 * only run its sampled blocks (twice: adversarially, and hardware-like as
 * the reference it is compared with). */
#define FP_R 1u
#define FP_W 2u
#define FP_A 4u
#define FP_X 8u                  /* touched by more than one block */
#define FP_OWNER 0xffffffu
#define FP_OP_ANY CHK_ATOM_ANY   /* an atomic that does not commute, or whose result is used */

static void foot_record(ck *C, uint64_t block, uint32_t pc, uint64_t addr, int size, int flags)
{
    uint32_t kind = (flags & VM_ACC_ATOMIC) ? FP_A : (flags & VM_ACC_WRITE) ? FP_W : FP_R;
    uint32_t op = kind == FP_A ? (C->atoms ? C->atoms[pc] : FP_OP_ANY) : 0;
    uint32_t owner = (uint32_t)(block + 1) & FP_OWNER;
    for (uint64_t wd = addr >> 2; wd <= (addr + (uint64_t)size - 1) >> 2 && !C->dependent; wd++) {
        uint32_t *e = gp_get(&C->fp, wd, 1);
        if (!*e) { *e = owner | (kind | op << 4) << 24; continue; }
        uint32_t fl = (*e >> 24) & 15, eop = *e >> 28;
        if (kind == FP_A) eop = !eop ? op : eop != op ? FP_OP_ANY : eop;
        fl |= kind;
        if ((*e & FP_OWNER) != owner) fl |= FP_X;
        *e = (*e & FP_OWNER) | (fl | eop << 4) << 24;
        if (!(fl & FP_X)) continue;
        const char *why = (fl & FP_W) ? "a word one block writes is read or written by another"
                        : (fl & FP_A) && (fl & FP_R) ? "a word blocks update atomically is also read"
                        : (fl & FP_A) && eop == FP_OP_ANY ? "blocks use the old value of atomics on one word, or mix operations"
                        : NULL;
        if (!why) continue;
        C->dependent = 1;
        C->dep_pc = pc;
        snprintf(C->dep_why, sizeof C->dep_why, "%s (global word 0x%llx)", why, (unsigned long long)(wd * 4));
    }
}

static void h_foot(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space, uint64_t addr,
                   int size, int flags)
{
    ck *C = ctx;
    (void)L; (void)w; (void)lane;
    if (space == BC_SP_GLOBAL && size > 0 && !C->dependent) foot_record(C, cta->linear, pc, addr, size, flags);
}

/* Per pc: for atomics, the op + 1 when it commutes (integer add, min, max,
 * and, or, xor, inc, dec) and its result is never read; else FP_OP_ANY. */
uint8_t *chk_atom_table(const bc_module *m)
{
    uint8_t *read = calloc(m->nslots + 1, 1), *t = calloc(m->ncode ? m->ncode : 1, 1);
    if (!read || !t) abort();
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const bc_insn *I = &m->code[pc];
        uint32_t src[8];
        int n = 0, fmt = bc_op_fmt[I->op];
        if (I->guard != BC_NO_GUARD) src[n++] = I->guard;
        switch (fmt) {
        case F_DA: case F_DAB: case F_DABC: case F_ATOM: case F_BAR: src[n++] = I->a; src[n++] = I->b; src[n++] = I->c; src[n++] = I->e; break;
        case F_COLL: src[n++] = I->a; src[n++] = I->b; src[n++] = I->c; src[n++] = I->x; break;
        case F_LD: case F_BRA: case F_CALL: case F_MMA: src[n++] = I->a; src[n++] = I->b; break;
        case F_ST:
            src[n++] = I->a;
            if (I->n > 1) for (int k = 0; k < I->n; k++) read[m->extra[I->x + (uint32_t)k] / BC_WARP] = 1;
            else src[n++] = I->b;
            break;
        default: break;
        }
        if (fmt == F_MMA) {
            const uint32_t *ol = &m->extra[I->x];
            for (uint32_t k = 0; k < ol[1] + ol[2] + ol[3]; k++) read[ol[4 + ol[0] + k] / BC_WARP] = 1;
        }
        for (int k = 0; k < n; k++) if (src[k] / BC_WARP <= m->nslots) read[src[k] / BC_WARP] = 1;
    }
    read[m->slot_cc / BC_WARP] = 1;
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const bc_insn *I = &m->code[pc];
        if (I->op != OP_ATOM) continue;
        int comm = I->m1 <= BC_RED_DEC && I->m2 != BC_K_F32 && I->m2 != BC_K_F64 && I->m2 < BC_K_F16;
        int unused = !I->n || !read[I->d / BC_WARP];
        t[pc] = (uint8_t)(comm && unused ? (unsigned)I->m1 + 1u : FP_OP_ANY);
    }
    free(read);
    return t;
}

static const vm_hooks *h_select(void *ctx, vm_launch *L, uint64_t linear)
{
    ck *C = ctx;
    (void)L;
    if (!C->sample) return &C->H;
    uint64_t lo = 0, hi = C->nsample;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (C->sample[mid] < linear) lo = mid + 1;
        else hi = mid;
    }
    if (lo < C->nsample && C->sample[lo] == linear) return &C->H;
    return C->skip_others ? &vm_skip_block : C->foot ? &C->Hfoot : NULL;
}

/* The reference run of a partial schedule: the sampled blocks on the
 * plain fast paths (hardware-like), the others skipped. */
static const vm_hooks *h_select_ref(void *ctx, vm_launch *L, uint64_t linear)
{
    ck *C = ctx;
    const vm_hooks *h = h_select(ctx, L, linear);
    return h == &C->H ? NULL : h;
}

/* FNV-1a over the compared regions (or every live allocation). */
static uint64_t mem_hash(const mem_space *mem, const chk_opts *o)
{
    uint64_t h = 1469598103934665603ull;
    int n = o->regions ? o->nregions : mem->n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p;
        uint64_t size;
        if (o->regions) {
            size = o->regions[i].size;
            p = mem_xlate(mem, o->regions[i].addr, size);
        } else {
            if (!mem->allocs[i].live) continue;
            size = mem->allocs[i].size;
            p = mem->allocs[i].host;
        }
        for (uint64_t j = 0; p && j < size; j++) h = (h ^ p[j]) * 1099511628211ull;
    }
    return h;
}

/* The blocks of sample (all nctas when NULL) in [lo, hi), sorted; *n how many. */
static uint64_t *part_sample(const uint64_t *sample, uint64_t nsample, uint64_t nctas, uint64_t lo, uint64_t hi, uint64_t *n)
{
    uint64_t cap = sample ? nsample : (hi < nctas ? hi : nctas) - lo;
    uint64_t *v = malloc((cap ? cap : 1) * sizeof *v);
    if (!v) abort();
    *n = 0;
    if (sample) { for (uint64_t i = 0; i < nsample; i++) if (sample[i] >= lo && sample[i] < hi) v[(*n)++] = sample[i]; }
    else for (uint64_t b = lo; b < hi && b < nctas; b++) v[(*n)++] = b;
    return v;
}

void chk_schedule_run(const chk_launch *X, int k, mem_space *mem, vm_output_fn out, void *out_ctx, chk_sched_out *so)
{
    chk_schedule_run_part(X, k, mem, out, out_ctx, so, NULL);
}

void chk_schedule_run_part(const chk_launch *X, int k, mem_space *mem, vm_output_fn out, void *out_ctx, chk_sched_out *so,
                           const chk_part *part)
{
    memset(so, 0, sizeof *so);
    const chk_opts *o = X->o;
    ck C;
    memset(&C, 0, sizeof C);
    C.res = &so->found;
    C.max_findings = X->max_findings;
    C.seed = so->seed = chk_schedule_seed(o->seed, k);
    C.schedule = k;
    C.sem = X->sem;
    C.def = chk_def_new(X->m->bc, report_use, &C);
    C.defq = chk_def_quick_of(C.def);
    C.gw.elem = sizeof(rec);
    C.gr.elem = sizeof(rset);
    vm_hooks *H = &C.H;
    H->ctx = &C;
    H->access = h_access;
    H->access_lanes = h_access_lanes;
    H->fence = h_fence;
    H->cta_begin = h_cta_begin;
    H->sync = h_sync;
    H->misuse = h_misuse;
    H->step = step;
    H->select = h_select;
    vm_config cfg = X->cfg;
    int slice;
    uint64_t order;
    chk_sched_init(&C.S, C.seed, &slice, &order);
    H->pick = C.S.adversarial ? h_pick : NULL;
    cfg.hooks = H;
    uint64_t nctas = (uint64_t)cfg.grid[0] * (cfg.grid[1] ? cfg.grid[1] : 1) * (cfg.grid[2] ? cfg.grid[2] : 1);
    uint32_t tpb = cfg.block[0] * (cfg.block[1] ? cfg.block[1] : 1) * (cfg.block[2] ? cfg.block[2] : 1);
    uint64_t *sample = chk_sample_blocks(nctas, tpb, C.seed, &C.nsample);
    if (part) {
        uint64_t *v = part_sample(sample, C.nsample, nctas, part->lo, part->hi, &C.nsample);
        free(sample);
        sample = v;
        C.skip_others = part->skip;
    }
    C.sample = sample;
    so->instrumented = sample ? C.nsample : nctas;
    cfg.seed = C.seed;
    cfg.slice = slice;
    cfg.cta_order_seed = order;
    cfg.timeout = o->timeout > 0 ? o->timeout : 30;
    cfg.insn_limit = o->insn_limit ? o->insn_limit : C.S.adversarial ? 200000000ull : 0;
    cfg.output = out;
    cfg.output_ctx = out_ctx;
    C.note_unordered = !C.S.adversarial && X->schedule_free && X->sf_atomics;
    if (!C.S.adversarial && (X->adv_sampled || X->schedule_free)) {   /* schedule 0: the blocks' footprints */
        C.foot = so->foot = 1;
        C.atoms = X->atoms;
        C.fp.elem = sizeof(uint32_t);
        C.Hfoot.ctx = &C;
        C.Hfoot.access = h_foot;
    }
    chk_chunks ref, got;
    memset(&ref, 0, sizeof ref);
    memset(&got, 0, sizeof got);
    if (C.S.adversarial && X->independent && sample && X->snap) {
        /* independent blocks: only the sampled ones run, first hardware-like
         * (the reference), then under this schedule */
        C.skip_others = so->partial = 1;
        vm_hooks Href;
        memset(&Href, 0, sizeof Href);
        Href.ctx = &C;
        Href.select = h_select_ref;
        vm_config rc = cfg;
        rc.hooks = &Href;
        rc.slice = 0;
        rc.output = NULL;
        vm_fault rf;
        vm_run(X->m->bc, mem, X->var_addr, X->kernel, &rc, &rf, NULL);
        free(rf.report);
        chk_mem_restore(mem, X->snap, o, &ref);
    }
    so->status = vm_run(X->m->bc, mem, X->var_addr, X->kernel, &cfg, &so->fault, NULL);
    if (!so->fault.bad_launch) {
        so->explained = classify_end(&C, so->status, &so->fault);
        if (so->partial) {
            chk_mem_restore(mem, X->snap, o, &got);
            so->differs = !chk_chunks_equal(&ref, &got, &so->diff_addr);
        } else so->hash = mem_hash(mem, o);
    }
    chk_chunks_free(&ref);
    chk_chunks_free(&got);
    so->dependent = C.dependent;
    so->unordered_atomic = C.unordered_atomic;
    if (C.dependent) snprintf(so->dep_why, sizeof so->dep_why, "%s", C.dep_why);
    so->ran_activemask = C.ran_activemask;
    so->am = *chk_def_am_candidate(C.def);
    ck_free(&C);
    chk_def_free(C.def);
    free(sample);
}

void chk_sched_out_free(chk_sched_out *so)
{
    for (int i = 0; i < so->found.nfindings; i++) free(so->found.findings[i].detail);
    free(so->found.findings);
    free(so->fault.report);
    memset(so, 0, sizeof *so);
}
