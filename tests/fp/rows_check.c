/* rows_check.c -- the whole-warp f16/bf16 rows (vm/fp_rows.c) against the
 * scalar functions of vm/fp.c, lane by lane.  Inputs: every special value with
 * every other (every triple for fma); sums, products and fmas built to land on
 * and around rounding midpoints, the .ftz tininess bound, the smallest normal
 * and the overflow threshold; cancellations; random bit patterns (fixed seed).
 * Conversions: every 16-bit input when widening; f32 on and around every
 * 16-bit midpoint, specials and random patterns when narrowing.  Slots carry
 * junk above the bits a row reads, and a third of the rows are computed in
 * place (d = a or b).  min/max and setp: every pair of special values, equal
 * values, values one apart, NaNs with random payloads and random pairs;
 * neg, abs and ex2: every 16-bit input (in both halves of the x2 forms).
 * Prints PASS/FAIL per function and combination; exits 1 on any failure, 0
 * with SKIP where the rows cannot run. */
#include "fp_rows.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

enum { LANES = 32, SHOW = 4 };   /* lanes per row; failing lanes printed per combination */
#define F32S 0x80000000u     /* the sign bit of an f32 */
#define H16S 0x8000u         /* of an f16 or bf16 */
#define ALL_CVT_FLAGS (FP_CVT_FTZ | FP_CVT_SAT | FP_CVT_RELU | FP_CVT_SATFINITE)
enum { N_RANDOM = 1 << 20, N_BUILT = 1 << 14, N_CVT_RANDOM = 1 << 18, N_PAIRS = 1 << 15 };

/* the row ops follow the half opcodes of the one opcode table */
#define OP(name, text, fmt) OPS_##name,
enum {
#include "ops.def"
};
#undef OP
_Static_assert(OPS_HSUB - OPS_HADD == FP_ROW_SUB && OPS_HFMA - OPS_HADD == FP_ROW_FMA &&
                   OPS_HMIN - OPS_HADD == FP_ROW_MIN && OPS_HMAX - OPS_HADD == FP_ROW_MAX &&
                   OPS_HNEG - OPS_HADD == FP_ROW_NEG && OPS_HABS - OPS_HADD == FP_ROW_ABS &&
                   OPS_HEX2_APPROX - OPS_HADD == FP_ROW_EX2 && OPS_HTANH_APPROX - OPS_HADD == FP_ROW_TANH,
               "enum fp_row_op in the order of ops.def");

typedef struct { uint16_t a, b, c; } vec3;
typedef struct { vec3 *v; size_t n, cap; } vecs;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)   /* splitmix64 */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint16_t rand16(void) { return (uint16_t)next_rand(); }

static void push(vecs *s, uint16_t a, uint16_t b, uint16_t c)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1 << 16;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) { perror("realloc"); exit(2); }
    }
    s->v[s->n++] = (vec3){a, b, c};
}

/* ---- 16-bit values through f64 (fp.c's conversions, exact when widening) ---- */
static double val(fp_type k, uint16_t h)
{
    uint64_t u = fp_cvt_f2f(h, k, FP_F64, FP_RN, 0);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static uint16_t half_of(fp_type k, double d, fp_rnd r)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (uint16_t)fp_cvt_f2f(u, FP_F64, k, r, 0);
}
static uint16_t inf16(fp_type k) { return k == FP_F16 ? 0x7c00 : 0x7f80; }
static uint16_t rand_finite(fp_type k)
{
    for (;;) {
        uint16_t h = rand16();
        if ((h & inf16(k)) != inf16(k)) return h;
    }
}
/* the spacing of the 16-bit values at |h| (h finite) */
static double ulp16(fp_type k, uint16_t h)
{
    uint16_t m = h & ~H16S;
    return m + 1 < inf16(k) ? val(k, m + 1) - val(k, m) : val(k, m) - val(k, m - 1);
}
/* x and its neighbouring bit patterns */
static void push_around(vecs *s, int which, uint16_t a, uint16_t b, uint16_t c)
{
    for (int i = -2; i <= 2; i++) {
        uint16_t x[3] = {a, b, c};
        x[which] = (uint16_t)(x[which] + i);
        push(s, x[0], x[1], x[2]);
    }
}

/* ---- the inputs of the arithmetic rows ---- */
/* zeros, subnormals, the smallest normal, the largest finite, infinity, quiet
 * and signalling NaNs with payloads, and values around 1, ties and 2^e; each
 * also negated (2 * N_SPECIAL values) */
enum { N_SPECIAL = 26 };
static void special_values(fp_type k, uint16_t all[2 * N_SPECIAL])
{
    static const uint16_t f16[N_SPECIAL] = {0x0000, 0x0001, 0x03ff, 0x0400, 0x0401, 0x0200, 0x7bff, 0x7bfe, 0x7800,
                                            0x7c00, 0x7e00, 0x7e01, 0x7c01, 0x7d55, 0x3c00, 0x3c01, 0x3bff, 0x3800,
                                            0x4000, 0x3e00, 0x2000, 0x1fff, 0x5c00, 0x5bff, 0x5c01, 0x0800};
    static const uint16_t bf16[N_SPECIAL] = {0x0000, 0x0001, 0x007f, 0x0080, 0x0081, 0x0040, 0x7f7f, 0x7f7e, 0x7f00,
                                             0x7f80, 0x7fc0, 0x7fc1, 0x7f81, 0x7fa5, 0x3f80, 0x3f81, 0x3f7f, 0x3f00,
                                             0x4000, 0x3fc0, 0x2000, 0x1fff, 0x5f80, 0x5f7f, 0x5f81, 0x0100};
    const uint16_t *t = k == FP_F16 ? f16 : bf16;
    for (int i = 0; i < N_SPECIAL; i++) all[i] = t[i], all[N_SPECIAL + i] = t[i] ^ H16S;
}
static void specials(fp_type k, vecs *s)
{
    uint16_t all[2 * N_SPECIAL];
    special_values(k, all);
    for (int i = 0; i < 2 * N_SPECIAL; i++)
        for (int j = 0; j < 2 * N_SPECIAL; j++)
            for (int l = 0; l < 2 * N_SPECIAL; l++) push(s, all[i], all[j], all[l]);
}

/* sums a + b on (b = +-u/2, +-3u/2 of a's ulp u) and around midpoints; cancellations */
static void built_sums(fp_type k, vecs *s)
{
    static const double mult[] = {0.5, -0.5, 1.5, -1.5};
    for (int i = 0; i < N_BUILT; i++) {
        uint16_t a = rand_finite(k), c = rand16();
        for (size_t m = 0; m < sizeof mult / sizeof mult[0]; m++)
            push_around(s, 1, a, half_of(k, mult[m] * ulp16(k, a), FP_RZ), c);
        push_around(s, 1, a, a ^ H16S, c);
    }
}

/* products on and around ties (b = (1 + j/8) 2^e), and around the smallest
 * normal, the .ftz tininess bound, half the least subnormal, the largest
 * finite value and the overflow threshold */
static void built_products(fp_type k, vecs *s)
{
    const int mb = k == FP_F16 ? 10 : 7, emax = k == FP_F16 ? 15 : 127;
    const uint16_t minnorm = k == FP_F16 ? 0x0400 : 0x0080, maxv = inf16(k) - 1;
    const double limits[] = {val(k, minnorm), val(k, minnorm) - ulp16(k, minnorm) / 4, val(k, 1) / 2, val(k, maxv),
                             val(k, maxv) + ulp16(k, maxv) / 2};
    for (int i = 0; i < N_BUILT; i++) {
        uint16_t a = rand_finite(k), c = rand16();
        int e = (int)(next_rand() % (unsigned)(2 * emax + mb)) - emax - mb;
        push_around(s, 1, a, half_of(k, ldexp(1 + (double)(i % 7 + 1) / 8, e), FP_RN), c);
        double lim = limits[i % (sizeof limits / sizeof limits[0])];
        push_around(s, 1, a, half_of(k, lim / val(k, a), FP_RZ), c);
    }
}

/* fmas whose product puts a * b + c on or just off c's midpoints (beyond f32's
 * precision: where rounding to odd matters), and cancellations */
static void built_fmas(fp_type k, vecs *s)
{
    static const double mult[] = {0.5, -0.5, 1.5, -1.5};
    for (int i = 0; i < N_BUILT; i++) {
        uint16_t a = rand_finite(k), c = rand_finite(k);
        double target = mult[i % (sizeof mult / sizeof mult[0])] * ulp16(k, c);
        push_around(s, 1, a, half_of(k, target / val(k, a), FP_RZ), c);
        uint16_t b = rand_finite(k);
        push_around(s, 2, a, b, half_of(k, -val(k, a) * val(k, b), FP_RN));
    }
}

static void arith_inputs(fp_type k, vecs *s)
{
    specials(k, s);
    built_sums(k, s);
    built_products(k, s);
    built_fmas(k, s);
    for (int i = 0; i < N_RANDOM; i++) push(s, rand16(), rand16(), rand16());
}

/* ---- the inputs of min, max and setp (pairs a, b), and of the unary rows ---- */
static uint16_t rand_nan(fp_type k)
{
    uint16_t frac = (uint16_t)~(H16S | inf16(k)), h = rand16();
    return (uint16_t)((h & (H16S | frac)) | inf16(k) | !(h & frac));
}
static uint16_t rand_subnormal(fp_type k) { return rand16() & (uint16_t)~inf16(k); }   /* zeros too */

static void pair_inputs(fp_type k, vecs *s)
{
    uint16_t all[2 * N_SPECIAL];
    special_values(k, all);
    for (int i = 0; i < 2 * N_SPECIAL; i++)
        for (int j = 0; j < 2 * N_SPECIAL; j++) push(s, all[i], all[j], 0);
    for (int i = 0; i < N_PAIRS; i++) {
        uint16_t a = rand16();
        push(s, a, a, 0);
        push(s, a, a ^ H16S, 0);
        push(s, a, (uint16_t)(a + 1), 0);
        push(s, a, rand_nan(k), 0);
        push(s, rand_nan(k), a, 0);
        push(s, rand_nan(k), rand_nan(k), 0);
        push(s, rand_subnormal(k), rand_subnormal(k), 0);
        uint16_t z = rand_subnormal(k);
        push(s, z, z, 0);
        push(s, a, rand16(), 0);     /* 9 pairs: each kind in the low and the high halves of x2 lanes */
    }
}

/* every 16-bit value as a, twice: in the low and in the high half of an x2 lane */
static void unary_inputs(vecs *s)
{
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t h = 0; h < 0x10000; h++) push(s, (uint16_t)h, rand16(), rand16());
        if (!pass) push(s, rand16(), rand16(), rand16());      /* the second pass one slot on */
    }
    while (s->n % (2 * LANES)) push(s, rand16(), rand16(), rand16());   /* whole x2 rows */
}

/* ---- the scalar functions ---- */
static uint32_t one16(int op, fp_type k, int ftz, int sat, uint16_t a, uint16_t b, uint16_t c)
{
    int f = k == FP_F16;
    switch (op) {
    case FP_ROW_ADD: return f ? fp16_add(a, b, FP_RN, ftz, sat) : bf16_add(a, b, FP_RN, ftz, sat);
    case FP_ROW_SUB: return f ? fp16_sub(a, b, FP_RN, ftz, sat) : bf16_sub(a, b, FP_RN, ftz, sat);
    case FP_ROW_MUL: return f ? fp16_mul(a, b, FP_RN, ftz, sat) : bf16_mul(a, b, FP_RN, ftz, sat);
    default: return f ? fp16_fma(a, b, c, FP_RN, ftz, sat) : bf16_fma(a, b, c, FP_RN, ftz, sat);
    }
}
static uint32_t one32(int op, fp_type k, int ftz, int sat, uint32_t a, uint32_t b, uint32_t c)
{
    int f = k == FP_F16;
    switch (op) {
    case FP_ROW_ADD: return f ? fp16x2_add(a, b, FP_RN, ftz, sat) : bf16x2_add(a, b, FP_RN, ftz, sat);
    case FP_ROW_SUB: return f ? fp16x2_sub(a, b, FP_RN, ftz, sat) : bf16x2_sub(a, b, FP_RN, ftz, sat);
    case FP_ROW_MUL: return f ? fp16x2_mul(a, b, FP_RN, ftz, sat) : bf16x2_mul(a, b, FP_RN, ftz, sat);
    default: return f ? fp16x2_fma(a, b, c, FP_RN, ftz, sat) : bf16x2_fma(a, b, c, FP_RN, ftz, sat);
    }
}

static uint32_t misc16(int op, fp_type k, int ftz, int nm, uint16_t a, uint16_t b)
{
    int f = k == FP_F16;
    switch (op) {
    case FP_ROW_MIN: return f ? fp16_min(a, b, ftz, nm) : bf16_min(a, b, ftz, nm);
    case FP_ROW_MAX: return f ? fp16_max(a, b, ftz, nm) : bf16_max(a, b, ftz, nm);
    case FP_ROW_NEG: return f ? fp16_neg(a, ftz) : bf16_neg(a, ftz);
    case FP_ROW_ABS: return f ? fp16_abs(a, ftz) : bf16_abs(a, ftz);
    case FP_ROW_TANH: return f ? fp16_tanh_approx(a) : bf16_tanh_approx(a);
    default: return f ? fp16_ex2_approx(a) : bf16_ex2_approx(a);
    }
}
static uint32_t misc32(int op, fp_type k, int ftz, int nm, uint32_t a, uint32_t b)
{
    int f = k == FP_F16;
    switch (op) {
    case FP_ROW_MIN: return f ? fp16x2_min(a, b, ftz, nm) : bf16x2_min(a, b, ftz, nm);
    case FP_ROW_MAX: return f ? fp16x2_max(a, b, ftz, nm) : bf16x2_max(a, b, ftz, nm);
    case FP_ROW_NEG: return f ? fp16x2_neg(a, ftz) : bf16x2_neg(a, ftz);
    case FP_ROW_ABS: return f ? fp16x2_abs(a, ftz) : bf16x2_abs(a, ftz);
    case FP_ROW_TANH: return misc16(op, k, ftz, nm, (uint16_t)a, 0) | misc16(op, k, ftz, nm, (uint16_t)(a >> 16), 0) << 16;
    default: return f ? fp16x2_ex2_approx(a) : bf16x2_ex2_approx(a);
    }
}

/* setp as vm/exec.c's handler: both operands widened to f64 by fp_cvt_f2f
 * (cached), compared by fcmp (a copy); .ftz flushes them first */
static int fcmp(double a, double b, int cmp)
{
    int un = a != a || b != b;
    switch (cmp) {
    case FP_CMP_EQ: return !un && a == b;
    case FP_CMP_NE: return !un && a != b;
    case FP_CMP_LT: return !un && a < b;
    case FP_CMP_LE: return !un && a <= b;
    case FP_CMP_GT: return !un && a > b;
    case FP_CMP_GE: return !un && a >= b;
    case FP_CMP_EQU: return un || a == b;
    case FP_CMP_NEU: return un || a != b;
    case FP_CMP_LTU: return un || a < b;
    case FP_CMP_LEU: return un || a <= b;
    case FP_CMP_GTU: return un || a > b;
    case FP_CMP_GEU: return un || a >= b;
    case FP_CMP_NUM: return !un;
    case FP_CMP_NAN: return un;
    }
    return 0;
}
static double val_cached(fp_type k, uint16_t h)
{
    static double v[2][0x10000];
    static int done[2];
    if (!done[k]) {
        for (uint32_t i = 0; i < 0x10000; i++) v[k][i] = val(k, (uint16_t)i);
        done[k] = 1;
    }
    return v[k][h];
}
static uint16_t flush16(fp_type k, uint16_t h) { return h & inf16(k) ? h : h & H16S; }
static int setp16(int cmp, fp_type k, int ftz, uint16_t a, uint16_t b)
{
    if (ftz) a = flush16(k, a), b = flush16(k, b);
    return fcmp(val_cached(k, a), val_cached(k, b), cmp);
}

/* ---- running rows ---- */
static int fails;

/* junk above the low `bits` bits of a slot */
static uint64_t slot(uint64_t v, int bits) { return v | (next_rand() << bits); }

/* d after the row, computed in place for every third row (d = a or b) */
static uint64_t *row_out(size_t r, uint64_t *d, uint64_t *a, uint64_t *b)
{
    uint64_t *o = r % 3 == 1 ? a : r % 3 == 2 ? b : d;
    if (o == d) for (int l = 0; l < LANES; l++) d[l] = next_rand();
    return o;
}

/* a combination's count of lanes and of failing lanes */
typedef struct { long n, bad; const char *name; } tally;
/* one lane of a combination */
static void lane(tally *t, uint64_t got, uint64_t want, uint32_t a, uint32_t b, uint32_t c)
{
    t->n++;
    if (got == want) return;
    if (t->bad++ < SHOW)
        printf("FAIL %s: a=%#x b=%#x c=%#x got %#llx want %#llx\n", t->name, a, b, c, (unsigned long long)got,
               (unsigned long long)want);
}
static void verdict(tally *t, int has_row)
{
    if (!has_row) printf("FAIL %s: no row\n", t->name);
    else if (t->bad) printf("FAIL %s: %ld of %ld lanes differ\n", t->name, t->bad, t->n);
    else printf("PASS %s (%ld lanes)\n", t->name, t->n);
    fails += !has_row || t->bad;
}

/* lanes i.. of s as operands pa, pb, pc (x2: two vec3 a lane, the first in
 * the low halves) and as slots a, b, c with junk above */
static void fill(const vecs *s, size_t i, int x2, uint32_t *pa, uint32_t *pb, uint32_t *pc, uint64_t *a, uint64_t *b,
                 uint64_t *c)
{
    int per = x2 ? 2 : 1, bits = 16 * per;
    for (int l = 0; l < LANES; l++) {
        const vec3 *v = &s->v[i + per * l], *w = v + (per - 1);
        pa[l] = v->a | (uint32_t)(x2 ? w->a : 0) << 16;
        pb[l] = v->b | (uint32_t)(x2 ? w->b : 0) << 16;
        pc[l] = v->c | (uint32_t)(x2 ? w->c : 0) << 16;
        a[l] = slot(pa[l], bits), b[l] = slot(pb[l], bits), c[l] = slot(pc[l], bits);
    }
}

static const char *kind_name(fp_type k, int x2)
{
    static const char *const n[2][2] = {{"f16", "f16x2"}, {"bf16", "bf16x2"}};
    return n[k == FP_BF16][x2 != 0];
}

/* op FP_ROW_ADD .. FP_ROW_TANH (fp_half_row, fp_half_misc_row) on every row of s */
static void check_half(int op, fp_type k, int x2, int ftz, int sat_nm, const vecs *s)
{
    static const char *const ops[] = {"add.rn", "sub.rn", "mul.rn", "fma.rn", "min", "max", "neg", "abs", "ex2.approx", "tanh.approx"};
    int arith = op <= FP_ROW_FMA;
    char name[64];
    snprintf(name, sizeof name, "%s%s%s.%s", ops[op], ftz ? ".ftz" : "", !sat_nm ? "" : arith ? ".sat" : ".NaN",
             kind_name(k, x2));
    tally t = {0, 0, name};
    int has_row = 1, per = x2 ? 2 : 1;
    uint64_t a[LANES], b[LANES], c[LANES], d[LANES];
    uint32_t pa[LANES], pb[LANES], pc[LANES];
    for (size_t i = 0, r = 0; i + per * LANES <= s->n && has_row; i += per * LANES, r++) {
        fill(s, i, x2, pa, pb, pc, a, b, c);
        uint64_t *o = row_out(r, d, a, b);
        has_row = arith ? fp_half_row(op, k, x2, ftz, sat_nm, o, a, b, c)
                        : fp_half_misc_row(op, k, x2, ftz, sat_nm, o, a, b);
        for (int l = 0; l < LANES && has_row; l++) {
            uint32_t want = arith ? (x2 ? one32(op, k, ftz, sat_nm, pa[l], pb[l], pc[l])
                                        : one16(op, k, ftz, sat_nm, (uint16_t)pa[l], (uint16_t)pb[l], (uint16_t)pc[l]))
                          : x2 ? misc32(op, k, ftz, sat_nm, pa[l], pb[l])
                               : misc16(op, k, ftz, sat_nm, (uint16_t)pa[l], (uint16_t)pb[l]);
            lane(&t, o[l], want, pa[l], pb[l], pc[l]);
        }
    }
    verdict(&t, has_row);
}

/* setp on every row of s: d (and e with x2) in place for some rows; without
 * x2, e must stay as it was (each row counts its d and its e lanes) */
static void check_setp(int cmp, fp_type k, int x2, int ftz, const vecs *s)
{
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu",
                                       "num", "nan"};
    char name[64];
    snprintf(name, sizeof name, "setp.%s%s.%s", cmps[cmp], ftz ? ".ftz" : "", kind_name(k, x2));
    tally t = {0, 0, name};
    int has_row = 1, per = x2 ? 2 : 1;
    uint64_t a[LANES], b[LANES], c[LANES], d[LANES], e[LANES], e0[LANES];
    uint32_t pa[LANES], pb[LANES], pc[LANES];
    for (size_t i = 0, r = 0; i + per * LANES <= s->n && has_row; i += per * LANES, r++) {
        fill(s, i, x2, pa, pb, pc, a, b, c);
        for (int l = 0; l < LANES; l++) e[l] = e0[l] = next_rand();
        uint64_t *o = row_out(r, d, a, b), *oe = x2 && r % 3 == 2 ? a : e;
        has_row = fp_setp_half_row(cmp, k, x2, ftz, o, oe, a, b);
        for (int l = 0; l < LANES && has_row; l++) {
            lane(&t, o[l], setp16(cmp, k, ftz, (uint16_t)pa[l], (uint16_t)pb[l]), pa[l], pb[l], 0);
            uint64_t hi = x2 ? (uint64_t)setp16(cmp, k, ftz, (uint16_t)(pa[l] >> 16), (uint16_t)(pb[l] >> 16)) : e0[l];
            lane(&t, oe[l], hi, pa[l], pb[l], 1);
        }
    }
    verdict(&t, has_row);
}

/* ---- conversions ---- */
static const char *flag_name(int flags)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%s%s%s%s", flags & FP_CVT_FTZ ? ".ftz" : "", flags & FP_CVT_SAT ? ".sat" : "",
             flags & FP_CVT_RELU ? ".relu" : "", flags & FP_CVT_SATFINITE ? ".satfinite" : "");
    return buf;
}

static void check_widen(fp_type k, int flags)
{
    char name[64];
    snprintf(name, sizeof name, "cvt%s.f32.%s", flag_name(flags), k == FP_F16 ? "f16" : "bf16");
    tally t = {0, 0, name};
    int has_row = 1;
    uint64_t a[LANES], d[LANES];
    for (uint32_t h = 0, r = 0; h < 0x10000 && has_row; h += LANES, r++) {
        for (int l = 0; l < LANES; l++) a[l] = slot(h + l, 16);
        uint64_t *o = row_out(r, d, a, a);
        has_row = fp_cvt_half_row(k, FP_F32, FP_RN, flags, o, a);
        for (int l = 0; l < LANES && has_row; l++) lane(&t, o[l], fp_cvt_f2f(h + l, k, FP_F32, FP_RN, flags), h + l, 0, 0);
    }
    verdict(&t, has_row);
}

/* f32 inputs: specials, every 16-bit midpoint of k and its neighbours, random patterns */
static size_t narrow_inputs(fp_type k, uint32_t **out)
{
    static const uint32_t special[] = {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x7f800000u,
                                       0x7fc00000u, 0x7fc00001u, 0x7f800001u, 0x7fbfffffu, 0x3f800000u, 0x3f800001u,
                                       0x3f7fffffu, 0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u, 0x7f7f0000u,
                                       0x7f7f7fffu, 0x7f7f8000u, 0x7f7f8001u, 0x33800000u, 0x33000000u, 0x33000001u,
                                       0x32ffffffu, 0x38800000u, 0x387fe000u, 0x387ff000u};
    size_t n = 0, cap = 2 * (sizeof special / sizeof special[0]) + 2 * 5 * H16S + N_CVT_RANDOM;
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v) { perror("malloc"); exit(2); }
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) v[n++] = special[i], v[n++] = special[i] ^ F32S;
    for (uint16_t h = 0; h < inf16(k); h++) {
        double lo = val(k, h), up = h + 1 < inf16(k) ? val(k, h + 1) : lo + ulp16(k, h);
        float mid = (float)((lo + up) / 2);     /* exact: 16-bit midpoints fit f32 */
        uint32_t m;
        memcpy(&m, &mid, sizeof m);
        for (int i = -2; i <= 2; i++) v[n++] = m + i, v[n++] = (m + i) ^ F32S;
    }
    for (int i = 0; i < N_CVT_RANDOM; i++) v[n++] = (uint32_t)next_rand();
    *out = v;
    return n;
}

static void check_narrow(fp_type k, int flags, int pack, const uint32_t *v, size_t n)
{
    const char *dst = k == FP_F16 ? "f16" : "bf16";
    char name[64];
    snprintf(name, sizeof name, "cvt.rn%s.%s%s.f32", flag_name(flags), dst, pack ? "x2" : "");
    tally t = {0, 0, name};
    int has_row = 1;
    size_t half = pack ? n / 2 : 0;    /* pack: a from the first half, b from the second */
    uint64_t a[LANES], b[LANES], d[LANES];
    for (size_t i = 0, r = 0; i + LANES <= n - half && has_row; i += LANES, r++) {
        for (int l = 0; l < LANES; l++) a[l] = slot(v[i + l], 32), b[l] = slot(v[half + i + l], 32);
        uint64_t *o = row_out(r, d, a, b);
        has_row = pack ? fp_cvt_pack_half_row(k, FP_RN, flags, o, a, b) : fp_cvt_half_row(FP_F32, k, FP_RN, flags, o, a);
        for (int l = 0; l < LANES && has_row; l++) {
            uint64_t want = fp_cvt_f2f(v[i + l], FP_F32, k, FP_RN, flags);
            if (pack) want = want << 16 | fp_cvt_f2f(v[half + i + l], FP_F32, k, FP_RN, flags);
            lane(&t, o[l], want, v[i + l], v[half + i + l], 0);
        }
    }
    verdict(&t, has_row);
}

/* the combinations without a row say so and leave d alone */
static void check_no_row(void)
{
    uint64_t a[LANES] = {0}, d[LANES] = {0};
    int rows = fp_cvt_half_row(FP_F16, FP_F32, FP_RN, FP_CVT_SAT, d, a) + fp_cvt_half_row(FP_F32, FP_F16, FP_RZ, 0, d, a) +
               fp_cvt_half_row(FP_F16, FP_F16, FP_RN, 0, d, a) + fp_cvt_half_row(FP_F64, FP_BF16, FP_RN, 0, d, a) +
               fp_cvt_pack_half_row(FP_BF16, FP_RM, 0, d, a, a) + fp_cvt_pack_half_row(FP_F32, FP_RN, 0, d, a, a) +
               fp_half_row(FP_ROW_ADD, FP_F32, 0, 0, 0, d, a, a, a);
    rows += fp_half_row(FP_ROW_MIN, FP_F16, 0, 0, 0, d, a, a, a);
    rows += fp_half_misc_row(FP_ROW_FMA, FP_F16, 0, 0, 0, d, a, a) + fp_half_misc_row(FP_ROW_TANH + 1, FP_F16, 0, 0, 0, d, a, a);
    rows += fp_half_misc_row(FP_ROW_MIN, FP_F32, 0, 0, 0, d, a, a) + fp_setp_half_row(-1, FP_BF16, 1, 0, d, d, a, a);
    rows += fp_setp_half_row(FP_CMP_NAN + 1, FP_F16, 0, 0, d, d, a, a) + fp_setp_half_row(FP_CMP_EQ, FP_F32, 0, 0, d, d, a, a);
    int touched = 0;
    for (int l = 0; l < LANES; l++) touched |= d[l] != 0;
    printf("%s combinations without a row return 0\n", rows || touched ? "FAIL" : "PASS");
    fails += rows || touched;
}

int main(void)
{
    if (!fp_rows_supported()) {
        printf("SKIP rows_check (no AVX2/F16C/FMA, or PTXEMU_NO_AVX2 set)\n");
        return 0;
    }
    static const fp_type kinds[] = {FP_F16, FP_BF16};
    for (int ki = 0; ki < 2; ki++) {
        fp_type k = kinds[ki];
        vecs s = {0};
        arith_inputs(k, &s);
        for (int op = FP_ROW_ADD; op <= FP_ROW_FMA; op++)
            for (int x2 = 0; x2 < 2; x2++)
                for (int fl = 0; fl < 4; fl++) check_half(op, k, x2, fl & 1, fl >> 1, &s);
        free(s.v);
        vecs p = {0}, u = {0};
        pair_inputs(k, &p);
        for (int x2 = 0; x2 < 2; x2++)
            for (int ftz = 0; ftz < 2; ftz++) {
                for (int op = FP_ROW_MIN; op <= FP_ROW_MAX; op++)
                    for (int nm = 0; nm < 2; nm++) check_half(op, k, x2, ftz, nm, &p);
                for (int cmp = FP_CMP_EQ; cmp <= FP_CMP_NAN; cmp++) check_setp(cmp, k, x2, ftz, &p);
            }
        free(p.v);
        unary_inputs(&u);
        for (int op = FP_ROW_NEG; op <= FP_ROW_TANH; op++)
            for (int x2 = 0; x2 < 2; x2++)
                for (int ftz = 0; ftz < 2; ftz++) check_half(op, k, x2, ftz, 0, &u);
        free(u.v);
        check_widen(k, 0);
        check_widen(k, FP_CVT_FTZ);
        uint32_t *v;
        size_t n = narrow_inputs(k, &v);
        for (int flags = 0; flags <= ALL_CVT_FLAGS; flags++) {
            check_narrow(k, flags, 0, v, n);
            check_narrow(k, flags, 1, v, n);
        }
        free(v);
    }
    check_no_row();
    printf("rows_check: %d combinations failed\n", fails);
    return fails != 0;
}
