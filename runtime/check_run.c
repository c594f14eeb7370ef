/* check_run.c — the checker's outer loop: one launch under every schedule.
 *
 * Schedules are independent: each runs on its own copy of the device
 * memory (a snapshot taken before the launch), on as many host threads as
 * chk_opts.jobs allows, and records its findings in its own list.  The
 * lists are merged in schedule order afterwards, so the report (order,
 * counts, first seeds) is the same whatever the number of threads.
 * Schedule 0 (hardware-like) runs on the caller's memory, which therefore
 * ends as after a plain launch.  The engine of one schedule is check.c.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_int.h"
#include "ptxemu.h"

/* ---- device memory snapshots ------------------------------------------------------- */

/* A copy of src with the same allocations at the same guest addresses;
 * 0, or -1 when out of host memory (dst is then empty). */
static int mem_copy(mem_space *dst, const mem_space *src)
{
    *dst = *src;
    dst->host_mapped = 0;        /* the copies are plain heap blocks at the same guest addresses */
    dst->allocs = calloc((size_t)(src->cap ? src->cap : 1), sizeof *dst->allocs);
    if (!dst->allocs) { mem_init(dst); return -1; }
    for (int i = 0; i < src->n; i++) {
        dst->allocs[i] = src->allocs[i];
        if (!src->allocs[i].host) continue;
        uint64_t n = src->allocs[i].size ? src->allocs[i].size : 1;
        dst->allocs[i].host = malloc(n);
        if (!dst->allocs[i].host) { dst->n = i; mem_destroy(dst); mem_init(dst); return -1; }
        memcpy(dst->allocs[i].host, src->allocs[i].host, n);
    }
    return 0;
}

/* ---- running the schedules ---------------------------------------------------------- */

/* ---- restoring a working copy -------------------------------------------------------- */

static int in_regions(const chk_opts *o, uint64_t a, uint64_t n)
{
    if (!o->regions) return 1;
    for (int i = 0; i < o->nregions; i++)
        if (a < o->regions[i].addr + o->regions[i].size && o->regions[i].addr < a + n) return 1;
    return 0;
}

static void chunk_add(chk_chunks *c, uint64_t addr, const uint8_t *p, uint32_t n)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->addr = realloc(c->addr, c->cap * sizeof *c->addr);
        c->data = realloc(c->data, c->cap * CHK_CHUNK);
        if (!c->addr || !c->data) abort();
    }
    c->addr[c->n] = addr;
    memset(c->data + c->n * CHK_CHUNK, 0, CHK_CHUNK);
    memcpy(c->data + c->n * CHK_CHUNK, p, n);
    c->n++;
}

void chk_mem_restore(mem_space *work, const mem_space *snap, const chk_opts *o, chk_chunks *changed)
{
    for (int i = work->n - 1; i >= snap->n; i--) free(work->allocs[i].host);   /* allocated during the launch */
    work->n = snap->n;
    for (int i = 0; i < snap->n; i++) {
        mem_alloc *w = &work->allocs[i];
        const mem_alloc *s = &snap->allocs[i];
        if (!s->host) { free(w->host); *w = *s; w->host = NULL; continue; }
        uint64_t size = s->size ? s->size : 1;
        if (!w->host) {                                                    /* freed during the launch */
            w->host = malloc(size);
            if (!w->host) abort();
            memset(w->host, 0, size);
        }
        w->live = s->live;
        for (uint64_t off = 0; off < size; off += CHK_CHUNK) {
            uint32_t n = (uint32_t)(size - off < CHK_CHUNK ? size - off : CHK_CHUNK);
            if (!memcmp(w->host + off, s->host + off, n)) continue;
            if (changed && in_regions(o, s->base + off, n)) chunk_add(changed, s->base + off, w->host + off, n);
            memcpy(w->host + off, s->host + off, n);
        }
    }
    work->next = snap->next;
    work->total = snap->total;
}

int chk_chunks_equal(const chk_chunks *a, const chk_chunks *b, uint64_t *first)
{
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        uint64_t x = i < a->n ? a->addr[i] : UINT64_MAX, y = j < b->n ? b->addr[j] : UINT64_MAX;
        if (x != y) { *first = x < y ? x : y; return 0; }
        const uint8_t *p = a->data + i * CHK_CHUNK, *q = b->data + j * CHK_CHUNK;
        for (uint32_t k = 0; k < CHK_CHUNK; k++) if (p[k] != q[k]) { *first = x + k; return 0; }
        i++, j++;
    }
    return 1;
}

void chk_chunks_free(chk_chunks *c)
{
    free(c->addr);
    free(c->data);
    memset(c, 0, sizeof *c);
}

/* ---- running the schedules ---------------------------------------------------------- */

typedef struct pool {
    const chk_launch *X;
    int nsched;
    mem_space *mem;              /* the caller's: schedule 0 runs on it */
    const mem_space *snap;       /* before the launch: each worker copies it once, and restores its copy */
    chk_sched_out *outs;
    int *todo, ntodo;            /* the schedules to run, in order */
    pthread_mutex_t lock;
    int next, done, findings;
    chk_result seen;             /* distinct findings of the schedules done (progress only) */
} pool;

static void fail_copy(const chk_launch *X, chk_sched_out *so, int k)
{
    memset(so, 0, sizeof *so);
    so->seed = chk_schedule_seed(X->o->seed, k);
    so->status = VM_ERROR;
    snprintf(so->fault.msg, sizeof so->fault.msg, "out of host memory for a copy of the device memory");
}

/* Runs schedule k; *work is this worker's copy of the memory before the
 * launch (made on first use, restored after each schedule). */
static void run_one(pool *P, int k, mem_space *work, int *have)
{
    const chk_launch *X = P->X;
    chk_sched_out *so = &P->outs[k];
    if (k == 0) { chk_schedule_run(X, 0, P->mem, X->cfg.output, X->cfg.output_ctx, so); return; }
    if (!*have) {
        if (mem_copy(work, P->snap)) { fail_copy(X, so, k); return; }
        *have = 1;
    }
    chk_schedule_run(X, k, work, NULL, NULL, so);
    chk_mem_restore(work, P->snap, X->o, NULL);
}

static void progress(pool *P, int k)
{
    pthread_mutex_lock(&P->lock);
    P->done++;
    if (P->X->o->progress) {                     /* distinct findings so far, whatever the order */
        const chk_result *f = &P->outs[k].found;
        for (int i = 0; i < f->nfindings; i++)
            if (chk_add_finding(&P->seen, INT32_MAX, f->findings[i].kind, f->findings[i].key, 0, 0, 1)) P->findings++;
    }
    if (P->X->o->progress)
        P->X->o->progress(P->X->o->progress_ctx, P->done < P->nsched ? P->done : P->nsched, P->nsched, P->findings);
    pthread_mutex_unlock(&P->lock);
}

static void *worker(void *arg)
{
    pool *P = arg;
    mem_space work;
    int have = 0;
    for (;;) {
        pthread_mutex_lock(&P->lock);
        int k = P->next < P->ntodo ? P->todo[P->next++] : -1;
        pthread_mutex_unlock(&P->lock);
        if (k < 0) break;
        run_one(P, k, &work, &have);
        progress(P, k);
    }
    if (have) mem_destroy(&work);
    return NULL;
}

/* The resident memory of this process, or 0 when unknown. */
static uint64_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long size = 0, res = 0;
    int n = fscanf(f, "%llu %llu", &size, &res);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return n == 2 && page > 0 ? (uint64_t)res * (uint64_t)page : 0;
}

/* Launches of CHK_FULL_THREADS threads or more hold at most CHK_MEM_FACTOR
 * times the memory of a plain run (estimated as what this process holds
 * now, device memory included): the snapshot of the device memory is
 * fixed, each schedule in flight adds a copy of it and the local memory of
 * a block, so the number of schedules at once is capped. */
#define CHK_MEM_FACTOR 4
#define CHK_MEM_SLACK (1u << 20)

static int memory_jobs(const mem_space *mem, const vm_config *cfg, int jobs)
{
    uint64_t nctas = (uint64_t)cfg->grid[0] * (cfg->grid[1] ? cfg->grid[1] : 1) * (cfg->grid[2] ? cfg->grid[2] : 1);
    uint64_t tpb = (uint64_t)cfg->block[0] * (cfg->block[1] ? cfg->block[1] : 1) * (cfg->block[2] ? cfg->block[2] : 1);
    if (nctas * tpb < CHK_FULL_THREADS) return jobs;
    uint64_t M = mem->total, plain = rss_bytes();
    if (!plain) plain = M + 4 * CHK_MEM_SLACK;
    uint64_t local = (uint64_t)(cfg->local_size ? cfg->local_size : VM_DEFAULT_LOCAL) * tpb;
    uint64_t budget = CHK_MEM_FACTOR * plain, fixed = plain + M, per = M + local + CHK_MEM_SLACK;
    uint64_t n = budget > fixed ? (budget - fixed) / per : 0;
    if (n < 1) n = 1;
    return n < (uint64_t)jobs ? (int)n : jobs;
}

static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Runs every schedule on `jobs` threads (this one included); threads that
 * cannot start leave their share to the others. */
static void run_all(pool *P, int jobs)
{
    pthread_t th[64];
    int nth = 0;
    if (jobs > 64) jobs = 64;
    for (int i = 1; i < jobs; i++) {
        if (pthread_create(&th[nth], NULL, worker, P)) break;
        nth++;
    }
    worker(P);
    for (int i = 0; i < nth; i++) pthread_join(th[i], NULL);
}

/* ---- schedule 0 of schedule-free code on two threads ------------------------------------ */

static void merge(chk_result *r, int max, const chk_result *from)
{
    r->dropped += from->dropped;
    for (int i = 0; i < from->nfindings; i++) {
        const chk_finding *x = &from->findings[i];
        chk_finding *f = chk_add_finding(r, max, x->kind, x->key, x->seed, x->schedule, x->count);
        if (!f) continue;
        *f = *x;
        f->detail = x->detail ? strdup(x->detail) : NULL;
    }
}


/* Schedule 0 of schedule-free code runs alone, and checks every block: on a
 * large launch whose blocks may be independent, a second thread checks the
 * last 3/5 of them on its own copy of the memory, running only those
 * (as the adversarial schedules of independent blocks do), while schedule 0
 * checks the first part and runs the rest as plain blocks, recording their
 * footprints.  When schedule 0 then shows the blocks independent and
 * ends cleanly, the two parts' findings merge into one schedule 0 (a
 * finding of the second part was one of its blocks' alone); else schedule 0 runs
 * again on the copy, checking every block, and the split is forgotten. */
#define CHK_SPLIT_THREADS 16384u     /* smaller launches: one thread */
/* Schedule 0 checks the first 2/5 of the blocks: it also runs the others,
 * plain but through the footprint hook, at about a third of the cost of
 * checking them (matmul, histogram) */
#define CHK_SPLIT_NUM 2u
#define CHK_SPLIT_DEN 5u

static int blocks_may_be_independent(const ptxemu_module *m, const vm_config *cfg);

typedef struct half {
    const chk_launch *X;
    mem_space mem;
    chk_sched_out out;
    chk_part part;
} half;

static void *half_main(void *arg)
{
    half *h = arg;
    chk_schedule_run_part(h->X, 0, &h->mem, NULL, NULL, &h->out, &h->part);
    return NULL;
}

/* Runs schedule 0 split in two (above); 0 when it did not (it then has not run). */
static int run_split0(pool *P, int jobs)
{
    const chk_launch *X = P->X;
    const vm_config *cfg = &X->cfg;
    uint64_t nctas = (uint64_t)cfg->grid[0] * (cfg->grid[1] ? cfg->grid[1] : 1) * (cfg->grid[2] ? cfg->grid[2] : 1);
    uint64_t tpb = (uint64_t)cfg->block[0] * (cfg->block[1] ? cfg->block[1] : 1) * (cfg->block[2] ? cfg->block[2] : 1);
    if (jobs < 2 || !P->snap || nctas < 2 || nctas * tpb < CHK_SPLIT_THREADS || !blocks_may_be_independent(X->m, cfg))
        return 0;
    half h;
    memset(&h, 0, sizeof h);
    h.X = X;
    uint64_t mid = nctas * CHK_SPLIT_NUM / CHK_SPLIT_DEN;
    if (mid < 1) mid = 1;
    h.part = (chk_part){ mid, nctas, 1 };
    if (mem_copy(&h.mem, P->snap)) return 0;
    pthread_t th;
    if (pthread_create(&th, NULL, half_main, &h)) { mem_destroy(&h.mem); return 0; }
    chk_sched_out *s0 = &P->outs[0];
    chk_schedule_run_part(X, 0, P->mem, cfg->output, cfg->output_ctx, s0, &(chk_part){ 0, mid, 0 });
    pthread_join(th, NULL);
    if (s0->status == VM_OK && s0->foot && !s0->dependent && h.out.status == VM_OK) {
        merge(&s0->found, INT32_MAX, &h.out.found);
        s0->instrumented += h.out.instrumented;
        s0->unordered_atomic |= h.out.unordered_atomic;
        s0->ran_activemask |= h.out.ran_activemask;
    } else {
        chk_sched_out_free(s0);
        chk_mem_restore(&h.mem, P->snap, X->o, NULL);
        chk_schedule_run(X, 0, &h.mem, NULL, NULL, s0);
    }
    chk_sched_out_free(&h.out);
    mem_destroy(&h.mem);
    P->next = 1;
    progress(P, 0);
    return 1;
}

/* ---- merging ------------------------------------------------------------------------- */

/* The message `run` prints for an abnormal end. */
static void end_message(const ptxemu_module *m, vm_status st, const vm_fault *ft, char *buf, size_t len)
{
    if (st == VM_ERROR && !ft->report && ft->pc == 0 && ft->warp == 0 && ft->lane == 0) {
        snprintf(buf, len, "%s", ft->msg);
        return;
    }
    char where[768];
    rt_describe_fault(m, ft, where, sizeof where);
    snprintf(buf, len, "%s: %s\n  at %s", vm_status_name(st), ft->msg, where);
}

/* The `schedule` finding: the compared memory differs from that of the
 * first schedule that ended cleanly.  In a launch that runs __activemask(),
 * whose result legitimately depends on the schedule (coalesced groups,
 * warp-aggregated atomics), a difference is reported only when a value
 * computed over an activemask grouping was stored to global memory by part
 * of its group (chk_am_candidate: a leader publishing for lanes that need
 * not have been there), and then as that misuse. */
typedef struct cmp_state {
    uint64_t hash0, seed0;
    int have, am;
    chk_am_candidate cand;       /* the first candidate over all schedules */
} cmp_state;

static void report_activemask(chk_result *r, const chk_launch *X, const cmp_state *cs, const chk_sched_out *so, int k)
{
    const chk_am_candidate *c = &cs->cand;
    char key[96];
    snprintf(key, sizeof key, "schedule:activemask:%u:%u", c->am_pc, c->coll_pc);
    chk_finding *f = chk_add_finding(r, X->max_findings, CHK_SCHEDULE, key, so->seed, k, 1);
    if (!f) return;
    const bc_module *bc = X->m->bc;
    uint32_t last = c->coll_pc != UINT32_MAX ? c->coll_pc : c->store_pc;
    f->at = (chk_site){ .valid = 1, .pc = c->am_pc, .access = "activemask" };
    f->other = (chk_site){ .valid = 1, .pc = last, .access = c->coll_pc != UINT32_MAX ? "collective" : "write" };
    char via[160] = "";
    if (c->coll_pc != UINT32_MAX)
        snprintf(via, sizeof via, " went into %s (ptx line %d), whose result", bc_op_name[bc->code[c->coll_pc].op],
                 bc->code[c->coll_pc].line);
    snprintf(f->msg, sizeof f->msg,
             "the result depends on which lanes __activemask() returned: its mask (ptx line %d)%s was stored to global "
             "memory (ptx line %d) by lanes 0x%08x of the group 0x%08x; lanes that are together in the source need not "
             "be together at run time (compute the mask with __ballot_sync before the branch); seed %llu gives "
             "other results than seed %llu",
             bc->code[c->am_pc].line, via, bc->code[c->store_pc].line, c->stored, c->group,
             (unsigned long long)so->seed, (unsigned long long)cs->seed0);
}

/* A `schedule` finding for schedule k (seed) whose buffers differ: the
 * launch's site, the message as given. */
static void schedule_finding(chk_result *r, const chk_launch *X, uint64_t seed, int k, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void schedule_finding(chk_result *r, const chk_launch *X, uint64_t seed, int k, const char *fmt, ...)
{
    chk_finding *f = chk_add_finding(r, X->max_findings, CHK_SCHEDULE, "schedule", seed, k, 1);
    if (!f) return;
    chk_launch_site(X->m, X->kernel, &f->at);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
}

static void compare_result(chk_result *r, const chk_launch *X, cmp_state *cs, const chk_sched_out *so, int k)
{
    if (so->status != VM_OK) return;
    if (so->partial) {                   /* the sampled blocks against their hardware-like reference */
        if (!so->differs) return;
        if (cs->am) {
            if (cs->cand.valid) report_activemask(r, X, cs, so, k);
            return;
        }
        schedule_finding(r, X, so->seed, k,
                         "the final contents of the buffers depend on the schedule: the blocks seed %llu checked leave "
                         "different bytes than under the hardware-like schedule (first at 0x%llx)",
                         (unsigned long long)so->seed, (unsigned long long)so->diff_addr);
        return;
    }
    if (!cs->have) { cs->have = 1; cs->hash0 = so->hash; cs->seed0 = so->seed; return; }
    if (so->hash == cs->hash0) return;
    if (cs->am) {
        if (cs->cand.valid) report_activemask(r, X, cs, so, k);
        return;
    }
    schedule_finding(r, X, so->seed, k,
                     "the final contents of the buffers depend on the schedule: seed %llu gives hash %016llx, "
                     "seed %llu gives %016llx",
                     (unsigned long long)cs->seed0, (unsigned long long)cs->hash0, (unsigned long long)so->seed,
                     (unsigned long long)so->hash);
}

/* An adversarial schedule that traps, asserts or faults where the
 * hardware-like one ends cleanly (and no finding explains it): the failure
 * depends on the schedule. */
static void fails_alone(chk_result *r, const chk_launch *X, const chk_sched_out *so, int k)
{
    if (so->explained || (so->status != VM_TRAP && so->status != VM_ASSERT && so->status != VM_FAULT)) return;
    char key[96], msg[1024];
    snprintf(key, sizeof key, "schedule:end:%u", so->fault.pc);
    chk_finding *f = chk_add_finding(r, X->max_findings, CHK_SCHEDULE, key, so->seed, k, 1);
    if (!f) return;
    f->at = (chk_site){ .valid = 1, .pc = so->fault.pc, .has_thread = 1, .access = vm_status_name(so->status) };
    memcpy(f->at.cta, so->fault.cta, sizeof f->at.cta);
    memcpy(f->at.tid, so->fault.tid, sizeof f->at.tid);
    snprintf(msg, sizeof msg, "%s", so->fault.msg);
    snprintf(f->msg, sizeof f->msg, "the launch ends with %s under this schedule but not under the hardware-like one: %s",
             vm_status_name(so->status), msg);
}

/* Whether adversarial schedules of this launch sample blocks (chk_sample_blocks). */
static int adversarial_samples(const vm_config *cfg)
{
    uint64_t n;
    uint64_t nctas = (uint64_t)cfg->grid[0] * (cfg->grid[1] ? cfg->grid[1] : 1) * (cfg->grid[2] ? cfg->grid[2] : 1);
    uint32_t tpb = cfg->block[0] * (cfg->block[1] ? cfg->block[1] : 1) * (cfg->block[2] ? cfg->block[2] : 1);
    uint64_t *v = chk_sample_blocks(nctas, tpb, 1, &n);
    free(v);
    return v != NULL;
}

/* What the footprint cannot see: blocks in flight together (resident,
 * cooperative launches), host functions, device malloc.  The launch's part: */
static int blocks_run_apart(const vm_config *cfg)
{
    return !(cfg->builtins && cfg->builtins->extern_call) && cfg->resident <= 1;
}

/* ... and the instruction's (cooperative launches read %envreg). */
static int insn_keeps_blocks_apart(const bc_module *bc, const bc_insn *I)
{
    if (I->op == OP_CALL_FFI || (I->op == OP_SREG && I->imm == BC_SR_ENVREG)) return 0;
    return I->op != OP_CALL_BUILTIN || bc->funcs[I->imm].builtin == BC_BUILTIN_VPRINTF ||
           bc->funcs[I->imm].builtin == BC_BUILTIN_ASSERTFAIL;
}

static int blocks_may_be_independent(const ptxemu_module *m, const vm_config *cfg)
{
    if (!blocks_run_apart(cfg)) return 0;
    for (uint32_t pc = 0; pc < m->bc->ncode; pc++)
        if (!insn_keeps_blocks_apart(m->bc, &m->bc->code[pc])) return 0;
    return 1;
}

/* Whether the code can only compute one result, whatever the schedule, once a
 * run of it is free of races: it synchronises with full-CTA barriers only and
 * reads nothing that depends on the interleaving.  Then any two schedules of a
 * race-free run read the same values, take the same paths and leave the same
 * bytes (a data-race-free program with deterministic synchronisation is
 * deterministic), so schedule 0's race check covers the others.  Excluded:
 * atomics other than one commutative integer operation (the same op and type
 * everywhere) whose result is unused, strong (volatile, relaxed, acquire,
 * release) loads and stores, warp collectives and matrix operations, barriers
 * with a thread count or `arrive`, activemask, clocks and timers, %smid and
 * %warpid, nanosleep, mbarriers and asynchronous copies, and what makes blocks
 * dependent (blocks_may_be_independent). */
static int schedule_free_insn(const bc_module *bc, const bc_insn *I, const uint8_t *atoms, uint32_t pc, int *atom_op,
                              int *atom_kind)
{
    if (!insn_keeps_blocks_apart(bc, I)) return 0;
    switch (I->op) {
    case OP_ATOM:
        if (atoms[pc] == CHK_ATOM_ANY || I->m1 == BC_RED_INC || I->m1 == BC_RED_DEC) return 0;
        if (*atom_op < 0) { *atom_op = I->m1; *atom_kind = I->m2; return 1; }
        return *atom_op == I->m1 && *atom_kind == I->m2;
    case OP_LD_GLOBAL: case OP_LD_SHARED: case OP_LD_LOCAL: case OP_LD_GENERIC:
    case OP_ST_GLOBAL: case OP_ST_SHARED: case OP_ST_LOCAL: case OP_ST_GENERIC:
        return !(I->flags & BC_IF_VOLATILE);
    case OP_BAR:
        return I->m1 != 1 && I->b == 0;                       /* sync or red of the whole CTA */
    case OP_SREG:
        return I->imm != BC_SR_CLOCK && I->imm != BC_SR_CLOCK64 && I->imm != BC_SR_GLOBALTIMER &&
               I->imm != BC_SR_SMID && I->imm != BC_SR_WARPID && I->imm != BC_SR_PM0;
    case OP_ACTIVEMASK: case OP_NANOSLEEP: case OP_CP_ASYNC: case OP_CP_ASYNC_COMMIT:
    case OP_CP_ASYNC_WAIT: case OP_CP_ASYNC_MBAR: case OP_MBAR_INIT: case OP_MBAR_INVAL: case OP_MBAR_ARRIVE:
    case OP_MBAR_TX: case OP_MBAR_WAIT: case OP_MBAR_PENDING:
        return 0;
    default:
        return bc_op_fmt[I->op] != F_COLL && bc_op_fmt[I->op] != F_MMA;
    }
}

static int schedule_free_code(const ptxemu_module *m, int kernel, const vm_config *cfg, const uint8_t *atoms,
                              int *atomics)
{
    *atomics = 0;
    if (!blocks_run_apart(cfg)) return 0;
    const bc_module *bc = m->bc;
    uint8_t *reach = calloc((size_t)bc->nfuncs + 1, 1);
    int ok = reach && !vm_kernel_reach(bc, kernel, reach), atom_op = -1, atom_kind = -1;
    for (int f = 0; f < bc->nfuncs && ok; f++) {
        if (!reach[f]) continue;
        for (uint32_t pc = bc->funcs[f].pc_begin; pc < bc->funcs[f].pc_end && ok; pc++)
            ok = schedule_free_insn(bc, &bc->code[pc], atoms, pc, &atom_op, &atom_kind);
    }
    free(reach);
    *atomics = atom_op >= 0;
    return ok;
}

/* After schedule 0 of schedule-free code: whether the other schedules can
 * differ from it, i.e. whether it did not show the launch race-free (it
 * ended abnormally, found anything, or left blocks unchecked). */
static int others_needed(const chk_sched_out *s0, const vm_config *cfg)
{
    uint64_t nctas = (uint64_t)cfg->grid[0] * (cfg->grid[1] ? cfg->grid[1] : 1) * (cfg->grid[2] ? cfg->grid[2] : 1);
    return s0->status != VM_OK || s0->found.nfindings || s0->found.dropped || s0->instrumented < nctas ||
           !s0->foot || s0->dependent || s0->unordered_atomic || s0->ran_activemask;
}

int chk_run_launch(const ptxemu_module *m, int kernel, const vm_config *cfg, mem_space *mem,
                   const uint64_t *var_addr, const chk_opts *o, chk_result *r)
{
    memset(r, 0, sizeof *r);
    r->mod = m;
    r->base_seed = o->seed;
    if (kernel < 0 || kernel >= m->bc->nfuncs || !m->bc->funcs[kernel].is_entry) {
        snprintf(r->end_msg, sizeof r->end_msg, "function %d of %s is not a kernel", kernel, m->path);
        return PTXEMU_EXIT_USAGE;
    }
    chk_launch X;
    memset(&X, 0, sizeof X);
    X.m = m;
    X.kernel = kernel;
    X.cfg = *cfg;
    X.var_addr = var_addr;
    X.o = o;
    X.sem = chk_sem_table(m);
    X.max_findings = o->max_findings > 0 ? o->max_findings : CHK_DEFAULT_MAX_FINDINGS;
    int nsched = o->schedules > 0 ? o->schedules : CHK_DEFAULT_SCHEDULES;
    int jobs = o->jobs > 0 ? o->jobs : default_jobs();
    if ((cfg->builtins && cfg->builtins->extern_call)) jobs = 1;               /* host functions need not be thread-safe */
    jobs = memory_jobs(mem, cfg, jobs);
    if (jobs > nsched) jobs = nsched;
    pool P;
    memset(&P, 0, sizeof P);
    P.X = &X;
    P.nsched = nsched;
    P.mem = mem;
    P.outs = calloc((size_t)nsched, sizeof *P.outs);
    P.todo = calloc((size_t)nsched, sizeof *P.todo);
    for (int k = 0; P.todo && k < nsched; k++) P.todo[k] = k;
    P.ntodo = nsched;
    mem_space snap;
    int have_snap = nsched > 1 && !mem_copy(&snap, mem);
    if (!P.outs || !P.todo || (nsched > 1 && !have_snap)) {
        free(P.outs);
        free(P.todo);
        free((void *)X.sem);
        snprintf(r->end_msg, sizeof r->end_msg, "out of host memory for the checker's copy of the device memory");
        return PTXEMU_EXIT_USAGE;
    }
    P.snap = &snap;
    X.snap = have_snap ? &snap : NULL;
    X.adv_sampled = nsched > 1 && adversarial_samples(cfg);
    pthread_mutex_init(&P.lock, NULL);
    int asked = nsched > 1 && o->seed == 0 && !o->all_schedules;   /* whether the code is schedule-free */
    if (X.adv_sampled || asked) X.atoms = chk_atom_table(m->bc);      /* the footprint's */
    /* adversarial schedules assume independent blocks (running only their
     * sampled blocks) while schedule 0, taken first, finds out; if it finds
     * them dependent, those schedules run again with every block */
    if (X.adv_sampled) X.independent = blocks_may_be_independent(m, cfg);
    /* schedule-free code: schedule 0 first, alone; the others only when it
     * did not show the launch race-free */
    int skipped = 0;
    X.schedule_free = asked && schedule_free_code(m, kernel, cfg, X.atoms, &X.sf_atomics);
    if (X.schedule_free) {
        P.ntodo = 1;
        if (!run_split0(&P, jobs)) run_all(&P, 1);
        P.ntodo = nsched;
        if (!others_needed(&P.outs[0], cfg)) {
            skipped = nsched - 1;
            P.ntodo = 1;
            if (o->progress) o->progress(o->progress_ctx, nsched, nsched, 0);
        } else if (X.adv_sampled && (P.outs[0].dependent || P.outs[0].status != VM_OK))
            X.independent = 0;                  /* known now: no schedule need assume it */
    }
    if (P.next < P.ntodo) run_all(&P, jobs);
    if (X.adv_sampled && !skipped) {
        const chk_sched_out *s0 = &P.outs[0];
        int indep = X.independent && s0->foot && !s0->dependent && s0->status == VM_OK;
        r->independent = indep ? 1 : -1;
        snprintf(r->dep_why, sizeof r->dep_why, "%s",
                 s0->dependent ? s0->dep_why : s0->status != VM_OK ? "schedule 0 did not end cleanly"
                 : !indep ? "blocks in flight together, host calls or device malloc" : "");
        if (!indep) {
            X.independent = 0;
            P.ntodo = 0;
            for (int k = 1; k < nsched; k++)
                if (P.outs[k].partial) { chk_sched_out_free(&P.outs[k]); P.todo[P.ntodo++] = k; }
            P.next = 0;
            run_all(&P, jobs);
        }
    }
    pthread_mutex_destroy(&P.lock);
    free(P.seen.findings);
    free(P.todo);
    free((void *)X.atoms);
    if (have_snap) mem_destroy(&snap);

    int code = PTXEMU_EXIT_OK;
    const chk_sched_out *s0 = &P.outs[0];
    if (s0->fault.bad_launch) {
        r->end_fault = s0->fault;
        r->end_fault.report = NULL;
        snprintf(r->end_msg, sizeof r->end_msg, "%s", s0->fault.msg);
        code = PTXEMU_EXIT_USAGE;
    } else {
        cmp_state cs;
        memset(&cs, 0, sizeof cs);
        for (int k = 0; k < nsched; k++) {
            cs.am |= P.outs[k].ran_activemask;
            if (!cs.cand.valid && P.outs[k].am.valid) cs.cand = P.outs[k].am;
        }
        nsched -= skipped;
        r->skipped = skipped;
        r->schedule_free = asked ? X.schedule_free : -1;
        for (int k = 0; k < nsched; k++) {       /* in schedule order, as if they ran one after another */
            merge(r, X.max_findings, &P.outs[k].found);
            compare_result(r, &X, &cs, &P.outs[k], k);
            if (k > 0 && s0->status == VM_OK) fails_alone(r, &X, &P.outs[k], k);
            if (P.outs[k].status == VM_LIMIT) r->limited++;
            if (k == 0) r->sampled0 = P.outs[k].instrumented;
            else if (P.outs[k].instrumented > r->sampled_adv) r->sampled_adv = P.outs[k].instrumented;
        }
        r->blocks = (uint64_t)cfg->grid[0] * (cfg->grid[1] ? cfg->grid[1] : 1) * (cfg->grid[2] ? cfg->grid[2] : 1);
        r->schedules = nsched;
        r->status = s0->status;
        if (s0->status != VM_OK) {
            r->end_fault = s0->fault;
            r->end_fault.report = NULL;
            end_message(m, s0->status, &s0->fault, r->end_msg, sizeof r->end_msg);
            r->end_at.valid = 1;
            r->end_at.pc = s0->fault.pc;
            r->end_at.has_thread = 1;
            memcpy(r->end_at.cta, s0->fault.cta, sizeof r->end_at.cta);
            memcpy(r->end_at.tid, s0->fault.tid, sizeof r->end_at.tid);
        }
        if (r->nfindings) code = PTXEMU_EXIT_MISMATCH;
        else if (!(s0->explained || s0->status == VM_OK)) code = ptxemu_exit_code(s0->status);
    }
    for (int k = 0; k < nsched; k++) chk_sched_out_free(&P.outs[k]);
    free(P.outs);
    free((void *)X.sem);
    return code;
}

/* ---- the case-file form -------------------------------------------------------------- */

int chk_run(const rt_case *c, const chk_opts *o, chk_result *r, diag_list *diags)
{
    memset(r, 0, sizeof *r);
    r->case_path = c->case_path;
    r->base_seed = o->seed;
    rt_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.libs = o->libs;
    ro.nlibs = o->nlibs;
    ro.resident = o->resident;
    rt_prepared p;
    char msg[1024] = "";
    int code = rt_prepare_launch(c, &ro, &p, msg, sizeof msg, diags);
    if (code) {
        snprintf(r->end_msg, sizeof r->end_msg, "%s", msg);
        rt_prepared_free(&p);
        return code;
    }
    chk_region *reg = calloc((size_t)(c->nbuffers ? c->nbuffers : 1), sizeof *reg);
    if (!reg) {
        rt_prepared_free(&p);
        snprintf(r->end_msg, sizeof r->end_msg, "out of host memory");
        return PTXEMU_EXIT_USAGE;
    }
    for (int i = 0; i < c->nbuffers; i++) reg[i] = (chk_region){ p.bufaddr[i], c->buffers[i].size };
    chk_opts co = *o;
    co.regions = reg;
    co.nregions = c->nbuffers;
    code = chk_run_launch(p.m, p.kernel, &p.cfg, &p.dev.mem, p.dev.var_addr, &co, r);
    r->own_mod = p.m;               /* the result keeps the module to describe pcs */
    p.m = NULL;
    r->case_path = c->case_path;
    free(reg);
    rt_prepared_free(&p);
    return code;
}

void chk_result_free(chk_result *r)
{
    for (int i = 0; i < r->nfindings; i++) free(r->findings[i].detail);
    free(r->findings);
    if (r->own_mod) ptxemu_module_free(r->own_mod);
    memset(r, 0, sizeof *r);
}
