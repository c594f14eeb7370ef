/* fp.h -- PTX floating-point arithmetic, bit-exact with NVIDIA sm_90.
 *
 * All functions are pure: operands and results are raw bit patterns
 * (uint16_t for f16/bf16, uint32_t for f32 and packed x2, uint64_t for f64).
 * No host rounding-mode / fenv changes are made; directed rounding is done in
 * software.  The common case (RN, no ftz, no sat) is a plain host operation.
 *
 * Hardware facts (measured on an H200, sm_90, see tests/fp/):
 *  - f32 and f16/bf16 arithmetic return the canonical NaN 0x7fffffff /
 *    0x7fff for ANY NaN result (payloads never propagate; abs/neg of a NaN too).
 *  - f64 arithmetic propagates the (quieted) NaN payload and sign; the default
 *    NaN for invalid operations (inf-inf, 0*inf, sqrt(-1)) is 0xfff8000000000000.
 *  - f32 denormals are supported without .ftz; .ftz flushes inputs and
 *    results to sign-preserving zero; a result is flushed when it is tiny in
 *    the IEEE after-rounding sense (rounded to 24 bits with unbounded exponent
 *    it is still < 2^-126), even if the subnormal rounding would give 2^-126.
 *  - .sat clamps to [0,1], NaN -> +0.
 *  - min/max: -0 < +0; one NaN -> the other operand; both NaN -> canonical NaN;
 *    .NaN variants return the canonical NaN if either is NaN.
 *  - cvt float->int saturates; NaN -> 0 for f16/bf16/f32 sources with a <= 32-bit
 *    destination, but NaN -> 1<<(dst_bits-1) (e.g. 0x80000000, 0x8000000000000000)
 *    when the source is f64 or the destination is 64-bit.
 */
#ifndef PTXEMU_FP_H
#define PTXEMU_FP_H
#include <stdint.h>

typedef enum fp_rnd { FP_RN, FP_RZ, FP_RM, FP_RP } fp_rnd;      /* .rn .rz .rm .rp */
typedef enum fp_rint { FP_RNI, FP_RZI, FP_RMI, FP_RPI } fp_rint; /* .rni .rzi .rmi .rpi */
typedef enum fp_type { FP_F16, FP_BF16, FP_F32, FP_F64 } fp_type;

#define FP32_CANON_NAN 0x7fffffffu
#define FP16_CANON_NAN 0x7fffu
#define FP64_DEFAULT_NAN 0xfff8000000000000ull

/* ---------------- f32 ---------------- */
uint32_t fp32_add(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp32_sub(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp32_mul(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, int ftz, int sat); /* also mad.rn */
uint32_t fp32_div(uint32_t a, uint32_t b, fp_rnd r, int ftz);   /* div.{rn,rz,rm,rp} (IEEE) */
uint32_t fp32_sqrt(uint32_t a, fp_rnd r, int ftz);              /* sqrt.{rn,...}     (IEEE) */
uint32_t fp32_rcp(uint32_t a, fp_rnd r, int ftz);               /* rcp.{rn,...}      (IEEE) */
/* nan_mode: 0 = plain min/max, 1 = .NaN variant */
uint32_t fp32_min(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t fp32_max(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t fp32_abs(uint32_t a, int ftz);
uint32_t fp32_neg(uint32_t a, int ftz);
uint32_t fp32_copysign(uint32_t a, uint32_t b); /* PTX copysign d,a,b: |b| with sign of a */
/* approximations (vm/fp_approx.c) */
uint32_t fp32_div_approx(uint32_t a, uint32_t b, int ftz);      /* div.approx */
uint32_t fp32_div_full(uint32_t a, uint32_t b, int ftz);        /* div.full   */
/* fp32_div_approx and fp32_div_full of 32 lanes (zero-extended in 64-bit slots); need AVX2 */
void fp32_div_approx_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int ftz);
void fp32_div_full_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int ftz);
uint32_t fp32_rcp_approx(uint32_t a, int ftz);
/* fp32_rcp_approx of 32 lanes (zero-extended in 64-bit slots); needs AVX2 (x86-64 only) */
void fp32_rcp_approx_row(uint64_t *d, const uint64_t *a, int ftz);
uint32_t fp32_sqrt_approx(uint32_t a, int ftz);
void fp32_sqrt_approx_row(uint64_t *d, const uint64_t *a, int ftz);    /* 32 lanes; needs AVX2 */
uint32_t fp32_rsqrt_approx(uint32_t a, int ftz);
void fp32_rsqrt_approx_row(uint64_t *d, const uint64_t *a, int ftz);   /* 32 lanes; needs AVX2 */
uint32_t fp32_ex2_approx(uint32_t a, int ftz);
void fp32_ex2_approx_row(uint64_t *d, const uint64_t *a, int ftz);   /* 32 lanes; needs AVX2 */
uint32_t fp32_lg2_approx(uint32_t a, int ftz);
void fp32_lg2_approx_row(uint64_t *d, const uint64_t *a, int ftz);   /* 32 lanes; needs AVX2 */
uint32_t fp32_sin_approx(uint32_t a, int ftz);
uint32_t fp32_cos_approx(uint32_t a, int ftz);
void fp32_sin_approx_row(uint64_t *d, const uint64_t *a, int ftz);   /* 32 lanes; need AVX2 */
void fp32_cos_approx_row(uint64_t *d, const uint64_t *a, int ftz);
uint32_t fp32_tanh_approx(uint32_t a);
void fp32_tanh_approx_row(uint64_t *d, const uint64_t *a, int ftz);   /* 32 lanes; needs AVX2 (no .ftz: ftz ignored) */
void fp32_tanh_approx8(uint32_t *d, const uint32_t *a);   /* 8 values (d may be a); needs AVX2 */

/* ---------------- f64 ---------------- */
uint64_t fp64_add(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_sub(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_mul(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_fma(uint64_t a, uint64_t b, uint64_t c, fp_rnd r);
uint64_t fp64_div(uint64_t a, uint64_t b, fp_rnd r);
uint64_t fp64_sqrt(uint64_t a, fp_rnd r);
uint64_t fp64_rcp(uint64_t a, fp_rnd r);
uint64_t fp64_min(uint64_t a, uint64_t b);
uint64_t fp64_max(uint64_t a, uint64_t b);
uint64_t fp64_abs(uint64_t a);
uint64_t fp64_neg(uint64_t a);
uint64_t fp64_copysign(uint64_t a, uint64_t b);
uint64_t fp64_rcp_approx_ftz(uint64_t a);   /* rcp.approx.ftz.f64 (fp_approx.c) */
uint64_t fp64_rsqrt_approx(uint64_t a, int ftz); /* rsqrt.approx{.ftz}.f64 (fp_approx.c) */

/* ---------------- f16 / bf16 scalar ----------------
 * PTX only defines .rn for these, but every fp_rnd mode is implemented. */
uint16_t fp16_add(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t fp16_sub(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t fp16_mul(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t fp16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r, int ftz, int sat);
uint16_t fp16_fma_relu(uint16_t a, uint16_t b, uint16_t c, int ftz); /* fma.rn{.ftz}.relu.f16 */
uint16_t fp16_min(uint16_t a, uint16_t b, int ftz, int nan_mode);
uint16_t fp16_max(uint16_t a, uint16_t b, int ftz, int nan_mode);
uint16_t fp16_neg(uint16_t a, int ftz);
uint16_t fp16_abs(uint16_t a, int ftz);
uint16_t fp16_ex2_approx(uint16_t a);   /* ex2.approx.f16 (fp_approx.c) */
uint16_t fp16_tanh_approx(uint16_t a);  /* tanh.approx.f16 */

uint16_t bf16_add(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t bf16_sub(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t bf16_mul(uint16_t a, uint16_t b, fp_rnd r, int ftz, int sat);
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, fp_rnd r, int ftz, int sat);
uint16_t bf16_fma_relu(uint16_t a, uint16_t b, uint16_t c, int ftz);
uint16_t bf16_min(uint16_t a, uint16_t b, int ftz, int nan_mode);
uint16_t bf16_max(uint16_t a, uint16_t b, int ftz, int nan_mode);
uint16_t bf16_neg(uint16_t a, int ftz);
uint16_t bf16_abs(uint16_t a, int ftz);
uint16_t bf16_ex2_approx(uint16_t a);   /* ex2.approx.ftz.bf16 */
uint16_t bf16_tanh_approx(uint16_t a);  /* tanh.approx.bf16 */

/* ---------------- packed x2 (low half = first element) ---------------- */
uint32_t fp16x2_add(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp16x2_sub(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp16x2_mul(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t fp16x2_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, int ftz, int sat);
uint32_t fp16x2_fma_relu(uint32_t a, uint32_t b, uint32_t c, int ftz);
uint32_t fp16x2_min(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t fp16x2_max(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t fp16x2_neg(uint32_t a, int ftz);
uint32_t fp16x2_abs(uint32_t a, int ftz);
uint32_t fp16x2_ex2_approx(uint32_t a);
uint32_t bf16x2_add(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t bf16x2_sub(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t bf16x2_mul(uint32_t a, uint32_t b, fp_rnd r, int ftz, int sat);
uint32_t bf16x2_fma(uint32_t a, uint32_t b, uint32_t c, fp_rnd r, int ftz, int sat);
uint32_t bf16x2_fma_relu(uint32_t a, uint32_t b, uint32_t c, int ftz);
uint32_t bf16x2_min(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t bf16x2_max(uint32_t a, uint32_t b, int ftz, int nan_mode);
uint32_t bf16x2_neg(uint32_t a, int ftz);
uint32_t bf16x2_abs(uint32_t a, int ftz);
uint32_t bf16x2_ex2_approx(uint32_t a);

/* ---------------- cvt ----------------
 * flags for the cvt functions: */
#define FP_CVT_FTZ       1  /* .ftz (only meaningful where f32 is src or dst) */
#define FP_CVT_SAT       2  /* .sat: clamp to [0,1], NaN -> +0 */
#define FP_CVT_RELU      4  /* .relu: negative -> +0, NaN -> canonical NaN */
#define FP_CVT_SATFINITE 8  /* .satfinite: +-inf -> +-MAX, NaN -> canonical NaN */

/* float -> float (cvt{.frnd}{.ftz}{.sat}{.relu}{.satfinite}.dst.src).
 * Narrowing rounds with r; widening is exact (r ignored); same-type is a
 * copy (with ftz/sat applied).  .ftz flushes f32 subnormals except for the f16
 * destination (cvt.ftz.f16.f32 keeps subnormal inputs, as measured).
 * NaN (measured): widening to f64 keeps sign + quieted payload; f16->f32 gives
 * 0x7fffffff; bf16->f32 is a plain shift (canonical 0x7fffffff with .ftz);
 * f64->f32 keeps sign, quiet bit and top payload; f64->f16/bf16 sign|quiet;
 * f32/f16/bf16 -> f16/bf16 the canonical 0x7fff. */
uint64_t fp_cvt_f2f(uint64_t bits, fp_type src, fp_type dst, fp_rnd r, int flags);
/* FP8 (cvt with .e4m3x2 / .e5m2x2, cuda_fp8.h), one value; e5m2 selects E5M2
 * (5 exponent bits, IEEE-like, with infinities), else E4M3 (4 exponent bits,
 * no infinity, 0x7f/0xff NaN, largest 448).  As measured on an H200
 * (tests/vm/fp8): from f32 .rn.satfinite, so an infinity or a value beyond
 * the largest finite one gives that one of its sign, any NaN 0x7f; .relu
 * makes negatives (-0 too) +0.  To f16 exact; any NaN 0x7fff; .relu as above. */
uint8_t fp8_from_f32(uint32_t a, int e5m2, int relu);
uint16_t fp8_to_f16(uint8_t x, int e5m2, int relu);
/* same-type round to integral value: cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.T.T */
uint64_t fp_cvt_frint(uint64_t bits, fp_type t, fp_rint r, int flags);
/* float -> integer: cvt.irnd{.ftz}.{s,u}{8,16,32,64}.T
 * Out-of-range saturates to the int type's min/max; NaN -> 0, or 1<<(dst_bits-1)
 * when src is f64 or dst_bits is 64 (as measured on sm_90).
 * Result is the dst_bits-wide two's complement value, zero-extended to 64 bits. */
uint64_t fp_cvt_f2i(uint64_t bits, fp_type src, int dst_bits, int dst_signed, fp_rint r, int flags);
/* integer -> float: cvt.frnd{.sat}.T.{s,u}{8,16,32,64}.  Only the low src_bits
 * of ival are used (sign-extended if src_signed). */
uint64_t fp_cvt_i2f(uint64_t ival, int src_bits, int src_signed, fp_type dst, fp_rnd r, int flags);

#endif
