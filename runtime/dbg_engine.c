/* dbg_engine.c — the debugger's engine (see dbg_engine.h): the VM hooks that
 * pause a launch, breakpoints and watchpoints, run control and the state
 * queries.  Nothing here prints. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_engine.h"

/* ---- small helpers --------------------------------------------------------------- */

const char *dbg_base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

const char *dbg_file_name(const bc_module *m, int f)
{
    return f >= 0 && f < m->nfiles && m->files[f] ? dbg_base_name(m->files[f]) : "?";
}

static int suffix_match(const char *path, const char *want)
{
    size_t a = strlen(path), b = strlen(want);
    if (b > a || strcmp(path + a - b, want)) return 0;
    return a == b || path[a - b - 1] == '/';
}

void dbg_tid_of(const dbg_session *s, int warp, int lane, uint32_t t[3])
{
    const uint32_t *b = s->c->block;
    uint32_t bx = b[0] ? b[0] : 1, by = b[1] ? b[1] : 1;
    uint32_t lin = (uint32_t)warp * BC_WARP + (uint32_t)lane;
    t[0] = lin % bx;
    t[1] = lin / bx % by;
    t[2] = lin / (bx * by);
}

void dbg_cta_of(const dbg_session *s, uint64_t lin, uint32_t c[3])
{
    const uint32_t *g = s->c->grid;
    uint64_t gx = g[0] ? g[0] : 1, gy = g[1] ? g[1] : 1;
    c[0] = (uint32_t)(lin % gx);
    c[1] = (uint32_t)(lin / gx % gy);
    c[2] = (uint32_t)(lin / (gx * gy));
}

uint32_t dbg_nthreads(const dbg_session *s)
{
    uint32_t n = 1;
    for (int i = 0; i < 3; i++) n *= s->c->block[i] ? s->c->block[i] : 1;
    return n;
}

/* The focused CTA, if it is in flight. */
vm_cta *dbg_focus_cta(const dbg_session *s)
{
    return s->L ? vm_launch_find_cta(s->L, s->fcta) : NULL;
}

/* Whether CTA lin has finished (it is not in flight but has started). */
int dbg_cta_finished(const dbg_session *s, uint64_t lin)
{
    return s->L->nres > 1 ? vm_launch_cta_started(s->L, lin) : lin < s->L->next_cta;
}

vm_warp *dbg_focus_warp(const dbg_session *s)
{
    vm_cta *c = dbg_focus_cta(s);
    return c && s->fwarp < c->nwarps ? &c->warps[s->fwarp] : NULL;
}

/* Lanes of w in the same group as lane l: same pc and state. */
uint32_t dbg_group_of(const vm_warp *w, int l)
{
    uint32_t g = 0;
    if (!((w->live >> l) & 1)) return 0;
    for (uint32_t mm = w->live; mm; mm &= mm - 1) {
        int k = __builtin_ctz(mm);
        if (w->pc[k] == w->pc[l] && w->state[k] == w->state[l] &&
            (w->state[k] != LANE_WAIT_COLL || w->coll_mask[k] == w->coll_mask[l]) &&
            (w->state[k] != LANE_WAIT_BAR || w->bar_id[k] == w->bar_id[l]))
            g |= 1u << k;
    }
    return g;
}

int dbg_is_collective(int op)
{
    switch (op) {
    case OP_SHFL: case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
    case OP_MATCH_ANY: case OP_MATCH_ALL: case OP_REDUX: case OP_ELECT: case OP_WARPSYNC:
        return 1;
    }
    return bc_op_fmt[op] == F_MMA;     /* matrix ops meet as the whole warp */
}

/* Threads arrived at barrier id of cta, and the number it waits for. */
void dbg_bar_counts(const dbg_session *s, const vm_cta *cta, int id, uint32_t *arrived, uint32_t *expect)
{
    uint32_t a = cta->bar[id].threads, live = 0;       /* threads of the warps already counted */
    for (int k = 0; k < cta->nwarps; k++) {
        if (!((cta->bar[id].warps >> k) & 1))
            a += (uint32_t)__builtin_popcount(cta->warps[k].bar_arrived[id] & cta->warps[k].live);
        live += (uint32_t)__builtin_popcount(cta->warps[k].live);
    }
    (void)s;
    *arrived = a;
    *expect = cta->bar[id].expected ? cta->bar[id].expected : live;
}

/* ---- hooks ------------------------------------------------------------------------- */


static uint32_t hook_pick(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t ready, uint32_t *pc)
{
    dbg_session *s = ctx;
    (void)L; (void)cta;
    uint32_t g = 0;
    if (s->resume_pending) {
        s->resume_pending = 0;
        if (w->id == s->pwarp && cta->slot == s->pslot) {
            for (uint32_t mm = ready & s->pgroup; mm; mm &= mm - 1)
                if (w->pc[__builtin_ctz(mm)] == s->ppc) g |= 1u << __builtin_ctz(mm);
            if (g) {
                /* the scheduler counts a turn for the re-issue: undo it, so a
                 * pause does not change the ageing of the other groups */
                w->tick--;
                *pc = s->ppc;
                s->cur_w = w;
                s->cur_group = g;
                return g;
            }
        }
    }
    int pickl = -1;
    if (s->o.adversarial) {
        /* the checker's schedule for this seed, so a reported seed replays */
        g = chk_sched_pick(&s->sched, L, cta, w, ready, pc);
        s->cur_w = w;
        s->cur_group = g;
        return g;
    } else {
        int best = -1, oldest = -1;
        for (uint32_t mm = ready; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if (best < 0 || w->pc[l] < w->pc[best]) best = l;
            if (oldest < 0 || w->lastrun[l] < w->lastrun[oldest]) oldest = l;
        }
        pickl = w->tick - w->lastrun[oldest] > DBG_AGE_LIMIT ? oldest : best;
    }
    *pc = w->pc[pickl];
    for (uint32_t mm = ready; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (w->pc[l] == *pc) g |= 1u << l;
    }
    s->cur_w = w;
    s->cur_group = g;
    return g;
}

static void hook_access(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc,
                        int space, uint64_t addr, int size, int flags)
{
    dbg_session *s = ctx;
    if (!(flags & (VM_ACC_WRITE | VM_ACC_READ)) || s->watch_hit >= 0) return;
    for (int i = 0; i < s->nbp; i++) {
        dbg_bp *b = &s->bp[i];
        if (b->kind != BP_WATCH || b->space != space) continue;
        int want = ((b->wkind & WATCH_WRITE) ? VM_ACC_WRITE : 0) | ((b->wkind & WATCH_READ) ? VM_ACC_READ : 0);
        if (!(flags & want)) continue;
        if (addr < b->addr + (uint64_t)b->wsize && b->addr < addr + (uint64_t)size) {
            s->watch_hit = i;
            s->w_cta = cta->linear;
            s->w_warp = w->id;
            s->w_lane = lane;
            s->w_pc = pc;
            s->w_flags = flags;
            /* a read is reported with the value it reads: the memory as it is now */
            s->w_val = 0;
            const uint8_t *p = space == BC_SP_GLOBAL ? mem_xlate(&s->P.dev.mem, b->addr, (uint64_t)b->wsize)
                                                     : vm_xlate(L, cta, w, lane, BC_SP_SHARED, b->addr, (uint64_t)b->wsize, 0);
            if (p) memcpy(&s->w_val, p, (size_t)b->wsize);
            return;
        }
    }
}

static void hook_exit(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    dbg_session *s = ctx;
    (void)L; (void)pc;
    if (s->mode != RUN_CONTINUE && cta->linear == s->fcta && w->id == s->fwarp && ((lanes >> s->flane) & 1))
        s->focus_gone = 1;
}

/* The breakpoint that stops the lane group `group` of w before pc, or -1:
 * one at pc whose condition holds for some lane of the group (those lanes
 * in s->cond_lanes) and that has no stops left to ignore. */
static int bp_check(dbg_session *s, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc)
{
    for (int i = 0; i < s->nbp; i++) {
        dbg_bp *b = &s->bp[i];
        if (b->kind != BP_BREAK) continue;
        int at = 0;
        for (int k = 0; k < b->npcs && !at; k++) at = b->pcs[k] == pc;
        if (!at) continue;
        uint32_t lanes = group;
        s->cond_err[0] = 0;
        if (b->cond[0] && s->cond_eval && !s->cond_eval(s, b, cta, w, group, pc, &lanes, s->cond_err, sizeof s->cond_err)) continue;
        if (!lanes) continue;
        if (b->ignore > 0 && !s->cond_err[0]) { b->ignore--; b->hits++; continue; }
        s->cond_lanes = lanes;
        return i;
    }
    return -1;
}

/* The (file, line) of the srcloc chain of pc at inline level `level`
 * counted from the outermost (0); the innermost when the chain is shorter.
 * Returns the chain length (0: no source position). */
static int src_at_level(const bc_module *m, uint32_t pc, int level, int *file, int *line)
{
    int chain[16], n = 0;
    for (int src = m->code[pc].src; src >= 0 && src < m->nsrclocs && n < 16; src = m->srclocs[src].parent) chain[n++] = src;
    if (!n) return 0;
    int k = n - 1 - level;                 /* chain[n-1] is the outermost */
    if (k < 0) k = 0;
    *file = m->srclocs[chain[k]].file;
    *line = m->srclocs[chain[k]].line;
    return n;
}

static int do_stop(dbg_session *s, int why, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc)
{
    s->stop = why;
    s->paused = 1;
    s->pwarp = w->id;
    s->pslot = cta->slot;
    s->pgroup = group;
    s->ppc = pc;
    return 1;
}

static int hook_step(void *ctx, vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    dbg_session *s = ctx;
    (void)L;
    uint32_t group = w == s->cur_w ? s->cur_group : lanes;
    int focused = cta->linear == s->fcta && w->id == s->fwarp && ((group >> s->flane) & 1);
    if (s->skip_once) {
        s->skip_once = 0;
        if (s->mode == RUN_STEP && focused && s->step_left > 0) { s->step_left--; s->last_pc = pc; }
        return 0;
    }
    if (s->watch_hit >= 0) return do_stop(s, STOP_WATCH, cta, w, group, pc);
    if (s->focus_gone) return do_stop(s, STOP_GONE, cta, w, group, pc);
    if (s->want_cta && cta->linear == s->fcta) return do_stop(s, STOP_CTA, cta, w, group, pc);
    int b = bp_check(s, cta, w, group, pc);
    if (b >= 0) { s->stop_bp = b; return do_stop(s, STOP_BP, cta, w, group, pc); }
    if (!focused) return 0;
    switch (s->mode) {
    case RUN_STEP: {
        /* one PTX instruction may be several bytecodes: a new one starts
         * on a jump or on another PTX line */
        const bc_insn *code = s->m->code;
        int fresh = s->last_pc == UINT32_MAX || pc != s->last_pc + 1 || code[pc].line != code[s->last_pc].line;
        s->last_pc = pc;
        if (!fresh) return 0;
        if (s->step_left == 0) return do_stop(s, STOP_STEP, cta, w, group, pc);
        s->step_left--;
        return 0;
    }
    case RUN_NEXT: {
        int f, l;
        if (w->stack[s->flane].depth > s->start_depth) return 0;
        if (!src_at_level(s->m, pc, s->next_level, &f, &l)) return 0;
        if (w->stack[s->flane].depth < s->start_depth || f != s->next_file || l != s->next_line)
            return do_stop(s, STOP_STEP, cta, w, group, pc);
        return 0;
    }
    case RUN_FINISH:
        if (w->stack[s->flane].depth < s->start_depth) return do_stop(s, STOP_STEP, cta, w, group, pc);
        return 0;
    }
    return 0;
}

/* ---- session ------------------------------------------------------------------------- */

void dbg_engine_init(dbg_session *s, const rt_case *c, const dbg_opts *o)
{
    s->c = c;
    s->o = *o;
    s->ro.seed = o->seed;
    if (o->adversarial) {
        /* seed 0 would be the checker's hardware-like schedule: use 1 */
        chk_sched_init(&s->sched, o->seed ? o->seed : 1, &s->ro.slice, &s->ro.cta_order_seed);
        s->sched0 = s->sched;
    }
    s->ro.libs = o->libs;
    s->ro.nlibs = o->nlibs;
    s->ro.resident = o->resident;
    s->hooks.ctx = s;
    s->hooks.pick = hook_pick;
    s->hooks.step = hook_step;
    s->hooks.access = hook_access;
    s->hooks.exit = hook_exit;
    s->next_id = 1;
    s->watch_hit = -1;
}

int dbg_prepare(dbg_session *s, char *msg, size_t len, diag_list *diags)
{
    int code = rt_prepare_launch(s->c, &s->ro, &s->P, msg, len, diags);
    if (code) return code;
    s->m = s->P.m->bc;
    s->P.cfg.hooks = &s->hooks;
    s->P.cfg.output = s->output;
    s->P.cfg.output_ctx = s->output_ctx;
    return 0;
}

void dbg_engine_fini(dbg_session *s)
{
    vm_launch_free(s->L);
    s->L = NULL;
    rt_prepared_free(&s->P);
    for (int i = 0; i < s->nbp; i++) free(s->bp[i].pcs);
    s->nbp = 0;
}

static void set_focus_group(dbg_session *s, const vm_cta *cta, int warp, uint32_t group)
{
    if (!group) return;
    if (cta->linear == s->fcta && warp == s->fwarp && ((group >> s->flane) & 1)) return;
    s->fcta = cta->linear;
    s->fwarp = warp;
    s->flane = __builtin_ctz(group);
}

/* Takes the pending watchpoint hit into r: counts it, reads the new value
 * and makes it the one the next report compares with. */
static void take_watch(dbg_session *s, dbg_watch_report *r)
{
    dbg_bp *b = &s->bp[s->watch_hit];
    uint64_t nv = 0;
    const uint8_t *p = NULL;
    uint64_t n = (uint64_t)b->wsize;
    if (b->space == BC_SP_GLOBAL) p = mem_xlate(&s->P.dev.mem, b->addr, n);
    else if (s->L) {
        vm_cta *wc = vm_launch_find_cta(s->L, s->w_cta);
        if (wc) p = vm_xlate(s->L, wc, &wc->warps[0], 0, BC_SP_SHARED, b->addr, n, 0);
    }
    if (p) memcpy(&nv, p, (size_t)n);
    b->hits++;
    int wr = (s->w_flags & VM_ACC_WRITE) && b->wkind != WATCH_READ;
    r->kind = b->wkind;
    r->id = b->id;
    r->space = b->space;
    r->size = b->wsize;
    r->addr = b->addr;
    r->written = wr;
    r->old = b->old;
    r->value = wr ? nv : s->w_val;
    r->cta = s->w_cta;
    r->warp = s->w_warp;
    r->lane = s->w_lane;
    r->pc = s->w_pc;
    b->old = nv;
    s->watch_hit = -1;
}

void dbg_bp_delete(dbg_session *s, int i)
{
    free(s->bp[i].pcs);
    memmove(&s->bp[i], &s->bp[i + 1], (size_t)(s->nbp - i - 1) * sizeof *s->bp);
    s->nbp--;
}

int dbg_bp_add(dbg_session *s, const dbg_bp *b)
{
    s->bp[s->nbp] = *b;
    s->bp[s->nbp].id = s->next_id++;
    return s->bp[s->nbp++].id;
}

void dbg_resume(dbg_session *s, dbg_stop *st)
{
    memset(st, 0, sizeof *st);
    s->skip_once = s->resume_pending = s->paused;
    s->paused = 0;
    s->stop = STOP_NONE;
    s->focus_gone = 0;
    s->watch_hit = -1;
    s->st = vm_launch_step(s->L);
    s->want_cta = 0;
    st->status = s->st;
    if (s->st == VM_PAUSED) {
        vm_cta *cta = &s->L->ctas[s->pslot];
        vm_warp *w = &cta->warps[s->pwarp];
        st->why = s->stop;
        switch (s->stop) {
        case STOP_BP: {
            dbg_bp *b = &s->bp[s->stop_bp];
            b->hits++;
            set_focus_group(s, cta, w->id, s->cond_lanes);
            st->bp_id = b->id;
            st->bp_temp = b->temp;
            if (b->cond[0] && !s->cond_err[0]) snprintf(st->cond, sizeof st->cond, "%s", b->cond);
            st->cond_lanes = s->cond_lanes;
            snprintf(st->cond_err, sizeof st->cond_err, "%s", s->cond_err);
            if (b->temp) dbg_bp_delete(s, s->stop_bp);
            break;
        }
        case STOP_WATCH:
            s->fcta = s->w_cta;
            s->fwarp = s->w_warp;
            s->flane = s->w_lane;
            st->has_watch = 1;
            take_watch(s, &st->watch);
            break;
        case STOP_GONE:
            dbg_tid_of(s, s->fwarp, s->flane, st->gone_tid);
            s->fcta = cta->linear;
            s->fwarp = w->id;
            s->flane = __builtin_ctz(s->pgroup);
            break;
        case STOP_CTA:
            st->cta = cta->linear;
            break;
        }
        return;
    }
    s->ended = 1;
    s->paused = 0;
    if (s->watch_hit >= 0) { st->has_watch = 1; take_watch(s, &st->watch); }
    if (s->st == VM_OK) return;
    vm_fault *f = &s->L->fault;
    if (f->warp >= 0) {
        s->fcta = f->cta[0] + (uint64_t)s->L->cfg.grid[0] * (f->cta[1] + (uint64_t)s->L->cfg.grid[1] * f->cta[2]);
        s->fwarp = f->warp;
        s->flane = f->lane >= 0 ? f->lane : 0;
    }
}

int dbg_start(dbg_session *s, int *code, char *msg, size_t len, diag_list *diags)
{
    if (s->L) {
        vm_launch_free(s->L);
        s->L = NULL;
        rt_prepared_free(&s->P);
        if ((*code = dbg_prepare(s, msg, len, diags))) return -1;
    }
    vm_fault f;
    s->L = vm_launch_new(s->m, &s->P.dev.mem, s->P.dev.var_addr, s->P.kernel, &s->P.cfg, &f);
    if (!s->L) { snprintf(msg, len, "%s", f.msg); return -2; }
    s->sched = s->sched0;             /* a restarted run replays the same schedule */
    s->ended = 0;
    s->paused = 0;
    s->mode = RUN_CONTINUE;
    s->want_cta = s->fcta != 0;
    /* initial values of shared watchpoints are those of a fresh CTA: 0 */
    for (int i = 0; i < s->nbp; i++) {
        dbg_bp *b = &s->bp[i];
        if (b->kind != BP_WATCH) continue;
        const uint8_t *p = b->space == BC_SP_GLOBAL ? mem_xlate(&s->P.dev.mem, b->addr, (uint64_t)b->wsize) : NULL;
        b->old = 0;
        if (p) memcpy(&b->old, p, (size_t)b->wsize);
    }
    return 0;
}

/* ---- run control ---------------------------------------------------------------------- */

void dbg_arm_continue(dbg_session *s)
{
    s->mode = RUN_CONTINUE;
}

void dbg_arm_step(dbg_session *s, long n)
{
    s->mode = RUN_STEP;
    s->step_left = n;
    s->last_pc = UINT32_MAX;
}

void dbg_arm_next(dbg_session *s, const vm_warp *w)
{
    uint32_t pc = w->pc[s->flane];
    s->mode = RUN_NEXT;
    s->start_depth = w->stack[s->flane].depth;
    int n = src_at_level(s->m, pc, 0, &s->next_file, &s->next_line);
    if (!n) { s->mode = RUN_STEP; s->step_left = 1; }
    else {
        s->next_level = n - 1;
        src_at_level(s->m, pc, s->next_level, &s->next_file, &s->next_line);
    }
}

int dbg_arm_finish(dbg_session *s, const vm_warp *w)
{
    s->mode = RUN_FINISH;
    s->start_depth = w->stack[s->flane].depth;
    return s->start_depth ? 0 : -1;
}

/* ---- focus ------------------------------------------------------------------------------ */

int dbg_set_focus_cta(dbg_session *s, uint64_t lin)
{
    s->fcta = lin;
    s->want_cta = 0;
    if (s->L && !s->ended && !dbg_focus_cta(s)) {
        if (dbg_cta_finished(s, lin)) return DBG_CTA_FINISHED;
        s->want_cta = 1;
        return DBG_CTA_PENDING;
    } else if (!s->L) s->want_cta = lin != 0;
    return DBG_CTA_HERE;
}

void dbg_set_focus_thread(dbg_session *s, int warp, int lane)
{
    s->fwarp = warp;
    s->flane = lane;
}

/* Whether there is thread state to look at: paused, or stopped by a
 * fault or deadlock (a finished launch has only its global memory). */
int dbg_inspectable(const dbg_session *s)
{
    return s->L && (!s->ended || s->st != VM_OK);
}

/* ---- call frames ------------------------------------------------------------------------- */

/* The physical frames of lane `lane` of w, innermost first (at most max):
 * call_enter pushes the callee's registers, the call pc, the caller's frame
 * pointer and the callee's index on the lane's stack. */
int dbg_phys_frames(const dbg_session *s, const vm_warp *w, int lane, dbg_pframe *f, int max)
{
    const struct vm_stack *st = &w->stack[lane];
    int n = 0;
    uint32_t top = st->n, pc = w->pc[lane];
    while (n < max) {
        f[n].pc = pc;
        f[n].func = bc_func_at(s->m, pc);
        f[n].save = UINT32_MAX;
        if (top < 3) { n++; break; }
        int fidx = (int)st->v[top - 1];
        uint32_t ns = fidx >= 0 && fidx < s->m->nfuncs ? s->m->funcs[fidx].nslots : 0;
        if (3 + ns > top) { n++; break; }
        f[n].save = top - 3 - ns;
        pc = (uint32_t)st->v[top - 3];
        top -= 3 + ns;
        n++;
    }
    return n;
}

/* The value of register slot `slot` (times BC_WARP) in frame j: the live
 * register, unless a frame nearer the top runs the same function; then the
 * value the nearest such call saved. */
uint64_t dbg_frame_reg(const dbg_session *s, const vm_warp *w, int lane, const dbg_pframe *f, int nf, int j, uint32_t slot)
{
    if (j > 0 && j < nf && f[j].func >= 0) {
        const bc_func *F = &s->m->funcs[f[j].func];
        uint32_t k = slot / BC_WARP;
        for (int i = j - 1; i >= 0; i--) {
            if (f[i].func != f[j].func || f[i].save == UINT32_MAX) continue;
            if (k >= F->slot_base && k < F->slot_base + F->nslots) return w->stack[lane].v[f[i].save + (k - F->slot_base)];
            break;
        }
    }
    return w->R[slot + (uint32_t)lane];
}

/* Reads n bytes at (space, addr) as lane `lane` of w sees them. */
const uint8_t *dbg_mem_at(dbg_session *s, vm_warp *w, int lane, int space, uint64_t addr, uint64_t n)
{
    int rs = space;
    uint64_t ra = addr;
    if (space == BC_SP_GENERIC) vm_resolve(s->L, space, addr, &rs, &ra);
    if (rs == BC_SP_GLOBAL) return mem_xlate(&s->P.dev.mem, ra, n);
    if (!dbg_inspectable(s)) return NULL;
    vm_cta *cta = NULL;
    for (int i = 0; i < s->L->nres && !cta; i++)      /* the CTA that owns w, else the focused one */
        if (s->L->ctas[i].live && (w ? w >= s->L->ctas[i].warps && w < s->L->ctas[i].warps + s->L->ctas[i].nwarps
                                     : s->L->ctas[i].linear == s->fcta)) cta = &s->L->ctas[i];
    if (!cta && !w && s->L->cur_cta->live) cta = s->L->cur_cta;
    if (!cta) return NULL;
    if (!w) w = &cta->warps[0];
    return vm_xlate(s->L, cta, w, lane, rs, ra, n, 0);
}

/* ---- breakpoint locations ------------------------------------------------------------------ */

static int add_pc(dbg_bp *b, uint32_t pc)
{
    uint32_t *np = realloc(b->pcs, (size_t)(b->npcs + 1) * sizeof *np);
    if (!np) return -1;
    b->pcs = np;
    b->pcs[b->npcs++] = pc;
    return 0;
}

static int src_matches(const bc_module *m, uint32_t pc, const char *file, int line)
{
    for (int src = m->code[pc].src, d = 0; src >= 0 && src < m->nsrclocs && d < 16; src = m->srclocs[src].parent, d++) {
        const bc_srcloc *l = &m->srclocs[src];
        if (l->line == line && l->file >= 0 && l->file < m->nfiles && m->files[l->file] && suffix_match(m->files[l->file], file))
            return 1;
    }
    return 0;
}

static int is_label_pc(const bc_module *m, uint32_t pc)
{
    for (int i = 0; i < m->nlabels; i++) if (m->labels[i].pc == pc) return 1;
    for (int f = 0; f < m->nfuncs; f++) if (m->funcs[f].pc_begin == pc) return 1;
    return 0;
}

int dbg_resolve_loc(dbg_session *s, const char *loc, dbg_bp *b, char *msg, size_t len)
{
    const bc_module *m = s->m;
    const char *colon = strrchr(loc, ':');
    char *end;
    long line = -1;
    char file[256] = "";
    if (colon && colon[1] && (line = strtol(colon + 1, &end, 10), !*end)) {
        snprintf(file, sizeof file, "%.*s", (int)(colon - loc), loc);
    } else if ((line = strtol(loc, &end, 10), !*end && end != loc)) {
        file[0] = 0;
    } else line = -1;
    if (line >= 0) {
        int ptx = !file[0] || suffix_match(m->path, file) || (strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".ptx"));
        if (ptx && file[0] && !suffix_match(m->path, file)) { snprintf(msg, len, "No source file named %s.", file); return -1; }
        if (ptx) {
            long best = -1;
            for (uint32_t pc = 0; pc < m->ncode; pc++)
                if (m->code[pc].line >= line && (best < 0 || m->code[pc].line < best)) best = m->code[pc].line;
            if (best < 0) { snprintf(msg, len, "No instruction at or after line %ld of %s.", line, dbg_base_name(m->path)); return -1; }
            for (uint32_t pc = 0; pc < m->ncode; pc++)
                if (m->code[pc].line == best) { add_pc(b, pc); break; }
            return 0;
        }
        int known = 0;
        for (int f = 0; f < m->nfiles; f++) if (m->files[f] && suffix_match(m->files[f], file)) known = 1;
        if (!known) { snprintf(msg, len, "No source file named %s.", file); return -1; }
        for (uint32_t pc = 0; pc < m->ncode; pc++)
            if (src_matches(m, pc, file, (int)line) && (pc == 0 || !src_matches(m, pc - 1, file, (int)line) || is_label_pc(m, pc)))
                add_pc(b, pc);
        if (!b->npcs) { snprintf(msg, len, "No code for line %ld of %s.", line, file); return -1; }
        return 0;
    }
    for (int i = 0; i < m->nlabels; i++)
        if (!strcmp(m->labels[i].name, loc)) { add_pc(b, m->labels[i].pc); return 0; }
    int f = bc_find_func(m, loc);
    if (f >= 0 && m->funcs[f].kind == BC_FN_DEFINED) { add_pc(b, m->funcs[f].pc_begin); return 0; }
    snprintf(msg, len, "Function or label \"%s\" not defined.", loc);
    return -1;
}

/* ---- backtrace numbering -------------------------------------------------------------- */

int dbg_logical_frames(const dbg_session *s, const dbg_pframe *pf, int npf, dbg_lframe *lf, int max)
{
    const bc_module *m = s->m;
    int n = 0;
    for (int p = 0; p < npf && n < max; p++) {
        uint32_t pc = pf[p].pc;
        int src = pc < m->ncode ? m->code[pc].src : -1, d = 0;
        for (; src >= 0 && src < m->nsrclocs && m->srclocs[src].parent >= 0 && d < 15 && n < max; d++) {
            lf[n++] = (dbg_lframe){ p, pc, src, 1 };
            src = m->srclocs[src].parent;
        }
        if (n < max) lf[n++] = (dbg_lframe){ p, pc, src, 0 };
    }
    return n;
}

