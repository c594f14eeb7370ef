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
 */
#include <stdlib.h>
#include <string.h>
#include "bc.h"

#define FLOW_MAX_WORDS (16u << 20)      /* larger functions: every register is zeroed */

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

/* Applies instruction I to the written set w; with uninit, marks the reads
 * of registers not in w.  Loads write the registers of their list, stores
 * read them; x names a register (a membermask) unless it indexes a list. */
static void step(const flow_fn *F, const bc_insn *I, uint64_t *w, uint8_t *uninit)
{
    const bc_module *m = F->m;
    int fmt = bc_op_fmt[I->op], list = fmt == F_LD || fmt == F_ST || fmt == F_CALL || fmt == F_MMA;
    int unguarded = I->guard == BC_NO_GUARD;
    if (uninit) {
        uint32_t src[6] = { I->a, I->b, I->c, (I->flags & BC_IF_HAS_E) ? 0 : I->e, list ? 0 : I->x,
                            unguarded ? 0 : I->guard };
        for (int k = 0; k < 6; k++) {
            int64_t r = reg_of(F->f, src[k]);
            if (r >= 0 && !(w[r / 64] >> (r % 64) & 1)) uninit[F->f->slot_base + r] = 1;
        }
        for (uint32_t k = 0; fmt == F_ST && k < I->n && I->x + k < m->nextra; k++) {
            int64_t r = reg_of(F->f, m->extra[I->x + k]);
            if (r >= 0 && !(w[r / 64] >> (r % 64) & 1)) uninit[F->f->slot_base + r] = 1;
        }
    }
    if (!unguarded) return;
    int64_t d = reg_of(F->f, I->d);
    if (d >= 0) w[d / 64] |= 1ull << (d % 64);
    int64_t e = (I->flags & BC_IF_HAS_E) ? reg_of(F->f, I->e) : -1;
    if (e >= 0) w[e / 64] |= 1ull << (e % 64);
    for (uint32_t k = 0; fmt == F_LD && k < I->n && I->x + k < m->nextra; k++) {
        int64_t r = reg_of(F->f, m->extra[I->x + k]);
        if (r >= 0) w[r / 64] |= 1ull << (r % 64);
    }
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

/* Marks the function's registers it may read unwritten; every one when the
 * analysis cannot run. */
static void flow_func(const bc_module *m, const bc_func *f, uint8_t *uninit)
{
    flow_fn F = { m, f, (f->nslots + 63) / 64, f->pc_end - f->pc_begin, NULL, NULL, NULL, 0, NULL };
    if (!F.n || !f->nslots) return;
    F.leader = calloc(F.n, 1);
    F.block = malloc(F.n * sizeof *F.block);
    F.start = malloc(F.n * sizeof *F.start);
    int ok = F.leader && F.block && F.start;
    if (ok) {
        mark_leaders(&F);
        for (uint32_t i = 0; i < F.n; i++) {
            if (F.leader[i]) F.start[F.nblocks++] = i;
            F.block[i] = F.nblocks - 1;
        }
        ok = (uint64_t)F.nblocks * F.nw <= FLOW_MAX_WORDS && (F.in = malloc((size_t)F.nblocks * F.nw * sizeof *F.in));
    }
    if (!ok || analyse(&F, uninit)) memset(uninit + f->slot_base, 1, f->nslots);
    free(F.leader); free(F.block); free(F.start); free(F.in);
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
