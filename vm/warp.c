/* warp.c — the meeting points of independent threads: warp collectives
 * (shfl, vote, match, redux, elect, bar.warp.sync) and the 16 CTA barriers.
 *
 * Collectives rendezvous by (operation, qualifiers, mask), never by pc: a
 * lane executing one waits (LANE_WAIT_COLL) until every non-exited lane of
 * its mask waits in the same kind of collective with the same mask; then all
 * results are computed from the values the lanes supplied and every
 * participant moves past its own instruction.  Lanes whose guard was false
 * at a collective are excused from that rendezvous (hardware fact P9).
 *
 * CTA barriers count per thread and complete per warp: a warp is counted
 * once all of its non-exited lanes have arrived; a barrier with a thread
 * count completes when 32 x (warps counted) reaches it, one without when
 * every warp with a live lane is counted (exited threads release it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm.h"
#include "mma.h"

#define BIT(l) (1u << (l))

/* ---- collectives ----------------------------------------------------------- */

static int same_kind(const bc_insn *a, const bc_insn *b)
{
    return a->op == b->op && a->m1 == b->m1 && a->m2 == b->m2;
}

static const char *coll_name(const bc_insn *I)
{
    return bc_op_name[I->op];
}

static inline __attribute__((always_inline)) uint32_t shfl_source(int l, uint32_t b, uint32_t c, int mode, int *ok)
{
    uint32_t off = b & 31, clampv = c & 31, seg = (c >> 8) & 31;
    uint32_t first = (uint32_t)l & seg, bound = first | (clampv & ~seg);
    int j;
    switch (mode) {
    case BC_SHFL_UP: j = l - (int)off; *ok = j >= (int)bound; break;
    case BC_SHFL_DOWN: j = l + (int)off; *ok = j <= (int)bound; break;
    case BC_SHFL_BFLY: j = l ^ (int)off; *ok = j <= (int)bound; break;
    default: j = (int)(first | (off & ~seg)); *ok = j <= (int)bound; break;
    }
    return *ok ? (uint32_t)j : (uint32_t)l;
}

/* shfl_uniform over the whole warp (no segments) with the clamp nvcc's reductions and scans
 * give (31 for down, bfly and idx, 0 for up): sources whole rows apart, copied as rows (a
 * loop the compiler vectorises), not looked up lane by lane.  0 for any other clamp. */
typedef uint64_t shfl_v4 __attribute__((vector_size(32)));   /* 4 slots (GCC vectors: AVX2 where built for it) */
static inline __attribute__((always_inline)) int shfl_whole(const uint64_t *ra, uint32_t b, uint32_t c, int mode, uint64_t *d, uint64_t *e)
{
    const uint64_t lo = 0xffffffffu;
    const int off = (int)(b & 31);
    if ((c >> 8 & 31) || (c & 31) != (mode == BC_SHFL_UP ? 0u : 31u)) return 0;
    int l = 0;
    switch (mode) {
    case BC_SHFL_DOWN:             /* lanes above 31 - off keep their own value, ok 0 */
        for (; l < BC_WARP - off; l++) { d[l] = ra[l + off] & lo; e[l] = 1; }
        for (; l < BC_WARP; l++) { d[l] = ra[l] & lo; e[l] = 0; }
        break;
    case BC_SHFL_UP:               /* lanes below off keep their own value, ok 0 */
        for (; l < off; l++) { d[l] = ra[l] & lo; e[l] = 0; }
        for (; l < BC_WARP; l++) { d[l] = ra[l - off] & lo; e[l] = 1; }
        break;
    case BC_SHFL_BFLY: {           /* groups of 4 lanes swap whole, then lanes within them: a constant permute */
        const shfl_v4 m = { lo, lo, lo, lo }, one = { 1, 1, 1, 1 };
#define SHFL_BFLY4(x) for (int k = 0; k < BC_WARP; k += 4) { \
            shfl_v4 v; memcpy(&v, ra + (k ^ (off & ~3)), sizeof v); \
            v = __builtin_shufflevector(v, v, 0 ^ (x), 1 ^ (x), 2 ^ (x), 3 ^ (x)) & m; \
            memcpy(d + k, &v, sizeof v); memcpy(e + k, &one, sizeof one); }
        switch (off & 3) {
        case 0: SHFL_BFLY4(0) break;
        case 1: SHFL_BFLY4(1) break;
        case 2: SHFL_BFLY4(2) break;
        default: SHFL_BFLY4(3) break;
        }
#undef SHFL_BFLY4
        break;
    }
    default:                       /* idx: one lane's value everywhere */
        for (; l < BC_WARP; l++) { d[l] = ra[off] & lo; e[l] = 1; }
        break;
    }
    return 1;
}

/* shfl of a whole warp whose lane operand b and clamp c are the same in every lane: shfl_whole,
 * else shfl_source per lane with the mode fixed for the loop (so the compiler drops the switch). */
static inline __attribute__((always_inline)) void shfl_uniform(const uint64_t *ra, uint32_t b, uint32_t c, int mode, uint64_t *d, uint64_t *e)
{
    if (shfl_whole(ra, b, c, mode, d, e)) return;
#define SHFL_ROW(M) for (int l = 0; l < BC_WARP; l++) { \
        int ok; uint32_t j = shfl_source(l, b, c, M, &ok); d[l] = (uint32_t)ra[j]; e[l] = (uint64_t)ok; }
    switch (mode) {
    case BC_SHFL_UP: SHFL_ROW(BC_SHFL_UP) break;
    case BC_SHFL_DOWN: SHFL_ROW(BC_SHFL_DOWN) break;
    case BC_SHFL_BFLY: SHFL_ROW(BC_SHFL_BFLY) break;
    default: SHFL_ROW(BC_SHFL_IDX) break;
    }
#undef SHFL_ROW
}

/* One step of redux.sync's reduction: acc op v (sgn: min/max compare as s32). */
static inline uint32_t redux_step(int op, int sgn, uint32_t acc, uint32_t v)
{
    switch (op) {
    case BC_RED_ADD: return acc + v;
    case BC_RED_MIN: return sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
    case BC_RED_MAX: return sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
    case BC_RED_AND: return acc & v;
    case BC_RED_OR: return acc | v;
    default: return acc ^ v;
    }
}

/* Computes and delivers the results of a completed rendezvous of lanes P
 * (each waiting at its own pc, which moves on), or, with `group` set, of the
 * issuing group executing `group` together (its pc is the caller's). */
static void coll_complete(vm_launch *L, vm_warp *w, uint32_t P, uint32_t M, const bc_insn *group)
{
    const bc_insn *code = L->code;
    uint64_t *R = w->R;
    uint64_t d[BC_WARP] = { 0 }, e[BC_WARP] = { 0 };
    int first = __builtin_ctz(P);
    const bc_insn *I0 = group ? group : &code[w->pc[first]];
    int uni = 1;                  /* every participant at one pc (the usual case): no per-lane lookup */
    if (!group)
        for (uint32_t mm = P; mm; mm &= mm - 1) uni &= w->pc[__builtin_ctz(mm)] == w->pc[first];
#define LANE_I(l) (uni ? I0 : &code[w->pc[l]])
#define VAL(l, field) R[LANE_I(l)->field + (uint32_t)(l)]
    switch (I0->op) {
    case OP_SHFL:
        if (uni && P == 0xffffffffu) {
            /* the whole warp with one source operand and one clamp (the usual
             * case): every source lane takes part, no lookups per lane */
            const uint64_t *rb = R + I0->b, *rc = R + I0->c, *ra = R + I0->a;
            uint64_t b0 = rb[0], c0 = rc[0], diff = 0;
            for (int l = 0; l < BC_WARP; l++) diff |= (rb[l] ^ b0) | (rc[l] ^ c0);
            if (!diff) {
                shfl_uniform(ra, (uint32_t)b0, (uint32_t)c0, I0->m1, d, e);
                break;
            }
        }
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm), ok;
            uint32_t j = shfl_source(l, (uint32_t)VAL(l, b), (uint32_t)VAL(l, c), I0->m1, &ok);
            if (!ok) d[l] = (uint32_t)VAL(l, a);
            else if (P & BIT(j)) d[l] = (uint32_t)VAL((int)j, a);
            else {
                d[l] = 0;           /* exited or absent source: 0 (hardware fact P1) */
                const vm_hooks *H = L->cfg.hooks;
                if (H && H->misuse)
                    H->misuse(H->ctx, L, L->cur_cta, w, l, w->pc[l], "mask",
                              (w->live & BIT(j)) ? "shuffle source lane is outside the membermask"
                                                  : "shuffle source lane has exited");
            }
            e[l] = (uint64_t)ok;
        }
        break;
    case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT: {
        uint32_t ones = 0;
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            int x = (int)(VAL(l, a) & 1) ^ !!(LANE_I(l)->flags & BC_IF_NEG);
            if (x) ones |= BIT(l);
        }
        uint64_t r = I0->op == OP_VOTE_ALL ? ones == P : I0->op == OP_VOTE_ANY ? ones != 0
                   : I0->op == OP_VOTE_UNI ? (ones == 0 || ones == P) : ones;
        for (uint32_t mm = P; mm; mm &= mm - 1) d[__builtin_ctz(mm)] = r;
        break;
    }
    case OP_MATCH_ANY: case OP_MATCH_ALL: {
        uint64_t msk = I0->m2 ? ~0ull : 0xffffffffu;
        int all = 1;
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t s = 0;
            for (uint32_t kk = P; kk; kk &= kk - 1) {
                int k = __builtin_ctz(kk);
                if ((VAL(k, a) & msk) == (VAL(l, a) & msk)) s |= BIT(k);
            }
            d[l] = s;
            if (s != P) all = 0;
        }
        if (I0->op == OP_MATCH_ALL)
            for (uint32_t mm = P; mm; mm &= mm - 1) {
                int l = __builtin_ctz(mm);
                d[l] = all ? (M & w->live) : 0;
                e[l] = (uint64_t)all;
            }
        break;
    }
    case OP_REDUX: {
        int sgn = I0->m2 == BC_K_S32;
        uint32_t acc = 0;
        int firstv = 1;
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t v = (uint32_t)VAL(l, a);
            if (firstv) { acc = v; firstv = 0; continue; }
            acc = redux_step(I0->m1, sgn, acc, v);
        }
        for (uint32_t mm = P; mm; mm &= mm - 1) d[__builtin_ctz(mm)] = acc;
        break;
    }
    case OP_ELECT:
        for (uint32_t mm = P; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            d[l] = (uint64_t)first;
            e[l] = l == first;
        }
        break;
    default:                      /* bar.warp.sync: no values; matrix collectives: mma.c */
        if (bc_op_fmt[I0->op] == F_MMA) mma_collective(L, w, P);
        break;
    }
    if (group && P == 0xffffffffu) {        /* the whole warp at one instruction */
        if (I0->op != OP_WARPSYNC && bc_op_fmt[I0->op] != F_MMA) {
            uint64_t *rd = R + I0->d, *re = R + I0->e;
            for (int l = 0; l < BC_WARP; l++) rd[l] = d[l];
            if (I0->flags & BC_IF_HAS_E) for (int l = 0; l < BC_WARP; l++) re[l] = e[l];
        }
        P = 0;
    }
    for (uint32_t mm = P; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        const bc_insn *I = LANE_I(l);
        if (I->op != OP_WARPSYNC && bc_op_fmt[I->op] != F_MMA) {
            R[I->d + (uint32_t)l] = d[l];
            if (I->flags & BC_IF_HAS_E) R[I->e + (uint32_t)l] = e[l];
        }
        if (group) continue;
        w->state[l] = LANE_READY;
        w->pc[l]++;
    }
#undef VAL
#undef LANE_I
    w->excused &= ~M;
    const vm_hooks *H = L->cfg.hooks;
    if (H && H->sync) H->sync(H->ctx, L, L->cur_cta, w, P, -1);
}

/* Completes the rendezvous for mask M if every lane it needs is there. */
static int coll_try(vm_launch *L, vm_warp *w, uint32_t M)
{
    uint32_t need = M & w->live & ~w->excused, have = 0;
    const bc_insn *kind = NULL;
    for (uint32_t mm = M & w->live; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (w->state[l] != LANE_WAIT_COLL || w->coll_mask[l] != M) continue;
        const bc_insn *I = &L->code[w->pc[l]];
        if (!kind) kind = I;
        else if (!same_kind(kind, I)) return 0;   /* lanes of one mask in different collectives: they hang */
        have |= BIT(l);
    }
    if (!kind || (need & ~have)) return 0;
    coll_complete(L, w, have, M, NULL);
    return 1;
}

/* shfl.sync by a whole warp whose membermask is every lane and whose lane
 * operand b and clamp c are the same in every lane (what nvcc's reductions
 * and scans issue): coll_complete's result without its general steps, the
 * mode chosen once.  0 when the operands differ by lane. */
#ifdef __SANITIZE_THREAD__
#define SHFL_CLONES                    /* ThreadSanitizer crashes in an ifunc resolver, run before it starts */
#else
#define SHFL_CLONES __attribute__((target_clones("avx2", "default")))
#endif
SHFL_CLONES static int shfl_warp(uint64_t *R, const bc_insn *I, int consts)
{
    const uint64_t *rx = R + I->x, *rb = R + I->b, *rc = R + I->c;
    uint64_t b0 = rb[0], c0 = rc[0], diff = 0;
    if (consts) diff = (uint32_t)rx[0] ^ 0xffffffffu;   /* immediates: one value in every lane */
    else for (int l = 0; l < BC_WARP; l++) diff |= ((uint32_t)rx[l] ^ 0xffffffffu) | (rb[l] ^ b0) | (rc[l] ^ c0);
    if (diff) return 0;
    /* the results straight into their rows, but d's when it is a's (rows of different
     * registers do not overlap; a predicate e is never the b32 a; b and c were read above) */
    uint64_t t[BC_WARP], sink[BC_WARP];
    uint64_t *d = I->d == I->a ? t : R + I->d, *e = (I->flags & BC_IF_HAS_E) ? R + I->e : sink;
    shfl_uniform(R + I->a, (uint32_t)b0, (uint32_t)c0, I->m1, d, e);
    if (d == t) memcpy(R + I->d, t, sizeof t);
    return 1;
}

/* shfl.sync by the lanes P of a group executing it together (a part of the
 * warp, or the whole warp with lane operands that differ by lane):
 * coll_complete's result for P without its lookups per lane; a source
 * outside P gives 0 (no observer here to report it). */
SHFL_CLONES static void shfl_group(uint64_t *R, const bc_insn *I, uint32_t P)
{
    const uint64_t *ra = R + I->a, *rb = R + I->b, *rc = R + I->c;
    uint64_t d[BC_WARP], e[BC_WARP];
    /* all 32 lanes, the mode fixed per loop (lanes outside P are computed and dropped) */
#define SHFL_GROUP_ROW(M) for (int l = 0; l < BC_WARP; l++) { int ok; \
        uint32_t j = shfl_source(l, (uint32_t)rb[l], (uint32_t)rc[l], M, &ok); \
        d[l] = !ok || (P >> j & 1) ? (uint32_t)ra[j] : 0;   /* (!ok: j is l) */ \
        e[l] = (uint64_t)ok; }
    switch (I->m1) {
    case BC_SHFL_UP: SHFL_GROUP_ROW(BC_SHFL_UP) break;
    case BC_SHFL_DOWN: SHFL_GROUP_ROW(BC_SHFL_DOWN) break;
    case BC_SHFL_BFLY: SHFL_GROUP_ROW(BC_SHFL_BFLY) break;
    default: SHFL_GROUP_ROW(BC_SHFL_IDX) break;
    }
#undef SHFL_GROUP_ROW
    uint64_t *rd = R + I->d, *re = R + I->e;
    for (int l = 0; l < BC_WARP; l++) rd[l] = (P >> l) & 1 ? d[l] : rd[l];
    if (I->flags & BC_IF_HAS_E) for (int l = 0; l < BC_WARP; l++) re[l] = (P >> l) & 1 ? e[l] : re[l];
}

/* vote and redux by a whole warp whose membermask is every lane (what
 * __ballot_sync(~0u, p) and __reduce_add_sync(~0u, v) issue): coll_complete's
 * result in loops over all 32 lanes, no lookups per lane. */
SHFL_CLONES static void vote_redux_warp(uint64_t *R, const bc_insn *I)
{
    const uint64_t *ra = R + I->a;
    uint64_t r;
    if (I->op == OP_REDUX) {
        uint32_t acc = (uint32_t)ra[0];
        int sgn = I->m2 == BC_K_S32;
        for (int l = 1; l < BC_WARP; l++) acc = redux_step(I->m1, sgn, acc, (uint32_t)ra[l]);
        r = acc;
    } else {
        uint32_t ones = vm_pred_bits(ra) ^ ((I->flags & BC_IF_NEG) ? 0xffffffffu : 0);
        r = I->op == OP_VOTE_ALL ? ones == 0xffffffffu : I->op == OP_VOTE_ANY ? ones != 0
          : I->op == OP_VOTE_UNI ? (ones == 0 || ones == 0xffffffffu) : ones;
    }
    uint64_t *rd = R + I->d;
    for (int l = 0; l < BC_WARP; l++) rd[l] = r;
}

/* match.any / match.all by a whole warp whose membermask is every lane:
 * coll_complete's masks found once per distinct value (a lane already in a
 * found mask is skipped), each a loop over the 32 values, no lookups per lane. */
SHFL_CLONES static void match_warp(uint64_t *R, const bc_insn *I)
{
    const uint64_t *ra = R + I->a, msk = I->m2 ? ~0ull : 0xffffffffull;
    uint64_t v[BC_WARP], *rd = R + I->d;
    for (int l = 0; l < BC_WARP; l++) v[l] = ra[l] & msk;
    if (I->op == OP_MATCH_ALL) {
        uint64_t diff = 0;
        for (int l = 0; l < BC_WARP; l++) diff |= v[l] ^ v[0];
        for (int l = 0; l < BC_WARP; l++) rd[l] = diff ? 0 : 0xffffffffu;
        if (I->flags & BC_IF_HAS_E) for (int l = 0; l < BC_WARP; l++) R[I->e + (uint32_t)l] = !diff;
        return;
    }
    uint32_t done = 0;
    for (int l = 0; l < BC_WARP; l++) {
        if ((done >> l) & 1) continue;
        uint32_t s = 0;
        for (int k = 0; k < BC_WARP; k++) s |= (uint32_t)(v[k] == v[l]) << k;
        for (uint32_t mm = s; mm; mm &= mm - 1) rd[__builtin_ctz(mm)] = s;
        done |= s;
    }
}

/* Whether register slot s is the constant pool's (an immediate operand: the same in every lane). */
static inline int is_const(const vm_launch *L, uint32_t s)
{
    return s < L->m->nconsts * BC_WARP && s % BC_WARP == 0;
}

int warp_collective_group(vm_launch *L, vm_warp *w, const bc_insn *I, uint32_t group)
{
    if (L->cfg.hooks || bc_op_fmt[I->op] == F_MMA) return 0;
    if (I->op == OP_SHFL && group == 0xffffffffu && shfl_warp(w->R, I, is_const(L, I->x) && is_const(L, I->b) && is_const(L, I->c))) {
        w->excused = 0;                /* what completing the rendezvous of the full mask does */
        return 1;
    }
    const uint64_t *rx = w->R + I->x;
    uint32_t M = (uint32_t)rx[__builtin_ctz(group)], diff = 0;
    if (!is_const(L, I->x)) {                  /* (an immediate membermask is one value in every lane) */
        if (group == 0xffffffffu) for (int l = 0; l < BC_WARP; l++) diff |= (uint32_t)rx[l] ^ M;
        else for (uint32_t mm = group; mm; mm &= mm - 1) diff |= (uint32_t)rx[__builtin_ctz(mm)] ^ M;
    }
    if (diff || (group & ~M) || (M & w->live & ~w->excused & ~group)) return 0;
    if (group == 0xffffffffu && (I->op == OP_REDUX || (I->op >= OP_VOTE_ALL && I->op <= OP_VOTE_BALLOT))) {
        vote_redux_warp(w->R, I);
        w->excused = 0;                /* as coll_complete of the full mask */
        return 1;
    }
    if (I->op == OP_SHFL) {
        shfl_group(w->R, I, group);
        w->excused &= ~M;              /* as coll_complete */
        return 1;
    }
    if (group == 0xffffffffu && (I->op == OP_MATCH_ANY || I->op == OP_MATCH_ALL)) {
        match_warp(w->R, I);
        w->excused = 0;
        return 1;
    }
    coll_complete(L, w, group, M, I);
    return 1;
}

vm_status warp_collective(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t group, uint32_t pc)
{
    const bc_insn *I = &L->code[pc];
    uint32_t off = group & ~lanes;
    for (uint32_t mm = off; mm; mm &= mm - 1) w->pc[__builtin_ctz(mm)] = pc + 1;
    w->excused |= off;
    uint32_t masks[BC_WARP];
    int nm = 0;
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        /* the matrix instructions are .aligned over the whole warp: no membermask */
        uint32_t M = bc_op_fmt[I->op] == F_MMA ? 0xffffffffu : (uint32_t)w->R[I->x + (uint32_t)l];
        if (!(M & BIT(l))) {
            const vm_hooks *H = L->cfg.hooks;
            if (H && H->misuse) H->misuse(H->ctx, L, cta, w, l, pc, "mask", "lane not in its own membermask");
            return vm_fail(L, cta, w, l, pc, VM_TRAP, "lane %d executes %s with membermask 0x%08x, which leaves it out",
                           l, coll_name(I), M);
        }
        w->state[l] = LANE_WAIT_COLL;
        w->coll_mask[l] = M;
        w->excused &= ~BIT(l);
        int k = 0;
        while (k < nm && masks[k] != M) k++;
        if (k == nm) masks[nm++] = M;
    }
    for (int k = 0; k < nm; k++) coll_try(L, w, masks[k]);
    return VM_OK;
}

/* ---- CTA barriers ------------------------------------------------------------- */

/* The lanes whose byte in v[32] equals x (8 bytes at a time). */
static inline uint32_t bytes_equal(const uint8_t *v, uint8_t x)
{
    const uint64_t k7f = 0x7f7f7f7f7f7f7f7full, rep = 0x0101010101010101ull * x;
    uint32_t r = 0;
    for (int k = 0; k < BC_WARP / 8; k++) {
        uint64_t q;
        memcpy(&q, v + 8 * k, 8);
        q ^= rep;                                                          /* zero where equal */
        uint64_t z = ~(((q & k7f) + k7f) | q | k7f);                       /* 0x80 in each zero byte, exactly */
        r |= (uint32_t)(((z >> 7) * 0x0102040810204080ull) >> 56) << (8 * k); /* byte i's bit to bit i */
    }
    return r;
}

/* Counts warp w's live lanes (all arrived) at barrier b once; live a constant where it is inlined. */
static inline void bar_count_live(vm_barrier *b, vm_warp *w, int id, uint32_t live)
{
    b->warps |= BIT(w->id);
    if (w->bar_pred[id]) b->popc += (uint32_t)vm_popc32(w->bar_pred[id] & live);   /* (set by bar.red only) */
    b->threads += live == 0xffffffffu ? BC_WARP : (uint32_t)vm_popc32(live);
}
static inline void bar_count_warp(vm_cta *cta, vm_warp *w, int id)
{
    vm_barrier *b = &cta->bar[id];
    if (!w->live || (b->warps & BIT(w->id))) return;
    if ((w->bar_arrived[id] & w->live) != w->live) return;
    bar_count_live(b, w, id, w->live);
}

/* Releases the lanes waiting at barrier id, whose phase is complete. */
static __attribute__((noinline)) void bar_release(vm_launch *L, vm_cta *cta, int id)
{
    vm_barrier *b = &cta->bar[id];
    uint32_t popc = b->popc, threads = b->threads;
    const uint32_t next = b->whole_pc + 1;
    /* the warps that arrived whole at one bar.sync (no hooks): every lane waits there still,
     * nothing to look at (their state and pcs may have left the cache since) */
    for (uint32_t ww = b->warps & b->whole; ww; ww &= ww - 1) {
        vm_warp *w = &cta->warps[__builtin_ctz(ww)];
        memset(w->state, LANE_READY, BC_WARP);
        vm_fill_pcs(w->pc, next);
        w->bar_arrived[id] = 0;
        w->bar_pred[id] = 0;
    }
    for (uint32_t ww = b->warps & ~b->whole; ww; ww &= ww - 1) {
        vm_warp *w = &cta->warps[__builtin_ctz(ww)];
        uint32_t released = bytes_equal(w->state, LANE_WAIT_BAR) & bytes_equal(w->bar_id, (uint8_t)id);
        uint32_t p0 = released ? w->pc[__builtin_ctz(released)] : 0, diff = 0;
        if (released == 0xffffffffu) for (int l = 0; l < BC_WARP; l++) diff |= w->pc[l] ^ p0;
        else for (uint32_t mm = released; mm; mm &= mm - 1) diff |= w->pc[__builtin_ctz(mm)] ^ p0;
        if (released == 0xffffffffu && !diff && L->code[p0].m1 < 2) {
            /* the whole warp waited at one bar.sync: no values to deliver */
            memset(w->state, LANE_READY, BC_WARP);
            for (int l = 0; l < BC_WARP; l++) w->pc[l] = p0 + 1;
        } else for (uint32_t mm = released; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            const bc_insn *I = &L->code[w->pc[l]];
            if (I->m1 == 2) w->R[I->d + (uint32_t)l] = popc;
            else if (I->m1 == 3) w->R[I->d + (uint32_t)l] = popc == threads;
            else if (I->m1 == 4) w->R[I->d + (uint32_t)l] = popc != 0;
            w->state[l] = LANE_READY;
            w->pc[l]++;
        }
        w->bar_arrived[id] = 0;
        w->bar_pred[id] = 0;
        const vm_hooks *H = L->cfg.hooks;
        if (H && H->sync) H->sync(H->ctx, L, cta, w, released, id);
    }
    memset(b, 0, sizeof *b);
}

/* Completes barrier id's phase when every warp it waits for has arrived
 * (the test inline: most arrivals complete nothing). */
static inline void bar_try(vm_launch *L, vm_cta *cta, int id)
{
    const vm_barrier *b = &cta->bar[id];
    if (!b->warps) return;
    int done = b->expected ? (uint32_t)vm_popc32(b->warps) * BC_WARP >= b->expected
                           : (b->warps & cta->live_warps) == cta->live_warps;
    if (done) bar_release(L, cta, id);
}

/* bar.sync (no thread count, no hooks to tell) of lanes that all name one
 * barrier: the loop of warp_barrier reduces to marking them; returns the id, or -1. */
static inline int bar_sync_fast(vm_launch *L, vm_cta *cta, vm_warp *w, const bc_insn *I, uint32_t lanes, uint32_t pc)
{
    if (!lanes || I->m1 != 0 || I->n) return -1;
    uint64_t id, diff = 0;
    if (is_const(L, I->a))
        id = L->consts[I->a / BC_WARP];   /* bar.sync 0: the same in every lane (the warp's row of it may be cold) */
    else {
        const uint64_t *ra = w->R + I->a;
        id = ra[__builtin_ctz(lanes)];
        if (lanes == 0xffffffffu) for (int l = 0; l < BC_WARP; l++) diff |= ra[l] ^ id;
        else for (uint32_t mm = lanes; mm; mm &= mm - 1) diff |= ra[__builtin_ctz(mm)] ^ id;
    }
    if (diff || id >= VM_NBAR) return -1;
    cta->bar[id].kinds |= 1;
    w->bar_arrived[id] |= lanes;
    if (lanes == 0xffffffffu) {
        memset(w->state, LANE_WAIT_BAR, BC_WARP);
        memset(w->bar_id, (int)id, BC_WARP);
        vm_barrier *b = &cta->bar[id];
        if (!b->whole) b->whole_pc = pc;
        if (b->whole_pc == pc) b->whole |= BIT(w->id);
    } else for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        w->state[l] = LANE_WAIT_BAR;
        w->bar_id[l] = (uint8_t)id;
    }
    return (int)id;
}

int warp_bar_whole(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t pc)
{
    int id = bar_sync_fast(L, cta, w, &L->code[pc], 0xffffffffu, pc);
    if (id < 0) return -1;
    vm_fill_pcs(w->pc, pc);
    /* bar_count_warp for a whole warp: every lane issued, so every lane is live and arrived */
    vm_barrier *b = &cta->bar[id];
    if (!(b->warps & BIT(w->id))) bar_count_live(b, w, id, 0xffffffffu);
    bar_try(L, cta, id);
    return w->state[0] == LANE_READY;    /* released: every lane at pc + 1 */
}

vm_status warp_barrier(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t lanes, uint32_t pc)
{
    const bc_insn *I = &L->code[pc];
    const vm_hooks *H = L->cfg.hooks;
    uint32_t touched = 0;
    int fast = H ? -1 : bar_sync_fast(L, cta, w, I, lanes, pc);
    if (fast >= 0) { touched = BIT(fast); lanes = 0; }   /* nothing left for the checks and the loop below */
    if ((I->flags & BC_IF_ALIGNED) && lanes && lanes != w->live && H && H->misuse)
        H->misuse(H->ctx, L, cta, w, __builtin_ctz(lanes), pc, "barrier",
                  "aligned barrier executed by part of a warp (divergent bar.sync)");
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t id = w->R[I->a + (uint32_t)l], count = w->R[I->b + (uint32_t)l] & 0xffffffffu;
        if (id >= VM_NBAR) return vm_fail(L, cta, w, l, pc, VM_TRAP, "barrier id %llu is out of range (0..15)", (unsigned long long)id);
        if (I->n && (count == 0 || count % BC_WARP || count > cta->nthreads + BC_WARP - 1)) {
            if (H && H->misuse) H->misuse(H->ctx, L, cta, w, l, pc, "barrier", "barrier thread count is not a positive multiple of 32 within the block");
            if (count == 0 || count % BC_WARP)
                return vm_fail(L, cta, w, l, pc, VM_TRAP, "barrier %llu thread count %llu is not a multiple of 32",
                               (unsigned long long)id, (unsigned long long)count);
        }
        vm_barrier *b = &cta->bar[id];
        int form = I->m1 == 0 ? 1 : I->m1 == 1 ? 2 : 4;
        if (b->kinds && ((b->kinds | form) & 4) && (b->kinds | form) != 4 && H && H->misuse)
            H->misuse(H->ctx, L, cta, w, l, pc, "barrier", "bar.red mixed with other barrier forms on one barrier");
        b->kinds |= form;
        if (I->n) b->expected = (uint32_t)count;
        if (w->bar_arrived[id] & BIT(l) && H && H->misuse)
            H->misuse(H->ctx, L, cta, w, l, pc, "barrier", "thread arrives twice at one barrier phase");
        w->bar_arrived[id] |= BIT(l);
        if (I->m1 >= 2 && ((w->R[I->c + (uint32_t)l] & 1) ^ !!(I->flags & BC_IF_NEG))) w->bar_pred[id] |= BIT(l);
        if (I->m1 == 1) w->pc[l] = pc + 1;
        else { w->state[l] = LANE_WAIT_BAR; w->bar_id[l] = (uint8_t)id; }
        touched |= BIT(id);
    }
    for (uint32_t tt = touched; tt; tt &= tt - 1) {
        int id = __builtin_ctz(tt);
        bar_count_warp(cta, w, id);
        if (cta->bar[id].expected && (uint32_t)vm_popc32(cta->bar[id].warps) * BC_WARP > cta->bar[id].expected &&
            H && H->misuse)
            H->misuse(H->ctx, L, cta, w, __builtin_ctz(lanes), pc, "barrier", "more threads arrive at a barrier than its count");
        bar_try(L, cta, id);
    }
    return VM_OK;
}

void warp_on_exit(vm_launch *L, vm_cta *cta, vm_warp *w)
{
    if (!w->live) cta->live_warps &= ~BIT(w->id);
    for (int id = 0; id < VM_NBAR; id++) {
        if (w->bar_arrived[id]) bar_count_warp(cta, w, id);
        bar_try(L, cta, id);           /* (inline: a barrier no warp has reached costs one test) */
    }
    uint32_t seen[BC_WARP];
    int ns = 0;
    for (int l = 0; l < BC_WARP; l++) {
        if (w->state[l] != LANE_WAIT_COLL) continue;
        int k = 0;
        while (k < ns && seen[k] != w->coll_mask[l]) k++;
        if (k == ns) seen[ns++] = w->coll_mask[l];
    }
    for (int k = 0; k < ns; k++) coll_try(L, w, seen[k]);
}

/* ---- deadlock report ---------------------------------------------------------- */

typedef struct rbuf { char *p; size_t n, cap; } rbuf;

static void rput(rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rput(rbuf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof tmp) n = sizeof tmp - 1;
    if (b->n + (size_t)n + 1 > b->cap) {
        size_t nc = (b->cap + (size_t)n + 1) * 2;
        char *np = realloc(b->p, nc);
        if (!np) return;
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, tmp, (size_t)n + 1);
    b->n += (size_t)n;
}

char *warp_blocked_report(vm_launch *L, vm_cta *cta)
{
    rbuf b = { NULL, 0, 0 };
    const bc_module *m = L->m;
    char loc[256];
    for (int wi = 0; wi < cta->nwarps; wi++) {
        vm_warp *w = &cta->warps[wi];
        if (!w->live) continue;
        uint32_t done = ~w->live;
        while (done != 0xffffffffu) {
            int l = __builtin_ctz(~done);
            uint32_t same = 0;
            for (int k = l; k < BC_WARP; k++)
                if (!(done & BIT(k)) && w->pc[k] == w->pc[l] && w->state[k] == w->state[l] &&
                    (w->state[k] != LANE_WAIT_COLL || w->coll_mask[k] == w->coll_mask[l]))
                    same |= BIT(k);
            done |= same;
            const bc_insn *I = &L->code[w->pc[l]];
            bc_format_srcloc(m, I->src, 1, loc, sizeof loc);
            rput(&b, "  warp %d lanes 0x%08x at ptx line %d%s%s%s: ", wi, same, I->line, loc[0] ? " (" : "", loc,
                 loc[0] ? ")" : "");
            if (w->state[l] == LANE_WAIT_BAR) {
                vm_barrier *br = &cta->bar[w->bar_id[l]];
                uint32_t arrived = 0;
                for (int k = 0; k < cta->nwarps; k++)
                    arrived += (uint32_t)vm_popc32(cta->warps[k].bar_arrived[w->bar_id[l]] & cta->warps[k].live);
                uint32_t expect = br->expected;
                if (!expect) for (int k = 0; k < cta->nwarps; k++) expect += (uint32_t)vm_popc32(cta->warps[k].live);
                rput(&b, "waiting at barrier %d (%u of %u threads arrived%s)\n", w->bar_id[l], arrived, expect,
                     br->expected ? ", counted in whole warps" : "");
            } else if (w->state[l] == LANE_WAIT_COLL) {
                uint32_t M = w->coll_mask[l];
                rput(&b, "waiting in %s with membermask 0x%08x (lanes 0x%08x of it are elsewhere)\n",
                     bc_op_name[I->op], M, M & w->live & ~same);
            } else rput(&b, "ready\n");
        }
    }
    return b.p;
}
