/* flow.c — analyses over compiled bytecode: which registers a thread may
 * read before writing them (bc_flow_maybe_uninit).
 *
 * A block starts from zeroed registers so that its results never depend on
 * what ran before in its CTA slot (vm/sched.c); zeroing every register of a
 * kernel with hundreds of them costs more than a short block runs, so only
 * the registers this analysis cannot prove written before each read are
 * zeroed.  It is a must-be-written dataflow over each function's basic
 * blocks, conservative wherever the bytecode's operand use is not plain:
 * every operand field but d (and every word of the operand lists) counts as
 * a read, only d of an unguarded instruction counts as a write.
 *
 * Stores (bc_flow_store_roots): which kernel parameters and module
 * variables the address of a store may be computed from, so that a parallel
 * launch (vm/par.c) need not track the reads of buffers no store can reach.
 *
 * Calls (bc_flow_call_saves): a call saves, on the lane's stack, the caller's
 * registers that are live after it, and only when the callee may enter the
 * caller's function again (recursion through the call graph; any indirect
 * call may): the others cannot change.  A backward liveness dataflow with
 * the same conservative reads and writes (more live = more saved).
 */
#include <stdlib.h>
#include <string.h>
#include "bc.h"

#define FLOW_MAX_WORDS (16u << 20)      /* larger functions: every register is zeroed / saved */
#define FLOW_MAX_LIST 40                 /* registers in a matrix instruction's lists */
#define FLOW_MAX_OPS (6 + 8 + FLOW_MAX_LIST)
#define FLOW_MAX_FUNCS 4096              /* more: every call may re-enter its caller */

typedef struct flow_fn {
    const bc_module *m;
    const bc_func *f;
    uint32_t nw;                         /* 64-bit words per register set */
    uint32_t n;                          /* instructions */
    uint8_t *leader;
    int32_t *block;                      /* pc - begin -> block index */
    uint64_t *in;                        /* per block: registers written on every path to it */
    int nblocks;
    uint32_t *start;                     /* per block: first pc */
} flow_fn;

/* The register of the function that slot field v (slot * BC_WARP) names, or -1. */
static int64_t reg_of(const bc_func *f, uint32_t v)
{
    if (v % BC_WARP) return -1;
    uint32_t s = v / BC_WARP;
    return s >= f->slot_base && s < f->slot_base + f->nslots ? (int64_t)(s - f->slot_base) : -1;
}

static int ends_block(const bc_insn *I)
{
    return I->op == OP_BRA || I->op == OP_BRX || I->op == OP_RET || I->op == OP_EXIT || I->op == OP_TRAP;
}

/* Whether control can go on to pc + 1 after I. */
static int falls_through(const bc_insn *I)
{
    if (I->op == OP_BRX) return 0;
    if (I->op == OP_BRA || I->op == OP_RET || I->op == OP_EXIT || I->op == OP_TRAP) return I->guard != BC_NO_GUARD;
    return 1;
}

static void mark_leaders(flow_fn *F)
{
    const bc_module *m = F->m;
    uint32_t b = F->f->pc_begin;
    F->leader[0] = 1;
    for (uint32_t i = 0; i < F->n; i++) {
        const bc_insn *I = &m->code[b + i];
        if (ends_block(I) && i + 1 < F->n) F->leader[i + 1] = 1;
        if (I->op == OP_BRA && (uint64_t)I->imm >= b && (uint64_t)I->imm < b + F->n) F->leader[I->imm - b] = 1;
        if (I->op == OP_BRX) {
            uint32_t tab = (uint32_t)I->imm & 0xffffff, k = (uint32_t)I->imm >> 24;
            for (uint32_t j = 0; j < k && tab + j < m->nextra; j++)
                if (m->extra[tab + j] >= b && m->extra[tab + j] < b + F->n) F->leader[m->extra[tab + j] - b] = 1;
        }
    }
}

/* The function's registers that I may read (conservatively: every operand
 * field but d, the lists of stores and matrix instructions, x where it
 * names a membermask register) into r; returns how many. */
static int insn_uses(const flow_fn *F, const bc_insn *I, int64_t *r)
{
    const bc_module *m = F->m;
    int fmt = bc_op_fmt[I->op], list = fmt == F_LD || fmt == F_ST || fmt == F_CALL || fmt == F_MMA, n = 0;
    uint32_t src[6] = { I->a, I->b, I->c, (I->flags & BC_IF_HAS_E) ? 0 : I->e, list ? 0 : I->x,
                        I->guard == BC_NO_GUARD ? 0 : I->guard };
    for (int k = 0; k < 6; k++)
        if ((r[n] = reg_of(F->f, src[k])) >= 0) n++;
    if (fmt == F_ST)
        for (uint32_t k = 0; k < I->n && I->x + k < m->nextra; k++)
            if ((r[n] = reg_of(F->f, m->extra[I->x + k])) >= 0) n++;
    if (fmt == F_MMA && I->x + 4 <= m->nextra) {
        const uint32_t *ol = &m->extra[I->x];
        uint64_t c = (uint64_t)ol[0] + ol[1] + ol[2] + ol[3];
        for (uint64_t k = 0; k < c && k < FLOW_MAX_LIST && I->x + 4 + k < m->nextra; k++)
            if ((r[n] = reg_of(F->f, ol[4 + k])) >= 0) n++;
    }
    return n;
}

/* The function's registers that I surely writes (d and e of an unguarded
 * instruction, the list of a load) into r; returns how many. */
static int insn_defs(const flow_fn *F, const bc_insn *I, int64_t *r)
{
    const bc_module *m = F->m;
    int n = 0;
    if (I->guard != BC_NO_GUARD) return 0;
    if ((r[n] = reg_of(F->f, I->d)) >= 0) n++;
    if ((I->flags & BC_IF_HAS_E) && (r[n] = reg_of(F->f, I->e)) >= 0) n++;
    if (bc_op_fmt[I->op] == F_LD)
        for (uint32_t k = 0; k < I->n && I->x + k < m->nextra; k++)
            if ((r[n] = reg_of(F->f, m->extra[I->x + k])) >= 0) n++;
    return n;
}

#define BIT_SET(w, r) ((w)[(r) / 64] |= 1ull << ((r) % 64))
#define BIT_CLR(w, r) ((w)[(r) / 64] &= ~(1ull << ((r) % 64)))
#define BIT_GET(w, r) ((w)[(r) / 64] >> ((r) % 64) & 1)

/* Applies instruction I to the written set w; with uninit, marks the reads
 * of registers not in w. */
static void step(const flow_fn *F, const bc_insn *I, uint64_t *w, uint8_t *uninit)
{
    int64_t r[FLOW_MAX_OPS];
    if (uninit) {
        int n = insn_uses(F, I, r);
        for (int k = 0; k < n; k++)
            if (!BIT_GET(w, r[k])) uninit[F->f->slot_base + r[k]] = 1;
    }
    int n = insn_defs(F, I, r);
    for (int k = 0; k < n; k++) BIT_SET(w, r[k]);
}

/* Intersects `out` into block t's entry set; returns 1 if it changed. */
static int meet(flow_fn *F, uint32_t t_pc, const uint64_t *out)
{
    uint32_t b = F->f->pc_begin;
    if (t_pc < b || t_pc >= b + F->n) return 0;
    uint64_t *in = F->in + (size_t)F->block[t_pc - b] * F->nw;
    int ch = 0;
    for (uint32_t k = 0; k < F->nw; k++) {
        uint64_t v = in[k] & out[k];
        ch |= v != in[k];
        in[k] = v;
    }
    return ch;
}

/* The fixpoint, then one pass marking reads of maybe-unwritten registers. */
static int analyse(flow_fn *F, uint8_t *uninit)
{
    const bc_module *m = F->m;
    uint32_t b = F->f->pc_begin;
    uint64_t *w = malloc(F->nw * sizeof *w);
    uint8_t *queued = calloc((size_t)F->nblocks, 1);
    int *work = malloc((size_t)F->nblocks * sizeof *work);
    if (!w || !queued || !work) { free(w); free(queued); free(work); return -1; }
    memset(F->in, 0xff, (size_t)F->nblocks * F->nw * sizeof *F->in);
    memset(F->in, 0, F->nw * sizeof *F->in);                 /* entry: nothing written */
    int nwork = 0;
    work[nwork++] = 0;
    queued[0] = 1;
    while (nwork) {
        int bi = work[--nwork];
        queued[bi] = 0;
        memcpy(w, F->in + (size_t)bi * F->nw, F->nw * sizeof *w);
        uint32_t pc = F->start[bi];
        for (;; pc++) {
            const bc_insn *I = &m->code[b + pc];
            step(F, I, w, NULL);
            int last = pc + 1 >= F->n || F->leader[pc + 1];
            if (!last) continue;
            uint32_t succ[2];
            int ns = 0;
            if (falls_through(I) && pc + 1 < F->n) succ[ns++] = b + pc + 1;
            if (I->op == OP_BRA) succ[ns++] = (uint32_t)I->imm;
            for (int k = 0; k < ns; k++)
                if (meet(F, succ[k], w) && !queued[F->block[succ[k] - b]]) {
                    queued[F->block[succ[k] - b]] = 1;
                    work[nwork++] = F->block[succ[k] - b];
                }
            if (I->op == OP_BRX) {
                uint32_t tab = (uint32_t)I->imm & 0xffffff, nt = (uint32_t)I->imm >> 24;
                for (uint32_t j = 0; j < nt && tab + j < m->nextra; j++) {
                    uint32_t t = m->extra[tab + j];
                    if (meet(F, t, w) && t >= b && t < b + F->n && !queued[F->block[t - b]]) {
                        queued[F->block[t - b]] = 1;
                        work[nwork++] = F->block[t - b];
                    }
                }
            }
            break;
        }
    }
    for (int bi = 0; bi < F->nblocks; bi++) {
        memcpy(w, F->in + (size_t)bi * F->nw, F->nw * sizeof *w);
        for (uint32_t pc = F->start[bi]; pc < F->n && (pc == F->start[bi] || !F->leader[pc]); pc++)
            step(F, &m->code[b + pc], w, uninit);
    }
    free(w); free(queued); free(work);
    return 0;
}

/* Sets up F for function f: its basic blocks (leaders, the block of each
 * pc, the start of each block) and room for one bit set per block.  Returns
 * 0 when out of host memory or past FLOW_MAX_WORDS (F is then still safe to
 * free with flow_free). */
static int flow_blocks(flow_fn *F, const bc_module *m, const bc_func *f)
{
    *F = (flow_fn){ m, f, (f->nslots + 63) / 64, f->pc_end - f->pc_begin, NULL, NULL, NULL, 0, NULL };
    uint32_t nw = F->nw ? F->nw : 1;
    F->leader = calloc(F->n, 1);
    F->block = malloc(F->n * sizeof *F->block);
    F->start = malloc(F->n * sizeof *F->start);
    if (!F->leader || !F->block || !F->start) return 0;
    mark_leaders(F);
    for (uint32_t k = 0; k < F->n; k++) {
        if (F->leader[k]) F->start[F->nblocks++] = k;
        F->block[k] = F->nblocks - 1;
    }
    return (uint64_t)F->nblocks * nw <= FLOW_MAX_WORDS && (F->in = malloc((size_t)F->nblocks * nw * sizeof *F->in));
}

static void flow_free(flow_fn *F)
{
    free(F->leader); free(F->block); free(F->start); free(F->in);
}

/* Marks the function's registers it may read unwritten; every one when the
 * analysis cannot run. */
static void flow_func(const bc_module *m, const bc_func *f, uint8_t *uninit)
{
    flow_fn F;
    if (f->pc_end == f->pc_begin || !f->nslots) return;
    int ok = flow_blocks(&F, m, f);
    if (!ok || analyse(&F, uninit)) memset(uninit + f->slot_base, 1, f->nslots);
    flow_free(&F);
}

uint8_t *bc_flow_maybe_uninit(const bc_module *m)
{
    uint8_t *u = calloc((size_t)m->nslots + 1, 1);
    if (!u) return NULL;
    /* the fragment lists of matrix instructions are not followed: a register
     * in one may be read unwritten */
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const bc_insn *I = &m->code[pc];
        if (bc_op_fmt[I->op] != F_MMA || I->x + 4 > m->nextra) continue;
        const uint32_t *ol = &m->extra[I->x];
        uint64_t n = (uint64_t)ol[0] + ol[1] + ol[2] + ol[3];
        for (uint64_t k = 0; k < n && I->x + 4 + k < m->nextra; k++)
            if (ol[4 + k] % BC_WARP == 0 && ol[4 + k] / BC_WARP < m->nslots) u[ol[4 + k] / BC_WARP] = 1;
    }
    u[m->slot_cc / BC_WARP] = 1;          /* the carry flag (addc & co.) and the frame pointer */
    u[m->slot_fp / BC_WARP] = 1;          /* (calls, local frames) are not read through a field */
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].kind == BC_FN_DEFINED) flow_func(m, &m->funcs[i], u);
    for (uint32_t s = 0; s < m->nconsts; s++) u[s] = 0;   /* constants are never zeroed */
    return u;
}

/* ---- reads per register ------------------------------------------------------------ */

int bc_flow_read_counts(const bc_module *m, const bc_func *f, uint32_t *count)
{
    flow_fn F = { .m = m, .f = f };
    int64_t r[FLOW_MAX_OPS];
    memset(count, 0, sizeof *count * f->nslots);
    for (uint32_t pc = f->pc_begin; pc < f->pc_end; pc++) {
        const bc_insn *I = &m->code[pc];
        if (bc_op_fmt[I->op] == F_MMA) {         /* insn_uses follows at most FLOW_MAX_LIST of a list */
            const uint32_t *ol = &m->extra[I->x];
            if (I->x + 4 > m->nextra || (uint64_t)ol[0] + ol[1] + ol[2] + ol[3] > FLOW_MAX_LIST) return -1;
        }
        if (bc_op_fmt[I->op] == F_ST && I->n > FLOW_MAX_LIST) return -1;
        int n = insn_uses(&F, I, r);
        for (int k = 0; k < n; k++) count[r[k]]++;
    }
    return 0;
}

/* ---- constants forwarded into collectives ---------------------------------------------
 * CUDA's __shfl_*_sync, __ballot_sync and friends are inline assembly with register
 * operands, so nvcc puts lane, clamp and membermask into registers first:
 *     mov.u32 %r18, 1;  mov.u32 %r17, 0;  mov.u32 %r19, -1;
 *     shfl.sync.up.b32 %r20|%p1, %r16, %r18, %r17, %r19;
 * The whole-warp paths of the collectives (vm/warp.c) skip their per-lane operand checks
 * when these are immediates (constant-pool slots).  A collective's source field naming a
 * register r can name constant K instead when r holds K in every lane there:
 *   - in its basic block: an unguarded mov of K set r earlier in the block, and nothing in
 *     between may set it (every lane at the collective came through the mov: a block is
 *     entered at its first instruction only);
 *   - in its function: every instruction that may set r is an unguarded mov of K, and no
 *     thread may read r before writing it (maybe_uninit): whatever path a lane took, r is
 *     K there (nvcc's virtual registers are mostly set once: a membermask or clamp set
 *     before a loop of shuffles). */

/* Whether slot field v names a constant-pool slot (the same value in every lane). */
static int const_slot(const bc_module *m, uint32_t v)
{
    return v % BC_WARP == 0 && v / BC_WARP < m->nconsts;
}

/* The function's registers that I may write (d, e, a load's or unpack's list) into r;
 * returns how many, or -1 when they are not listed here (a call's or matrix
 * instruction's lists, a longer list). */
static int insn_may_defs(const flow_fn *F, const bc_insn *I, int64_t *r)
{
    int fmt = bc_op_fmt[I->op], n = 0;
    if (fmt == F_CALL || fmt == F_MMA || (fmt == F_LD && I->n > FLOW_MAX_LIST)) return -1;
    if ((r[n] = reg_of(F->f, I->d)) >= 0) n++;
    if ((r[n] = reg_of(F->f, I->e)) >= 0) n++;
    if (fmt == F_LD)
        for (uint32_t k = 0; k < I->n && I->x + k < F->m->nextra; k++)
            if ((r[n] = reg_of(F->f, F->m->extra[I->x + k])) >= 0) n++;
    return n;
}

#define FC_NONE UINT32_MAX             /* no constant known */
#define FC_MANY (UINT32_MAX - 1)       /* set otherwise than by one constant */

/* The constant slot of an unguarded mov of a constant into register r, or FC_NONE. */
static uint32_t mov_const(const flow_fn *F, const bc_insn *I, int64_t r)
{
    return I->op == OP_MOV && I->guard == BC_NO_GUARD && const_slot(F->m, I->a) && reg_of(F->f, I->d) == r
               ? I->a : FC_NONE;
}

/* Whether f has a collective (nothing to forward into otherwise). */
static int has_collective(const bc_module *m, const bc_func *f)
{
    for (uint32_t pc = f->pc_begin; pc < f->pc_end; pc++)
        if (bc_op_fmt[m->code[pc].op] == F_COLL) return 1;
    return 0;
}

/* glob[r] = K when every instruction of f that may set r is an unguarded mov of K and
 * no thread may read r unwritten; else FC_NONE. */
static void function_consts(const flow_fn *F, uint32_t *glob)
{
    const bc_func *f = F->f;
    int64_t r[FLOW_MAX_OPS];
    for (uint32_t k = 0; k < f->nslots; k++) glob[k] = FC_NONE;
    if (!F->m->maybe_uninit) return;
    for (uint32_t i = 0; i < F->n; i++) {
        const bc_insn *I = &F->m->code[f->pc_begin + i];
        int n = insn_may_defs(F, I, r);
        if (n < 0) { for (uint32_t k = 0; k < f->nslots; k++) glob[k] = FC_NONE; return; }   /* a call: none known */
        for (int k = 0; k < n; k++) {
            uint32_t K = mov_const(F, I, r[k]);
            glob[r[k]] = K == FC_NONE || (glob[r[k]] != FC_NONE && glob[r[k]] != K) ? FC_MANY : K;
        }
    }
    for (uint32_t k = 0; k < f->nslots; k++)
        if (glob[k] == FC_MANY || F->m->maybe_uninit[f->slot_base + k]) glob[k] = FC_NONE;
}

int bc_flow_forward_consts(const bc_module *m, const bc_func *f, bc_insn *code)
{
    flow_fn F = { .m = m, .f = f, .n = f->pc_end - f->pc_begin };
    if (!F.n || !f->nslots || !has_collective(m, f)) return 0;
    F.leader = calloc(F.n, 1);
    uint32_t *cst = malloc(sizeof *cst * f->nslots), *gen = calloc(f->nslots, sizeof *gen);
    uint32_t *glob = malloc(sizeof *glob * f->nslots);
    if (!F.leader || !cst || !gen || !glob) { free(F.leader); free(cst); free(gen); free(glob); return -1; }
    mark_leaders(&F);
    function_consts(&F, glob);
    uint32_t cur = 0;                  /* gen[r] == cur: r holds constant cst[r] in every lane */
    int changed = 0;
    int64_t r[FLOW_MAX_OPS];
    for (uint32_t i = 0; i < F.n; i++) {
        const bc_insn *I = &m->code[f->pc_begin + i];
        bc_insn *O = &code[f->pc_begin + i];
        if (F.leader[i]) cur++;
        if (bc_op_fmt[I->op] == F_COLL) {
            uint32_t *field[4] = { &O->a, &O->b, &O->c, &O->x };
            for (int k = 0; k < 4; k++) {
                int64_t q = reg_of(f, *field[k]);
                if (q < 0) continue;
                uint32_t K = gen[q] == cur ? cst[q] : glob[q];
                if (K != FC_NONE) { *field[k] = K; changed++; }
            }
        }
        int n = insn_may_defs(&F, I, r);
        if (n < 0) { cur++; continue; }    /* what I may write is not known: nothing is */
        for (int k = 0; k < n; k++) {
            uint32_t K = mov_const(&F, I, r[k]);
            cst[r[k]] = K;
            gen[r[k]] = K == FC_NONE ? 0 : cur;
        }
    }
    free(F.leader); free(cst); free(gen); free(glob);
    return changed;
}

/* ---- liveness at call sites --------------------------------------------------------- */

/* Successors of the block ending at pc (relative); returns how many (BRX
 * targets come from the table). */
static int succs(const flow_fn *F, uint32_t pc, uint32_t *out, int max)
{
    const bc_module *m = F->m;
    uint32_t b = F->f->pc_begin;
    const bc_insn *I = &m->code[b + pc];
    int n = 0;
    if (falls_through(I) && pc + 1 < F->n) out[n++] = pc + 1;
    if (I->op == OP_BRA && (uint64_t)I->imm >= b && (uint64_t)I->imm < b + F->n) out[n++] = (uint32_t)I->imm - b;
    if (I->op == OP_BRX) {
        uint32_t tab = (uint32_t)I->imm & 0xffffff, nt = (uint32_t)I->imm >> 24;
        for (uint32_t j = 0; j < nt && tab + j < m->nextra && n < max; j++)
            if (m->extra[tab + j] >= b && m->extra[tab + j] < b + F->n) out[n++] = m->extra[tab + j] - b;
    }
    return n;
}

/* ---- rows final at a pc ------------------------------------------------------------ */

/* Whether a walk over F's instructions (relative pcs) from the successors of `from` (or from
 * pc 0 when from is F->n), never through `avoid`, reaches `to`; seen[] is F->n bytes. */
static int reaches(const flow_fn *F, uint32_t from, uint32_t avoid, uint32_t to, uint8_t *seen, uint32_t *stack)
{
    uint32_t sp = 0, out[2];
    memset(seen, 0, F->n);
    if (from == F->n) { if (avoid != 0) stack[sp++] = 0, seen[0] = 1; }
    else for (int k = succs(F, from, out, 2) - 1; k >= 0; k--)
        if (out[k] != avoid && !seen[out[k]]) seen[out[k]] = 1, stack[sp++] = out[k];
    while (sp) {
        uint32_t p = stack[--sp];
        if (p == to) return 1;
        for (int k = succs(F, p, out, 2) - 1; k >= 0; k--)
            if (out[k] != avoid && !seen[out[k]]) seen[out[k]] = 1, stack[sp++] = out[k];
    }
    return 0;
}

int bc_flow_final_at(const bc_module *m, const bc_func *f, uint32_t v, uint32_t pc)
{
    if (const_slot(m, v)) return 1;
    flow_fn F = { .m = m, .f = f, .n = f->pc_end - f->pc_begin };
    int64_t r = reg_of(f, v), d[FLOW_MAX_OPS];
    if (!f->is_entry || r < 0 || pc < f->pc_begin || pc >= f->pc_end || !F.n) return 0;
    uint32_t def = F.n, ndef = 0;
    for (uint32_t q = 0; q < F.n; q++) {
        const bc_insn *I = &m->code[f->pc_begin + q];
        if (I->op == OP_BRX || bc_op_fmt[I->op] == F_CALL) return 0;
        int k = insn_may_defs(&F, I, d);
        if (k < 0) return 0;
        for (int j = 0; j < k; j++) if (d[j] == r) { def = q; ndef++; break; }
    }
    if (ndef != 1 || def == pc - f->pc_begin) return 0;
    uint8_t *seen = malloc(F.n);
    uint32_t *stack = malloc(sizeof *stack * F.n);
    int fin = seen && stack && !reaches(&F, def, F.n, def, seen, stack) &&   /* on no cycle */
              !reaches(&F, F.n, def, pc - f->pc_begin, seen, stack);      /* on every path to pc */
    free(seen); free(stack);
    return fin;
}

enum { FLOW_OVERWRITE_SCAN = 16 };       /* instructions looked at after pc */
int bc_flow_overwritten(const bc_module *m, const bc_func *f, uint32_t v, uint32_t pc)
{
    flow_fn F = { .m = m, .f = f };
    int64_t r = reg_of(f, v), x[FLOW_MAX_OPS];
    if (r < 0 || pc < f->pc_begin) return 0;
    for (uint32_t p = pc; p < f->pc_end && p < pc + FLOW_OVERWRITE_SCAN; p++) {
        const bc_insn *I = &m->code[p];
        if (ends_block(I) || bc_op_fmt[I->op] == F_CALL) return 0;   /* a call's arguments are not in insn_uses */
        int n = insn_uses(&F, I, x);
        for (int k = 0; k < n; k++) if (x[k] == r) return 0;
        n = insn_defs(&F, I, x);
        for (int k = 0; k < n; k++) if (x[k] == r) return 1;
    }
    return 0;
}

/* Backward liveness over F's blocks to a fixpoint (F->in holds live-in per
 * block), then one pass handing each call site its live-after set. */
static int liveness(flow_fn *F, void (*at_call)(void *, uint32_t pc, const uint64_t *live), void *ctx)
{
    const bc_module *m = F->m;
    uint32_t b = F->f->pc_begin;
    uint64_t *live = malloc(F->nw * sizeof *live);
    uint32_t *sc = malloc(((size_t)F->n + 2) * sizeof *sc);
    if (!live || !sc) { free(live); free(sc); return -1; }
    memset(F->in, 0, (size_t)F->nblocks * F->nw * sizeof *F->in);
    int64_t r[FLOW_MAX_OPS];
    void (*report)(void *, uint32_t, const uint64_t *) = NULL;   /* set for the pass after the fixpoint */
    for (;;) {
        int changed = 0;
        for (int bi = F->nblocks - 1; bi >= 0; bi--) {
            uint32_t end = bi + 1 < F->nblocks ? F->start[bi + 1] : F->n;
            memset(live, 0, F->nw * sizeof *live);
            int ns = succs(F, end - 1, sc, (int)F->n + 2);
            for (int k = 0; k < ns; k++) {
                const uint64_t *si = F->in + (size_t)F->block[sc[k]] * F->nw;
                for (uint32_t j = 0; j < F->nw; j++) live[j] |= si[j];
            }
            for (uint32_t pc = end; pc-- > F->start[bi];) {
                const bc_insn *I = &m->code[b + pc];
                if (report && (I->op == OP_CALL || I->op == OP_CALLI)) report(ctx, b + pc, live);
                int n = insn_defs(F, I, r);
                for (int k = 0; k < n; k++) BIT_CLR(live, r[k]);
                n = insn_uses(F, I, r);
                for (int k = 0; k < n; k++) BIT_SET(live, r[k]);
            }
            uint64_t *in = F->in + (size_t)bi * F->nw;
            for (uint32_t j = 0; j < F->nw; j++) {
                changed |= in[j] != live[j];
                in[j] = live[j];
            }
        }
        if (report) break;             /* the call sites were reported from the fixpoint */
        if (!changed) report = at_call;
    }
    free(live); free(sc);
    return 0;
}

typedef struct save_ctx {
    bc_module *m;
    const bc_func *f;
    int reenter_any;                /* every call of f may enter f again */
    const uint8_t *reach;           /* reach[callee * nfuncs + f]: f may run during a call of callee */
    int fidx;
    uint32_t *list;                 /* [count, slot...] per call site, appended */
    size_t n, cap;
    int oom;
} save_ctx;

/* The .param copy plan of a call at I (BC_CALL_PLAN_* in bc.h) into out;
 * returns its length.  Only a direct call whose argument and result counts
 * match its callee's, at most BC_CALL_PLAN_MAX of each, gets one (else
 * [0]: the VM works the copies out per call, and reports a mismatch). */
static uint32_t call_plan(const bc_module *m, const bc_insn *I, uint32_t *out)
{
    out[0] = 0;
    if (I->op != OP_CALL || I->imm < 0 || I->imm >= m->nfuncs || I->x + 3 > m->nextra) return 1;
    const bc_func *f = &m->funcs[I->imm];
    const uint32_t *x = &m->extra[I->x];
    uint32_t np = x[0], nr = x[1];
    if (np != (uint32_t)f->nparams || nr != (uint32_t)f->nrets || np > BC_CALL_PLAN_MAX || nr > BC_CALL_PLAN_MAX ||
        I->x + 3 + 3 * (uint64_t)(np + nr) > m->nextra)
        return 1;
    uint32_t *t = out + BC_CALL_PLAN_COPIES, hwp, hwr, all4p, all4r;
    bc_call_copies(m, I->x, (int)I->imm, 0, t, &hwp, &all4p);
    bc_call_copies(m, I->x, (int)I->imm, 1, t + 3 * np, &hwr, &all4r);
    out[0] = 1;
    out[BC_CALL_PLAN_NP] = np; out[BC_CALL_PLAN_HWP] = hwp; out[BC_CALL_PLAN_ALL4P] = all4p;
    out[BC_CALL_PLAN_NR] = nr; out[BC_CALL_PLAN_HWR] = hwr; out[BC_CALL_PLAN_ALL4R] = all4r;
    out[BC_CALL_PLAN_OFF] = x[2]; out[BC_CALL_PLAN_FEND] = (uint32_t)f->frame_size;
    return BC_CALL_PLAN_COPIES + 3 * (np + nr);
}

static void record_call(void *ctx, uint32_t pc, const uint64_t *live)
{
    save_ctx *S = ctx;
    const bc_insn *I = &S->m->code[pc];
    /* a kernel is never called; an indirect call may reach anything */
    int reenter = !S->f->is_entry &&
                  (S->reenter_any || I->op == OP_CALLI || I->imm < 0 || I->imm >= S->m->nfuncs ||
                   S->reach[(size_t)I->imm * S->m->nfuncs + S->fidx]);
    uint32_t cnt = 0, plan[BC_CALL_PLAN_COPIES + 6 * BC_CALL_PLAN_MAX];
    uint32_t np = call_plan(S->m, I, plan);
    if (reenter) for (uint32_t k = 0; k < S->f->nslots; k++) cnt += BIT_GET(live, k);
    if (S->n + cnt + 1 + np > S->cap) {
        size_t nc = (S->cap + cnt + 1 + np) * 2;
        uint32_t *nl = realloc(S->list, nc * sizeof *nl);
        if (!nl) { S->oom = 1; return; }
        S->list = nl;
        S->cap = nc;
    }
    S->m->call_save[pc] = (uint32_t)S->n;
    S->list[S->n++] = cnt;
    if (reenter)
        for (uint32_t k = 0; k < S->f->nslots; k++)
            if (BIT_GET(live, k)) S->list[S->n++] = S->f->slot_base + k;
    S->m->call_plan[pc] = (uint32_t)S->n;
    memcpy(S->list + S->n, plan, np * sizeof *plan);
    S->n += np;
}

/* reach[c * nf + f]: function f may run while a call of c is in progress
 * (c itself included); a function that calls indirectly may reach anything. */
static uint8_t *call_reach(const bc_module *m)
{
    int nf = m->nfuncs;
    uint8_t *r = calloc((size_t)nf * nf + 1, 1);
    if (!r) return NULL;
    for (int c = 0; c < nf; c++) {
        r[(size_t)c * nf + c] = 1;
        const bc_func *f = &m->funcs[c];
        for (uint32_t pc = f->pc_begin; pc < f->pc_end; pc++) {
            const bc_insn *I = &m->code[pc];
            if (I->op == OP_CALLI) memset(r + (size_t)c * nf, 1, (size_t)nf);
            else if (I->op == OP_CALL && I->imm >= 0 && I->imm < nf) r[(size_t)c * nf + I->imm] = 1;
        }
    }
    for (int k = 0; k < nf; k++)           /* transitive closure */
        for (int i = 0; i < nf; i++)
            if (r[(size_t)i * nf + k])
                for (int j = 0; j < nf; j++) r[(size_t)i * nf + j] |= r[(size_t)k * nf + j];
    return r;
}

int bc_flow_call_saves(bc_module *m)
{
    m->call_save = malloc(((size_t)m->ncode + 1) * sizeof *m->call_save);
    m->call_plan = malloc(((size_t)m->ncode + 1) * sizeof *m->call_plan);
    uint8_t *reach = m->nfuncs <= FLOW_MAX_FUNCS ? call_reach(m) : NULL;
    save_ctx S = { m, NULL, 0, reach, 0, NULL, 0, 0, 0 };
    if (!m->call_save || !m->call_plan) {
        free(reach); free(m->call_save); free(m->call_plan);
        m->call_save = m->call_plan = NULL;
        return -1;
    }
    for (uint32_t pc = 0; pc < m->ncode; pc++) m->call_save[pc] = m->call_plan[pc] = UINT32_MAX;
    for (int i = 0; i < m->nfuncs && !S.oom; i++) {
        const bc_func *f = &m->funcs[i];
        if (f->kind != BC_FN_DEFINED || f->pc_end == f->pc_begin) continue;
        flow_fn F;
        S.f = f;
        S.fidx = i;
        S.reenter_any = !reach;
        int ok = flow_blocks(&F, m, f);
        if (!ok || liveness(&F, record_call, &S)) {
            /* no analysis: every register of f is saved at each of its calls */
            uint64_t *all = calloc(F.nw ? F.nw : 1, sizeof *all);
            if (!all) S.oom = 1;
            for (uint32_t k = 0; all && k < f->nslots; k++) BIT_SET(all, k);
            int any = S.reenter_any;
            S.reenter_any = 1;
            for (uint32_t pc = f->pc_begin; all && pc < f->pc_end && !S.oom; pc++)
                if (m->code[pc].op == OP_CALL || m->code[pc].op == OP_CALLI) record_call(&S, pc, all);
            S.reenter_any = any;
            free(all);
        }
        flow_free(&F);
    }
    free(reach);
    if (S.oom) { free(S.list); free(m->call_save); free(m->call_plan); m->call_save = m->call_plan = NULL; return -1; }
    m->call_save_list = S.list;
    return 0;
}

/* ---- what store addresses derive from ---------------------------------------------------- */

/* Whether I writes global (or generic) memory at [a + imm]. */
static int stores_at_a(const bc_insn *I)
{
    switch (I->op) {
    case OP_ST_GLOBAL: case OP_ST_GENERIC: return 1;
    case OP_STMATRIX: case OP_WMMA_STORE: return I->m3 != BC_SP_SHARED && I->m3 != BC_SP_LOCAL;
    default: return bc_op_fmt[I->op] == F_ATOM && I->m3 != BC_SP_SHARED && I->m3 != BC_SP_LOCAL;
    }
}

static int is_carry_op(int op)
{
    return op >= OP_ADDCC_32 && op <= OP_MADCCC_32;
}

/* The roots of a value loaded by I (a load or unpack). */
static uint64_t load_roots(const bc_module *m, const bc_insn *I, uint64_t src)
{
    if (I->op == OP_UNPACK) return src;
    if (I->op != OP_LD_KPARAM || I->a % BC_WARP || I->a / BC_WARP >= m->nconsts) return 1ull << BC_ROOT_ANY;
    uint64_t off = m->consts[I->a / BC_WARP] + (uint64_t)I->imm, bytes = (uint64_t)I->m1 * (I->n ? I->n : 1);
    uint64_t r = 0;
    for (uint64_t w = off / 8; w <= (off + bytes - 1) / 8; w++) r |= w < BC_ROOT_GLOBALS ? 1ull << w : 1ull << BC_ROOT_ANY;
    return r;
}

/* One pass of the propagation over the code of the functions marked in
 * fn; returns 1 if a register's roots grew. */
static int roots_pass(const bc_module *m, const uint8_t *fn, uint64_t *roots)
{
    int changed = 0;
#define ROOTS(v) ((v) % BC_WARP == 0 && (v) / BC_WARP < m->nslots ? roots[(v) / BC_WARP] : 0)
    /* constants never change (and slot 0, a constant, stands in unused fields) */
#define JOIN(v, r) do { uint32_t v_ = (v) / BC_WARP; if ((v) % BC_WARP == 0 && v_ >= m->nconsts && v_ < m->nslots && \
                            (roots[v_] | (r)) != roots[v_]) { roots[v_] |= (r); changed = 1; } } while (0)
    for (int f = 0; f < m->nfuncs; f++) {
        if (!fn[f]) continue;
        for (uint32_t pc = m->funcs[f].pc_begin; pc < m->funcs[f].pc_end; pc++) {
            const bc_insn *I = &m->code[pc];
            int fmt = bc_op_fmt[I->op], list = fmt == F_LD || fmt == F_ST || fmt == F_CALL || fmt == F_MMA;
            uint64_t src = ROOTS(I->a) | ROOTS(I->b) | ROOTS(I->c);
            if (!(I->flags & BC_IF_HAS_E) && fmt != F_COLL) src |= ROOTS(I->e);
            if (!list) src |= ROOTS(I->x);
            if (is_carry_op(I->op)) src |= ROOTS(m->slot_cc);
            uint64_t out = src;
            if (fmt == F_LD) out = load_roots(m, I, src);
            else if (fmt == F_ATOM || fmt == F_CALL || fmt == F_MMA) out = 1ull << BC_ROOT_ANY;
            else if (fmt == F_SREG) out = I->imm == BC_SR_ENVREG ? 1ull << BC_ROOT_ANY : 0;
            if (fmt != F_ST) JOIN(I->d, out);
            if ((I->flags & BC_IF_HAS_E) || fmt == F_COLL) JOIN(I->e, out);
            if (is_carry_op(I->op)) JOIN(m->slot_cc, out);
            if (fmt == F_LD)
                for (uint32_t k = 0; k < I->n && I->x + k < m->nextra; k++) JOIN(m->extra[I->x + k], out);
            if (fmt == F_MMA && I->x + 4 <= m->nextra) {
                const uint32_t *ol = &m->extra[I->x];
                uint64_t c = (uint64_t)ol[0] + ol[1] + ol[2] + ol[3];
                for (uint64_t k = 0; k < c && I->x + 4 + k < m->nextra; k++) JOIN(ol[4 + k], out);
            }
        }
    }
#undef ROOTS
#undef JOIN
    return changed;
}

/* Marks in fn the functions kernel k may run (itself and what it calls,
 * directly or through them); returns 0, or 1 when it may call anything (an
 * indirect call, a host function). */
static int reachable(const bc_module *m, int k, uint8_t *fn)
{
    int any = 0, grew = 1;
    fn[k] = 1;
    while (grew) {
        grew = 0;
        for (int f = 0; f < m->nfuncs; f++) {
            if (fn[f] != 1) continue;
            fn[f] = 2;                   /* its calls followed */
            for (uint32_t pc = m->funcs[f].pc_begin; pc < m->funcs[f].pc_end; pc++) {
                const bc_insn *I = &m->code[pc];
                if (I->op == OP_CALLI || I->op == OP_CALL_FFI) any = 1;
                if (I->op == OP_CALL && I->imm >= 0 && I->imm < m->nfuncs && !fn[I->imm]) { fn[I->imm] = 1; grew = 1; }
            }
        }
    }
    return any;
}

static uint64_t kernel_store_roots(const bc_module *m, int k, uint64_t *roots, uint8_t *fn)
{
    memset(fn, 0, (size_t)m->nfuncs);
    if (reachable(m, k, fn)) return 1ull << BC_ROOT_ANY;
    /* the registers these functions own start from nothing; constants keep their roots */
    for (int f = 0; f < m->nfuncs; f++)
        if (fn[f] && m->funcs[f].slot_base < m->nslots)
            memset(roots + m->funcs[f].slot_base, 0, (size_t)(m->funcs[f].nslots < m->nslots - m->funcs[f].slot_base ?
                                                              m->funcs[f].nslots : m->nslots - m->funcs[f].slot_base) * sizeof *roots);
    uint32_t hidden[3] = { m->slot_fp, m->slot_cc, m->slot_sink };
    for (int i = 0; i < 3; i++)
        if (hidden[i] / BC_WARP < m->nslots) roots[hidden[i] / BC_WARP] = 0;
    while (roots_pass(m, fn, roots)) {}
    uint64_t w = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (uint32_t pc = m->funcs[f].pc_begin; fn[f] && pc < m->funcs[f].pc_end; pc++) {
            const bc_insn *I = &m->code[pc];
            if (stores_at_a(I))
                w |= I->a % BC_WARP == 0 && I->a / BC_WARP < m->nslots ? roots[I->a / BC_WARP] : 1ull << BC_ROOT_ANY;
        }
    return w;
}

uint64_t *bc_flow_store_roots(const bc_module *m)
{
    uint64_t *w = calloc((size_t)m->nfuncs + 1, sizeof *w);
    uint64_t *roots = calloc((size_t)m->nslots + 1, sizeof *roots);
    uint8_t *fn = malloc((size_t)m->nfuncs + 1);
    if (!w || !roots || !fn) { free(w); free(roots); free(fn); return NULL; }
    for (int i = 0; i < m->nconst_relocs; i++) {      /* the address of a module variable */
        const bc_const_reloc *r = &m->const_relocs[i];
        if (r->slot < m->nslots && m->vars[r->var].space == BC_SP_GLOBAL) roots[r->slot] |= 1ull << BC_ROOT_GLOBALS;
    }
    for (int k = 0; k < m->nfuncs; k++)
        if (m->funcs[k].is_entry && m->funcs[k].kind == BC_FN_DEFINED) w[k] = kernel_store_roots(m, k, roots, fn);
    free(roots);
    free(fn);
    return w;
}
