/* profile.c — counting per instruction through the VM's hooks, and summing
 * per PTX line and per CUDA line.
 *
 * Issue (the step hook): a lane group issuing a PTX instruction is one warp instruction
 * (the compiler may split a PTX instruction into several bytecode
 * instructions: only the first of the run counts).  Memory: the access hook
 * feeds an rt_memstats whose requests come back per pc.  Waits: an arrival
 * at a barrier or a collective is pending until the sync hook releases its
 * warp; if anything else issues first, the arrival waited.
 */
#include <stdlib.h>
#include <string.h>
#include "profile.h"

enum { K_NONE, K_BRA, K_BRX, K_BAR, K_COLL };

struct prof_profile {
    const bc_module *m;
    int kernel;
    prof_counters *pc;           /* per bytecode instruction */
    uint8_t *kind;               /* K_* per pc */
    uint8_t *first;              /* pc starts its PTX instruction */
    rt_memstats ms;
    void (*ms_access)(void *, vm_launch *, vm_cta *, vm_warp *, int, uint32_t, int, uint64_t, int, int);
    /* the arrival at a barrier or collective not yet known to have waited */
    const vm_warp *pend_w;
    uint32_t pend_pc, pend_lanes;
    int pend_kind, pend_released;
};

const char *prof_counter_name(int i)
{
    static const char *const names[] = {
#define X(n) #n,
        PROF_COUNTERS(X)
#undef X
    };
    return i >= 0 && i < PROF_NCOUNTERS ? names[i] : "?";
}

uint64_t prof_counter(const prof_counters *c, int i)
{
    switch (i) {
#define X(n) case PROF_C_##n: return c->n;
        PROF_COUNTERS(X)
#undef X
    }
    return 0;
}

int prof_counter_index(const char *name)
{
    for (int i = 0; i < PROF_NCOUNTERS; i++)
        if (!strcmp(name, prof_counter_name(i))) return i;
    return -1;
}

double prof_active_lanes(const prof_counters *c)
{
    return c->warp_instructions ? (double)c->thread_instructions / (double)c->warp_instructions : 0.0;
}

static void add(prof_counters *a, const prof_counters *b)
{
#define X(n) a->n += b->n;
    PROF_COUNTERS(X)
#undef X
}

static int insn_kind(const bc_insn *I)
{
    switch (I->op) {
    case OP_BRA: return I->guard != BC_NO_GUARD ? K_BRA : K_NONE;
    case OP_BRX: return K_BRX;
    case OP_BAR: return I->m1 == 1 ? K_NONE : K_BAR;      /* bar.arrive never waits */
    case OP_SHFL: case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
    case OP_MATCH_ANY: case OP_MATCH_ALL: case OP_REDUX: case OP_ELECT: case OP_WARPSYNC:
    case OP_LDMATRIX: case OP_STMATRIX: case OP_WMMA_LOAD: case OP_WMMA_STORE:
    case OP_MOVMATRIX: case OP_MMA: case OP_WMMA_MMA:
        return K_COLL;
    default: return K_NONE;
    }
}

static void on_request(void *ctx, const rt_memstats_request *q)
{
    prof_profile *p = ctx;
    if (q->pc >= p->m->ncode) return;
    prof_counters *c = &p->pc[q->pc];
    if (q->space == BC_SP_SHARED) {
        c->shared_wavefronts += q->wavefronts;
        c->shared_wavefronts_ideal += q->wavefronts_ideal;
        c->shared_bank_conflicts += q->wavefronts - q->wavefronts_ideal;
    } else {
        c->global_instructions++;
        c->global_requests += q->lines;
        c->global_sectors += q->sectors;
        c->global_sectors_ideal += q->sectors_ideal;
    }
}

prof_profile *prof_new(const bc_module *m, int kernel)
{
    prof_profile *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->m = m;
    p->kernel = kernel;
    size_t n = m->ncode ? m->ncode : 1;
    p->pc = calloc(n, sizeof *p->pc);
    p->kind = calloc(n, 1);
    p->first = calloc(n, 1);
    if (!p->pc || !p->kind || !p->first) { prof_free(p); return NULL; }
    for (uint32_t i = 0; i < m->ncode; i++) {
        p->kind[i] = (uint8_t)insn_kind(&m->code[i]);
        p->first[i] = i == 0 || m->code[i - 1].line != m->code[i].line;
    }
    rt_memstats_init(&p->ms);
    p->ms.on_request = on_request;
    p->ms.request_ctx = p;
    vm_hooks mh;
    rt_memstats_hooks(&p->ms, &mh);
    p->ms_access = mh.access;
    return p;
}

void prof_free(prof_profile *p)
{
    if (!p) return;
    free(p->pc);
    free(p->kind);
    free(p->first);
    free(p);
}

const prof_counters *prof_pc(const prof_profile *p, uint32_t pc)
{
    static const prof_counters none;
    return pc < p->m->ncode ? &p->pc[pc] : &none;
}

/* The pending arrival waited unless its warp was released in the meantime. */
static void settle(prof_profile *p)
{
    if (!p->pend_w) return;
    if (!p->pend_released) {
        if (p->pend_kind == K_BAR) p->pc[p->pend_pc].barrier_waits++;
        else p->pc[p->pend_pc].collective_waits++;
    }
    p->pend_w = NULL;
}

/* Whether the issuing lanes of a brx.idx go to more than one place (lanes
 * whose guard is false fall through to pc + 1). */
static int brx_divergent(const prof_profile *p, const vm_warp *w, uint32_t pc, uint32_t group, uint32_t active)
{
    const bc_insn *I = &p->m->code[pc];
    uint32_t n = (uint32_t)I->imm >> 24, tab = (uint32_t)I->imm & 0xffffff;
    uint32_t first = pc + 1;
    int have = (group & ~active) != 0;
    for (uint32_t mm = active; mm; mm &= mm - 1) {
        uint64_t idx = w->R[I->a + (uint32_t)__builtin_ctz(mm)] & 0xffffffffu;
        uint32_t t = idx < n ? p->m->extra[tab + idx] : UINT32_MAX;
        if (!have) { first = t; have = 1; }
        else if (t != first) return 1;
    }
    return 0;
}

/* The step hook, which never pauses: the group issuing at pc is
 * L->group, `active` its lanes whose guard holds. */
static int on_step(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t active, uint32_t pc)
{
    (void)cta;
    prof_profile *p = ctx;
    uint32_t group = L->group;
    settle(p);
    if (pc >= p->m->ncode) return 0;
    prof_counters *c = &p->pc[pc];
    if (p->first[pc]) {
        c->warp_instructions++;
        c->thread_instructions += (uint64_t)__builtin_popcount(group);
    }
    switch (p->kind[pc]) {
    case K_BRA:
        if (active && active != group) c->divergent_branches++;
        break;
    case K_BRX:
        if (brx_divergent(p, w, pc, group, active)) c->divergent_branches++;
        break;
    case K_BAR: case K_COLL:
        if (active) {
            p->pend_w = w;
            p->pend_pc = pc;
            p->pend_lanes = active;
            p->pend_kind = p->kind[pc];
            p->pend_released = 0;
        }
        break;
    }
    return 0;
}

static void on_sync(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, int barrier_id)
{
    (void)L; (void)cta; (void)barrier_id;
    prof_profile *p = ctx;
    if (p->pend_w == w && (lanes & p->pend_lanes)) p->pend_released = 1;
}

static void on_access(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                      int space, uint64_t addr, int size, int flags)
{
    prof_profile *p = ctx;
    p->ms_access(&p->ms, L, cta, w, lane, pc, space, addr, size, flags);
}

/* The hardware's reconvergence, approximately: the lanes at the lowest pc go
 * first, so lanes that left a divergent loop or branch early wait below it
 * for the others, as the compiler's reconvergence points (BSSY/BSYNC) make
 * them wait on the GPU.  The default scheduler lets a group go first that
 * waited 4 turns of others that used their whole slice (for intra-warp spin
 * locks; vm.h), which splits the code after a long divergent loop into
 * several requests where the GPU issues one; here a group waits 4096 such
 * turns (as many ticks: 4 M short turns), so spin locks still finish. */
#define PROF_AGE_LIMIT (4096ull * (VM_AGE_SLICE + 1))

static uint32_t on_pick(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc)
{
    (void)ctx; (void)L; (void)cta;
    int best = -1, oldest = -1;
    for (uint32_t mm = ready; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (best < 0 || w->pc[l] < w->pc[best]) best = l;
        if (oldest < 0 || w->lastrun[l] < w->lastrun[oldest]) oldest = l;
    }
    if (best < 0) return 0;
    int pick = w->tick - w->lastrun[oldest] > PROF_AGE_LIMIT ? oldest : best;
    *pc = w->pc[pick];
    uint32_t g = 0;
    for (uint32_t mm = ready; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (w->pc[l] == *pc) g |= 1u << l;
    }
    return g;
}

void prof_hooks(prof_profile *p, vm_hooks *h)
{
    memset(h, 0, sizeof *h);
    h->ctx = p;
    h->access = on_access;
    h->step = on_step;
    h->sync = on_sync;
    h->pick = on_pick;
}

void prof_finish(prof_profile *p)
{
    rt_memstats_finish(&p->ms);
    settle(p);
}

vm_status prof_launch(ptxemu_device *d, const ptxemu_module *m, const char *kernel, const vm_config *cfg,
                      vm_fault *fault, uint64_t *insns, prof_profile **out)
{
    *out = NULL;
    int k = bc_find_func(m->bc, kernel);
    prof_profile *p = k >= 0 ? prof_new(m->bc, k) : NULL;
    vm_config c = *cfg;
    vm_hooks h;
    if (p) {
        prof_hooks(p, &h);
        c.hooks = &h;
    }
    vm_status st = ptxemu_launch(d, m, kernel, &c, fault, insns);
    if (p) prof_finish(p);
    *out = p;
    return st;
}

/* ---- reports ------------------------------------------------------------------------------ */

static int nonzero(const prof_counters *c)
{
#define X(n) if (c->n) return 1;
    PROF_COUNTERS(X)
#undef X
    return 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

/* Line `line` (1-based) of text, trimmed of surrounding blanks; NULL if absent. */
static char *text_line(const char *text, size_t len, int line)
{
    if (!text || line < 1) return NULL;
    size_t i = 0;
    for (int l = 1; l < line && i < len; i++) if (text[i] == '\n') l++;
    if (i >= len) return NULL;
    size_t e = i;
    while (e < len && text[e] != '\n') e++;
    while (i < e && (text[i] == ' ' || text[i] == '\t')) i++;
    while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r')) e--;
    return dupn(text + i, e - i);
}

/* Reads a whole file; NULL if it cannot. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, 4096, f);
        n += k;
        if (k < 4096) break;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Finds a .file path: as written, then relative to the .ptx's folder and
 * its ancestors (nvcc writes paths relative to where it ran), then under
 * src->dirs by the path and by its last component. */
#define PROF_SOURCE_UP 4

static char *find_source(const char *path, const char *ptx_path, const prof_source_opts *src, char **text, size_t *len)
{
    char cand[4096], dir[4096];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if ((*text = slurp(path, len))) return strdup(path);
    const char *slash = ptx_path ? strrchr(ptx_path, '/') : NULL;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - ptx_path) : 1, slash ? ptx_path : ".");
    for (int up = 0; path[0] != '/' && up <= PROF_SOURCE_UP; up++) {
        snprintf(cand, sizeof cand, "%s/%s", dir, path);
        if ((*text = slurp(cand, len))) return strdup(cand);
        size_t n = strlen(dir);
        if (n + 3 >= sizeof dir) break;
        memcpy(dir + n, "/..", 4);
    }
    for (int k = 0; src && k < 2 * src->ndirs; k++) {
        snprintf(cand, sizeof cand, "%s/%s", src->dirs[k / 2], k % 2 ? base : path);
        if ((*text = slurp(cand, len))) return strdup(cand);
    }
    return NULL;
}

static int load_file(prof_file *f, const char *path, const char *ptx_path, const prof_source_opts *src)
{
    memset(f, 0, sizeof *f);
    if (!(f->path = strdup(path))) return -1;
    if (src && src->no_sources) return 0;
    char *text = NULL;
    size_t len = 0;
    f->found = find_source(path, ptx_path, src, &text, &len);
    if (!f->found) return 0;
    int n = 1;
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    if (len && text[len - 1] == '\n') n--;
    f->lines = calloc((size_t)(n ? n : 1), sizeof *f->lines);
    if (!f->lines) { free(text); return -1; }
    size_t s = 0;
    for (int l = 0; l < n; l++) {
        size_t e = s;
        while (e < len && text[e] != '\n') e++;
        size_t ee = e > s && text[e - 1] == '\r' ? e - 1 : e;
        if (!(f->lines[l] = dupn(text + s, ee - s))) { free(text); return -1; }
        f->nlines = l + 1;
        s = e + 1;
    }
    free(text);
    return 0;
}

/* The innermost source position of pc: file index and line; 0 if none. */
static int pc_source(const bc_module *m, uint32_t pc, int *file, int *line)
{
    int s = m->code[pc].src;
    if (s < 0 || s >= m->nsrclocs) return 0;
    *file = m->srclocs[s].file;
    *line = m->srclocs[s].line;
    return 1;
}

typedef struct { int file, line, ptx; } key3;

static int cmp_key3(const void *a, const void *b)
{
    const key3 *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->ptx < y->ptx ? -1 : x->ptx > y->ptx;
}

/* PTX lines: every executed PTX line, in line order. */
static int build_ptx_lines(const prof_profile *p, const ptxemu_module *mod, prof_report *r, key3 *keys, int *nkeys)
{
    const bc_module *m = p->m;
    int maxline = 0;
    for (uint32_t pc = 0; pc < m->ncode; pc++) if (m->code[pc].line > maxline) maxline = m->code[pc].line;
    int *slot = malloc(((size_t)maxline + 1) * sizeof *slot);
    if (!slot) return -1;
    for (int i = 0; i <= maxline; i++) slot[i] = -1;
    r->ptx_lines = calloc(m->ncode ? m->ncode : 1, sizeof *r->ptx_lines);
    if (!r->ptx_lines) { free(slot); return -1; }
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        if (!nonzero(&p->pc[pc]) || m->code[pc].line < 0) continue;
        int l = m->code[pc].line;
        if (slot[l] < 0) {
            prof_ptx_line *pl = &r->ptx_lines[r->nptx_lines];
            pl->line = l;
            pl->cuda = -1;
            pl->text = mod ? text_line(mod->text, mod->len, l) : NULL;
            int f, sl;
            if (pc_source(m, pc, &f, &sl)) keys[(*nkeys)++] = (key3){ f, sl, r->nptx_lines };
            slot[l] = r->nptx_lines++;
        }
        add(&r->ptx_lines[slot[l]].c, &p->pc[pc]);
        add(&r->totals, &p->pc[pc]);
    }
    free(slot);
    return 0;
}

static int cmp_ptx(const void *a, const void *b)
{
    const prof_ptx_line *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* CUDA lines from the sorted keys; the files they name. */
static int build_cuda_lines(const ptxemu_module *mod, const prof_source_opts *src, prof_report *r, key3 *keys, int nkeys)
{
    const bc_module *m = mod->bc;
    r->lines = calloc((size_t)(nkeys ? nkeys : 1), sizeof *r->lines);
    int *fslot = malloc((size_t)(m->nfiles + 1) * sizeof *fslot);
    if (!r->lines || !fslot) { free(fslot); return -1; }
    for (int i = 0; i <= m->nfiles; i++) fslot[i] = -1;
    r->files = calloc((size_t)(m->nfiles + 1), sizeof *r->files);
    if (!r->files) { free(fslot); return -1; }
    for (int i = 0; i < nkeys;) {
        int j = i;
        while (j < nkeys && keys[j].file == keys[i].file && keys[j].line == keys[i].line) j++;
        prof_line *L = &r->lines[r->nlines];
        int fi = keys[i].file >= 0 && keys[i].file < m->nfiles ? keys[i].file : m->nfiles;
        const char *path = fi < m->nfiles && m->files[fi] ? m->files[fi] : "?";
        if (fslot[fi] < 0) {
            if (load_file(&r->files[r->nfiles], path, mod->path, src)) { free(fslot); return -1; }
            fslot[fi] = r->nfiles++;
        }
        const prof_file *pf = &r->files[fslot[fi]];
        L->file = strdup(path);
        L->line = keys[i].line;
        L->source = L->line >= 1 && L->line <= pf->nlines ? strdup(pf->lines[L->line - 1]) : NULL;
        L->ptx = malloc((size_t)(j - i) * sizeof *L->ptx);
        if (!L->file || !L->ptx) { free(fslot); return -1; }
        for (int k = i; k < j; k++) {
            L->ptx[L->nptx++] = keys[k].ptx;
            add(&L->c, &r->ptx_lines[keys[k].ptx].c);
            r->ptx_lines[keys[k].ptx].cuda = r->nlines;
        }
        r->nlines++;
        i = j;
    }
    free(fslot);
    return 0;
}

int prof_report_build(const prof_profile *p, const ptxemu_module *mod, const prof_source_opts *src, prof_report *r)
{
    memset(r, 0, sizeof *r);
    const bc_module *m = p->m;
    r->kernel = strdup(p->kernel >= 0 && p->kernel < m->nfuncs ? m->funcs[p->kernel].name : "?");
    r->ptx_path = strdup(mod && mod->path ? mod->path : m->path ? m->path : "?");
    key3 *keys = malloc((m->ncode ? m->ncode : 1) * sizeof *keys);
    int nkeys = 0;
    if (!r->kernel || !r->ptx_path || !keys || build_ptx_lines(p, mod, r, keys, &nkeys)) goto oom;
    /* the PTX lines were made in pc order: sort them by line, and the keys' indices with them */
    int *order = malloc((size_t)(r->nptx_lines ? r->nptx_lines : 1) * sizeof *order);
    if (!order) goto oom;
    for (int i = 0; i < r->nptx_lines; i++) r->ptx_lines[i].cuda = i;      /* old index, for the remap */
    qsort(r->ptx_lines, (size_t)r->nptx_lines, sizeof *r->ptx_lines, cmp_ptx);
    for (int i = 0; i < r->nptx_lines; i++) { order[r->ptx_lines[i].cuda] = i; r->ptx_lines[i].cuda = -1; }
    for (int k = 0; k < nkeys; k++) keys[k].ptx = order[keys[k].ptx];
    free(order);
    qsort(keys, (size_t)nkeys, sizeof *keys, cmp_key3);
    if (mod && build_cuda_lines(mod, src, r, keys, nkeys)) goto oom;
    free(keys);
    return 0;
oom:
    free(keys);
    prof_report_free(r);
    return -1;
}

void prof_report_free(prof_report *r)
{
    for (int i = 0; i < r->nlines; i++) { free(r->lines[i].file); free(r->lines[i].source); free(r->lines[i].ptx); }
    for (int i = 0; i < r->nptx_lines; i++) free(r->ptx_lines[i].text);
    for (int i = 0; i < r->nfiles; i++) {
        for (int l = 0; l < r->files[i].nlines; l++) free(r->files[i].lines[l]);
        free(r->files[i].lines); free(r->files[i].path); free(r->files[i].found);
    }
    free(r->lines); free(r->ptx_lines); free(r->files); free(r->kernel); free(r->ptx_path);
    memset(r, 0, sizeof *r);
}
