/* fp.c -- PTX floating-point arithmetic, bit-exact with NVIDIA sm_90.
 * See fp.h.  Strategy:
 *  - RN without ftz/sat: plain host float/double op (SSE is IEEE RN) + NaN fixup.
 *  - f32/f16/bf16 other cases: compute the exact result as a double s plus the
 *    sign of the residual (TwoSum / exact product / fma remainder), then round
 *    that to the target format in software (round_pack).
 *  - f64 directed rounding: exact significand arithmetic on unsigned __int128.
 */
#include "fp.h"
#include <math.h>
#include <string.h>

typedef unsigned __int128 u128;

typedef struct { int mb, eb; } fmt_t; /* fraction bits, exponent bits */
static const fmt_t FMT[4] = {{10, 5}, {7, 8}, {23, 8}, {52, 11}};

static inline float b2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double b2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t d2b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline int clz128(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi) return __builtin_clzll(hi);
    return 64 + __builtin_clzll((uint64_t)x);
}

/* ---- format helpers ---- */
static inline uint64_t f_signbit(fmt_t f) { return 1ull << (f.mb + f.eb); }
static inline uint64_t f_expmask(fmt_t f) { return ((1ull << f.eb) - 1) << f.mb; }
static inline uint64_t f_fracmask(fmt_t f) { return (1ull << f.mb) - 1; }
static inline int f_isnan(fmt_t f, uint64_t x) { return (x & f_expmask(f)) == f_expmask(f) && (x & f_fracmask(f)); }
static inline int f_isinf(fmt_t f, uint64_t x) { return (x & ~f_signbit(f)) == f_expmask(f); }
static inline int f_issub(fmt_t f, uint64_t x) { return (x & f_expmask(f)) == 0 && (x & f_fracmask(f)); }
static inline uint64_t f_ftz(fmt_t f, uint64_t x) { return f_issub(f, x) ? (x & f_signbit(f)) : x; }
static inline uint64_t f_one(fmt_t f) { return ((1ull << (f.eb - 1)) - 1) << f.mb; }
static inline uint64_t f_max(fmt_t f) { return f_expmask(f) - 1; }
static inline uint64_t f_cnan(fmt_t f) { return f.mb == 52 ? FP64_DEFAULT_NAN : (f_signbit(f) - 1); }

/* The rounding step of r: 1 when a magnitude whose bit below the kept ones is rb, with
 * anything below that (st), and whose kept lsb is odd, goes up by one lsb. */
static inline int round_inc(fp_rnd r, int sign, int rb, int st, int odd)
{
    switch (r) {
    case FP_RN: return rb && (st || odd);
    case FP_RM: return sign && (rb || st);
    case FP_RP: return !sign && (rb || st);
    default: return 0;                 /* FP_RZ */
    }
}

/* An overflow's result in f: infinity, or the largest finite value where r rounds toward zero. */
static inline uint64_t round_overflow(fmt_t f, int sign, fp_rnd r)
{
    int toinf = r == FP_RN || (r == FP_RP && !sign) || (r == FP_RM && sign);
    return (sign ? f_signbit(f) : 0) | (toinf ? f_expmask(f) : f_max(f));
}

/* round the exact value (-1)^sign * m * 2^e (m != 0; m's bit 0 may be a sticky
 * bit as long as at least 2 bits lie below the target's rounding position).
 * ftz: flush tiny results (IEEE tininess after rounding), as measured on sm_90. */
static uint64_t round_pack(fmt_t f, int sign, u128 m, int e, fp_rnd r, int ftz)
{
    int bias = (1 << (f.eb - 1)) - 1;
    int n = 128 - clz128(m);
    int E = e + n - 1;                 /* unbiased exponent of the leading bit */
    int emin = 1 - bias;
    int qe = (E >= emin ? E : emin) - f.mb; /* exponent of the result's lsb */
    int sh = qe - e;
    uint64_t kept;
    int rb = 0, st = 0;
    if (sh <= 0) {
        kept = (uint64_t)(m << -sh);
    } else if (sh >= 128) {
        kept = 0;
        if (sh == 128) { rb = (int)(m >> 127); st = (m << 1) != 0; }
        else st = 1;
    } else {
        kept = (uint64_t)(m >> sh);
        u128 rem = m & (((u128)1 << sh) - 1);
        u128 half = (u128)1 << (sh - 1);
        rb = (rem & half) != 0;
        st = (rem & (half - 1)) != 0;
    }
    kept += (uint64_t)round_inc(r, sign, rb, st, (int)(kept & 1));
    /* encode: subnormal -> kept directly; normal -> ((E+bias-1)<<mb) + kept */
    uint64_t bits;
    if (E < emin) bits = kept;
    else bits = ((uint64_t)(E + bias - 1) << f.mb) + kept;
    uint64_t sb = sign ? f_signbit(f) : 0;
    if (bits >= f_expmask(f)) return round_overflow(f, sign, r);
    /* .ftz: sm_90 flushes results that are tiny in the IEEE "after rounding"
     * sense: rounded to full precision with unbounded exponent, still below
     * 2^emin.  (mul.rn.ftz 0x3f7fffff*0x00800000 -> +0, but an fma whose exact
     * result is 2^-126 - 2^-225 -> 2^-126.) */
    if (ftz && E < emin) {
        int tiny = 1;
        if (E == emin - 1) { /* could round up to 2^emin at full precision */
            int sh2 = (E - f.mb) - e;
            if (sh2 > 0) {
                u128 k2 = sh2 >= 128 ? 0 : m >> sh2;
                u128 rem2 = sh2 >= 128 ? m : m & (((u128)1 << sh2) - 1);
                int rb2 = sh2 > 128 ? 0 : sh2 == 128 ? (int)(m >> 127) : (int)((rem2 >> (sh2 - 1)) & 1);
                int st2 = sh2 > 128 ? rem2 != 0 : (rem2 & ((((u128)1) << (sh2 - 1)) - 1)) != 0;
                int inc2 = round_inc(r, sign, rb2, st2, (int)(k2 & 1));
                if (k2 + inc2 == ((u128)1 << (f.mb + 1))) tiny = 0;
            }
        }
        if (tiny) return sb;
    }
    return sb | bits;
}

/* round_d's usual case for f16 and bf16 in 64-bit steps: s a normal double that is
 * the exact value (dir 0), and with .ftz a result that is not tiny; -1 otherwise */
static inline __attribute__((always_inline)) int64_t round_d16(fmt_t f, double s, fp_rnd r, int ftz)
{
    const uint64_t u = d2b(s), ex = (u >> 52) & 0x7ff;
    const int bias = (1 << (f.eb - 1)) - 1, emin = 1 - bias, E = (int)ex - 1023;
    if (!ex || (ftz && E < emin)) return -1;
    const int sign = (int)(u >> 63);
    const uint64_t m = (u & 0xfffffffffffffull) | (1ull << 52);
    /* the result's lsb is bit sh of m (sh >= 52 - f.mb > 0) */
    const int sh = 52 - f.mb + (E < emin ? emin - E : 0);
    uint64_t kept = 0;
    int rb = 0, st = 1;
    if (sh <= 53) {
        kept = m >> sh;
        const uint64_t rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
        rb = (rem & half) != 0;
        st = (rem & (half - 1)) != 0;
    }
    kept += (uint64_t)round_inc(r, sign, rb, st, (int)(kept & 1));
    const uint64_t bits = E < emin ? kept : ((uint64_t)(E + bias - 1) << f.mb) + kept;
    if (bits >= f_expmask(f)) return (int64_t)round_overflow(f, sign, r);
    return (int64_t)((sign ? f_signbit(f) : 0) | bits);
}

/* round the exact value s + (tiny with sign dir) to format f; s finite */
static uint64_t round_d(fmt_t f, double s, int dir, fp_rnd r, int ftz)
{
    uint64_t u = d2b(s);
    int sign = (int)(u >> 63);
    uint64_t ex = (u >> 52) & 0x7ff, fr = u & 0xfffffffffffffull;
    if (ex == 0 && fr == 0) return sign ? f_signbit(f) : 0; /* caller handles exact zero */
    uint64_t m = ex ? (fr | (1ull << 52)) : fr;
    int e = (ex ? (int)ex : 1) - 1075;
    u128 M = (u128)m << 2;
    if (dir) {
        int outward = (dir > 0) != sign;
        M = outward ? M + 1 : M - 1;
    }
    return round_pack(f, sign, M, e - 2, r, ftz);
}

static inline uint64_t do_sat(fmt_t f, uint64_t x)
{
    if (f_isnan(f, x)) return 0;
    if (x & f_signbit(f)) return 0;
    if (x > f_one(f)) return f_one(f);
    return x;
}

/* exact-zero sign for a sum of x+y that cancelled exactly */
static inline int zero_sum_sign(int sx_zero_neg, int sy_zero_neg, int both_zero, fp_rnd r)
{
    if (both_zero && sx_zero_neg == sy_zero_neg) return sx_zero_neg;
    return r == FP_RM;
}

/* An f16 (its rare classes: zero, subnormal, inf, NaN) or bf16 value as a double (exact;
 * NaN for a NaN) */
static __attribute__((noinline)) double f16_to_d_rare(uint64_t x)
{
    uint64_t ex = x >> 10 & 31, fr = x & 0x3ff;
    double v = ex == 31 ? (fr ? NAN : INFINITY) : (double)fr * 0x1p-24;
    return x & 0x8000 ? -v : v;
}
static inline double half_to_d(fmt_t f, uint64_t x)
{
    if (f.mb == 7) return (double)b2f((uint32_t)x << 16);
    if (__builtin_expect(((x >> 10 & 31) - 1) < 30, 1))   /* normal: the exponent rebiased, the fraction moved up */
        return b2d((x & 0x8000) << 48 | ((x & 0x7fff) + ((uint64_t)(1023 - 15) << 10)) << 42);
    return f16_to_d_rare(x);
}

/* ---- generic "small format" ops (f32, f16, bf16) through double ---- */
/* op: 0 add, 1 mul, 2 fma */
static uint64_t small_arith(fmt_t f, int op, uint64_t a, uint64_t b, uint64_t c, fp_rnd r, int ftz, int sat)
{
    double da, db, dc = 0;
    if (ftz) { a = f_ftz(f, a); b = f_ftz(f, b); c = f_ftz(f, c); }
    if (f_isnan(f, a) || f_isnan(f, b) || (op == 2 && f_isnan(f, c))) return sat ? 0 : f_cnan(f);
    /* decode to double exactly */
    uint64_t in[3] = {a, b, c};
    double dv[3];
    for (int i = 0; i < 3; i++) {
        uint64_t x = in[i];
        if (f.mb == 23) { dv[i] = (double)b2f((uint32_t)x); continue; }
        dv[i] = half_to_d(f, x);
    }
    da = dv[0]; db = dv[1]; dc = dv[2];
    double s, e = 0;
    int zero_neg = 0, exact_zero = 0;
    if (op == 0) {
        s = da + db;
        if (isnan(s)) return sat ? 0 : f_cnan(f);
        if (isinf(s)) return sat ? do_sat(f, s > 0 ? f_expmask(f) : (f_signbit(f) | f_expmask(f))) : (s > 0 ? f_expmask(f) : f_signbit(f) | f_expmask(f));
        double bb = s - da; e = (da - (s - bb)) + (db - bb);
        if (s == 0) { exact_zero = 1; zero_neg = zero_sum_sign(signbit(da) != 0, signbit(db) != 0, da == 0 && db == 0, r); }
    } else if (op == 1) {
        s = da * db;
        if (isnan(s)) return sat ? 0 : f_cnan(f);
        if (s == 0) { exact_zero = 1; zero_neg = signbit(s) != 0; }
    } else {
        double p = da * db; /* exact */
        if (isnan(p) || isnan(p + dc)) return sat ? 0 : f_cnan(f);
        s = p + dc;
        if (!isinf(s)) {
            double bb = s - p; e = (p - (s - bb)) + (dc - bb);
            if (s == 0) { exact_zero = 1; zero_neg = zero_sum_sign(signbit(p) != 0, signbit(dc) != 0, p == 0 && dc == 0, r); }
        }
    }
    uint64_t res;
    if (isinf(s)) res = (s > 0 ? 0 : f_signbit(f)) | f_expmask(f);
    else if (exact_zero) res = zero_neg ? f_signbit(f) : 0;
    else res = round_d(f, s, e > 0 ? 1 : e < 0 ? -1 : 0, r, ftz);
    if (sat) res = do_sat(f, res);
    return res;
}

/* small_arith for f16 and bf16, inlined where f and op are constants: the usual
 * case (finite operands, a nonzero result that a double holds exactly and, with
 * .ftz, one that is not tiny) decoded by bits and rounded by round_d16;
 * small_arith decides the rest */
static inline __attribute__((always_inline)) uint64_t half_arith(fmt_t f, int op, uint64_t a, uint64_t b, uint64_t c,
                                                                 fp_rnd r, int ftz, int sat)
{
    if (ftz) { a = f_ftz(f, a); b = f_ftz(f, b); c = f_ftz(f, c); }
    const double da = half_to_d(f, a), db = half_to_d(f, b);
    double s, e = 0;
    if (op == 1) s = da * db;                         /* exact: 22 bits at most */
    else {
        const double x = op == 2 ? da * db : da, y = op == 2 ? half_to_d(f, c) : db;
        s = x + y;
        const double bb = s - x;
        e = (x - (s - bb)) + (y - bb);                /* the sum's rounding error (two-sum) */
    }
    int64_t q;
    if (e != 0 || s == 0 || s - s != 0 || (q = round_d16(f, s, r, ftz)) < 0)   /* inexact, zero, inf or NaN */
        return small_arith(f, op, a, b, c, r, ftz, sat);
    return sat ? do_sat(f, (uint64_t)q) : (uint64_t)q;
}

/* ================= f32 ================= */
static inline uint32_t nanfix32(float x) { return x != x ? FP32_CANON_NAN : f2b(x); }

/* .rn.ftz.f32 (-use_fast_math, and every f32 atomic add on global memory):
 * the host's operation on flushed operands, unless the host's result is
 * tiny (nonzero, |r| <= 2^-126): sm_90 flushes what is tiny after rounding
 * with an unbounded exponent, which the host's rounding cannot tell there,
 * so small_arith decides those.  A result the host rounds to zero already
 * is the sign-preserving zero .ftz gives. */
static inline uint32_t ftz32(uint32_t x) { return (x & 0x7f800000u) ? x : x & 0x80000000u; }
static inline int tiny32(uint32_t r) { return (r & 0x7fffffffu) - 1u < 0x00800000u; }

uint32_t fp32_add(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)
{
    if (r == FP_RN && !ftz && !sat) return nanfix32(b2f(a) + b2f(b));
    uint32_t s;
    if (r == FP_RN && !sat && !tiny32(s = nanfix32(b2f(ftz32(a)) + b2f(ftz32(b))))) return s;
    return (uint32_t)small_arith(FMT[FP_F32], 0, a, b, 0, r, ftz, sat);
}
uint32_t fp32_sub(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)
{
    return fp32_add(a, b ^ 0x80000000u, r, ftz, sat);
}
uint32_t fp32_mul(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)
{
    if (r == FP_RN && !ftz && !sat) return nanfix32(b2f(a) * b2f(b));
    uint32_t s;
    if (r == FP_RN && !sat && !tiny32(s = nanfix32(b2f(ftz32(a)) * b2f(ftz32(b))))) return s;
    return (uint32_t)small_arith(FMT[FP_F32], 1, a, b, 0, r, ftz, sat);
}
uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, int ftz, int sat)
{
    if (r == FP_RN && !ftz && !sat) return nanfix32(fmaf(b2f(a), b2f(b), b2f(c)));
    uint32_t s;
    if (r == FP_RN && !sat && !tiny32(s = nanfix32(fmaf(b2f(ftz32(a)), b2f(ftz32(b)), b2f(ftz32(c)))))) return s;
    return (uint32_t)small_arith(FMT[FP_F32], 2, a, b, c, r, ftz, sat);
}

uint32_t fp32_div(uint32_t a, uint32_t b, fp_rnd r, int ftz)
{
    fmt_t f = FMT[FP_F32];
    if (r == FP_RN && !ftz) return nanfix32(b2f(a) / b2f(b));
    if (ftz) { a = (uint32_t)f_ftz(f, a); b = (uint32_t)f_ftz(f, b); }
    double da = b2f(a), db = b2f(b);
    double q = da / db;
    if (isnan(q)) return FP32_CANON_NAN;
    if (isinf(q) || q == 0) return nanfix32((float)q);
    double rem = fma(-q, db, da);
    int dir = rem == 0 ? 0 : ((rem > 0) == (db > 0) ? 1 : -1);
    return (uint32_t)round_d(f, q, dir, r, ftz);
}

uint32_t fp32_sqrt(uint32_t a, fp_rnd r, int ftz)
{
    fmt_t f = FMT[FP_F32];
    if (ftz) a = (uint32_t)f_ftz(f, a);
    if (r == FP_RN && !ftz) return nanfix32(sqrtf(b2f(a)));
    double da = b2f(a);
    double s = sqrt(da);
    if (isnan(s)) return FP32_CANON_NAN;
    if (isinf(s) || s == 0) return f2b((float)s);
    double rem = fma(-s, s, da);
    int dir = rem == 0 ? 0 : rem > 0 ? 1 : -1;
    return (uint32_t)round_d(f, s, dir, r, ftz);
}

uint32_t fp32_rcp(uint32_t a, fp_rnd r, int ftz) { return fp32_div(0x3f800000u, a, r, ftz); }

/* min/max shared by all formats */
static uint64_t gen_minmax(fmt_t f, uint64_t a, uint64_t b, int ftz, int nan_mode, int ismax)
{
    if (ftz) { a = f_ftz(f, a); b = f_ftz(f, b); }
    int na = f_isnan(f, a), nb = f_isnan(f, b);
    if (na || nb) {
        if (nan_mode || (na && nb)) return f_cnan(f);
        return na ? b : a;
    }
    uint64_t sb = f_signbit(f);
    /* total order key for non-NaN values */
    int64_t ka = (a & sb) ? -(int64_t)(a & ~sb) - 1 : (int64_t)a;
    int64_t kb = (b & sb) ? -(int64_t)(b & ~sb) - 1 : (int64_t)b;
    if (ismax) return ka >= kb ? a : b;
    return ka <= kb ? a : b;
}

uint32_t fp32_min(uint32_t a, uint32_t b, int ftz, int nan_mode) { return (uint32_t)gen_minmax(FMT[FP_F32], a, b, ftz, nan_mode, 0); }
uint32_t fp32_max(uint32_t a, uint32_t b, int ftz, int nan_mode) { return (uint32_t)gen_minmax(FMT[FP_F32], a, b, ftz, nan_mode, 1); }
uint32_t fp32_abs(uint32_t a, int ftz)
{
    if (f_isnan(FMT[FP_F32], a)) return FP32_CANON_NAN;
    if (ftz) a = (uint32_t)f_ftz(FMT[FP_F32], a);
    return a & 0x7fffffffu;
}
uint32_t fp32_neg(uint32_t a, int ftz)
{
    if (f_isnan(FMT[FP_F32], a)) return FP32_CANON_NAN;
    if (ftz) a = (uint32_t)f_ftz(FMT[FP_F32], a);
    return a ^ 0x80000000u;
}
uint32_t fp32_copysign(uint32_t a, uint32_t b) { return (b & 0x7fffffffu) | (a & 0x80000000u); }

/* ================= f64 ================= */
typedef struct { int cls; int sign; uint64_t m; int e; } dec_t; /* cls: 0 zero 1 finite 2 inf 3 nan */

static dec_t decode(fmt_t f, uint64_t x)
{
    dec_t d;
    int bias = (1 << (f.eb - 1)) - 1;
    d.sign = (x & f_signbit(f)) != 0;
    uint64_t ex = (x & f_expmask(f)) >> f.mb, fr = x & f_fracmask(f);
    d.m = 0; d.e = 0;
    if (ex == (uint64_t)((1 << f.eb) - 1)) d.cls = fr ? 3 : 2;
    else if (ex == 0 && fr == 0) d.cls = 0;
    else {
        d.cls = 1;
        d.m = ex ? (fr | (1ull << f.mb)) : fr;
        d.e = (ex ? (int)ex : 1) - bias - f.mb;
    }
    return d;
}

static inline uint64_t q64(uint64_t x) { return x | 0x0008000000000000ull; }
/* GPU NaN selection for f64: priority b, then c, then a (add = fma(a,1,b)) */
static inline int nan64(uint64_t x) { return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* add two exact values (sign, m, e) -> result via round_pack; m may be 0 */
static uint64_t add_exact(fmt_t f, int sa, u128 ma, int ea, int sb, u128 mb, int eb, fp_rnd r)
{
    if (ma == 0 && mb == 0) {
        int neg = (sa == sb) ? sa : (r == FP_RM);
        return neg ? f_signbit(f) : 0;
    }
    if (ma == 0) return round_pack(f, sb, mb, eb, r, 0);
    if (mb == 0) return round_pack(f, sa, ma, ea, r, 0);
    /* normalise both to top bit 125 */
    int la = 127 - clz128(ma), lb = 127 - clz128(mb);
    ma <<= 124 - la; ea -= 124 - la;
    mb <<= 124 - lb; eb -= 124 - lb;
    if (ea < eb) { u128 tm = ma; ma = mb; mb = tm; int te = ea; ea = eb; eb = te; int ts = sa; sa = sb; sb = ts; }
    int d = ea - eb;
    if (d <= 2) { ma <<= d; ea -= d; }
    else if (d >= 127) { mb = 1; }
    else { u128 lost = mb & (((u128)1 << d) - 1); mb = (mb >> d) | (lost != 0); }
    if (sa == sb) return round_pack(f, sa, ma + mb, ea, r, 0);
    if (ma == mb) return (r == FP_RM) ? f_signbit(f) : 0;
    if (ma > mb) return round_pack(f, sa, ma - mb, ea, r, 0);
    return round_pack(f, sb, mb - ma, ea, r, 0);
}

static uint64_t fp64_fma_soft(uint64_t a, uint64_t b, uint64_t c, fp_rnd r, int op /*0 add(a+c) 1 mul 2 fma*/)
{
    fmt_t f = FMT[FP_F64];
    if (op == 0) { b = 0x3ff0000000000000ull; }
    if (op == 1) { c = 0x8000000000000000ull; /* -0: x*y + -0 = x*y exactly */ }
    if (nan64(b)) return q64(b);
    if (nan64(c) && op != 1) return q64(c);
    if (nan64(a)) return q64(a);
    dec_t A = decode(f, a), B = decode(f, b), C = decode(f, c);
    int ps = A.sign ^ B.sign;
    if (A.cls == 2 || B.cls == 2) {
        if (A.cls == 0 || B.cls == 0) return FP64_DEFAULT_NAN;
        if (C.cls == 2 && C.sign != ps) return FP64_DEFAULT_NAN;
        return (ps ? f_signbit(f) : 0) | f_expmask(f);
    }
    if (C.cls == 2) return c;
    u128 pm = (u128)A.m * B.m;
    int pe = A.e + B.e;
    if (op == 1) {
        if (pm == 0) return ps ? f_signbit(f) : 0;
        return round_pack(f, ps, pm, pe, r, 0);
    }
    return add_exact(f, ps, pm, pe, C.sign, C.m, C.e, r);
}

uint64_t fp64_add(uint64_t a, uint64_t b, fp_rnd r)
{
    if (r == FP_RN) {
        double s = b2d(a) + b2d(b);
        if (s != s) return nan64(b) ? q64(b) : nan64(a) ? q64(a) : FP64_DEFAULT_NAN;
        return d2b(s);
    }
    return fp64_fma_soft(a, 0, b, r, 0);
}
uint64_t fp64_sub(uint64_t a, uint64_t b, fp_rnd r)
{
    if (nan64(b)) return fp64_add(a, b, r); /* NaN operand is not negated */
    return fp64_add(a, b ^ 0x8000000000000000ull, r);
}
uint64_t fp64_mul(uint64_t a, uint64_t b, fp_rnd r)
{
    if (r == FP_RN) {
        double s = b2d(a) * b2d(b);
        if (s != s) return nan64(b) ? q64(b) : nan64(a) ? q64(a) : FP64_DEFAULT_NAN;
        return d2b(s);
    }
    return fp64_fma_soft(a, b, 0, r, 1);
}
uint64_t fp64_fma(uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    if (r == FP_RN) {
        double s = fma(b2d(a), b2d(b), b2d(c));
        if (s != s) return nan64(b) ? q64(b) : nan64(c) ? q64(c) : nan64(a) ? q64(a) : FP64_DEFAULT_NAN;
        return d2b(s);
    }
    return fp64_fma_soft(a, b, c, r, 2);
}

uint64_t fp64_div(uint64_t a, uint64_t b, fp_rnd r)
{
    fmt_t f = FMT[FP_F64];
    if (r == FP_RN) {
        double s = b2d(a) / b2d(b);
        if (s != s) return nan64(a) ? q64(a) : nan64(b) ? q64(b) : FP64_DEFAULT_NAN;
        return d2b(s);
    }
    if (nan64(a)) return q64(a);
    if (nan64(b)) return q64(b);
    dec_t A = decode(f, a), B = decode(f, b);
    int s = A.sign ^ B.sign;
    uint64_t sb = s ? f_signbit(f) : 0;
    if ((A.cls == 2 && B.cls == 2) || (A.cls == 0 && B.cls == 0)) return FP64_DEFAULT_NAN;
    if (A.cls == 2 || B.cls == 0) return sb | f_expmask(f);
    if (A.cls == 0 || B.cls == 2) return sb;
    int la = 63 - __builtin_clzll(A.m);
    u128 num = (u128)A.m << (125 - la);
    int e = A.e - (125 - la) - B.e;
    u128 q = num / B.m, rem = num % B.m;
    /* q has >= 72 bits; make bit 0 sticky */
    q = (q << 1) | (rem != 0);
    return round_pack(f, s, q, e - 1, r, 0);
}

static uint64_t isqrt128(u128 x, int *inexact)
{
    /* bitwise integer square root */
    u128 res = 0, bit = (u128)1 << 126;
    while (bit > x) bit >>= 2;
    while (bit) {
        if (x >= res + bit) { x -= res + bit; res = (res >> 1) + bit; }
        else res >>= 1;
        bit >>= 2;
    }
    *inexact = x != 0;
    return (uint64_t)res;
}

uint64_t fp64_sqrt(uint64_t a, fp_rnd r)
{
    fmt_t f = FMT[FP_F64];
    if (r == FP_RN) {
        double s = sqrt(b2d(a));
        if (s != s) return nan64(a) ? q64(a) : FP64_DEFAULT_NAN;
        return d2b(s);
    }
    if (nan64(a)) return q64(a);
    dec_t A = decode(f, a);
    if (A.cls == 0) return a;
    if (A.sign) return FP64_DEFAULT_NAN;
    if (A.cls == 2) return a;
    int la = 63 - __builtin_clzll(A.m);
    int sh = 124 - la;
    u128 m = (u128)A.m << sh;
    int e = A.e - sh;
    if (e & 1) { m <<= 1; e -= 1; }
    int inexact;
    uint64_t s = isqrt128(m, &inexact);
    u128 q = ((u128)s << 1) | (unsigned)inexact;
    return round_pack(f, 0, q, e / 2 - 1, r, 0);
}

uint64_t fp64_rcp(uint64_t a, fp_rnd r) { return fp64_div(0x3ff0000000000000ull, a, r); }

uint64_t fp64_min(uint64_t a, uint64_t b)
{
    if (nan64(a) && nan64(b)) return q64(b);
    return gen_minmax(FMT[FP_F64], a, b, 0, 0, 0);
}
uint64_t fp64_max(uint64_t a, uint64_t b)
{
    if (nan64(a) && nan64(b)) return q64(b);
    return gen_minmax(FMT[FP_F64], a, b, 0, 0, 1);
}
/* abs/neg of a NaN return the quieted NaN unchanged (sign kept) */
uint64_t fp64_abs(uint64_t a) { return nan64(a) ? q64(a) : a & 0x7fffffffffffffffull; }
uint64_t fp64_neg(uint64_t a) { return nan64(a) ? q64(a) : a ^ 0x8000000000000000ull; }
uint64_t fp64_copysign(uint64_t a, uint64_t b) { return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull); }

/* ================= f16 / bf16 ================= */
#define SMALL16(pfx, T)                                                                      \
uint16_t pfx##_add(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat)                      \
{ return (uint16_t)half_arith(FMT[T], 0, a, b, 0, r, ftz, sat); }                           \
uint16_t pfx##_sub(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat)                      \
{ return (uint16_t)half_arith(FMT[T], 0, a, b ^ 0x8000u, 0, r, ftz, sat); }                 \
uint16_t pfx##_mul(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat)                      \
{ return (uint16_t)half_arith(FMT[T], 1, a, b, 0, r, ftz, sat); }                           \
uint16_t pfx##_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r, int ftz, int sat)          \
{ return (uint16_t)half_arith(FMT[T], 2, a, b, c, r, ftz, sat); }                           \
uint16_t pfx##_fma_relu(uint16_t a, uint16_t b, uint16_t c, int ftz)                        \
{ uint16_t x = (uint16_t)half_arith(FMT[T], 2, a, b, c, FP_RN, ftz, 0);                     \
  return f_isnan(FMT[T], x) ? x : (x & 0x8000u) ? 0 : x; }                          \
uint16_t pfx##_min(uint16_t a, uint16_t b, int ftz, int nan_mode)                           \
{ return (uint16_t)gen_minmax(FMT[T], a, b, ftz, nan_mode, 0); }                             \
uint16_t pfx##_max(uint16_t a, uint16_t b, int ftz, int nan_mode)                           \
{ return (uint16_t)gen_minmax(FMT[T], a, b, ftz, nan_mode, 1); }                             \
uint16_t pfx##_neg(uint16_t a, int ftz)                                                      \
{ return f_isnan(FMT[T], a) ? FP16_CANON_NAN                                                 \
         : (uint16_t)((ftz ? (uint16_t)f_ftz(FMT[T], a) : a) ^ 0x8000u); }                                                                      \
uint16_t pfx##_abs(uint16_t a, int ftz)                                                      \
{ return f_isnan(FMT[T], a) ? FP16_CANON_NAN                                                 \
         : (uint16_t)((ftz ? (uint16_t)f_ftz(FMT[T], a) : a) & 0x7fffu); }

SMALL16(fp16, FP_F16)
SMALL16(bf16, FP_BF16)

#define LO(x) ((uint16_t)(x))
#define HI(x) ((uint16_t)((x) >> 16))
#define PACK(l, h) ((uint32_t)(l) | ((uint32_t)(h) << 16))
#define X2(pfx)                                                                               \
uint32_t pfx##x2_add(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)                      \
{ return PACK(pfx##_add(LO(a), LO(b), r, ftz, sat), pfx##_add(HI(a), HI(b), r, ftz, sat)); }  \
uint32_t pfx##x2_sub(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)                      \
{ return PACK(pfx##_sub(LO(a), LO(b), r, ftz, sat), pfx##_sub(HI(a), HI(b), r, ftz, sat)); }  \
uint32_t pfx##x2_mul(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat)                      \
{ return PACK(pfx##_mul(LO(a), LO(b), r, ftz, sat), pfx##_mul(HI(a), HI(b), r, ftz, sat)); }  \
uint32_t pfx##x2_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, int ftz, int sat)          \
{ return PACK(pfx##_fma(LO(a), LO(b), LO(c), r, ftz, sat),                                    \
              pfx##_fma(HI(a), HI(b), HI(c), r, ftz, sat)); }                                 \
uint32_t pfx##x2_fma_relu(uint32_t a, uint32_t b, uint32_t c, int ftz)                        \
{ return PACK(pfx##_fma_relu(LO(a), LO(b), LO(c), ftz), pfx##_fma_relu(HI(a), HI(b), HI(c), ftz)); } \
uint32_t pfx##x2_min(uint32_t a, uint32_t b, int ftz, int nm)                                 \
{ return PACK(pfx##_min(LO(a), LO(b), ftz, nm), pfx##_min(HI(a), HI(b), ftz, nm)); }          \
uint32_t pfx##x2_max(uint32_t a, uint32_t b, int ftz, int nm)                                 \
{ return PACK(pfx##_max(LO(a), LO(b), ftz, nm), pfx##_max(HI(a), HI(b), ftz, nm)); }          \
uint32_t pfx##x2_neg(uint32_t a, int ftz) { return PACK(pfx##_neg(LO(a), ftz), pfx##_neg(HI(a), ftz)); } \
uint32_t pfx##x2_abs(uint32_t a, int ftz) { return PACK(pfx##_abs(LO(a), ftz), pfx##_abs(HI(a), ftz)); } \
uint32_t pfx##x2_ex2_approx(uint32_t a) { return PACK(pfx##_ex2_approx(LO(a)), pfx##_ex2_approx(HI(a))); }

X2(fp16)
X2(bf16)

/* ================= cvt ================= */
/* NaN conversion as measured: widening keeps sign and payload (quieted,
 * except bf16->f32 which is a plain shift); f64->f16 gives sign|0x7e00,
 * f32->f16/bf16 the canonical 0x7fff; f64->f32 sign|quiet|top payload. */
static uint64_t nan_convert(fp_type src, fp_type dst, uint64_t x)
{
    fmt_t fs = FMT[src], fd = FMT[dst];
    uint64_t sign = (x & f_signbit(fs)) ? f_signbit(fd) : 0;
    if (src == dst) return x;
    if (src == FP_F16 && dst == FP_F32) return FP32_CANON_NAN;
    if (src == FP_BF16 && dst == FP_F32) return x << 16;
    if (src == FP_F64 && (dst == FP_F16 || dst == FP_BF16)) return sign | f_expmask(fd) | (1ull << (fd.mb - 1));
    if (dst == FP_F16 || dst == FP_BF16) return FP16_CANON_NAN;
    if (fd.mb > fs.mb) { /* widening */
        uint64_t pay = (x & f_fracmask(fs)) << (fd.mb - fs.mb);
        return sign | f_expmask(fd) | (1ull << (fd.mb - 1)) | pay;
    }
    if (src == FP_F64 && (dst == FP_F16 || dst == FP_BF16)) return sign | f_expmask(fd) | (1ull << (fd.mb - 1));
    if (dst == FP_F16 || dst == FP_BF16) return FP16_CANON_NAN;
    if (dst == FP_F32) return sign | 0x7fc00000u | ((x >> 29) & 0x7fffff);
    return f_cnan(fd);
}

static uint64_t post_flags(fmt_t f, uint64_t x, int flags)
{
    if (flags & FP_CVT_SAT) return do_sat(f, x);
    if (flags & FP_CVT_RELU) { if (f_isnan(f, x)) return f_cnan(f) & ~f_signbit(f); if (x & f_signbit(f)) return 0; }
    if (flags & FP_CVT_SATFINITE) { if (f_isinf(f, x)) return (x & f_signbit(f)) | f_max(f); }
    return x;
}

/* fp_cvt_f2f's usual cases without flags, by bits: widening a non-NaN half (exact), and
 * narrowing a normal f32 or f64 to a half (round_d16); -1 for the rest */
static inline int64_t cvt_half_fast(uint64_t bits, fp_type src, fp_type dst, fp_rnd r)
{
    const int half_src = src == FP_F16 || src == FP_BF16, half_dst = dst == FP_F16 || dst == FP_BF16;
    if (half_src && !half_dst) {
        if (bits >> 16) return -1;
        double d = half_to_d(FMT[src], bits & 0xffff);
        if (d != d) return -1;
        return dst == FP_F64 ? (int64_t)d2b(d) : (int64_t)f2b((float)d);   /* exact either way */
    }
    if (half_dst && !half_src) {
        double d = src == FP_F32 ? (double)b2f((uint32_t)bits) : b2d(bits);
        if (d == 0 || d - d != 0) return -1;           /* zero, inf, NaN */
        return round_d16(FMT[dst], d, r, 0);           /* -1 for a subnormal double */
    }
    return -1;
}

uint64_t fp_cvt_f2f(uint64_t bits, fp_type src, fp_type dst, fp_rnd r, int flags)
{
    if (!flags) {
        int64_t q = cvt_half_fast(bits, src, dst, r);
        if (q >= 0) return (uint64_t)q;
    }
    fmt_t fs = FMT[src], fd = FMT[dst];
    int ftz = (flags & FP_CVT_FTZ) != 0;
    /* measured: .ftz does not flush f32 inputs when converting to f16 (it does for bf16) */
    if (ftz && src == FP_F32 && dst != FP_F16) bits = f_ftz(fs, bits);
    if (f_isnan(fs, bits)) {
        if (flags & FP_CVT_SAT) return 0;
        if (ftz && src == FP_F32) bits = FP32_CANON_NAN; /* .ftz canonicalises the f32 NaN */
        if (ftz && src == FP_BF16 && dst == FP_F32) return FP32_CANON_NAN;
        return nan_convert(src, dst, bits);
    }
    dec_t d = decode(fs, bits);
    uint64_t res;
    if (d.cls == 0) res = d.sign ? f_signbit(fd) : 0;
    else if (d.cls == 2) res = (d.sign ? f_signbit(fd) : 0) | f_expmask(fd);
    else res = round_pack(fd, d.sign, d.m, d.e, r, ftz && dst == FP_F32);
    return post_flags(fd, res, flags);
}

/* round (sign, m*2^e) to an integer magnitude (u128) with mode; *big set if >= 2^127 */
static u128 round_to_int(int sign, uint64_t m, int e, fp_rint r, int *big)
{
    *big = 0;
    if (e >= 0) {
        if (e + 64 - __builtin_clzll(m) > 127) { *big = 1; return 0; }
        return (u128)m << e;
    }
    int sh = -e;
    u128 kept, rem;
    u128 half;
    if (sh >= 66) { kept = 0; rem = 1; half = 2; /* rem < half, nonzero */ }
    else { kept = (u128)m >> sh; rem = (u128)m & (((u128)1 << sh) - 1); half = (u128)1 << (sh - 1); }
    int inc = 0;
    switch (r) {
    case FP_RNI: inc = rem > half || (rem == half && (kept & 1)); break;
    case FP_RZI: inc = 0; break;
    case FP_RMI: inc = sign && rem; break;
    case FP_RPI: inc = !sign && rem; break;
    }
    return kept + inc;
}

/* ================= FP8 ================= */
uint8_t fp8_from_f32(uint32_t a, int e5m2, int relu)
{
    const int mb = e5m2 ? 2 : 3, emin = e5m2 ? -14 : -6;        /* fraction bits, least normal exponent */
    const uint8_t maxcode = e5m2 ? 0x7b : 0x7e;                   /* 57344, 448 */
    if ((a & 0x7fffffffu) > 0x7f800000u) return 0x7f;
    uint8_t s = (uint8_t)(a >> 31 << 7);
    if (relu && s) return 0;
    if ((a & 0x7fffffffu) == 0x7f800000u) return s | maxcode;
    double v = fabs((double)b2f(a)), top = e5m2 ? 57344.0 : 448.0;
    int e;
    frexp(v, &e);                                  /* v = f * 2^e, f in [0.5, 1): the leading bit is 2^(e-1) */
    int le = e - 1 < emin ? emin : e - 1;
    double q = ldexp(1.0, le - mb);               /* the spacing of FP8 values at v */
    double r = rint(v / q) * q;                    /* to nearest, ties to even (the default rounding) */
    if (r > top) r = top;                          /* .satfinite */
    if (r == 0) return s;
    frexp(r, &e);
    if (e - 1 < emin) return s | (uint8_t)(r / ldexp(1.0, emin - mb));   /* subnormal */
    return s | (uint8_t)((e - 1 + (e5m2 ? 15 : 7)) << mb) | (uint8_t)((int)(r / ldexp(1.0, e - 1 - mb)) - (1 << mb));
}

uint16_t fp8_to_f16(uint8_t x, int e5m2, int relu)
{
    if (e5m2 ? (x & 0x7f) > 0x7c : (x & 0x7f) == 0x7f) return FP16_CANON_NAN;
    if (relu && (x & 0x80)) return 0;
    if (e5m2) return (uint16_t)(x << 8);           /* E5M2 is f16 without its low 8 bits */
    int e = (x >> 3) & 15, m = x & 7;
    double v = e ? ldexp(8 + m, e - 10) : ldexp(m, -9);
    uint32_t f = f2b((float)v) | (uint32_t)(x >> 7) << 31;
    return (uint16_t)fp_cvt_f2f(f, FP_F32, FP_F16, FP_RN, 0);   /* exact */
}

uint64_t fp_cvt_frint(uint64_t bits, fp_type t, fp_rint r, int flags)
{
    fmt_t f = FMT[t];
    if ((flags & FP_CVT_FTZ) && t == FP_F32) bits = f_ftz(f, bits);
    if (f_isnan(f, bits)) return (flags & FP_CVT_SAT) ? 0 : (t == FP_F64 ? q64(bits) : f_cnan(f));
    dec_t d = decode(f, bits);
    uint64_t res = bits;
    if (d.cls == 1 && d.e < 0) {
        int big;
        u128 n = round_to_int(d.sign, d.m, d.e, r, &big);
        if (n == 0) res = d.sign ? f_signbit(f) : 0;
        else res = round_pack(f, d.sign, n, 0, FP_RN, 0);
    }
    return post_flags(f, res, flags);
}

uint64_t fp_cvt_f2i(uint64_t bits, fp_type src, int dst_bits, int dst_signed, fp_rint r, int flags)
{
    fmt_t f = FMT[src];
    uint64_t mask = dst_bits == 64 ? ~0ull : ((1ull << dst_bits) - 1);
    if ((flags & FP_CVT_FTZ) && src == FP_F32) bits = f_ftz(f, bits);
    /* NaN: 0, except for the 64-bit conversion paths (f64 source or 64-bit
     * destination), which give the most negative value's bit pattern */
    if (f_isnan(f, bits)) return (src == FP_F64 || dst_bits == 64) ? (1ull << (dst_bits - 1)) : 0;
    dec_t d = decode(f, bits);
    uint64_t maxv = dst_signed ? (mask >> 1) : mask;
    uint64_t minv_mag = dst_signed ? (mask >> 1) + 1 : 0; /* magnitude of min */
    uint64_t res;
    if (d.cls == 0) return 0;
    if (d.cls == 2) res = d.sign ? (dst_signed ? (0 - minv_mag) : 0) : maxv;
    else {
        int big;
        u128 n = round_to_int(d.sign, d.m, d.e, r, &big);
        if (!d.sign) res = (big || n > maxv) ? maxv : (uint64_t)n;
        else if (!dst_signed) res = 0;
        else res = (big || n > minv_mag) ? (0 - minv_mag) : (0 - (uint64_t)n);
    }
    return res & mask;
}

uint64_t fp_cvt_i2f(uint64_t ival, int src_bits, int src_signed, fp_type dst, fp_rnd r, int flags)
{
    fmt_t f = FMT[dst];
    int sign = 0;
    uint64_t mag;
    if (src_bits < 64) ival &= (1ull << src_bits) - 1;
    if (src_signed && (ival >> (src_bits - 1)) & 1) {
        sign = 1;
        mag = (~ival + 1) & (src_bits == 64 ? ~0ull : ((1ull << src_bits) - 1));
        if (mag == 0) mag = 1ull << (src_bits - 1); /* not reached; min handled by mask */
    } else mag = ival;
    uint64_t res;
    if (mag == 0) res = 0;
    else if (r == FP_RN && dst == FP_F32 && !(flags & FP_CVT_SAT)) {
        float v = sign ? -(float)mag : (float)mag; /* host int->float is RN */
        return f2b(v);
    } else res = round_pack(f, sign, mag, 0, r, 0);
    if (flags & FP_CVT_SAT) res = do_sat(f, res);
    return res;
}
