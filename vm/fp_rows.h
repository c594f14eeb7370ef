/* fp_rows.h -- f16/bf16 arithmetic, min/max, ex2, compares and conversions
 * of a whole warp at once (x86-64 AVX2 + F16C + FMA), bit for bit the results
 * of the scalar functions of fp.h (and of vm/exec.c's setp handlers).
 *
 * A row is 32 lanes, one 64-bit slot each (uint64_t r[32]).  Inputs: an
 * f16/bf16 is the low 16 bits of its slot, an f16x2/bf16x2 (low half = first
 * element) or an f32 the low 32 bits; the other bits are ignored.  Results are
 * zero-extended into the slots of d, which may be one of the inputs (each
 * group of slots is read before it is written).
 *
 * Every row function returns 1 when it has written d, and 0 (d untouched)
 * when it has no row for the combination or fp_rows_supported() is 0: the
 * caller then runs the scalar function lane by lane.
 */
#ifndef PTXEMU_FP_ROWS_H
#define PTXEMU_FP_ROWS_H
#include "fp.h"

/* 1 on an x86-64 CPU with AVX2, F16C and FMA, unless PTXEMU_NO_AVX2 is set
 * (as vm/exec.c chooses its AVX2 loop). */
int fp_rows_supported(void);

/* the half ops, in the order of OP_HADD .. OP_HTANH_APPROX (vm/ops.def): op = I->op - OP_HADD */
enum fp_row_op {
    FP_ROW_ADD, FP_ROW_SUB, FP_ROW_MUL, FP_ROW_FMA, FP_ROW_MIN, FP_ROW_MAX, FP_ROW_NEG, FP_ROW_ABS, FP_ROW_EX2,
    FP_ROW_TANH
};

/* {add,sub,mul,fma}.rn{.ftz}{.sat}.{f16,bf16,f16x2,bf16x2} d, a, b(, c):
 * kind FP_F16 or FP_BF16, x2 for the packed forms, c read by FP_ROW_FMA only;
 * every lane as fp16_add .. bf16x2_fma with FP_RN.  Every combination has a
 * row (0 only for another kind or op). */
int fp_half_row(int op, fp_type kind, int x2, int ftz, int sat, uint64_t *d, const uint64_t *a, const uint64_t *b,
                const uint64_t *c);

/* min{.ftz}{.NaN}, max{.ftz}{.NaN}, neg{.ftz}, abs{.ftz}, ex2.approx and tanh.approx of
 * {f16,bf16,f16x2,bf16x2} d, a(, b): op FP_ROW_MIN .. FP_ROW_TANH, kind and x2
 * as for fp_half_row, b read by min and max only; every lane as fp16_min ..
 * bf16x2_ex2_approx(a(, b)(, ftz)(, nan_mode)), fp16_tanh_approx and bf16_tanh_approx of
 * each half.  nan_mode (.NaN) is read by
 * min and max only, ftz by all but ex2 and tanh (ex2.approx.f16 never flushes,
 * ex2.approx.ftz.bf16 always does, as the scalar functions).  Every
 * combination has a row (0 only for another kind or op). */
int fp_half_misc_row(int op, fp_type kind, int x2, int ftz, int nan_mode, uint64_t *d, const uint64_t *a,
                     const uint64_t *b);

/* comparisons, in the order of BC_CMP_EQ .. BC_CMP_NAN (vm/bc.h): ordered
 * (false if either operand is NaN), unordered (true if either is), num, nan */
enum fp_row_cmp { FP_CMP_EQ, FP_CMP_NE, FP_CMP_LT, FP_CMP_LE, FP_CMP_GT, FP_CMP_GE, FP_CMP_EQU, FP_CMP_NEU,
                  FP_CMP_LTU, FP_CMP_LEU, FP_CMP_GTU, FP_CMP_GEU, FP_CMP_NUM, FP_CMP_NAN };

/* setp.cmp{.ftz}.{f16,bf16} d, a, b: d = 1 where a cmp b holds, else 0 (the
 * values compared exactly, -0 == +0); x2 (setp.cmp{.ftz}.{f16x2,bf16x2} d|e,
 * a, b): d from the low halves, e from the high ones; e is not touched
 * without x2.  ftz flushes subnormal operands to zero first (PTX's .ftz; the
 * lane loops of vm/exec.c ignore .ftz, and ftz 0 gives their results).  0 for
 * a cmp outside FP_CMP_EQ .. FP_CMP_NAN or another kind. */
int fp_setp_half_row(int cmp, fp_type kind, int x2, int ftz, uint64_t *d, uint64_t *e, const uint64_t *a,
                     const uint64_t *b);

/* cvt{.ftz}.f32.{f16,bf16} (exact: r is ignored) and
 * cvt.rn{.ftz}{.sat}{.relu}{.satfinite}.{f16,bf16}.f32: every lane as
 * fp_cvt_f2f(a, src, dst, r, flags).  0 for other types, for widening with
 * flags other than FP_CVT_FTZ, and for narrowing with r other than FP_RN. */
int fp_cvt_half_row(fp_type src, fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a);

/* cvt.rn{.sat}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b (dst FP_F16 or
 * FP_BF16): d = fp_cvt_f2f(a, FP_F32, dst, r, flags) << 16 |
 * fp_cvt_f2f(b, FP_F32, dst, r, flags).  0 for r other than FP_RN. */
int fp_cvt_pack_half_row(fp_type dst, fp_rnd r, int flags, uint64_t *d, const uint64_t *a, const uint64_t *b);

#endif
