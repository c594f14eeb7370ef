/* fuse.c — superinstructions: runs of instructions one handler executes at once.
 *
 * bc_fuse makes a copy of the module's code in which the first instruction
 * of every such run carries a fused opcode; the dispatch loop runs that copy
 * only when nothing observes single instructions (no vm_hooks: not the
 * checker, the debugger, the profiler or --stats), and a fused handler that
 * cannot take its fast path runs the original instruction.  The original
 * code, which the disassembler, the analyses and every observer read, is
 * untouched, and the copy differs only in the opcode and the `b`, `c`, `e`, `x`,
 * `m1` and `m2` fields of the marked instructions, and in the operands of collectives that
 * name a register surely holding a constant (vm/flow.c, bc_flow_forward_consts: they
 * name the constant's slot instead, which lets the whole-warp paths skip their
 * per-lane operand checks).
 *
 * OP_LDS_FMA, the inner loop of a tiled matrix product:
 *
 *     ld.shared.f32  x, [A + i];  ld.shared.f32  y, [B + j];  fma.rn.f32  acc, x, y, c
 *
 * (or fma.rn.ftz.f32 throughout, as -use_fast_math compiles it)
 * repeated with each fma's c the previous one's acc, A and B the same
 * registers throughout (a triple may load from B first: nvcc orders the two
 * loads of the first multiply-add of an unrolled loop differently).  Every triple's first instruction is marked, with b =
 * the triples from it to the run's end, so a run entered in its middle (a
 * branch, a slice that ended there) is still fused, and e = BC_FUSE_* bits:
 * whether the triple loads from B first, whether its fma is .ftz, and the results no other
 * instruction of the function reads (flow.c's
 * conservative reads), which the handler need not write.  Nothing that
 * could read them runs fused: the debugger, the checker and the profiler
 * are observers.  The handler needs what
 * makes the triples independent of their order of effects: no guards, x and
 * y distinct and not c, no instruction of the run writing A or B, every
 * offset a multiple of 4.  Each head's triples are decoded here once, as the
 * handler takes them from that head (bc_fuse_step: the offsets from its two
 * bases, the destination slots, the results to write), with the ranges of
 * the offsets, into bc_module.fuse_steps and fuse_heads (x indexes them):
 * decoding them on every call had been a third of the handler's time.
 *
 * OP_SETP_BRA, a compare and a conditional branch (bc_fuse_bra in vm/bc.h):
 *
 *     setp.cmp  p, a, b;  [setp.cmp  q, c, d;  or/and/xor.pred  r, p, q;]  [mov;]  @[!]r bra  L
 *
 * the loop back edge and nvcc's bounds test (`if (row < M && col < N)`, with the mov
 * of the value the other path stores).  The compares (integer: eq, ne, lt, le of
 * s32, s64 and unsigned) become lane masks, the bool one operation on them, and the
 * predicates no other instruction reads are never written: the branch takes the
 * mask.  Its head is decoded into bc_module.fuse_bras (x); the whole run must fall in
 * the turn, else the original setp runs.
 *
 * OP_ALU_RUN, a run of integer ALU instructions (bc.h's BC_ALU_RUN_OPS and cvt.zx:
 * add, sub, mul.lo, mad.lo, the bitwise ones and shifts, mov), at least ALU_RUN_MIN
 * long: a whole warp runs them in one handler, one row loop after another, with no
 * dispatch, turn or count bookkeeping in between; a partial group runs the single
 * instructions.
 *
 * OP_LDG_STS, a 4-byte value copied from global to shared memory (a tile's load):
 *
 *     ld.global.b32  x, [a + i];  st.shared.b32  [c + j], x
 *
 * both checked for the whole warp first (else the original load runs and faults, or
 * the store does), then copied 32 bytes at a time where both sides' lanes lie side by
 * side; x not written when only the store reads it (b).
 *
 * OP_WIDE_ADD, nvcc's address of an element:
 *
 *     mul.wide.s32 (or .u32)  t, i, size;  add.s64  d, base, t
 *
 * in one pass over the lanes, t not written when only the add reads it (the head's
 * c = base, e = d, m1 = signed, m2 = t dead).
 *
 * Ownership: the copy and the decoded runs belong to the bc_module (freed
 * with it); all NULL when nothing was fused or memory ran out, and the
 * dispatch loop then runs the original code.
 */
#include <stdlib.h>
#include <string.h>
#include "bc.h"

/* ld.shared of one 4-byte value into a register of at least 32 bits, aligned offset */
static int lds32(const bc_insn *I)
{
    return I->op == OP_LD_SHARED && I->guard == BC_NO_GUARD && I->m1 == 4 && !I->m2 && I->m3 >= 4 && I->n == 1 &&
           (I->imm & 3) == 0;
}

/* 0 for fma.rn.f32, 1 for fma.rn.ftz.f32 (-use_fast_math), else -1. */
static int fma32_kind(const bc_insn *f)
{
    if (f->op == OP_FMA_F32) return 0;
    return f->op == OP_FMA_F32X && f->m1 == BC_RN && (f->flags & (BC_IF_FTZ | BC_IF_SAT)) == BC_IF_FTZ ? 1 : -1;
}

/* Whether code[p..p+2] is one triple (see the header). */
static int lds_fma_triple(const bc_insn *t)
{
    const bc_insn *f = &t[2];
    uint32_t x = t[0].d, y = t[1].d;
    return lds32(&t[0]) && lds32(&t[1]) && fma32_kind(f) >= 0 && f->guard == BC_NO_GUARD && x != y &&
           ((f->a == x && f->b == y) || (f->a == y && f->b == x)) && f->c != x && f->c != y;
}

/* Whether triple t writes slot s. */
static int triple_writes(const bc_insn *t, uint32_t s)
{
    return t[0].d == s || t[1].d == s || t[2].d == s;
}

/* Whether slot s of function f is read by exactly n operand fields
 * (count[] from bc_flow_read_counts, NULL: unknown). */
static int read_n(const bc_func *f, const uint32_t *count, uint32_t s, uint32_t n)
{
    uint32_t r = s / BC_WARP;
    return count && s % BC_WARP == 0 && r >= f->slot_base && r < f->slot_base + f->nslots && count[r - f->slot_base] == n;
}

/* Whether slot s of function f is read by one operand field only. */
static int read_once(const bc_func *f, const uint32_t *count, uint32_t s)
{
    return read_n(f, count, s, 1);
}

/* The decoded runs, growing (vm/bc.h's fuse_heads and fuse_steps). */
typedef struct fuse_out {
    bc_fuse_head *heads;
    bc_fuse_step *steps;
    bc_fuse_bra *bras;
    uint32_t nheads, nsteps, capheads, capsteps, nbras, capbras;
    uint32_t nfin;                     /* cache ids given (BC_FIN_MAX at most) */
    int oom;
} fuse_out;

/* Room for one more head and n more steps in o; 0 when memory ran out. */
static int fuse_room(fuse_out *o, uint32_t n)
{
    if (o->nheads == o->capheads) {
        uint32_t c = o->capheads ? 2 * o->capheads : 16;
        bc_fuse_head *h = realloc(o->heads, sizeof *h * c);
        if (!h) return 0;
        o->heads = h, o->capheads = c;
    }
    while (o->nsteps + n > o->capsteps) {
        uint32_t c = o->capsteps ? 2 * o->capsteps : 256;
        bc_fuse_step *s = realloc(o->steps, sizeof *s * c);
        if (!s) return 0;
        o->steps = s, o->capsteps = c;
    }
    return 1;
}

/* A cache id for a head at p of f whose rows a and b (slot fields) are final there, or -1. */
static int32_t fin_id(const bc_module *m, const bc_func *f, fuse_out *o, uint32_t p, uint32_t a, uint32_t b)
{
    if (o->nfin >= BC_FIN_MAX || !bc_flow_final_at(m, f, a, p) || (b != a && !bc_flow_final_at(m, f, b, p))) return -1;
    return (int32_t)o->nfin++;
}

/* The head of the n triples from fused[p] (marked): each triple decoded as
 * the handler reads it from there, and the ranges of their offsets. */
static void decode_head(const bc_module *m, const bc_func *f, fuse_out *o, bc_insn *fused, uint32_t p, uint32_t n)
{
    if (!fuse_room(o, n)) { o->oom = 1; return; }
    bc_fuse_head h = { INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN, o->nsteps, 0, -1 };
    const uint32_t all = BC_FUSE_X_DEAD | BC_FUSE_Y_DEAD | BC_FUSE_ACC_DEAD;
    for (uint32_t k = 0; k < n; k++) {
        const bc_insn *t = &fused[p + 3 * k];
        int sw = ((t[0].e ^ fused[p].e) & BC_FUSE_SWAP) != 0;   /* loads from the head's second base first */
        int64_t i = t[sw].imm, j = t[!sw].imm;
        h.alo = i < h.alo ? i : h.alo; h.ahi = i > h.ahi ? i : h.ahi;
        h.blo = j < h.blo ? j : h.blo; h.bhi = j > h.bhi ? j : h.bhi;
        o->steps[o->nsteps++] = (bc_fuse_step){ i, j, t[0].d, t[1].d, t[2].d,
                                                t[0].e & all, (uint32_t)sw };
        if (h.ndead == k && (t[0].e & all) == all) h.ndead = k + 1;
    }
    h.fin = fin_id(m, f, o, p, m->code[p].a, m->code[p + 1].a);
    fused[p].x = o->nheads;
    o->heads[o->nheads++] = h;
}

/* Marks the run of triples starting at p in [p, end) of fused and decodes
 * each of its heads into o; returns its length in instructions (0: no
 * triple at p). */
static uint32_t mark_lds_fma(const bc_module *m, const bc_func *f, const uint32_t *count, bc_insn *fused, uint32_t p,
                             fuse_out *o)
{
    const bc_insn *code = m->code;
    uint32_t end = f->pc_end;
    uint32_t n = 0, A = code[p].a, B = code[p + 1].a;
    for (uint32_t q = p; q + 3 <= end && lds_fma_triple(&code[q]); q += 3, n++) {
        const bc_insn *t = &code[q];
        int same = t[0].a == A && t[1].a == B, swapped = t[0].a == B && t[1].a == A;
        if ((!same && !swapped) || triple_writes(t, A) || triple_writes(t, B)) break;
        if (n && t[2].c != t[-1].d) break;            /* the accumulator chain */
        if (fma32_kind(&t[2]) != fma32_kind(&code[p + 2])) break;
    }
    for (uint32_t k = 0; k < n; k++) {
        const bc_insn *t = &code[p + 3 * k];
        bc_insn *h = &fused[p + 3 * k];
        h->op = OP_LDS_FMA;
        h->b = n - k;
        /* which results only this run reads: x and y only by their fma, acc
         * only by the next fma (the handler still writes the last one it runs) */
        h->e = (t[0].a != code[p].a ? BC_FUSE_SWAP : 0) | (fma32_kind(&t[2]) ? BC_FUSE_FTZ : 0) | (read_once(f, count, t[0].d) ? BC_FUSE_X_DEAD : 0) | (read_once(f, count, t[1].d) ? BC_FUSE_Y_DEAD : 0) |
               (k + 1 < n && read_once(f, count, t[2].d) ? BC_FUSE_ACC_DEAD : 0);
    }
    for (uint32_t k = 0; k < n; k++) decode_head(m, f, o, fused, p + 3 * k, n - k);
    return 3 * n;
}

/* ---- OP_SETP_BRA ---- */

/* Whether I is a compare the handler computes as a mask (an unguarded setp of integers). */
static int bra_cmp(const bc_insn *I)
{
    switch (I->op) {
    case OP_SETP_EQ: case OP_SETP_NE: case OP_SETP_LT_S32: case OP_SETP_LE_S32:
    case OP_SETP_LT_S64: case OP_SETP_LE_S64: case OP_SETP_LT_U: case OP_SETP_LE_U:
        return I->guard == BC_NO_GUARD;
    default:
        return 0;
    }
}

/* Whether I is a copy the handler makes on the way: an unguarded mov, or the cvt.zx that
 * mov.f32 and mov.b32 compile to. */
static int bra_mov(const bc_insn *I)
{
    return (I->op == OP_MOV || (I->op == OP_CVT_ZX && I->imm >= 1)) && I->guard == BC_NO_GUARD;
}

/* Whether s is one of the n slots of v. */
static int slot_in(uint32_t s, const uint32_t *v, int n)
{
    for (int k = 0; k < n; k++) if (v[k] == s) return 1;
    return 0;
}

/* The run of a compare and branch at p in [p, end) of code (see bc_fuse_bra), decoded
 * into *b; returns its length in instructions (0: none at p).  Every operand a later
 * instruction of the run reads is one no earlier one writes, except the predicates
 * the run passes on (d1 and d2 to the bool, the last to the bra), so the handler may
 * compute the compares first and write their rows afterwards, and the mov at any point. */
static uint32_t match_setp_bra(const bc_insn *code, uint32_t p, uint32_t end, bc_fuse_bra *b)
{
    const bc_insn *mov = NULL;
    uint32_t q = p;
    if (!bra_cmp(&code[q])) return 0;
    *b = (bc_fuse_bra){ .a1 = code[q].a, .b1 = code[q].b, .d1 = code[q].d, .k1 = code[q].op, .md = BC_NO_GUARD };
    uint32_t pred = b->d1;
    q++;
#define TAKE_MOV() if (!mov && q < end && bra_mov(&code[q])) mov = &code[q++]
    TAKE_MOV();
    if (q < end && bra_cmp(&code[q])) {              /* two compares and their bool */
        const bc_insn *s2 = &code[q++];
        if (s2->a == b->d1 || s2->b == b->d1 || s2->d == b->d1) return 0;
        TAKE_MOV();
        const bc_insn *bl = q < end ? &code[q++] : NULL;
        if (!bl || (bl->op != OP_OR && bl->op != OP_AND && bl->op != OP_XOR) || bl->guard != BC_NO_GUARD ||
            !((bl->a == b->d1 && bl->b == s2->d) || (bl->a == s2->d && bl->b == b->d1)))
            return 0;
        b->a2 = s2->a; b->b2 = s2->b; b->d2 = s2->d; b->k2 = s2->op;
        b->d3 = bl->d; b->bop = bl->op;
        pred = bl->d;
    }
    TAKE_MOV();
#undef TAKE_MOV
    if (q >= end || code[q].op != OP_BRA || code[q].guard != pred) return 0;
    if (mov) {
        uint32_t rd[] = { b->a1, b->b1, b->d1, b->a2, b->b2, b->d2, b->d3 }, wr[] = { b->d1, b->d2, b->d3 };
        int nr = b->k2 ? 7 : 3, nw = b->k2 ? 3 : 1;
        if (slot_in(mov->d, rd, nr) || slot_in(mov->a, wr, nw)) return 0;
        b->md = mov->d; b->ma = mov->a;
        b->mmask = mov->op == OP_MOV ? ~0ull : BC_LOW_BITS(mov->imm);
    }
    b->neg = code[q].gneg;
    b->target = (uint32_t)code[q].imm;
    b->len = q - p + 1;
    return b->len;
}

/* Marks the compare and branch at p in fused (its run b, already matched) and
 * decodes it into o->bras; the predicates only the run reads are dead. */
static void mark_setp_bra(const bc_module *m, const bc_func *f, const uint32_t *count, bc_insn *fused, uint32_t p,
                          bc_fuse_bra b, fuse_out *o)
{
    if (o->nbras == o->capbras) {
        uint32_t c = o->capbras ? 2 * o->capbras : 16;
        bc_fuse_bra *nb = realloc(o->bras, sizeof *nb * c);
        if (!nb) { o->oom = 1; return; }
        o->bras = nb, o->capbras = c;
    }
    /* d1 is read by the bool, or by the bra's guard; d2 by the bool; d3 by the guard */
    b.dead = (uint8_t)((read_once(f, count, b.d1) ? BC_FUSE_D1_DEAD : 0) |
                       (b.k2 && read_once(f, count, b.d2) ? BC_FUSE_D2_DEAD : 0) |
                       (b.k2 && read_once(f, count, b.d3) ? BC_FUSE_D3_DEAD : 0) |
                       (b.md != BC_NO_GUARD && bc_flow_overwritten(m, f, b.md, p + b.len) ? BC_FUSE_MD_FALL : 0));
    b.fin1 = (int8_t)fin_id(m, f, o, p, b.a1, b.b1);      /* the compares run at p */
    b.fin2 = (int8_t)(b.k2 ? fin_id(m, f, o, p, b.a2, b.b2) : -1);
    fused[p].op = OP_SETP_BRA;
    fused[p].b = b.len;
    fused[p].x = o->nbras;
    o->bras[o->nbras++] = b;
}

/* ---- OP_ALU_RUN ---- */

/* Whether I is one of the instructions an ALU run takes (BC_ALU_RUN_OPS, OP_CVT_ZX). */
static int alu_run_op(const bc_insn *I)
{
    if (I->guard != BC_NO_GUARD) return 0;
    switch (I->op) {
#define ALU_RUN_OP(name) case OP_##name:
    BC_ALU_RUN_OPS(ALU_RUN_OP)
#undef ALU_RUN_OP
    case OP_CVT_ZX:
        return 1;
    default:
        return 0;
    }
}

/* Marks the run of ALU instructions from p in [p, end) of fused: its first one and
 * every ALU_RUN_STRIDE-th after it, each with b = the instructions from it to the
 * run's end, so that a run entered in its middle (a branch target, a turn that ended
 * there) is fused again soon, while a partial group, which the handler leaves to the
 * single instructions, pays for one try per stride, not per instruction; returns the
 * length, 0 for runs shorter than ALU_RUN_MIN. */
enum { ALU_RUN_MIN = 3, ALU_RUN_STRIDE = 4 };
static uint32_t mark_alu_run(const bc_insn *code, bc_insn *fused, uint32_t p, uint32_t end)
{
    uint32_t n = 0;
    while (p + n < end && alu_run_op(&code[p + n])) n++;
    if (n < ALU_RUN_MIN) return 0;
    for (uint32_t k = 0; k + ALU_RUN_MIN <= n; k += ALU_RUN_STRIDE) {
        fused[p + k].op = OP_ALU_RUN;
        fused[p + k].b = n - k;
    }
    return n;
}

/* ---- OP_LDG_STS ---- */

/* Whether code[p], code[p + 1] (within [p, end)) copy a 4-byte value from global to shared
 * memory, as a tile is loaded:  ld.global.b32 x, [a + i];  st.shared.b32 [c + j], x
 * (plain, unguarded, x neither a nor c: the handler reads both address rows after the load). */
static int ldg_sts_pair(const bc_insn *code, uint32_t p, uint32_t end)
{
    const bc_insn *ld = &code[p], *st = &code[p + 1];
    const uint8_t odd = BC_IF_VOLATILE | BC_IF_FRAME;
    return p + 2 <= end && ld->op == OP_LD_GLOBAL && ld->guard == BC_NO_GUARD && ld->m1 == 4 && !ld->m2 && ld->m3 >= 4 &&
           ld->n == 1 && !(ld->flags & odd) && st->op == OP_ST_SHARED && st->guard == BC_NO_GUARD && st->m1 == 4 &&
           st->n == 1 && !(st->flags & odd) && st->b == ld->d && st->a != ld->d && ld->a != ld->d;
}

/* ---- OP_WIDE_ADD ---- */

/* Whether code[p], code[p + 1] are nvcc's address of an element (within [p, end)):
 *     mul.wide.s32 (or .u32)  t, i, size;  add.s64  d, base, t  (or t, base)
 * both unguarded, base not t. */
static int wide_add_pair(const bc_insn *code, uint32_t p, uint32_t end)
{
    const bc_insn *mw = &code[p], *ad = &code[p + 1];
    if (p + 2 > end || (mw->op != OP_MULWIDE_S32 && mw->op != OP_MULWIDE_U32) || ad->op != OP_ADD_64 ||
        mw->guard != BC_NO_GUARD || ad->guard != BC_NO_GUARD)
        return 0;
    return (ad->a == mw->d) != (ad->b == mw->d);
}

/* Marks the pair at p (see wide_add_pair) in fused: the head gets the add's other operand
 * in c and its destination in e; t need not be written when only the add reads it. */
static void mark_wide_add(const bc_module *m, const bc_func *f, const uint32_t *count, bc_insn *fused, uint32_t p)
{
    const bc_insn *mw = &m->code[p], *ad = &m->code[p + 1];
    bc_insn *h = &fused[p];
    h->op = OP_WIDE_ADD;
    h->m1 = mw->op == OP_MULWIDE_S32;
    h->m2 = (uint8_t)read_once(f, count, mw->d);
    h->c = ad->a == mw->d ? ad->b : ad->a;
    h->e = ad->d;
}

/* The read counts of a function's registers, computed on first use (read_n, read_once:
 * NULL, every result written, when they cannot be). */
typedef struct fuse_counts {
    const bc_module *m;
    const bc_func *f;
    uint32_t *count;
    int done;
} fuse_counts;

static const uint32_t *counts_of(fuse_counts *c)
{
    if (!c->done) {
        c->done = 1;
        c->count = malloc(sizeof *c->count * (c->f->nslots ? c->f->nslots : 1));
        if (c->count && bc_flow_read_counts(c->m, c->f, c->count) < 0) { free(c->count); c->count = NULL; }
    }
    return c->count;
}

/* Marks the ld.global/st.shared pair at p (ldg_sts_pair) in fused: b = whether x is read by
 * the store only (through its b and its list of one: bc_flow_read_counts counts both). */
static void mark_ldg_sts(const bc_module *m, const bc_func *f, const uint32_t *count, bc_insn *fused, uint32_t p,
                         fuse_out *o)
{
    const bc_insn *st = &m->code[p + 1];
    uint32_t x = m->code[p].d, fields = (st->a == x) + (st->b == x) + (st->x < m->nextra && m->extra[st->x] == x);
    fused[p].op = OP_LDG_STS;
    fused[p].b = (uint32_t)read_n(f, count, x, fields);
    fused[p].m2 = (uint8_t)(fin_id(m, f, o, p, st->a, st->a) + 1);   /* the store's row (the load's moves) */
}

/* The superinstruction that starts at p of function f, marked in fused (and decoded
 * into o); returns how many instructions it covers, 0 for none. */
static uint32_t fuse_at(const bc_module *m, const bc_func *f, fuse_counts *c, bc_insn *fused, uint32_t p, fuse_out *o)
{
    uint32_t end = f->pc_end, len;
    bc_fuse_bra br;
    if (p + 3 <= end && lds_fma_triple(&m->code[p])) return mark_lds_fma(m, f, counts_of(c), fused, p, o);
    if (wide_add_pair(m->code, p, end)) { mark_wide_add(m, f, counts_of(c), fused, p); return 2; }
    if (ldg_sts_pair(m->code, p, end)) { mark_ldg_sts(m, f, counts_of(c), fused, p, o); return 2; }
    if ((len = match_setp_bra(m->code, p, end, &br))) { mark_setp_bra(m, f, counts_of(c), fused, p, br, o); return len; }
    return mark_alu_run(m->code, fused, p, end);
}

int bc_fuse_cached(const bc_module *m, uint32_t pc)
{
    const bc_insn *h = m->fused ? &m->fused[pc] : NULL;
    if (!h) return 0;
    if (h->op == OP_LDS_FMA) return m->fuse_heads[h->x].fin >= 0;
    if (h->op == OP_LDG_STS) return h->m2 != 0;
    return h->op == OP_SETP_BRA && (m->fuse_bras[h->x].fin1 >= 0 || m->fuse_bras[h->x].fin2 >= 0);
}

void bc_fuse(bc_module *m)
{
    if (!m->ncode) return;
    bc_insn *fused = malloc(sizeof *fused * m->ncode);
    fuse_out o = { 0 };
    int any = 0;                       /* whether the copy differs from the code */
    if (!fused) return;
    memcpy(fused, m->code, sizeof *fused * m->ncode);
    for (int f = 0; f < m->nfuncs; f++) {
        const bc_func *fn = &m->funcs[f];
        if (fn->kind != BC_FN_DEFINED) continue;
        any |= bc_flow_forward_consts(m, fn, fused) > 0;
        fuse_counts c = { m, fn, NULL, 0 };
        for (uint32_t p = fn->pc_begin; p < fn->pc_end; p++) {
            uint32_t len = fuse_at(m, fn, &c, fused, p, &o);
            if (len) { any = 1; p += len - 1; }
        }
        free(c.count);
    }
    if (o.oom || !any) {               /* no superinstructions rather than some undecoded */
        free(fused); free(o.heads); free(o.steps); free(o.bras);
        return;
    }
    m->fused = fused;
    m->fuse_heads = o.heads;
    m->fuse_steps = o.steps;
    m->fuse_bras = o.bras;
}
