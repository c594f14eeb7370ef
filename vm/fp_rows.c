/* fp_rows.c -- f16/bf16 arithmetic, min/max, ex2, tanh, compares and conversions
 * of a whole warp on AVX2 + F16C + FMA, bit-exact with vm/fp.c and
 * vm/fp_approx.c (tests/fp/rows_check.c compares them).
 *
 * Method, 8 values per step in f32:
 *  - f16 -> f32 (vcvtph2ps) and bf16 -> f32 (f32's top half) are exact.
 *  - A product of two f16 (22 bits) or bf16 (16 bits) is exact in f32 while it
 *    stays in f32's normal range, which f16 products always do.
 *  - A sum s = RN(x + y) and its error t (TwoSum, exact barring overflow) hold
 *    the exact x + y.  s rounded to odd (one ulp towards zero when t points
 *    there, then its last bit set) rounds to f16/bf16 as x + y itself would:
 *    24 bits >= 11 + 2, so no rounding to odd lands on a 16-bit midpoint; this
 *    holds for subnormal 16-bit results too.
 *  - f32 -> f16 is vcvtps2ph (round to nearest even), f32 -> bf16 the same
 *    rounding on the bits.  .ftz and .sat are applied in f32 before it (see
 *    flush_tiny; clamping commutes with a monotone rounding to a format that
 *    holds the bounds).
 * bf16 has f32's exponent range: lanes whose product left f32's normal range,
 * or whose product or sum reached 2^127 (overflow, TwoSum not argued there;
 * this takes inf and NaN too), are redone by vm/fp.c (redo8).
 * min, max, neg and abs work on the bits (8 halves as int16); ex2 computes in
 * f32 and redoes the lanes too close to a rounding boundary (ex2_8); tanh
 * is vm/fp_approx.c's f32 row of the widened input (tanh_h8); setp
 * compares the f32 values.
 *
 * Assumes the default MXCSR (round to nearest, no FTZ/DAZ), which vm_run sets
 * for a launch.  GCC may contract a product and a sum into an fma
 * (-ffp-contract=fast): only where the product is exact, or in lanes redone.
 */
#include "fp_rows.h"
#include <stdlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define ROWS_TARGET __attribute__((target("avx2,f16c,fma")))
#define ROWS_INLINE ROWS_TARGET static inline __attribute__((always_inline))

enum { ROW_LANES = 32 };
#define F32_SIGN 0x80000000u
#define F32_EXP 0x7f800000u
#define F32_MIN_NORMAL 0x00800000u /* 2^-126 */
#define F32_BIG 0x7f000000u        /* 2^127 */
#define BF16_HALF_ULP 0x7fffu      /* just under half a bf16 ulp, in f32 bits */

/* per 16-bit format (fp_type FP_F16, FP_BF16): exponent field; in f32 bits,
 * the least magnitude that is not tiny for .ftz (see flush_tiny), the largest
 * finite value, and a NaN that f32_to_half8 rounds to the canonical 0x7fff */
static const struct { uint16_t exp; uint32_t tiny, max, nan; } HALF[2] = {
    [FP_F16] = {0x7c00, 0x387ff000u /* 2^-14 - 2^-26 */, 0x477fe000u /* 65504 */, FP32_CANON_NAN},
    [FP_BF16] = {0x7f80, 0x007fc000u /* 2^-126 - 2^-135 */, 0x7f7f0000u, 0x7fff0000u},
};

ROWS_INLINE __m256i i32x8(uint32_t v) { return _mm256_set1_epi32((int)v); }
ROWS_INLINE __m256 bits_f32(__m256i v) { return _mm256_castsi256_ps(v); }
ROWS_INLINE __m256i f32_bits(__m256 v) { return _mm256_castps_si256(v); }
ROWS_INLINE __m256i abs_bits(__m256 v) { return _mm256_and_si256(f32_bits(v), i32x8(~F32_SIGN)); }

/* ---- slots <-> vectors ---- */
/* the low 32 bits of 4 slots */
ROWS_INLINE __m128i load_lo32x4(const uint64_t *s)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)s);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
}
ROWS_INLINE __m256i load_lo32x8(const uint64_t *s) { return _mm256_set_m128i(load_lo32x4(s + 4), load_lo32x4(s)); }
/* the low 16 bits of 8 slots */
ROWS_INLINE __m128i load_lo16x8(const uint64_t *s)
{
    __m256i v = _mm256_and_si256(load_lo32x8(s), i32x8(0xffff));
    return _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}
ROWS_INLINE void store_u32x4(uint64_t *d, __m128i v) { _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu32_epi64(v)); }
ROWS_INLINE void store_u32x8(uint64_t *d, __m256i v)
{
    store_u32x4(d, _mm256_castsi256_si128(v));
    store_u32x4(d + 4, _mm256_extracti128_si256(v, 1));
}
ROWS_INLINE void store_u16x8(uint64_t *d, __m128i h) { store_u32x8(d, _mm256_cvtepu16_epi32(h)); }
/* 8 halves: those of 4 x2 slots, or of 8 plain ones */
ROWS_INLINE __m128i load_halves(int x2, const uint64_t *s) { return x2 ? load_lo32x4(s) : load_lo16x8(s); }
ROWS_INLINE void store_halves(int x2, uint64_t *d, __m128i h)
{
    if (x2) store_u32x4(d, h);
    else store_u16x8(d, h);
}

/* ---- 8 values ---- */
/* subnormal halves -> sign-preserving zeros */
ROWS_INLINE __m128i ftz_half8(int kind, __m128i h)
{
    __m128i sub = _mm_cmpeq_epi16(_mm_and_si128(h, _mm_set1_epi16((short)HALF[kind].exp)), _mm_setzero_si128());
    return _mm_blendv_epi8(h, _mm_and_si128(h, _mm_set1_epi16(INT16_MIN)), sub);
}
/* subnormal f32 -> sign-preserving zeros */
ROWS_INLINE __m256 ftz_f32(__m256 x)
{
    __m256i u = f32_bits(x), sub = _mm256_cmpeq_epi32(_mm256_and_si256(u, i32x8(F32_EXP)), _mm256_setzero_si256());
    return bits_f32(_mm256_blendv_epi8(u, _mm256_and_si256(u, i32x8(F32_SIGN)), sub));
}
/* NaNs replaced by the NaN with the bits nan */
ROWS_INLINE __m256 nan_to(__m256 x, uint32_t nan)
{
    return _mm256_blendv_ps(x, bits_f32(i32x8(nan)), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}
/* exact (a NaN keeps its payload's top bits); ftz: subnormals flushed first */
ROWS_INLINE __m256 half8_to_f32(int kind, int ftz, __m128i h)
{
    if (ftz) h = ftz_half8(kind, h);
    if (kind == FP_F16) return _mm256_cvtph_ps(h);
    return bits_f32(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
/* rounded to nearest even; any NaN -> the canonical 0x7fff */
ROWS_INLINE __m128i f32_to_half8(int kind, __m256 x)
{
    x = nan_to(x, HALF[kind].nan);
    if (kind == FP_F16) return _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT);
    __m256i u = f32_bits(x), lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), i32x8(1));
    u = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(lsb, i32x8(BF16_HALF_ULP))), 16);
    return _mm_packus_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
}
/* .sat: [0, 1], NaN -> +0, -0 -> +0 (maxps gives its second operand for a NaN or two zeros) */
ROWS_INLINE __m256 sat_f32(__m256 x)
{
    return _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}
/* .relu: negatives (-0 too) -> +0, NaN kept */
ROWS_INLINE __m256 relu_f32(__m256 x)
{
    __m256 neg = _mm256_and_ps(x, _mm256_cmp_ps(x, x, _CMP_ORD_Q));   /* sign bit: negative, not NaN */
    return _mm256_blendv_ps(x, _mm256_setzero_ps(), neg);
}
/* .satfinite: into +-the format's largest finite value, NaN kept */
ROWS_INLINE __m256 satfinite_f32(int kind, __m256 x)
{
    __m256 m = bits_f32(i32x8(HALF[kind].max));
    return _mm256_max_ps(bits_f32(i32x8(HALF[kind].max | F32_SIGN)), _mm256_min_ps(m, x));
}
/* the exact error of s = RN(x + y) (TwoSum) */
ROWS_INLINE __m256 two_sum_err(__m256 x, __m256 y, __m256 s)
{
    __m256 yy = _mm256_sub_ps(s, x);
    return _mm256_add_ps(_mm256_sub_ps(x, _mm256_sub_ps(s, yy)), _mm256_sub_ps(y, yy));
}
/* s + t (t the error of s) rounded to odd: s's magnitude one ulp less where
 * t points towards zero, then its last bit set, where t != 0 */
ROWS_INLINE __m256 round_odd(__m256 s, __m256 t)
{
    __m256i u = f32_bits(s), inexact = f32_bits(_mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    __m256i down = _mm256_srai_epi32(_mm256_and_si256(_mm256_xor_si256(u, f32_bits(t)), inexact), 31);
    return bits_f32(_mm256_or_si256(_mm256_add_epi32(u, down), _mm256_srli_epi32(inexact, 31)));
}
/* .ftz on results (fp.c round_pack): what is tiny, below the smallest normal
 * once rounded with an unbounded exponent, i.e. |x| < HALF[kind].tiny ->
 * sign-preserving zero.  x rounded to odd lies on the same side of the bound
 * as the exact value (the bound is an even f32). */
ROWS_INLINE __m256 flush_tiny(int kind, __m256 x)
{
    __m256i u = f32_bits(x), tiny = _mm256_cmpgt_epi32(i32x8(HALF[kind].tiny), abs_bits(x));
    return bits_f32(_mm256_blendv_epi8(u, _mm256_and_si256(u, i32x8(F32_SIGN)), tiny));
}

/* bf16 lanes (a movemask) the f32 steps may get wrong: a product p of nonzero
 * operands at or below 2^-126 (f32 may have rounded it), or p or the rounded
 * result r at or above 2^127 (inf and NaN included).  For an add, p is x. */
ROWS_INLINE unsigned bf16_unsure(int op, __m256 x, __m256 y, __m256 p, __m256 r)
{
    const __m256i big = i32x8(F32_BIG - 1);
    __m256i bad = _mm256_cmpgt_epi32(abs_bits(r), big);
    if (op != FP_ROW_ADD) {
        __m256 nonzero = _mm256_and_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NEQ_UQ),
                                       _mm256_cmp_ps(y, _mm256_setzero_ps(), _CMP_NEQ_UQ));
        __m256i under = _mm256_and_si256(_mm256_cmpgt_epi32(i32x8(F32_MIN_NORMAL + 1), abs_bits(p)), f32_bits(nonzero));
        bad = _mm256_or_si256(bad, _mm256_or_si256(under, _mm256_cmpgt_epi32(abs_bits(p), big)));
    }
    return (unsigned)_mm256_movemask_ps(bits_f32(bad));
}
/* one lane of op by vm/fp.c and vm/fp_approx.c (FP_ROW_SUB comes as an add of -b) */
static uint16_t scalar16(int op, int kind, int ftz, int sat, uint16_t a, uint16_t b, uint16_t c)
{
    int f = kind == FP_F16;
    switch (op) {
    case FP_ROW_MUL: return f ? fp16_mul(a, b, FP_RN, ftz, sat) : bf16_mul(a, b, FP_RN, ftz, sat);
    case FP_ROW_FMA: return f ? fp16_fma(a, b, c, FP_RN, ftz, sat) : bf16_fma(a, b, c, FP_RN, ftz, sat);
    case FP_ROW_EX2: return f ? fp16_ex2_approx(a) : bf16_ex2_approx(a);
    default: return f ? fp16_add(a, b, FP_RN, ftz, sat) : bf16_add(a, b, FP_RN, ftz, sat);
    }
}
/* h with the lanes in redo recomputed by scalar16 from the halves a, b, c */
ROWS_TARGET __attribute__((noinline, cold)) static __m128i redo8(int op, int kind, int ftz, int sat, unsigned redo,
                                                                 __m128i h, __m128i a, __m128i b, __m128i c)
{
    uint16_t r[8], x[8], y[8], z[8];
    _mm_storeu_si128((__m128i *)r, h);
    _mm_storeu_si128((__m128i *)x, a);
    _mm_storeu_si128((__m128i *)y, b);
    _mm_storeu_si128((__m128i *)z, c);
    for (; redo; redo &= redo - 1) {
        int l = __builtin_ctz(redo);
        r[l] = scalar16(op, kind, ftz, sat, x[l], y[l], z[l]);
    }
    return _mm_loadu_si128((const __m128i *)r);
}

/* a + b, a * b or a * b + c (op FP_ROW_ADD, _MUL, _FMA) of 8 halves of kind,
 * rounded to nearest, with .ftz and .sat: the bits of fp16_add .. bf16_fma.
 * The fma's r is the host's fma, RN(exact) even where p is not exact. */
ROWS_INLINE __m128i half8_arith(int op, int kind, int ftz, int sat, __m128i a, __m128i b, __m128i c)
{
    __m256 x = half8_to_f32(kind, ftz, a), y = half8_to_f32(kind, ftz, b);
    __m256 p = x, r, t = _mm256_setzero_ps();    /* r = RN(exact), t its error */
    if (op == FP_ROW_ADD) {
        r = _mm256_add_ps(x, y);
        t = two_sum_err(x, y, r);
    } else {
        r = p = _mm256_mul_ps(x, y);
        if (op == FP_ROW_FMA) {
            __m256 z = half8_to_f32(kind, ftz, c);
            r = _mm256_fmadd_ps(x, y, z);
            t = two_sum_err(p, z, r);
        }
    }
    unsigned redo = kind == FP_BF16 ? bf16_unsure(op, x, y, p, r) : 0;
    __m256 s = op == FP_ROW_MUL ? r : round_odd(r, t);
    if (ftz) s = flush_tiny(kind, s);
    if (sat) s = sat_f32(s);
    __m128i h = f32_to_half8(kind, s);
    return redo ? redo8(op, kind, ftz, sat, redo, h, a, b, c) : h;
}

/* a whole row; neg: b negated (a sub) */
ROWS_INLINE void half_row(int op, int kind, int x2, int ftz, int sat, int neg, uint64_t *d, const uint64_t *a,
                          const uint64_t *b, const uint64_t *c)
{
    const __m128i flip = _mm_set1_epi16(neg ? INT16_MIN : 0);
    for (int l = 0; l < ROW_LANES; l += x2 ? 4 : 8) {
        __m128i va = load_halves(x2, a + l), vb = _mm_xor_si128(load_halves(x2, b + l), flip);
        __m128i vc = op == FP_ROW_FMA ? load_halves(x2, c + l) : _mm_setzero_si128();
        store_halves(x2, d + l, half8_arith(op, kind, ftz, sat, va, vb, vc));
    }
}

/* one copy per op and kind */
typedef void half_row_fn(int x2, int ftz, int sat, int neg, uint64_t *d, const uint64_t *a, const uint64_t *b,
                         const uint64_t *c);
#define HALF_ROW_FN(name, op, kind)                                                                             \
    ROWS_TARGET static void name(int x2, int ftz, int sat, int neg, uint64_t *d, const uint64_t *a,             \
                                 const uint64_t *b, const uint64_t *c)                                          \
    {                                                                                                           \
        half_row(op, kind, x2, ftz, sat, neg, d, a, b, c);                                                      \
    }
HALF_ROW_FN(f16_add_row, FP_ROW_ADD, FP_F16)
HALF_ROW_FN(f16_mul_row, FP_ROW_MUL, FP_F16)
HALF_ROW_FN(f16_fma_row, FP_ROW_FMA, FP_F16)
HALF_ROW_FN(bf16_add_row, FP_ROW_ADD, FP_BF16)
HALF_ROW_FN(bf16_mul_row, FP_ROW_MUL, FP_BF16)
HALF_ROW_FN(bf16_fma_row, FP_ROW_FMA, FP_BF16)

/* ---- min, max, neg, abs, ex2 ---- */
/* 8 halves: all ones where NaN */
ROWS_INLINE __m128i nan_half8(int kind, __m128i h)
{
    return _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(INT16_MAX)), _mm_set1_epi16((short)HALF[kind].exp));
}
/* a half's place in the order of the non-NaN values, as an int16 (-0 < +0);
 * its own inverse */
ROWS_INLINE __m128i order_key(__m128i h) { return _mm_xor_si128(h, _mm_srli_epi16(_mm_srai_epi16(h, 15), 1)); }
/* min or max (fp.c gen_minmax): .ftz flushes first; one NaN gives the other
 * operand, two (or with .NaN one) the canonical NaN */
ROWS_INLINE __m128i minmax8(int max, int kind, int ftz, int nan_mode, __m128i a, __m128i b)
{
    if (ftz) a = ftz_half8(kind, a), b = ftz_half8(kind, b);
    __m128i na = nan_half8(kind, a), nb = nan_half8(kind, b);
    a = _mm_blendv_epi8(a, b, na);      /* a NaN operand replaced by the other */
    b = _mm_blendv_epi8(b, a, nb);
    __m128i ka = order_key(a), kb = order_key(b);
    __m128i r = order_key(max ? _mm_max_epi16(ka, kb) : _mm_min_epi16(ka, kb));
    __m128i nan = nan_mode ? _mm_or_si128(na, nb) : _mm_and_si128(na, nb);
    return _mm_blendv_epi8(r, _mm_set1_epi16((short)FP16_CANON_NAN), nan);
}
/* neg or abs: NaN -> the canonical NaN, else (.ftz flushed) the sign flipped or cleared */
ROWS_INLINE __m128i neg_abs8(int neg, int kind, int ftz, __m128i a)
{
    __m128i nan = nan_half8(kind, a);
    if (ftz) a = ftz_half8(kind, a);
    a = neg ? _mm_xor_si128(a, _mm_set1_epi16(INT16_MIN)) : _mm_and_si128(a, _mm_set1_epi16(INT16_MAX));
    return _mm_blendv_epi8(a, _mm_set1_epi16((short)FP16_CANON_NAN), nan);
}
/* 2^n for integers n in [-126, 127] */
ROWS_INLINE __m256 pow2i(__m256i n) { return bits_f32(_mm256_slli_epi32(_mm256_add_epi32(n, i32x8(127)), 23)); }
/* ex2.approx (fp_approx.c: ex2.approx.ftz.f32 of the widened input, rounded
 * toward zero; an f16 result of 2^16 or more is inf; bf16 flushes its input,
 * and the f32 unit flushes a result below 2^-126).  y = 2^x with a relative
 * error under 2^-21: x clamped to where the result saturates (f16 [-32, 32],
 * bf16 [-126, 128]: a bf16 result below 2^-126 is flushed, y = 0 there, so
 * that no step takes a subnormal f32 (a microcode assist)), x = n + f with
 * n = rint(x) and |f| <= 1/2 exact, 2^f by its Taylor polynomial of degree 7
 * (error < 2^-27) in fmas, times 2^n in two exact steps.  A lane is redone by
 * the scalar function where y (1 - 2^-19) and y (1 + 2^-19) round differently
 * (the exact 2^x, and the f32 unit's result, within 2^-22 of it, lie between
 * them: 229 of the 63,490 non-NaN f16 inputs, 254
 * of the 65,282 bf16; |x| < 2^-12 is settled apart, below), and where x is
 * NaN (*redo: a movemask). */
/* ex2's rounding of 8 non-negative f32 (NaN lanes are redone): toward zero,
 * f16 inf from 2^16 (vcvtps2ph toward zero would give 65504), bf16 the top half */
ROWS_INLINE __m128i ex2_to_half8(int kind, __m256 y)
{
    if (kind == FP_F16) {
        y = _mm256_blendv_ps(y, bits_f32(i32x8(0x7f800000u)), _mm256_cmp_ps(y, _mm256_set1_ps(65536.0f), _CMP_GE_OQ));
        return _mm256_cvtps_ph(y, _MM_FROUND_TO_ZERO);
    }
    __m256i u = _mm256_srli_epi32(f32_bits(y), 16);
    return _mm_packus_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
}
ROWS_INLINE __m128i ex2_8(int kind, __m128i a, unsigned *redo)
{
    /* ln2^k / k!, k = 7 .. 0 */
    static const float taylor[] = {1.5252733804e-5f, 1.5403530393e-4f, 1.3333558146e-3f, 9.6181291076e-3f,
                                   5.5504108665e-2f, 2.4022650696e-1f, 6.9314718056e-1f, 1.0f};
    static const float lim[2][2] = {[FP_F16] = {-32.0f, 32.0f}, [FP_BF16] = {-126.0f, 128.0f}};
    __m256 x = half8_to_f32(kind, kind == FP_BF16, a), lo_lim = _mm256_set1_ps(lim[kind][0]);
    __m256 xc = _mm256_min_ps(_mm256_max_ps(x, lo_lim), _mm256_set1_ps(lim[kind][1]));
    __m256 n = _mm256_round_ps(xc, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), f = _mm256_sub_ps(xc, n);
    __m256 p = _mm256_set1_ps(taylor[0]);
    for (int k = 1; k < 8; k++) p = _mm256_fmadd_ps(p, f, _mm256_set1_ps(taylor[k]));
    __m256i ni = _mm256_cvtps_epi32(n), n1 = _mm256_srai_epi32(ni, 1);
    __m256 y = _mm256_mul_ps(_mm256_mul_ps(p, pow2i(n1)), pow2i(_mm256_sub_epi32(ni, n1)));
    if (kind == FP_BF16) y = _mm256_andnot_ps(_mm256_cmp_ps(x, lo_lim, _CMP_LT_OQ), y);
    /* |x| < 2^-12: the result is 1 or the value below it, which truncation puts right at
     * a boundary: 1 for x > -2^-23 (the f32 unit's 7.23 fixed point truncates x to 0),
     * else just below 1; y set to 1 +- 2^-13, clear of the boundary */
    __m256 tiny = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(0x1p-12f), _CMP_LT_OQ);
    __m256 below = _mm256_cmp_ps(x, _mm256_set1_ps(-0x1p-23f), _CMP_LE_OQ);
    y = _mm256_blendv_ps(y, _mm256_blendv_ps(_mm256_set1_ps(1.0f + 0x1p-13f), _mm256_set1_ps(1.0f - 0x1p-13f), below), tiny);
    __m128i lo = ex2_to_half8(kind, _mm256_mul_ps(y, _mm256_set1_ps(1.0f - 0x1p-19f)));
    __m128i hi = ex2_to_half8(kind, _mm256_mul_ps(y, _mm256_set1_ps(1.0f + 0x1p-19f)));
    /* an integer x (f = 0, clamped ones too): y is 2^n exactly, as the f32 unit's result is;
     * truncation keeps it (no redo, or ex2 of whole numbers would go lane by lane) */
    __m256i whole = f32_bits(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_EQ_OQ));
    __m128i whole16 = _mm_packs_epi32(_mm256_castsi256_si128(whole), _mm256_extracti128_si256(whole, 1));
    __m128i unsure = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi16(lo, hi), whole16), _mm_set1_epi16(-1));
    *redo = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(unsure, _mm_setzero_si128())) |
            (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    return ex2_to_half8(kind, y);
}
/* tanh.approx (fp_approx.c): the f32 unit's tanh of the exactly widened input (no flush),
 * rounded toward zero (|tanh| <= 1: no overflow); a NaN gives the canonical NaN */
ROWS_INLINE __m128i tanh_h8(int kind, __m128i a)
{
    uint32_t v[8];
    _mm256_storeu_si256((__m256i *)v, f32_bits(half8_to_f32(kind, 0, a)));
    fp32_tanh_approx8(v, v);
    __m256 y = bits_f32(_mm256_loadu_si256((const __m256i *)v));
    __m128i h;
    if (kind == FP_F16) h = _mm256_cvtps_ph(y, _MM_FROUND_TO_ZERO);
    else {
        __m256i u = _mm256_srli_epi32(f32_bits(y), 16);
        h = _mm_packus_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
    }
    return _mm_blendv_epi8(h, _mm_set1_epi16((short)FP16_CANON_NAN), nan_half8(kind, a));
}
/* 8 halves of op FP_ROW_MIN .. FP_ROW_TANH */
ROWS_INLINE __m128i misc8(int op, int kind, int ftz, int nan_mode, __m128i a, __m128i b)
{
    if (op == FP_ROW_MIN || op == FP_ROW_MAX) return minmax8(op == FP_ROW_MAX, kind, ftz, nan_mode, a, b);
    if (op == FP_ROW_TANH) return tanh_h8(kind, a);
    if (op != FP_ROW_EX2) return neg_abs8(op == FP_ROW_NEG, kind, ftz, a);
    unsigned redo;
    __m128i h = ex2_8(kind, a, &redo);
    return redo ? redo8(op, kind, 0, 0, redo, h, a, a, a) : h;
}
ROWS_INLINE void misc_row(int op, int kind, int x2, int ftz, int nan_mode, uint64_t *d, const uint64_t *a,
                          const uint64_t *b)
{
    int two = op == FP_ROW_MIN || op == FP_ROW_MAX;
    for (int l = 0; l < ROW_LANES; l += x2 ? 4 : 8) {
        __m128i va = load_halves(x2, a + l), vb = two ? load_halves(x2, b + l) : va;
        store_halves(x2, d + l, misc8(op, kind, ftz, nan_mode, va, vb));
    }
}
/* one copy per op and kind */
ROWS_TARGET static void misc_rows(int op, int kind, int x2, int ftz, int nan_mode, uint64_t *d, const uint64_t *a,
                                  const uint64_t *b)
{
#define MISC_ROW(o) kind == FP_F16 ? misc_row(o, FP_F16, x2, ftz, nan_mode, d, a, b) \
                                   : misc_row(o, FP_BF16, x2, ftz, nan_mode, d, a, b)
    switch (op) {
    case FP_ROW_MIN: MISC_ROW(FP_ROW_MIN); break;
    case FP_ROW_MAX: MISC_ROW(FP_ROW_MAX); break;
    case FP_ROW_NEG: MISC_ROW(FP_ROW_NEG); break;
    case FP_ROW_ABS: MISC_ROW(FP_ROW_ABS); break;
    case FP_ROW_TANH: MISC_ROW(FP_ROW_TANH); break;
    default: MISC_ROW(FP_ROW_EX2); break;
    }
#undef MISC_ROW
}

/* ---- setp ---- */
/* the relations of two values, as bits of a comparison's truth set */
enum { REL_LT = 1, REL_EQ = 2, REL_GT = 4, REL_UN = 8 };
static const uint8_t CMP_SET[] = {
    [FP_CMP_EQ] = REL_EQ, [FP_CMP_NE] = REL_LT | REL_GT, [FP_CMP_LT] = REL_LT, [FP_CMP_LE] = REL_LT | REL_EQ,
    [FP_CMP_GT] = REL_GT, [FP_CMP_GE] = REL_GT | REL_EQ, [FP_CMP_EQU] = REL_EQ | REL_UN,
    [FP_CMP_NEU] = REL_LT | REL_GT | REL_UN, [FP_CMP_LTU] = REL_LT | REL_UN, [FP_CMP_LEU] = REL_LT | REL_EQ | REL_UN,
    [FP_CMP_GTU] = REL_GT | REL_UN, [FP_CMP_GEU] = REL_GT | REL_EQ | REL_UN, [FP_CMP_NUM] = REL_LT | REL_EQ | REL_GT,
    [FP_CMP_NAN] = REL_UN,
};
/* f32 of 8 halves, one in the low 16 bits of each 32-bit lane of u (exact; .ftz flushed) */
ROWS_INLINE __m256 half32x8_to_f32(int kind, int ftz, __m256i u)
{
    if (kind == FP_BF16 && !ftz) return bits_f32(_mm256_slli_epi32(u, 16));
    return half8_to_f32(kind, ftz, _mm_packus_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1)));
}
/* 1 where the relation of x and y is in the set sel (per relation all ones or zeros), else 0 */
ROWS_INLINE __m256i setp8(const __m256 sel[4], __m256 x, __m256 y)
{
    __m256 r = _mm256_or_ps(_mm256_and_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ), sel[0]),
                            _mm256_and_ps(_mm256_cmp_ps(x, y, _CMP_EQ_OQ), sel[1]));
    r = _mm256_or_ps(r, _mm256_and_ps(_mm256_cmp_ps(x, y, _CMP_GT_OQ), sel[2]));
    r = _mm256_or_ps(r, _mm256_and_ps(_mm256_cmp_ps(x, y, _CMP_UNORD_Q), sel[3]));
    return _mm256_srli_epi32(f32_bits(r), 31);
}
ROWS_INLINE void setp_row(int set, int kind, int x2, int ftz, uint64_t *d, uint64_t *e, const uint64_t *a,
                          const uint64_t *b)
{
    const __m256i lo16 = i32x8(0xffff);
    __m256 sel[4];
    for (int i = 0; i < 4; i++) sel[i] = bits_f32(i32x8(set >> i & 1 ? ~0u : 0));
    for (int l = 0; l < ROW_LANES; l += 8) {
        __m256i va = load_lo32x8(a + l), vb = load_lo32x8(b + l);
        __m256i lo = setp8(sel, half32x8_to_f32(kind, ftz, _mm256_and_si256(va, lo16)),
                           half32x8_to_f32(kind, ftz, _mm256_and_si256(vb, lo16)));
        if (x2) store_u32x8(e + l, setp8(sel, half32x8_to_f32(kind, ftz, _mm256_srli_epi32(va, 16)),
                                         half32x8_to_f32(kind, ftz, _mm256_srli_epi32(vb, 16))));
        store_u32x8(d + l, lo);
    }
}
ROWS_TARGET static void setp_rows(int set, int kind, int x2, int ftz, uint64_t *d, uint64_t *e, const uint64_t *a,
                                  const uint64_t *b)
{
    if (kind == FP_F16) setp_row(set, FP_F16, x2, ftz, d, e, a, b);
    else setp_row(set, FP_BF16, x2, ftz, d, e, a, b);
}

/* ---- conversions ---- */
enum { CVT_WIDEN, CVT_NARROW, CVT_PACK };

/* f32 of 8 halves as fp_cvt_f2f: f16 NaN -> the canonical NaN; bf16 a shift,
 * but with .ftz subnormals flushed and NaN canonical */
ROWS_INLINE __m256 widen8(int kind, int ftz, __m128i h)
{
    __m256 x = half8_to_f32(kind, ftz && kind == FP_BF16, h);
    return kind == FP_F16 || ftz ? nan_to(x, FP32_CANON_NAN) : x;
}
/* 8 f32 to halves with fp_cvt_f2f's flags (.ftz flushes f32 inputs towards
 * bf16 only; .sat excludes the others) */
ROWS_INLINE __m128i narrow8(int kind, int flags, __m256 x)
{
    if ((flags & FP_CVT_FTZ) && kind == FP_BF16) x = ftz_f32(x);
    if (flags & FP_CVT_SAT) x = sat_f32(x);
    else {
        if (flags & FP_CVT_RELU) x = relu_f32(x);
        if (flags & FP_CVT_SATFINITE) x = satfinite_f32(kind, x);
    }
    return f32_to_half8(kind, x);
}
/* 8 lanes of a conversion (how: CVT_*) */
ROWS_INLINE void cvt8(int how, int kind, int flags, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    if (how == CVT_WIDEN) store_u32x8(d, f32_bits(widen8(kind, flags & FP_CVT_FTZ, load_lo16x8(a))));
    else if (how == CVT_NARROW) store_u16x8(d, narrow8(kind, flags, bits_f32(load_lo32x8(a))));
    else {
        __m128i hi = narrow8(kind, flags, bits_f32(load_lo32x8(a))), lo = narrow8(kind, flags, bits_f32(load_lo32x8(b)));
        store_u32x8(d, _mm256_set_m128i(_mm_unpackhi_epi16(lo, hi), _mm_unpacklo_epi16(lo, hi)));
    }
}
ROWS_TARGET static void cvt_row(int how, fp_type kind, int flags, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    for (int l = 0; l < ROW_LANES; l += 8) {
        if (kind == FP_F16) cvt8(how, FP_F16, flags, d + l, a + l, b + l);
        else cvt8(how, FP_BF16, flags, d + l, a + l, b + l);
    }
}

/* ---- entry points (not compiled for AVX2: they run on any CPU) ---- */
int fp_rows_supported(void)
{
    static int v = -1;                 /* threads may race to set it, to the same value */
    int r = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (r < 0) {
        __builtin_cpu_init();
        const char *off = getenv("PTXEMU_NO_AVX2");
        unsigned eax, ebx, ecx, edx;   /* f16c from cpuid: clang's __builtin_cpu_supports has no "f16c" */
        int f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
        r = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c && !(off && *off);
        __atomic_store_n(&v, r, __ATOMIC_RELAXED);
    }
    return r;
}

static int is_half(fp_type t) { return t == FP_F16 || t == FP_BF16; }

int fp_half_row(int op, fp_type kind, int x2, int ftz, int sat, uint64_t *d, const uint64_t *a, const uint64_t *b,
                const uint64_t *c)
{
    static half_row_fn *const rows[][2] = {
        [FP_ROW_ADD] = {f16_add_row, bf16_add_row},
        [FP_ROW_SUB] = {f16_add_row, bf16_add_row},
        [FP_ROW_MUL] = {f16_mul_row, bf16_mul_row},
        [FP_ROW_FMA] = {f16_fma_row, bf16_fma_row},
    };
    if (op < FP_ROW_ADD || op > FP_ROW_FMA || !is_half(kind) || !fp_rows_supported()) return 0;
    rows[op][kind](x2 != 0, ftz != 0, sat != 0, op == FP_ROW_SUB, d, a, b, c);
    return 1;
}

int fp_half_misc_row(int op, fp_type kind, int x2, int ftz, int nan_mode, uint64_t *d, const uint64_t *a,
                     const uint64_t *b)
{
    if (op < FP_ROW_MIN || op > FP_ROW_TANH || !is_half(kind) || !fp_rows_supported()) return 0;
    misc_rows(op, kind, x2 != 0, ftz != 0, nan_mode != 0, d, a, b);
    return 1;
}

int fp_setp_half_row(int cmp, fp_type kind, int x2, int ftz, uint64_t *d, uint64_t *e, const uint64_t *a,
                     const uint64_t *b)
{
    if (cmp < FP_CMP_EQ || cmp > FP_CMP_NAN || !is_half(kind) || !fp_rows_supported()) return 0;
    setp_rows(CMP_SET[cmp], kind, x2 != 0, ftz != 0, d, e, a, b);
    return 1;
}

int fp_cvt_half_row(fp_type src, fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a)
{
    if (!fp_rows_supported()) return 0;
    if (dst == FP_F32 && is_half(src) && !(flags & ~FP_CVT_FTZ)) cvt_row(CVT_WIDEN, src, flags, d, a, a);
    else if (src == FP_F32 && is_half(dst) && r == FP_RN) cvt_row(CVT_NARROW, dst, flags, d, a, a);
    else return 0;
    return 1;
}

int fp_cvt_pack_half_row(fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    if (!is_half(dst) || r != FP_RN || !fp_rows_supported()) return 0;
    cvt_row(CVT_PACK, dst, flags, d, a, b);
    return 1;
}

#else /* no rows on other hosts */
int fp_rows_supported(void) { return 0; }
int fp_half_row(int op, fp_type kind, int x2, int ftz, int sat, uint64_t *d, const uint64_t *a, const uint64_t *b,
                const uint64_t *c)
{
    (void)op, (void)kind, (void)x2, (void)ftz, (void)sat, (void)d, (void)a, (void)b, (void)c;
    return 0;
}
int fp_half_misc_row(int op, fp_type kind, int x2, int ftz, int nan_mode, uint64_t *d, const uint64_t *a,
                     const uint64_t *b)
{
    (void)op, (void)kind, (void)x2, (void)ftz, (void)nan_mode, (void)d, (void)a, (void)b;
    return 0;
}
int fp_setp_half_row(int cmp, fp_type kind, int x2, int ftz, uint64_t *d, uint64_t *e, const uint64_t *a,
                     const uint64_t *b)
{
    (void)cmp, (void)kind, (void)x2, (void)ftz, (void)d, (void)e, (void)a, (void)b;
    return 0;
}
int fp_cvt_half_row(fp_type src, fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a)
{
    (void)src, (void)dst, (void)r, (void)flags, (void)d, (void)a;
    return 0;
}
int fp_cvt_pack_half_row(fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    (void)dst, (void)r, (void)flags, (void)d, (void)a, (void)b;
    return 0;
}
#endif
