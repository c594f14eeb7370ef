/* exec.c — the dispatch loop: executes one lane group of one warp.
 *
 * The group (lanes sharing a pc) runs instruction after instruction until it
 * diverges, blocks in a collective or barrier, exits, or spends its budget;
 * then the scheduler (sched.c) regroups.  Each handler is the PTX manual's
 * description applied to the lanes `m` (issued lanes whose guard holds);
 * LANES() has a full-warp fast path.  Every fault leaves through vm_fail with
 * the faulting pc.  This is the only large function in the VM.
 *
 * On x86-64 the Makefile compiles this file a second time with AVX2
 * (VM_EXEC_VARIANT): the lane loops vectorise 4 lanes wide instead of 2; the
 * second copy holds only the dispatch loop (vm_exec_avx2), and vm_exec picks
 * it when the CPU has AVX2.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm.h"
#include "par.h"
#include "fp.h"
#include "fp_rows.h"
#include "mma.h"

#if defined(__GNUC__) && !defined(PTXEMU_NO_COMPUTED_GOTO)
#define VM_USE_GOTO 1
#endif

#define FULL 0xffffffffu

/* ---- helpers --------------------------------------------------------------- */

static inline uint64_t sext(uint64_t v, int bits)
{
    int sh = 64 - bits;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

static inline float f32(uint64_t v) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f; }
static inline uint64_t bf32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bf64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* The GPU's f32 arithmetic returns the canonical NaN. */
static inline uint64_t canon32(float f) { return f != f ? 0x7fffffffu : bf32(f); }
static inline int isnan64(uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* Shifts of operands already read (a ?: over R[] itself would read A only
 * where the count is in range, which GCC does not vectorise). */
static inline uint64_t shl32(uint64_t a, uint32_t n) { return n >= 32 ? 0 : (a << n) & 0xffffffffull; }
static inline uint64_t shr32(uint64_t a, uint32_t n) { return n >= 32 ? 0 : (a & 0xffffffffull) >> n; }
static inline uint64_t shl64(uint64_t a, uint32_t n) { return n >= 64 ? 0 : a << n; }
static inline uint64_t shr64(uint64_t a, uint32_t n) { return n >= 64 ? 0 : a >> n; }
static inline uint64_t sel(int c, uint64_t a, uint64_t b) { return c ? a : b; }

/* min/max.f32 without .ftz, as fp32_min/fp32_max (vm/fp.c) compute them
 * (one NaN: the other operand; both, or either under .NaN: the canonical
 * NaN; -0 below +0), without branches, so the lane loop vectorises. */
static inline uint64_t minmax32(uint32_t a, uint32_t b, int nan_mode, int ismax)
{
    uint32_t na = (a & 0x7fffffffu) > 0x7f800000u, nb = (b & 0x7fffffffu) > 0x7f800000u;
    int32_t ka = (a >> 31) ? -(int32_t)(a & 0x7fffffffu) - 1 : (int32_t)a;     /* total order of non-NaNs */
    int32_t kb = (b >> 31) ? -(int32_t)(b & 0x7fffffffu) - 1 : (int32_t)b;
    uint32_t r = ismax ? (ka >= kb ? a : b) : (ka <= kb ? a : b);
    r = na ? b : nb ? a : r;
    return ((na & nb) | ((na | nb) & (nan_mode != 0))) ? 0x7fffffffu : r;
}
/* abs/neg.f32 without .ftz, as fp32_abs/fp32_neg: a NaN becomes the canonical one.  In
 * 64-bit arithmetic on the slot's low word, so that the lane loop vectorises on the slots
 * as they are (a uint32_t operand is narrowed and widened back with cross-lane shuffles). */
static inline uint64_t absneg32(uint64_t a, uint64_t flip, uint64_t keep)
{
    uint64_t x = a & 0xffffffffu;
    return (x & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : ((x & keep) ^ flip);
}
/* abs.s32 the same way: the low word's sign spread over the slot, then (x ^ s) - s. */
static inline uint64_t abs32(uint64_t a)
{
    uint64_t x = a & 0xffffffffu, s = 0 - ((x >> 31) & 1);
    return ((x ^ s) - s) & 0xffffffffu;
}
/* dp4a: c + the products of a's and b's bytes (sa, sb: signed), mod 2^32 */
static inline __attribute__((always_inline)) uint64_t dp4a(uint32_t a, uint32_t b, uint32_t c, int sa, int sb)
{
    uint32_t s = c;
    for (int k = 0; k < 4; k++) {
        int32_t x = sa ? (int8_t)(a >> 8 * k) : (int32_t)((a >> 8 * k) & 0xff);
        int32_t y = sb ? (int8_t)(b >> 8 * k) : (int32_t)((b >> 8 * k) & 0xff);
        s += (uint32_t)(x * y);
    }
    return s;
}
static uint32_t ftz32(uint32_t b) { return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b; }
/* add.rn(.ftz).f32 as fp32_add computes it: the host's sum of the (flushed) operands, but
 * NaN results and, with .ftz, tiny ones (which the host's rounding cannot tell at 2^-126) from vm/fp.c */
static inline uint32_t fadd32_host(uint32_t a, uint32_t b, int ftz)
{
    uint32_t x = ftz ? ftz32(a) : a, y = ftz ? ftz32(b) : b;
    uint32_t r = (uint32_t)bf32(f32(x) + f32(y)), ab = r & 0x7fffffffu;
    if (ab > 0x7f800000u || (ftz && ab - 1u < 0x00800000u)) return fp32_add(a, b, FP_RN, ftz, 0);
    return r;
}
/* The f64 a as an f32 rounded to odd: toward zero (inf to FLT_MAX), the last bit set when
 * inexact; rounding that to nearest at 22 or fewer bits rounds a correctly */
static inline uint64_t f32_round_odd(uint64_t a)
{
    double x = f64(a);
    uint32_t r = (uint32_t)bf32((float)x);
    if (fabs((double)f32(r)) > fabs(x)) r--;
    return r | ((double)f32(r) != x);
}
/* .sat of an f32 (fp.c's do_sat): NaN and anything with the sign bit set 0, above 1.0 1.0 */
static inline uint64_t sat32(uint32_t x)
{
    return (x & 0x80000000u) || x > 0x7f800000u ? 0 : x > 0x3f800000u ? 0x3f800000u : x;
}
/* abs/neg.f64 as fp64_abs/fp64_neg: a NaN comes back quieted with its sign and payload */
static inline uint64_t absneg64(uint64_t a, uint64_t flip, uint64_t keep)
{
    return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? a | 0x0008000000000000ull : (a & keep) ^ flip;
}
/* f64 NaNs keep payloads with GPU-specific operand priority: fp.c decides. */
#define F64OP(expr, slow) ({ double r_ = (expr); r_ == r_ ? bf64(r_) : (slow); })

static inline uint64_t umulhi64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static inline uint64_t smulhi64(int64_t a, int64_t b) { return (uint64_t)(((__int128)a * b) >> 64); }

static inline uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

/* prmt's default mode: each result byte k is the byte of b:a that selector
 * nibble k names, or that byte's sign replicated (nibble bit 3); branch-free. */
static inline uint32_t prmt0(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t v = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t s = (c >> (4 * k)) & 15;
        uint32_t byte = (uint32_t)(v >> (8 * (s & 7))) & 0xff;
        uint32_t rep = (0u - (byte >> 7)) & 0xff;
        r |= ((s & 8) ? rep : byte) << (8 * k);
    }
    return r;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t v = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    if (mode == 0) {
        for (int k = 0; k < 4; k++) {
            uint32_t s = (c >> (4 * k)) & 15;
            uint32_t byte = (uint32_t)(v >> (8 * (s & 7))) & 0xff;
            if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * k);
        }
        return r;
    }
    static const uint8_t sel[6][4][4] = {
        /* f4e */ { {0,1,2,3}, {1,2,3,4}, {2,3,4,5}, {3,4,5,6} },
        /* b4e */ { {0,7,6,5}, {1,0,7,6}, {2,1,0,7}, {3,2,1,0} },
        /* rc8 */ { {0,0,0,0}, {1,1,1,1}, {2,2,2,2}, {3,3,3,3} },
        /* ecl */ { {0,1,2,3}, {1,1,2,3}, {2,2,2,3}, {3,3,3,3} },
        /* ecr */ { {0,0,0,0}, {0,1,1,1}, {0,1,2,2}, {0,1,2,3} },
        /* rc16 */ { {0,1,0,1}, {2,3,2,3}, {0,1,0,1}, {2,3,2,3} },
    };
    const uint8_t *s = sel[mode - 1][c & 3];
    for (int k = 0; k < 4; k++) r |= (uint32_t)((v >> (8 * s[k])) & 0xff) << (8 * k);
    return r;
}

/* pos and len: the 32-bit forms use their low 8 bits, the 64-bit forms
 * clamp them to 255 (both as an H200 does) */
static inline void bf_args(uint32_t *pos, uint32_t *len, int bits)
{
    if (bits == 32) { *pos &= 0xff; *len &= 0xff; return; }
    if (*pos > 255) *pos = 255;
    if (*len > 255) *len = 255;
}

static inline uint64_t low_mask(uint32_t n) { return n >= 64 ? ~0ull : (1ull << (n & 63)) - 1; }

/* Bits [pos, pos + len) of a (those past bit bits-1 read as the sign bit),
 * sign- or zero-extended from the last extracted bit.  Branch-free, so that
 * a warp's worth vectorises. */
static inline uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sign)
{
    bf_args(&pos, &len, bits);
    uint32_t msb = (uint32_t)bits - 1, top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint64_t sbit = sign && len ? (a >> (top & 63)) & 1 : 0;
    uint32_t n = pos > msb ? 0 : (len < (uint32_t)bits - pos ? len : (uint32_t)bits - pos);
    uint64_t field = (a >> (pos > msb ? 0 : pos)) & low_mask(n);
    return field | (sbit ? low_mask((uint32_t)bits) & ~low_mask(n) : 0);
}

/* bfe() of a whole warp whose position and length are constants, the same
 * in every lane: the shift, mask and sign bit worked out once, so the lane
 * loop is shifts and ands (it vectorises; bfe() per lane does not). */
static inline void bfe_row(uint64_t *d, const uint64_t *a, uint32_t pos, uint32_t len, int bits, int sign)
{
    bf_args(&pos, &len, bits);
    uint32_t msb = (uint32_t)bits - 1, top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint32_t n = pos > msb ? 0 : (len < (uint32_t)bits - pos ? len : (uint32_t)bits - pos), sh = pos > msb ? 0 : pos;
    uint64_t mask = low_mask(n), ext = sign && len ? low_mask((uint32_t)bits) & ~low_mask(n) : 0;
    uint64_t width = low_mask((uint32_t)bits);
#pragma GCC ivdep
    for (int l = 0; l < BC_WARP; l++) {          /* d may be a: each lane reads its own first */
        uint64_t v = a[l] & width;
        d[l] = ((v >> sh) & mask) | ((0 - ((v >> (top & 63)) & 1)) & ext);
    }
}

/* b with bits [pos, pos + len) (within bits) replaced by the low bits of a. */
static inline uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits)
{
    bf_args(&pos, &len, bits);
    uint32_t in = pos < (uint32_t)bits, sh = in ? pos : 0;
    uint32_t n = !in ? 0 : len < (uint32_t)bits - pos ? len : (uint32_t)bits - pos;
    uint64_t mask = low_mask(n) << sh;
    return (b & ~mask) | ((a << sh) & mask);
}

static uint32_t bfind(uint64_t a, int bits, int sign, int shiftamt)
{
    if (sign && (a >> (bits - 1)) & 1) a = ~a & (bits == 64 ? ~0ull : (1ull << bits) - 1);
    if (!a) return 0xffffffffu;
    int d = 63 - __builtin_clzll(a);           /* the highest set bit (a < 2^bits) */
    return shiftamt ? (uint32_t)(bits - 1 - d) : (uint32_t)d;
}

/* div and rem .s32/.u32 as sm_90 gives them for every operand: x / 0 is all
 * ones (-1), INT32_MIN / -1 is INT32_MIN, x % 0 is all ones, x % -1 is 0. */
static inline uint32_t div_s32(uint32_t a, uint32_t b)
{
    return (int32_t)b == 0 ? 0xffffffffu : ((int32_t)a == INT32_MIN && (int32_t)b == -1) ? a : (uint32_t)((int32_t)a / (int32_t)b);
}
static inline uint32_t div_u32(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a / b; }
static inline uint32_t rem_s32(uint32_t a, uint32_t b)
{
    return (int32_t)b == 0 ? 0xffffffffu : (int32_t)b == -1 ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
}
static inline uint32_t rem_u32(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a % b; }
/* .s64/.u64 the same way: x / 0 and x % 0 are all ones, INT64_MIN / -1 is INT64_MIN */
static inline uint64_t div_s64(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;
    return y == 0 ? ~0ull : (x == INT64_MIN && y == -1) ? a : (uint64_t)(x / y);
}
static inline uint64_t div_u64(uint64_t a, uint64_t b) { return b == 0 ? ~0ull : a / b; }
static inline uint64_t rem_s64(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;
    return y == 0 ? ~0ull : y == -1 ? 0 : (uint64_t)(x % y);
}
static inline uint64_t rem_u64(uint64_t a, uint64_t b) { return b == 0 ? ~0ull : a % b; }

#if defined(__BMI2__)
#include <immintrin.h>
#endif
static inline uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31) return 0xffffffffu;
    if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
#if defined(__BMI2__)
    /* the k-th set bit (from 0, counting up) of the bits at or above base, or of those at or
     * below it counted down: one bit deposit into the mask */
    uint32_t m = offset > 0 ? mask & (~0u << base) : mask & (base == 31 ? ~0u : (2u << base) - 1);
    int32_t k = offset > 0 ? offset - 1 : __builtin_popcount(m) + offset;
    if (k < 0 || k >= 32) return 0xffffffffu;
    uint32_t bit = _pdep_u32(1u << k, m);
    return bit ? (uint32_t)__builtin_ctz(bit) : 0xffffffffu;
#endif
    if (offset > 0) {
        for (int i = (int)base; i < 32; i++)
            if ((mask >> i) & 1 && --offset == 0) return (uint32_t)i;
    } else {
        for (int i = (int)base; i >= 0; i--)
            if ((mask >> i) & 1 && ++offset == 0) return (uint32_t)i;
    }
    return 0xffffffffu;
}

/* lop3: bit i of the result is bit (a_i b_i c_i) of the table, given as 8
 * masks m[k] = all ones where bit k of it is set: a mux tree on c, then b,
 * then a (no branch on the table, so a warp's worth vectorises). */
/* lop3: m[k] all ones where bit k of the table is set; on whole 64-bit slots (bitwise, so
 * the low word is lop3 of the low words; the caller masks it), which vectorises without
 * narrowing. */
static inline uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, const uint64_t *m)
{
    uint64_t t00 = (c & m[1]) | (~c & m[0]), t01 = (c & m[3]) | (~c & m[2]);
    uint64_t t10 = (c & m[5]) | (~c & m[4]), t11 = (c & m[7]) | (~c & m[6]);
    uint64_t u0 = (b & t01) | (~b & t00), u1 = (b & t11) | (~b & t10);
    return (a & u1) | (~a & u0);
}

/* The f16 or bf16 in the low 16 bits of x as a double (exactly); ftz: a
 * subnormal as the zero of its sign. */
static inline double half_f64(uint64_t x, fp_type t, int ftz)
{
    x &= 0xffff;
    if (ftz && !(x & (t == FP_F16 ? 0x7c00u : 0x7f80u))) x &= 0x8000u;
    return f64(fp_cvt_f2f(x, t, FP_F64, FP_RN, 0));
}

_Static_assert((int)FP_CMP_EQ == (int)BC_CMP_EQ && (int)FP_CMP_GEU == (int)BC_CMP_GEU && (int)FP_CMP_NAN == (int)BC_CMP_NAN, "fp_rows.h compares in bc.h's order");

static int fcmp(double a, double b, int cmp)
{
    int un = a != a || b != b;
    switch (cmp) {
    case BC_CMP_EQ: return !un && a == b;
    case BC_CMP_NE: return !un && a != b;
    case BC_CMP_LT: return !un && a < b;
    case BC_CMP_LE: return !un && a <= b;
    case BC_CMP_GT: return !un && a > b;
    case BC_CMP_GE: return !un && a >= b;
    case BC_CMP_EQU: return un || a == b;
    case BC_CMP_NEU: return un || a != b;
    case BC_CMP_LTU: return un || a < b;
    case BC_CMP_LEU: return un || a <= b;
    case BC_CMP_GTU: return un || a > b;
    case BC_CMP_GEU: return un || a >= b;
    case BC_CMP_NUM: return !un;
    case BC_CMP_NAN: return un;
    }
    return 0;
}


/* testp's class k (finite, infinite, number, notanumber, normal, subnormal) of
 * an f32 or f64 from its bits: the exponent all ones (inf, NaN) or zero (zero,
 * subnormal), the fraction zero or not; zero counts as normal, as on the GPU.
 * With k and is64 constant (TESTP_ROW) the lane loop vectorises. */
static inline __attribute__((always_inline)) uint64_t testp(uint64_t v, int is64, int k)
{
    uint64_t e = is64 ? (v >> 52) & 0x7ff : (v >> 23) & 0xff, emax = is64 ? 0x7ff : 0xff;
    uint64_t f = v & (is64 ? 0xfffffffffffffull : 0x7fffffull);
    switch (k) {
    case 0: return e != emax;
    case 1: return e == emax && f == 0;
    case 2: return e != emax || f == 0;
    case 3: return e == emax && f != 0;
    case 4: return e != emax && (e != 0 || f == 0);
    default: return e == 0 && f != 0;
    }
}

/* cvt.{rn,rna,rz,..}{.satfinite}.tf32.f32: keep 10 fraction bits (the low
 * 13 bits of the result are zero). */
static uint32_t cvt_tf32(uint32_t a, int mode, int satfinite)
{
    if ((a & 0x7f800000u) == 0x7f800000u) {
        if (a & 0x7fffffu) return satfinite ? 0x7fffc000u : a & ~0x1fffu;   /* as an H200 does */
        return satfinite ? (a & 0x80000000u) | 0x7f7fe000u : a;
    }
    uint32_t low = a & 0x1fffu, r = a & ~0x1fffu, half = 0x1000u;
    int neg = a >> 31, up = 0;
    switch (mode) {
    case BC_RN: up = low > half || (low == half && (r & 0x2000u)); break;
    case 4: up = low >= half; break;                        /* rna: ties away */
    case BC_RZ: up = 0; break;
    case BC_RM: up = neg && low; break;
    case BC_RP: up = !neg && low; break;
    }
    if (up) r += 0x2000u;
    if (satfinite && (r & 0x7f800000u) == 0x7f800000u) r = (r & 0x80000000u) | 0x7f7fe000u;
    return r;
}

static fp_type ftype(int code) { return code == 16 ? FP_F16 : code == 17 ? FP_BF16 : code == 32 ? FP_F32 : FP_F64; }

/* cvt.{rni,rzi,rmi,rpi} of an f32 or f64 to its own type (rintf, truncf,
 * floorf, ceilf) on the host: with the default rounding (vm_run) the
 * same result as fp_cvt_frint for every number; NaNs differ (the caller
 * redoes them), and .ftz flushes a subnormal, which the caller also
 * redoes. */
static inline float frint_f(float x, fp_rint r)
{
    return r == FP_RNI ? rintf(x) : r == FP_RZI ? truncf(x) : r == FP_RMI ? floorf(x) : ceilf(x);
}
static inline double frint_d(double x, fp_rint r)
{
    return r == FP_RNI ? rint(x) : r == FP_RZI ? trunc(x) : r == FP_RMI ? floor(x) : ceil(x);
}

/* Half-precision handlers behind one signature, chosen once per instruction
 * from (kind, operation): half_fns[kind - BC_K_F16][op - OP_HADD]. */
typedef uint64_t (*half_fn)(uint64_t a, uint64_t b, uint64_t c, int r, int ftz, int sat, int nan);

#define HALF_SET(P, T) \
    static uint64_t P##_add_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)c; (void)n; return P##_add((T)a, (T)b, (fp_rnd)r, f, s); } \
    static uint64_t P##_sub_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)c; (void)n; return P##_sub((T)a, (T)b, (fp_rnd)r, f, s); } \
    static uint64_t P##_mul_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)c; (void)n; return P##_mul((T)a, (T)b, (fp_rnd)r, f, s); } \
    static uint64_t P##_fma_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)n; return P##_fma((T)a, (T)b, (T)c, (fp_rnd)r, f, s); } \
    static uint64_t P##_min_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)c; (void)r; (void)s; return P##_min((T)a, (T)b, f, n); } \
    static uint64_t P##_max_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)c; (void)r; (void)s; return P##_max((T)a, (T)b, f, n); } \
    static uint64_t P##_neg_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)b; (void)c; (void)r; (void)s; (void)n; return P##_neg((T)a, f); } \
    static uint64_t P##_abs_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)b; (void)c; (void)r; (void)s; (void)n; return P##_abs((T)a, f); } \
    static uint64_t P##_ex2_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)b; (void)c; (void)r; (void)f; (void)s; (void)n; return P##_ex2_approx((T)a); } \
    static uint64_t P##_tanh_(uint64_t a, uint64_t b, uint64_t c, int r, int f, int s, int n) { (void)b; (void)c; (void)r; (void)f; (void)s; (void)n; return P##_tanh_approx((T)a); }
/* tanh.approx of both halves */
static uint32_t fp16x2_tanh_approx(uint32_t a) { return fp16_tanh_approx((uint16_t)a) | (uint32_t)fp16_tanh_approx((uint16_t)(a >> 16)) << 16; }
static uint32_t bf16x2_tanh_approx(uint32_t a) { return bf16_tanh_approx((uint16_t)a) | (uint32_t)bf16_tanh_approx((uint16_t)(a >> 16)) << 16; }
HALF_SET(fp16, uint16_t)
HALF_SET(bf16, uint16_t)
HALF_SET(fp16x2, uint32_t)
HALF_SET(bf16x2, uint32_t)
#define HALF_ROW(P) { P##_add_, P##_sub_, P##_mul_, P##_fma_, P##_min_, P##_max_, P##_neg_, P##_abs_, P##_ex2_, P##_tanh_ }
_Static_assert(OP_HEX2_APPROX - OP_HADD == 8 && OP_HTANH_APPROX - OP_HADD == 9 && BC_K_BF16X2 - BC_K_F16 == 3,
               "half op and kind order");
static const half_fn half_fns[4][10] = { HALF_ROW(fp16), HALF_ROW(fp16x2), HALF_ROW(bf16), HALF_ROW(bf16x2) };
/* half_dense_lanes: from how many active lanes the row of a half-precision operation (half_row,
 * over all 32 lanes) costs less than the scalar functions of vm/fp.c and vm/fp_approx.c over
 * the active lanes (measured on Zen 1, docs/PERFORMANCE.md step 99: 60 guarded instructions in
 * a loop, k lanes of each warp active); above BC_WARP (tanh.approx.bf16) the scalar functions
 * win even for a whole warp.  The same for setp of halves (setp_half_dense). */
enum { VM_HALF_DENSE_SETP_PAIR = 5, VM_HALF_DENSE_SETP_ONE = 8 };
static const uint8_t half_dense_at[10][4] = {   /* [op - OP_HADD][kind: f16, f16x2, bf16, bf16x2] */
    { 11, 7, 11, 7 }, { 11, 7, 11, 7 }, { 11, 7, 11, 7 }, { 11, 7, 11, 7 },   /* add sub mul fma */
    { 6, 6, 6, 6 }, { 6, 6, 6, 6 }, { 6, 6, 6, 6 }, { 6, 6, 6, 6 },            /* min max neg abs */
    { 10, 6, 24, 13 },                                                         /* ex2.approx */
    { 14, 9, BC_WARP + 1, 24 },                                                /* tanh.approx */
};
static inline uint32_t half_dense_lanes(const bc_insn *I)
{
    return half_dense_at[I->op - OP_HADD][(I->m2 - BC_K_F16) & 3];
}
/* The whole-warp row (vm/fp_rows.c) of the half-precision instruction I (not fma.relu) on operand
 * rows a, b, c into d: 1, or 0 with nothing written where the combination has none. */
static int half_row(const bc_insn *I, int ftz, int sat, uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    const int k = I->m2 - BC_K_F16, op = I->op - OP_HADD;
    const fp_type kind = k >> 1 ? FP_BF16 : FP_F16;
    return I->op <= OP_HFMA ? I->m1 == BC_RN && fp_half_row(op, kind, k & 1, ftz, sat, d, a, b, c)
                            : fp_half_misc_row(op, kind, k & 1, ftz, I->m3, d, a, b);
}

/* ---- mbarrier objects (8 bytes; the layout is the emulator's, see ops.def) ------------------ */

#define MB_M21 0x1fffffull
static inline uint64_t mb_make(uint64_t pend, uint64_t exp, int64_t tx, uint64_t ph)
{
    return (pend & MB_M21) | (exp & MB_M21) << 21 | ((uint64_t)tx & MB_M21) << 42 | ph << 63;
}
static inline int64_t mb_tx(uint64_t v) { return (int64_t)(v << 1) >> 43; }
/* A phase completes when no arrival and no transaction byte is pending. */
static inline uint64_t mb_settle(uint64_t v)
{
    if ((v & MB_M21) || mb_tx(v)) return v;
    uint64_t exp = (v >> 21) & MB_M21;
    return mb_make(exp, exp, 0, (v >> 63) ^ 1);
}
static inline uint64_t mb_arrive(uint64_t v, uint64_t count, uint64_t tx, int drop, int nocomplete)
{
    uint64_t exp = (v >> 21) & MB_M21;
    if (drop) exp -= count;
    v = mb_make((v & MB_M21) - count, exp, mb_tx(v) + (int64_t)tx, v >> 63);
    return nocomplete ? v : mb_settle(v);
}

/* ---- memory ------------------------------------------------------------------------ */

/* Host pointer for n bytes at shared offset a: inside the CTA's window, or
 * inside the system's reserved area (which lies far beyond any window), else
 * NULL. */
static inline uint8_t *shared_host(const vm_launch *L, vm_cta *cta, uint64_t a, uint64_t n)
{
    if (a <= L->shared_size && n <= L->shared_size - a) return cta->shared + a;
    uint64_t r = a - VM_RESERVED_SMEM_BASE;
    if (r <= VM_RESERVED_SMEM && n <= VM_RESERVED_SMEM - r) return cta->shared + L->shared_size + r;
    return NULL;
}

#ifndef VM_EXEC_VARIANT      /* defined once, in the base compile */
/* Host pointer for an access of n bytes by lane `lane` in `space`, or NULL. */
uint8_t *vm_xlate(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, int space, uint64_t a, uint64_t n, int write)
{
    switch (space) {
    case BC_SP_GLOBAL: {
        int hit = a - L->gc2_base < L->gc2_size && n <= L->gc2_size - (a - L->gc2_base) ? 2 :
                  a - L->gc3_base < L->gc3_size && n <= L->gc3_size - (a - L->gc3_base) ? 3 : 0;
        if (hit) {
            if (hit == 2) vm_gc_swap(L);   /* the allocation hit before the last one */
            else vm_gc_rotate3(L);
            if (L->gc_pa && par_track(L, L->par_tag, L->gc_pa, a - L->gc_base, n, write)) return NULL;
            return L->gc_host + (a - L->gc_base);
        }
        int i = mem_find(L->mem, a, n);
        if (i < 0) return NULL;
        const mem_alloc *al = &L->mem->allocs[i];
        vm_gc_rotate3(L);                  /* the third is dropped for the new one */
        L->gc_base = al->base;
        L->gc_size = al->size;
        L->gc_host = al->host;
        L->gc_pa = NULL;
        if (L->par) {
            L->gc_pa = vm_par_alloc(L->par, i);
            if (par_track(L, L->par_tag, L->gc_pa, a - al->base, n, write)) return NULL;
        }
        return al->host + (a - al->base);
    }
    case BC_SP_SHARED: return shared_host(L, cta, (uint32_t)a, n);   /* .shared addresses are 32-bit */
    case BC_SP_LOCAL: {
        uint64_t ls = L->cfg.local_size;
        if (!(a <= ls && n <= ls - a)) return NULL;
        if (write && a + n > w->local_hw) w->local_hw = a + n;
        return w->local + (uint64_t)lane * L->local_stride + a;
    }
    case BC_SP_CONST:
        if (write) return NULL;
        return a <= L->m->const_size && n <= L->m->const_size - a ? L->const_bank + a : NULL;
    case BC_SP_KPARAM:
        if (write) return NULL;
        return a <= L->cfg.params_size && n <= L->cfg.params_size - a ? (uint8_t *)L->cfg.params + a : NULL;
    default: {
        if (a - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE) return shared_host(L, cta, a - MEM_SHARED_WINDOW, n);
        if (a - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE) return vm_xlate(L, cta, w, lane, BC_SP_LOCAL, a - MEM_LOCAL_WINDOW, n, write);
        if (a - MEM_CONST_WINDOW < MEM_WINDOW_SIZE) return vm_xlate(L, cta, w, lane, BC_SP_CONST, a - MEM_CONST_WINDOW, n, write);
        if (a - MEM_PARAM_WINDOW < MEM_WINDOW_SIZE) return vm_xlate(L, cta, w, lane, BC_SP_KPARAM, a - MEM_PARAM_WINDOW, n, write);
        return vm_xlate(L, cta, w, lane, BC_SP_GLOBAL, a, n, write);
    }
    }
}

void vm_resolve(const vm_launch *L, int space, uint64_t a, int *rspace, uint64_t *raddr)
{
    (void)L;
    *rspace = space;
    *raddr = space == BC_SP_SHARED ? (uint32_t)a : a;   /* a .shared address is 32 bits wide */
    if (space != BC_SP_GENERIC) return;
    static const struct { uint64_t base; int sp; } win[] = {
        { MEM_SHARED_WINDOW, BC_SP_SHARED }, { MEM_LOCAL_WINDOW, BC_SP_LOCAL },
        { MEM_CONST_WINDOW, BC_SP_CONST }, { MEM_PARAM_WINDOW, BC_SP_KPARAM } };
    for (int i = 0; i < 4; i++)
        if (a - win[i].base < MEM_WINDOW_SIZE) { *rspace = win[i].sp; *raddr = a - win[i].base; return; }
    *rspace = BC_SP_GLOBAL;
}

#endif

/* Reports one lane's access to the checker.  Not inlined: its copies in the
 * dispatch loop's memory handlers cost the unrelated handlers 15-25%
 * (mad.lo.s32, bfind, cvt: GCC allocates the one large function's registers
 * anew). */
static __attribute__((noinline)) void hook_access(vm_launch *L, vm_cta *cta, vm_warp *w, int l, uint32_t pc, int space, uint64_t a, uint32_t n, int flags)
{
    int rs = space;
    uint64_t ra = a;
    if (space == BC_SP_SHARED) ra = (uint32_t)a;          /* vm_resolve's answers for these two, inline */
    else if (space != BC_SP_GLOBAL) vm_resolve(L, space, a, &rs, &ra);
    if (rs == BC_SP_CONST || rs == BC_SP_KPARAM) return;
    L->cfg.hooks->access(L->cfg.hooks->ctx, L, cta, w, l, pc, rs, ra, (int)n, flags);
}

/* The common cases of vm_xlate inline: shared memory, and the global
 * allocation hit last. */
static inline __attribute__((always_inline)) uint8_t *xl(vm_launch *L, vm_cta *cta, vm_warp *w, int l, int space, uint64_t a, uint64_t n, int write)
{
    if (space == BC_SP_SHARED) return shared_host(L, cta, (uint32_t)a, n);
    if (space == BC_SP_GLOBAL && a - L->gc_base < L->gc_size && n <= L->gc_size - (a - L->gc_base)) {
        if (L->gc_pa && par_track(L, L->par_tag, L->gc_pa, a - L->gc_base, n, write)) return NULL;
        return L->gc_host + (a - L->gc_base);
    }
    return vm_xlate(L, cta, w, l, space, a, n, write);
}

/* Whether a generic address lies in none of the windows (it is global). */
static inline int generic_is_global(uint64_t a)
{
    return a >= MEM_GLOBAL_BASE || !(a - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE || a - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE ||
                                     a - MEM_CONST_WINDOW < MEM_WINDOW_SIZE || a - MEM_PARAM_WINDOW < MEM_WINDOW_SIZE);
}

/* Records that bytes [0, end) of each lane's local memory may have been written. */
static inline void local_wrote(vm_warp *w, uint64_t end)
{
    if (end > w->local_hw) w->local_hw = end;
}

/* A parallel launch: each global word's owner, before group_base's access
 * (-1 on a conflict, for the per-lane path to report). */
static __attribute__((noinline)) int group_note(vm_launch *L, struct par_alloc *pa, const uint64_t *R, uint32_t m,
                                                uint32_t as, uint64_t rel, uint32_t tot, int write)
{
    if (m == FULL) {                   /* lanes side by side: one row, or (16-wide 2-D blocks) one per half warp */
        const uint64_t *ra = R + as;
        uint64_t e = ra[0], d = 0;
        for (int l = 0; l < BC_WARP; l++, e += tot) d |= ra[l] ^ e;
        if (!d) {
            /* (a read-only buffer has no shadow: its write goes to par_track_row, which stops the launch) */
            if (!pa->ro && par_row_steady(pa, L->par_tag, ra[0] + rel, 32ull * tot, write)) return 0;
            return par_track_row(L, L->par_tag, pa, ra[0] + rel, 32ull * tot, write);
        }
        uint64_t e0 = ra[0], e1 = ra[16];
        d = 0;
        for (int l = 0; l < 16; l++, e0 += tot, e1 += tot) d |= (ra[l] ^ e0) | (ra[16 + l] ^ e1);
        if (!d)
            return par_track_row(L, L->par_tag, pa, ra[0] + rel, 16ull * tot, write) ||
                   par_track_row(L, L->par_tag, pa, ra[16] + rel, 16ull * tot, write) ? -1 : 0;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1)
        if (par_track(L, L->par_tag, pa, R[as + (uint32_t)__builtin_ctz(mm)] + rel, tot, write)) return -1;
    return 0;
}

/* The fast path of a memory access by the lanes m (no access hook): when
 * every lane's address a + imm is aligned to tot and lies, with its tot
 * bytes, in one region that needs no per-lane lookup (shared memory, the
 * global allocation hit last, local memory, the const bank, the parameter
 * buffer), sets *hb so that lane l's host pointer is hb + a + l * *stride and
 * returns 1.  Else 0: the per-lane path decides, faults included. */
/* group_base's range check of a partial group: nonzero when a lane's
 * address ra[l] + imm lies outside [off, off + lim]; *any = the addresses
 * or'ed together.  Not inlined: in the dispatch loop the lane mask would
 * live on the stack, and each step of the loop would wait for the last. */
static __attribute__((noinline)) uint64_t group_check(const uint64_t *ra, uint32_t m, uint64_t imm, uint64_t off, uint64_t lim,
                                                      uint64_t *any)
{
    uint64_t bad = 0, o = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint64_t a = ra[__builtin_ctz(mm)] + imm;
        bad |= a - off > lim;
        o |= a;
    }
    *any = o;
    return bad;
}

/* group_base of a whole warp whose 8-lane groups each lie side by side (`side`: the lanes
 * of a group tot bytes apart, row_side_by_side): only each group's first and last address
 * are checked, as its alignment is its first one's. */
static inline __attribute__((always_inline)) int group_base_shape(vm_launch *L, vm_cta *cta, vm_warp *w, const uint64_t *R,
                                                                  uint32_t m, uint32_t as, uint64_t imm, int space, uint32_t tot,
                                                                  int write, uintptr_t *hb, uint64_t *stride, int side);
static inline __attribute__((always_inline)) int group_base(vm_launch *L, vm_cta *cta, vm_warp *w, const uint64_t *R, uint32_t m, uint32_t as,
                             uint64_t imm, int space, uint32_t tot, int write, uintptr_t *hb, uint64_t *stride)
{
    return group_base_shape(L, cta, w, R, m, as, imm, space, tot, write, hb, stride, 0);
}
static inline __attribute__((always_inline)) int group_base_shape(vm_launch *L, vm_cta *cta, vm_warp *w, const uint64_t *R,
                                                                  uint32_t m, uint32_t as, uint64_t imm, int space, uint32_t tot,
                                                                  int write, uintptr_t *hb, uint64_t *stride, int side)
{
    if (!m) return 0;
    uint64_t a0 = R[as + (uint32_t)__builtin_ctz(m)] + imm;   /* the lowest lane picks the region */
    uint64_t off = 0, size = 0;
    const uint8_t *host = NULL;
    struct par_alloc *pa = NULL;       /* a parallel launch's record of the global buffer */
    *stride = 0;
    if (space == BC_SP_GENERIC) {      /* windows lie below the global base and are disjoint */
        if (a0 >= MEM_GLOBAL_BASE || a0 < MEM_PARAM_WINDOW) space = BC_SP_GLOBAL;   /* below: host-mapped space */
        else if (a0 - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE) space = BC_SP_SHARED, off = MEM_SHARED_WINDOW;
        else if (a0 - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE) space = BC_SP_LOCAL, off = MEM_LOCAL_WINDOW;
        else return 0;
    }
    switch (space) {
    case BC_SP_SHARED: host = cta->shared; size = L->shared_size; break;
    case BC_SP_GLOBAL:
        if (a0 - L->gc_base >= L->gc_size && a0 - L->gc2_base < L->gc2_size) {
            /* two buffers in turn (a tile's two operands): the second, not swapped to the front */
            host = L->gc2_host; size = L->gc2_size; off = L->gc2_base; pa = L->gc2_pa;
            break;
        }
        if (a0 - L->gc_base >= L->gc_size && a0 - L->gc3_base < L->gc3_size) vm_gc_rotate3(L);
        host = L->gc_host; size = L->gc_size; off = L->gc_base; pa = L->gc_pa; break;
    case BC_SP_LOCAL: host = w->local; size = L->cfg.local_size; *stride = L->local_stride; break;
    case BC_SP_CONST: if (write) return 0; host = L->const_bank; size = L->m->const_size; break;
    case BC_SP_KPARAM: if (write) return 0; host = L->cfg.params; size = L->cfg.params_size; break;
    default: return 0;
    }
    if (!host || tot > size) return 0;
    uint64_t lim = size - tot, bad = 0, any = 0;
    if (m == FULL && side) {
        if (lim < 7ull * tot) return 0;
        const uint64_t glim = lim - 7ull * tot;  /* a group's first address at most this: its last at most lim */
        for (int g = 0; g < BC_WARP; g += 8) {
            uint64_t a = (R + as)[g] + imm - off;
            bad |= 0 - (uint64_t)(a > glim);
            any |= a + off;
        }
    } else if (m == FULL) {
        for (int l = 0; l < BC_WARP; l++) {
            uint64_t a = (R + as)[l] + imm;       /* a pointer, not R[as + l]: GCC then sees one row, not a gather */
            /* an address of another region wraps or lands far above lim; all ones, not 1, so that
             * GCC ors the compares' masks together instead of chaining blends of 1 */
            bad |= 0 - (uint64_t)(a - off > lim);
            any |= a;
        }
    } else bad = group_check(R + as, m, imm, off, lim, &any);
    if (bad || (any & (tot - 1))) return 0;
    if (__builtin_expect(pa != NULL, 0) && (write || !pa->ro) && group_note(L, pa, R, m, as, imm - off, tot, write))
        return 0;
    if (space == BC_SP_LOCAL && write)   /* the lanes' offsets or'ed together bound the highest one */
        local_wrote(w, (any - off) + tot < size ? (any - off) + tot : size);
    *hb = (uintptr_t)host - (uintptr_t)off;
    return 1;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <xmmintrin.h>

/* The host's rounding and flush modes (MXCSR's RC, DAZ and FTZ bits).  With RC set to
 * PTX's .rn/.rz/.rm/.rp, SSE/AVX arithmetic rounds as the PTX instruction does (IEEE);
 * with DAZ and FTZ set too, it is PTX's .ftz: subnormal operands read as their signed
 * zeros (DAZ, compares too), and a result that is tiny after rounding with an unbounded
 * exponent becomes its signed zero (FTZ: x86 detects tininess after rounding, and sm_90
 * flushes by that rule too, tests/fp's ftz_probe).  tests/fp/host_modes.c checks the host
 * in each mode against vm/fp.c, around the tininess bound for .ftz.  host_fp_on returns
 * the MXCSR that host_fp_off restores; nothing that calls vm/fp.c may run between (it
 * assumes the default mode).  GCC does not know that vector arithmetic reads MXCSR: the
 * memory barriers keep every load of the operands after the set and every store of a
 * result before the restore, which pins the arithmetic between. */
enum { MXCSR_DAZ = 1u << 6, MXCSR_FTZ = 1u << 15, MXCSR_RC = 3u << 13 };
static inline uint32_t host_fp_on(fp_rnd r, int ftz)
{
    static const uint32_t rc[4] = { [FP_RN] = 0, [FP_RZ] = 3u << 13, [FP_RM] = 1u << 13, [FP_RP] = 2u << 13 };
    uint32_t s = _mm_getcsr();
    _mm_setcsr((s & ~MXCSR_RC) | rc[r & 3] | (ftz ? MXCSR_DAZ | MXCSR_FTZ : 0));
    __asm__ volatile("" ::: "memory");
    return s;
}
static inline void host_fp_off(uint32_t s)
{
    __asm__ volatile("" ::: "memory");
    _mm_setcsr(s);
}
#endif
enum { FPX_ADD, FPX_SUB, FPX_MUL, FPX_FMA, FPX_DIV };    /* the operations of the rows and lanes run in a host mode */

#if defined(__AVX2__)
#include <immintrin.h>

/* Whole-warp rows of the 32-bit multiplies, shifts and min/max and of the
 * wide multiplies (from 32 and 16 bits), with the AVX2 instructions that
 * take each 64-bit lane's low word (vpmuludq, vpmuldq, vpsllvq, vpsrlvq,
 * vpsravd, vpmin/vpmax on 32-bit lanes): the same bits as the lane
 * expressions (ALU_MUL_32, ...) for any 64-bit operands.  GCC
 * vectorises those expressions by narrowing every operand to 32-bit lanes
 * and widening the result back (cross-lane shuffles, 8 micro-ops each on
 * AMD's Zen 1) or builds 64-bit multiplies from three vpmuludq.  Lanes are
 * read before they are written, so d may be any operand; c is read only by
 * the kinds that take it. */
enum { ROW_MUL_32, ROW_MAD_32, ROW_SHL_32, ROW_SHR_U32, ROW_SHR_S32, ROW_MULHI_S32, ROW_MULHI_U32, ROW_MADHI_S32, ROW_MADHI_U32,
       ROW_MULWIDE_S32, ROW_MULWIDE_U32, ROW_MADWIDE_S32, ROW_MADWIDE_U32, ROW_MULWIDE_S16, ROW_MULWIDE_U16,
       ROW_MIN_S32, ROW_MIN_U32, ROW_MAX_S32, ROW_MAX_U32 };
static inline __attribute__((always_inline)) void row32(int k, uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                        const uint64_t *c)
{
    const __m256i m32 = _mm256_set1_epi64x(0xffffffff);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + l)), y = _mm256_loadu_si256((const __m256i *)(b + l)), r;
        switch (k) {
        case ROW_MUL_32: r = _mm256_and_si256(_mm256_mul_epu32(x, y), m32); break;
        case ROW_MAD_32:
            r = _mm256_and_si256(_mm256_add_epi64(_mm256_mul_epu32(x, y), _mm256_loadu_si256((const __m256i *)(c + l))), m32);
            break;
        /* counts of 32..63 shift every low-word bit out; vpsllvq/vpsrlvq give 0 from 64 on */
        case ROW_SHL_32: r = _mm256_and_si256(_mm256_sllv_epi64(x, _mm256_and_si256(y, m32)), m32); break;
        case ROW_SHR_U32: r = _mm256_srlv_epi64(_mm256_and_si256(x, m32), _mm256_and_si256(y, m32)); break;
        /* each low word shifted by its own count's low word, over 31 as 31 (vpsravd's rule) */
        case ROW_SHR_S32: r = _mm256_and_si256(_mm256_srav_epi32(x, y), m32); break;
        case ROW_MULHI_S32: r = _mm256_srli_epi64(_mm256_mul_epi32(x, y), 32); break;
        case ROW_MULHI_U32: r = _mm256_srli_epi64(_mm256_mul_epu32(x, y), 32); break;
        case ROW_MADHI_S32: case ROW_MADHI_U32:
            r = _mm256_srli_epi64(k == ROW_MADHI_S32 ? _mm256_mul_epi32(x, y) : _mm256_mul_epu32(x, y), 32);
            r = _mm256_and_si256(_mm256_add_epi64(r, _mm256_loadu_si256((const __m256i *)(c + l))), m32);
            break;
        case ROW_MULWIDE_S32: r = _mm256_mul_epi32(x, y); break;
        case ROW_MULWIDE_U32: r = _mm256_mul_epu32(x, y); break;
        case ROW_MADWIDE_S32: r = _mm256_add_epi64(_mm256_mul_epi32(x, y), _mm256_loadu_si256((const __m256i *)(c + l))); break;
        /* min/max of the low words, compared as 32-bit lanes (the high words' result dropped) */
        case ROW_MIN_S32: r = _mm256_and_si256(_mm256_min_epi32(x, y), m32); break;
        case ROW_MIN_U32: r = _mm256_and_si256(_mm256_min_epu32(x, y), m32); break;
        case ROW_MAX_S32: r = _mm256_and_si256(_mm256_max_epi32(x, y), m32); break;
        case ROW_MAX_U32: r = _mm256_and_si256(_mm256_max_epu32(x, y), m32); break;
        /* 16-bit operands: the low halfword, zero- or sign-extended within the low word */
        case ROW_MULWIDE_U16: {
            const __m256i m16 = _mm256_set1_epi64x(0xffff);
            r = _mm256_mul_epu32(_mm256_and_si256(x, m16), _mm256_and_si256(y, m16));
            break;
        }
        case ROW_MULWIDE_S16:
            r = _mm256_and_si256(_mm256_mul_epi32(_mm256_srai_epi32(_mm256_slli_epi32(x, 16), 16),
                                                  _mm256_srai_epi32(_mm256_slli_epi32(y, 16), 16)), m32);
            break;
        case ROW_MADWIDE_U32:
        default: r = _mm256_add_epi64(_mm256_mul_epu32(x, y), _mm256_loadu_si256((const __m256i *)(c + l))); break;
        }
        _mm256_storeu_si256((__m256i *)(d + l), r);
    }
}

/* cvt's sign extension from 1..32 bits for a whole warp, masked by mk: the low word
 * sign-extended within itself, its sign copied into the high word (no 64-bit arithmetic
 * shift in AVX2: GCC's sext() takes several shuffles per 4 lanes); sext(a, bits) & mk. */
static inline void sext_row(uint64_t *d, const uint64_t *a, int bits, uint64_t mk)
{
    const __m128i sh = _mm_cvtsi32_si128(32 - bits);
    const __m256i vmk = _mm256_set1_epi64x((long long)mk);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i lo = _mm256_sra_epi32(_mm256_sll_epi32(_mm256_loadu_si256((const __m256i *)(a + l)), sh), sh);
        __m256i hi = _mm256_shuffle_epi32(_mm256_srai_epi32(lo, 31), 0xa0);   /* words 0,0,2,2: each low word's sign */
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(_mm256_blend_epi32(lo, hi, 0xaa), vmk));
    }
}

/* bfi.b32 for a whole warp, 4 lanes per AVX2 operation (GCC does not
 * vectorise bfi's 1 << n): the same result as bfi(..., 32) per lane. */
static inline void bfi32_row(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *e)
{
    const __m256i one = _mm256_set1_epi64x(1), byte = _mm256_set1_epi64x(0xff), w32 = _mm256_set1_epi64x(32);
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256i pos = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(c + k)), byte);
        __m256i len = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(e + k)), byte);
        __m256i in = _mm256_cmpgt_epi64(w32, pos);                      /* pos < 32 */
        __m256i room = _mm256_sub_epi64(w32, pos);
        __m256i n = _mm256_and_si256(_mm256_blendv_epi8(len, room, _mm256_cmpgt_epi64(len, room)), in);
        __m256i sh = _mm256_and_si256(pos, in);
        __m256i mask = _mm256_sllv_epi64(_mm256_sub_epi64(_mm256_sllv_epi64(one, n), one), sh);
        __m256i va = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + k)), _mm256_set1_epi64x(0xffffffff));
        __m256i vb = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(b + k)), _mm256_set1_epi64x(0xffffffff));
        __m256i r = _mm256_or_si256(_mm256_andnot_si256(mask, vb), _mm256_and_si256(_mm256_sllv_epi64(va, sh), mask));
        _mm256_storeu_si256((__m256i *)(d + k), r);
    }
}
#endif

#if defined(__AVX2__)
/* prmt's default mode for a whole warp whose selector c is a constant with
 * no sign-replicating nibble: one byte shuffle of each lane's b:a (4 lanes
 * per AVX2 operation), the same result as prmt0 per lane. */
static inline void prmt0_row(uint64_t *d, const uint64_t *a, const uint64_t *b, uint32_t c)
{
    /* per 64-bit lane: result bytes 0..3 are bytes (c >> 4k) & 7 of b:a (of the lane's half of
     * the 128-bit row: + 8 in the odd lanes), bytes 4..7 are zero (index bit 7 set) */
    uint64_t q0 = (_pdep_u32(c, 0x0f0f0f0fu) & 0x07070707u) | 0x8080808000000000ull, q1 = q0 + 0x08080808u;
    const __m256i sel = _mm256_set_epi64x((long long)q1, (long long)q0, (long long)q1, (long long)q0);
    const __m256i lo = _mm256_set1_epi64x(0xffffffff);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i va = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + l)), lo);
        __m256i vb = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), 32);
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_shuffle_epi8(_mm256_or_si256(va, vb), sel));
    }
}

/* prmt's default mode for a whole warp with any selectors (a register, sign-
 * replicating nibbles): each lane's nibbles spread to bytes become its byte
 * shuffle of b:a, and the bytes whose nibble has bit 3 take their sign; the
 * same result as prmt0 per lane. */
static inline void prmt0_var_row(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff), n8 = _mm256_set1_epi64x(0x08080808);
    const __m256i m00ff = _mm256_set1_epi64x(0x00ff00ff), m0f = _mm256_set1_epi64x(0x0f0f0f0f), m07 = _mm256_set1_epi64x(0x07070707);
    /* the odd lane of each 128-bit half picks from bytes 8..15; bytes 4..7 of a lane are zero */
    const __m256i half = _mm256_set_epi64x((long long)0x8080808008080808ull, (long long)0x8080808000000000ull,
                                           (long long)0x8080808008080808ull, (long long)0x8080808000000000ull);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i t = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(c + l)), _mm256_set1_epi64x(0xffff));
        __m256i y = _mm256_and_si256(_mm256_or_si256(t, _mm256_slli_epi64(t, 8)), m00ff);
        __m256i z = _mm256_and_si256(_mm256_or_si256(y, _mm256_slli_epi64(y, 4)), m0f);   /* byte k: nibble k */
        __m256i idx = _mm256_or_si256(_mm256_and_si256(z, m07), half);
        __m256i sg = _mm256_cmpeq_epi8(_mm256_and_si256(z, n8), n8);
        __m256i va = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + l)), lo);
        __m256i vb = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), 32);
        __m256i r = _mm256_shuffle_epi8(_mm256_or_si256(va, vb), idx);
        r = _mm256_blendv_epi8(r, _mm256_cmpgt_epi8(_mm256_setzero_si256(), r), sg);
        _mm256_storeu_si256((__m256i *)(d + l), r);
    }
}

/* popc of a whole warp's 64-bit slots (mask32: the low 32 bits only), 4 lanes per AVX2
 * operation: a nibble table through a byte shuffle, the bytes summed per lane. */
static inline void popc_row(uint64_t *d, const uint64_t *a, int mask32)
{
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                           0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i nib = _mm256_set1_epi8(0x0f), keep = _mm256_set1_epi64x(mask32 ? 0xffffffffll : -1ll);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + l)), keep);
        __m256i c = _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(v, nib)),
                                    _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)));
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_sad_epu8(c, _mm256_setzero_si256()));
    }
}

/* clz.b32 of a whole warp, 4 lanes per AVX2 operation: each value made a double exactly (2^52
 * plus it, minus 2^52), whose exponent is its leading bit (AVX2 has no vector lzcnt); 0 gives 32. */
static inline void clz32_row(uint64_t *d, const uint64_t *a)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff), two52 = _mm256_set1_epi64x(0x4330000000000000);
    const __m256i c1054 = _mm256_set1_epi64x(1023 + 31), c32 = _mm256_set1_epi64x(32), zero = _mm256_setzero_si256();
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + l)), lo);
        __m256i dv = _mm256_castpd_si256(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, two52)), _mm256_castsi256_pd(two52)));
        __m256i n = _mm256_sub_epi64(c1054, _mm256_srli_epi64(dv, 52));         /* 31 - leading bit */
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_blendv_epi8(n, c32, _mm256_cmpeq_epi64(v, zero)));
    }
}

/* 8 floats with the subnormal ones flushed to their signed zeros (PTX's .ftz on an
 * operand): an exponent of 0 keeps the sign bit only. */
static inline __m256i ftz_in8(__m256i v)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i tiny = _mm256_cmpeq_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0x7f800000)), zero);
    return _mm256_andnot_si256(_mm256_and_si256(tiny, _mm256_set1_epi32(0x7fffffff)), v);
}

/* The sign of vminps/vminpd's (vmaxps/vmaxpd's) result r of x and y set from the operands'
 * signs (sign: each element's sign bit): a min of non-NaNs is negative when either operand
 * is, a max when both are.  This fixes the one case the host gets wrong, a tie of zeros
 * (it returns the second operand), and changes no other result. */
static inline __m256i minmax_sign(__m256i r, __m256i x, __m256i y, __m256i sign, int ismax)
{
    return ismax ? _mm256_andnot_si256(_mm256_andnot_si256(_mm256_and_si256(x, y), sign), r)
                 : _mm256_or_si256(r, _mm256_and_si256(_mm256_or_si256(x, y), sign));
}

/* min/max{.ftz}{.NaN}.f32 of a whole warp, as fp32_min/fp32_max (vm/fp.c) compute them, on
 * the slots as they are (4 slots are 8 floats, the odd ones the high words, masked off):
 * vminps/vmaxps with minmax_sign's fix for a tie of zeros, then the NaN rules (one NaN:
 * the other operand; both, or either under .NaN: the canonical NaN).  .ftz flushes subnormal
 * operands to their signed zeros first.  d may be an operand. */
static __attribute__((noinline)) void minmax_f32_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int nan_mode,
                                                     int ismax, int ftz)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff), sign = _mm256_set1_epi32((int)0x80000000u);
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    const __m256 nanm = _mm256_castsi256_ps(nan_mode ? _mm256_set1_epi32(-1) : _mm256_setzero_si256()), canon = _mm256_castsi256_ps(mag);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i xi = _mm256_loadu_si256((const __m256i *)(a + l)), yi = _mm256_loadu_si256((const __m256i *)(b + l));
        if (ftz) xi = ftz_in8(xi), yi = ftz_in8(yi);
        __m256 x = _mm256_castsi256_ps(xi), y = _mm256_castsi256_ps(yi);
        __m256 na = _mm256_cmp_ps(x, x, _CMP_UNORD_Q), nb = _mm256_cmp_ps(y, y, _CMP_UNORD_Q);
        __m256i ri = _mm256_castps_si256(ismax ? _mm256_max_ps(x, y) : _mm256_min_ps(x, y));
        ri = minmax_sign(ri, xi, yi, sign, ismax);
        __m256 r = _mm256_blendv_ps(_mm256_castsi256_ps(ri), y, na);
        r = _mm256_blendv_ps(r, x, nb);
        r = _mm256_blendv_ps(r, canon, _mm256_or_ps(_mm256_and_ps(na, nb), _mm256_and_ps(_mm256_or_ps(na, nb), nanm)));
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(_mm256_castps_si256(r), lo));
    }
}

/* min/max.f64 of a whole warp, as fp64_min/fp64_max: minmax_f32_row's method on doubles
 * (vminpd/vmaxpd, the sign of a tie of zeros from the operands', then the NaN rules: one
 * NaN gives the other operand, two give b quieted, as the H200 does).  d may be an operand. */
static __attribute__((noinline)) void minmax_f64_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int ismax)
{
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    const __m256i quiet = _mm256_set1_epi64x(0x0008000000000000);
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i xi = _mm256_loadu_si256((const __m256i *)(a + l)), yi = _mm256_loadu_si256((const __m256i *)(b + l));
        __m256d x = _mm256_castsi256_pd(xi), y = _mm256_castsi256_pd(yi);
        __m256d na = _mm256_cmp_pd(x, x, _CMP_UNORD_Q), nb = _mm256_cmp_pd(y, y, _CMP_UNORD_Q);
        __m256i ri = _mm256_castpd_si256(ismax ? _mm256_max_pd(x, y) : _mm256_min_pd(x, y));
        ri = minmax_sign(ri, xi, yi, sign, ismax);
        __m256d r = _mm256_blendv_pd(_mm256_castsi256_pd(ri), y, na);
        r = _mm256_blendv_pd(r, x, nb);
        r = _mm256_blendv_pd(r, _mm256_castsi256_pd(_mm256_or_si256(yi, quiet)), _mm256_and_pd(na, nb));
        _mm256_storeu_pd((double *)(d + l), r);
    }
}

/* setp.lt.s32 (le = 0) or setp.le.s32 (le = 1) of a whole warp: vpcmpgtd
 * compares the low words of the slots as signed 32-bit values (the high
 * words' results are masked off with the 1 in each slot), where the 64-bit
 * form shifts both operands to the top first: 5 operations per 4 lanes
 * instead of 7.  lt is b > a, le !(a > b).  Unrolled in full: the dispatch
 * loop's copy, unrolled by 4 as -funroll-loops does, came to pass every
 * other vector through the stack after unrelated handlers changed
 * (setp.lt.s32 2,000 -> 1,260 M lane-instructions/s on AMD's Zen 1). */
static inline void setp_s32_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int le)
{
    const __m256i one = _mm256_set1_epi64x(1), flip = _mm256_set1_epi64x(le);
    const uint64_t *p = le ? a : b, *q = le ? b : a;
#pragma GCC unroll 8
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(p + l)), y = _mm256_loadu_si256((const __m256i *)(q + l));
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_xor_si256(_mm256_and_si256(_mm256_cmpgt_epi32(x, y), one), flip));
    }
}

/* setp.cmp.f32 of a whole warp on the 64-bit slots as they are: 4 slots are 8 floats,
 * the odd ones the high words, whose results the 1 in each slot masks off (GCC's loop of
 * f32(A) < f32(B) narrows every operand with cross-lane shuffles).  Each PTX compare is one
 * vcmpps predicate: the ordered ones (_OQ) false, the unordered ones (_UQ) true on a NaN. */
static __attribute__((noinline)) void setp_f32_row(int cmp, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    const __m256i one = _mm256_set1_epi64x(1);
#define SETP_F32_CASE(k, pred) case k: \
        for (int l = 0; l < BC_WARP; l += 4) { \
            __m256 x = _mm256_loadu_ps((const float *)(a + l)), y = _mm256_loadu_ps((const float *)(b + l)); \
            _mm256_storeu_si256((__m256i *)(d + l), _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(x, y, pred)), one)); \
        } \
        break;
    switch (cmp) {
    SETP_F32_CASE(BC_CMP_EQ, _CMP_EQ_OQ) SETP_F32_CASE(BC_CMP_NE, _CMP_NEQ_OQ)
    SETP_F32_CASE(BC_CMP_LT, _CMP_LT_OQ) SETP_F32_CASE(BC_CMP_LE, _CMP_LE_OQ)
    SETP_F32_CASE(BC_CMP_GT, _CMP_GT_OQ) SETP_F32_CASE(BC_CMP_GE, _CMP_GE_OQ)
    SETP_F32_CASE(BC_CMP_EQU, _CMP_EQ_UQ) SETP_F32_CASE(BC_CMP_NEU, _CMP_NEQ_UQ)
    SETP_F32_CASE(BC_CMP_LTU, _CMP_NGE_UQ) SETP_F32_CASE(BC_CMP_LEU, _CMP_NGT_UQ)
    SETP_F32_CASE(BC_CMP_GTU, _CMP_NLE_UQ) SETP_F32_CASE(BC_CMP_GEU, _CMP_NLT_UQ)
    SETP_F32_CASE(BC_CMP_NUM, _CMP_ORD_Q) default: SETP_F32_CASE(BC_CMP_NAN, _CMP_UNORD_Q)
    }
#undef SETP_F32_CASE
}
/* setp.cmp.ftz.f32 of a whole warp: setp_f32_row in the host's .ftz mode, host_fp_on (DAZ compares a
 * subnormal operand as zero; tests/fp/host_modes.c). */
static void setp_f32_ftz_row(int cmp, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    const uint32_t csr = host_fp_on(FP_RN, 1);
    setp_f32_row(cmp, d, a, b);
    host_fp_off(csr);
}

/* cvt.r{n,z,m,p}i{.ftz}.f32.f32 of a whole warp: vroundps on the slots as they are (the odd
 * floats are the high words, masked off), into a row of its own, then fp_cvt_frint for the
 * lanes the host cannot do (a NaN: the canonical one; .ftz and a subnormal: its signed
 * zero), then d (which may be a).  GCC's loop of rintf(f32(A)) narrows every operand. */
static __attribute__((noinline)) void frint32_row(uint64_t *d, const uint64_t *a, fp_rint r, int flags)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff), expo = _mm256_set1_epi32(0x7f800000), zero = _mm256_setzero_si256();
    const __m256i mant = _mm256_set1_epi32(0x7fffff);
    uint64_t t[BC_WARP];
    uint32_t bad = 0;
#define FRINT32_CASE(k, imm) case k: \
        for (int l = 0; l < BC_WARP; l += 4) { \
            __m256i v = _mm256_loadu_si256((const __m256i *)(a + l)); \
            __m256 x = _mm256_castsi256_ps(v); \
            __m256i b = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)); \
            if (flags) b = _mm256_or_si256(b, _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(v, mant), zero), \
                                                                  _mm256_cmpeq_epi32(_mm256_and_si256(v, expo), zero))); \
            bad |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64(b, 32))) << l; \
            _mm256_storeu_si256((__m256i *)(t + l), _mm256_and_si256(_mm256_castps_si256(_mm256_round_ps(x, imm)), lo)); \
        } \
        break;
    switch (r) {
    FRINT32_CASE(FP_RNI, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
    FRINT32_CASE(FP_RZI, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
    FRINT32_CASE(FP_RMI, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
    default: FRINT32_CASE(FP_RPI, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)
    }
#undef FRINT32_CASE
    for (; bad; bad &= bad - 1) {
        int l = __builtin_ctz(bad);
        t[l] = fp_cvt_frint(a[l] & 0xffffffffu, FP_F32, r, flags);
    }
    memcpy(d, t, sizeof t);
}
#endif

#if defined(__AVX2__)
/* f32 add, sub, mul and fma (.rn, no .ftz or .sat) of a whole warp on the
 * 64-bit slots as they are: narrow values are stored zero-extended, so 4
 * slots are 8 floats whose odd ones are +0.  The odd results are masked off
 * and a NaN becomes 0x7fffffff, as canon32 does: the same bits as the scalar
 * loop, without narrowing each operand to packed floats and widening back. */
enum { F32_ROW_ADD, F32_ROW_SUB, F32_ROW_MUL, F32_ROW_DIV };
static inline void f32_row_store(uint64_t *d, __m256 r)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff), qnan = _mm256_set1_epi64x(0x7fffffff);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q));
    __m256i v = _mm256_blendv_epi8(_mm256_castps_si256(r), qnan, nan);
    _mm256_storeu_si256((__m256i *)d, _mm256_and_si256(v, lo));
}
static inline __m256 f32_row_load(const uint64_t *s) { return _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)s)); }
static inline void f32_row(int op, uint64_t *d, const uint64_t *a, const uint64_t *b)
{
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 x = f32_row_load(a + k), y = f32_row_load(b + k);
        f32_row_store(d + k, op == F32_ROW_ADD ? _mm256_add_ps(x, y) : op == F32_ROW_SUB ? _mm256_sub_ps(x, y)
                           : op == F32_ROW_MUL ? _mm256_mul_ps(x, y) : _mm256_div_ps(x, y));   /* 0/0 in the high words: masked */
    }
}
__attribute__((target("fma"))) static void fma32_row(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    for (int k = 0; k < BC_WARP; k += 4)
        f32_row_store(d + k, _mm256_fmadd_ps(f32_row_load(a + k), f32_row_load(b + k), f32_row_load(c + k)));
}
/* sqrt.rn of a whole warp's f32 (packed as f32_row does) or f64 slots into
 * t[]: the host's correctly rounded root; 1 when some lane is a NaN (a
 * negative or NaN operand), for the caller to redo those lanes in vm/fp.c. */
static inline int sqrt32_row(uint64_t *t, const uint64_t *a)
{
    const __m256i low = _mm256_set1_epi64x(0xffffffff);
    __m256 nan = _mm256_setzero_ps();
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 r = _mm256_sqrt_ps(f32_row_load(a + k));
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
        _mm256_storeu_si256((__m256i *)(t + k), _mm256_and_si256(_mm256_castps_si256(r), low));
    }
    return _mm256_movemask_ps(nan) != 0;
}
/* 1/x (rcp) of a whole warp's f32 slots into t[], as sqrt32_row: 1 when some lane is a NaN
 * (the odd floats, 1/+0, are inf and masked off). */
static inline int rcp32_row(uint64_t *t, const uint64_t *a)
{
    const __m256i low = _mm256_set1_epi64x(0xffffffff);
    const __m256 one = _mm256_set1_ps(1.0f);
    __m256 nan = _mm256_setzero_ps();
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 r = _mm256_div_ps(one, f32_row_load(a + k));
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
        _mm256_storeu_si256((__m256i *)(t + k), _mm256_and_si256(_mm256_castps_si256(r), low));
    }
    return (_mm256_movemask_ps(nan) & 0x55) != 0;
}
/* sqrt or rcp.f32 (unary: F32U_*) of a whole warp with rounding r and .ftz: the row, in
 * that host mode unless .rn without .ftz, then vm/fp.c, after the mode is restored, for
 * the NaN lanes (negative operands, NaNs).  d may be a. */
enum { F32U_SQRT, F32U_RCP };
static void f32_unary_row(int op, fp_rnd r, int ftz, uint64_t *d, const uint64_t *a)
{
    uint64_t t[BC_WARP];
    const int plain = r == FP_RN && !ftz;
    const uint32_t csr = plain ? 0 : host_fp_on(r, ftz);
    int nan = op == F32U_SQRT ? sqrt32_row(t, a) : rcp32_row(t, a);
    if (!plain) host_fp_off(csr);
    if (nan)
        for (int l = 0; l < BC_WARP; l++)
            if ((t[l] & 0x7fffffffu) > 0x7f800000u) {
                uint32_t x = (uint32_t)a[l];
                t[l] = op == F32U_SQRT ? fp32_sqrt(x, r, ftz) : fp32_rcp(x, r, ftz);
            }
    memcpy(d, t, sizeof t);
}
static inline int sqrt64_row(uint64_t *t, const uint64_t *a)
{
    __m256d nan = _mm256_setzero_pd();
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256d r = _mm256_sqrt_pd(_mm256_loadu_pd((const double *)(a + k)));
        nan = _mm256_or_pd(nan, _mm256_cmp_pd(r, r, _CMP_UNORD_Q));
        _mm256_storeu_pd((double *)(t + k), r);
    }
    return _mm256_movemask_pd(nan) != 0;
}

/* cvt.rzi.s32.f32 of a whole warp into t[] (zero-extended): 1 when every
 * lane is in range (not NaN, -2^31 <= x < 2^31), else 0 for the caller's
 * per-lane path (t[] then holds 0 for those lanes). */
static inline int f2i32_rzi_row(uint64_t *t, const uint64_t *a)
{
    const __m256 lo = _mm256_set1_ps(-2147483648.0f), hi = _mm256_set1_ps(2147483648.0f);
    const __m256i low = _mm256_set1_epi64x(0xffffffff);
    __m256i allok = _mm256_set1_epi32(-1);
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 x = f32_row_load(a + k);                  /* odd floats are +0: in range */
        __m256i ok = _mm256_castps_si256(_mm256_and_ps(_mm256_cmp_ps(x, lo, _CMP_GE_OQ), _mm256_cmp_ps(x, hi, _CMP_LT_OQ)));
        allok = _mm256_and_si256(allok, ok);
        _mm256_storeu_si256((__m256i *)(t + k), _mm256_and_si256(_mm256_and_si256(_mm256_cvttps_epi32(x), ok), low));
    }
    return _mm256_testc_si256(allok, _mm256_set1_epi32(-1));
}

/* fma.rn.f64 of a whole warp: the FMA unit's result, vm/fp.c's for NaN lanes
 * (the canonical NaN); d is written last, so it may be an operand. */
__attribute__((target("fma"))) static void fma64_row(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    uint64_t t[BC_WARP];
    __m256d nan = _mm256_setzero_pd();
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256d r = _mm256_fmadd_pd(_mm256_loadu_pd((const double *)(a + k)), _mm256_loadu_pd((const double *)(b + k)),
                                    _mm256_loadu_pd((const double *)(c + k)));
        nan = _mm256_or_pd(nan, _mm256_cmp_pd(r, r, _CMP_UNORD_Q));
        _mm256_storeu_pd((double *)(t + k), r);
    }
    if (_mm256_movemask_pd(nan))
        for (int l = 0; l < BC_WARP; l++)
            if (isnan64(t[l])) t[l] = fp64_fma(a[l], b[l], c[l], FP_RN);
    memcpy(d, t, sizeof t);
}
#endif

/* ---- OP_SETP_BRA (vm/fuse.c) ---- */
/* Bit l set where compare k (an OP_SETP_* of integers, as bc_fuse_bra's k1) of a[l] and b[l]
 * holds, for all 32 lanes (lanes outside the group are compared too: a compare reads only);
 * k a constant where it is inlined. */
static inline __attribute__((always_inline)) uint32_t cmp_bits_k(uint32_t k, const uint64_t *a, const uint64_t *b)
{
    uint32_t g = 0;
    int inv = k == OP_SETP_NE || k == OP_SETP_LE_S32 || k == OP_SETP_LE_S64 || k == OP_SETP_LE_U;
#if defined(__AVX2__)
    /* eq by vpcmpeqq; lt as b > a, le as !(a > b): vpcmpgtd on 8 lanes' low words gathered
     * into one vector (s32), vpcmpgtq, or vpcmpgtq on the operands with their sign bits
     * flipped (unsigned) */
    const int s32 = k == OP_SETP_LT_S32 || k == OP_SETP_LE_S32, uns = k == OP_SETP_LT_U || k == OP_SETP_LE_U;
    const int lt = k == OP_SETP_LT_S32 || k == OP_SETP_LT_S64 || k == OP_SETP_LT_U;
    const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
    if (s32) {                         /* 8 lanes' low words into one vector: one compare, one movmskps */
        for (int l = 0; l < BC_WARP; l += 8) {
            __m256 x0 = _mm256_loadu_ps((const float *)(a + l)), x1 = _mm256_loadu_ps((const float *)(a + l + 4));
            __m256 y0 = _mm256_loadu_ps((const float *)(b + l)), y1 = _mm256_loadu_ps((const float *)(b + l + 4));
            /* the low words of lanes l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7 */
            __m256i x = _mm256_castps_si256(_mm256_shuffle_ps(x0, x1, 0x88)), y = _mm256_castps_si256(_mm256_shuffle_ps(y0, y1, 0x88));
            __m256i r = lt ? _mm256_cmpgt_epi32(y, x) : _mm256_cmpgt_epi32(x, y);
            g |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(r)) << l;
        }
        g = (g & 0xc3c3c3c3u) | ((g & 0x0c0c0c0cu) << 2) | ((g & 0x30303030u) >> 2);   /* each byte's lanes in order */
        return inv ? ~g : g;
    }
    for (int l = 0; l < BC_WARP; l += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + l)), y = _mm256_loadu_si256((const __m256i *)(b + l)), r;
        if (k == OP_SETP_EQ || k == OP_SETP_NE) r = _mm256_cmpeq_epi64(x, y);
        else {
            if (uns) x = _mm256_xor_si256(x, flip), y = _mm256_xor_si256(y, flip);
            r = lt ? _mm256_cmpgt_epi64(y, x) : _mm256_cmpgt_epi64(x, y);
        }
        g |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(r)) << l;
    }
#else
    for (int l = 0; l < BC_WARP; l++) {
        uint64_t x = a[l], y = b[l];
        int r = k == OP_SETP_EQ || k == OP_SETP_NE ? x == y
              : k == OP_SETP_LT_S32 ? (int32_t)x < (int32_t)y : k == OP_SETP_LE_S32 ? (int32_t)x > (int32_t)y
              : k == OP_SETP_LT_S64 ? (int64_t)x < (int64_t)y : k == OP_SETP_LE_S64 ? (int64_t)x > (int64_t)y
              : k == OP_SETP_LT_U ? x < y : x > y;
        g |= (uint32_t)r << l;
    }
#endif
    return inv ? ~g : g;
}
/* The same for any k: one loop per compare. */
static inline uint32_t cmp_bits(uint32_t k, const uint64_t *a, const uint64_t *b)
{
    switch (k) {
    case OP_SETP_EQ: return cmp_bits_k(OP_SETP_EQ, a, b);
    case OP_SETP_NE: return cmp_bits_k(OP_SETP_NE, a, b);
    case OP_SETP_LT_S32: return cmp_bits_k(OP_SETP_LT_S32, a, b);
    case OP_SETP_LE_S32: return cmp_bits_k(OP_SETP_LE_S32, a, b);
    case OP_SETP_LT_S64: return cmp_bits_k(OP_SETP_LT_S64, a, b);
    case OP_SETP_LE_S64: return cmp_bits_k(OP_SETP_LE_S64, a, b);
    case OP_SETP_LT_U: return cmp_bits_k(OP_SETP_LT_U, a, b);
    default: return cmp_bits_k(OP_SETP_LE_U, a, b);
    }
}

/* d[l] = bit l of g (0 or 1), for the lanes of group. */
static inline void bits_row(uint64_t *d, uint32_t g, uint32_t group)
{
    if (group == FULL) { for (int l = 0; l < BC_WARP; l++) d[l] = (g >> l) & 1; return; }   /* vectorised */
    for (uint32_t mm = group; mm; mm &= mm - 1) { int l = __builtin_ctz(mm); d[l] = (g >> l) & 1; }
}

/* cmp_bits of a compare whose operands are final at it (cache id fin, else -1): its lanes
 * from w's cache, computed when a whole group first runs it in the block. */
static inline uint32_t cmp_fin(vm_warp *w, int fin, uint32_t k, const uint64_t *a, const uint64_t *b, uint32_t group)
{
    if (fin >= 0 && (w->fin_ok >> fin & 1)) return w->fin_val[fin];
    uint32_t g = cmp_bits(k, a, b);
    if (fin >= 0 && group == FULL) w->fin_ok |= 1ull << fin, w->fin_val[fin] = g;
    return g;
}
/* The compares, bool and mov of run F (vm/fuse.c) for the lanes of group, the rows of
 * their live predicates written (the mov's only for the lanes that branch where the others
 * overwrite it, BC_FUSE_MD_FALL); returns the mask of the lanes whose branch condition
 * holds (before the guard's negation). */
static inline __attribute__((always_inline)) uint32_t setp_bra_run(vm_warp *w, uint64_t *R, const bc_fuse_bra *F,
                                                                   uint32_t group)
{
    uint32_t g = cmp_fin(w, F->fin1, F->k1, R + F->a1, R + F->b1, group);
    if (F->k2) {
        uint32_t g2 = cmp_fin(w, F->fin2, F->k2, R + F->a2, R + F->b2, group);
        if (!(F->dead & BC_FUSE_D1_DEAD)) bits_row(R + F->d1, g, group);
        if (!(F->dead & BC_FUSE_D2_DEAD)) bits_row(R + F->d2, g2, group);
        g = F->bop == OP_OR ? g | g2 : F->bop == OP_AND ? g & g2 : g ^ g2;
        if (!(F->dead & BC_FUSE_D3_DEAD)) bits_row(R + F->d3, g, group);
    } else if (!(F->dead & BC_FUSE_D1_DEAD)) bits_row(R + F->d1, g, group);
    if (F->md != BC_NO_GUARD) {
        uint64_t *d = R + F->md;
        const uint64_t *a = R + F->ma;
        uint64_t mk = F->mmask;
        uint32_t mw = !(F->dead & BC_FUSE_MD_FALL) ? group : F->neg ? group & ~g : group & g;
        if (mw == FULL) {          /* d and a are one row or rows apart */
            _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) d[l] = a[l] & mk;
        }
        else for (uint32_t mm = mw; mm; mm &= mm - 1) { int l = __builtin_ctz(mm); d[l] = a[l] & mk; }
    }
    return g & group;
}

/* %tid.x (which 0), .y (1) or .z (2) into d[l] for the lanes m of a warp whose first thread is
 * lin (its linear index in a block of width bx and height by; t its x, y and z).  A whole warp
 * in a block of power-of-two sides (2-D blocks of 16 x 16: a warp spans rows) is shifts and
 * masks of each lane's linear index; else each lane's x, y, z stepped from the last lane's. */
static __attribute__((noinline)) void tid_lanes(uint64_t *d, uint32_t m, uint32_t lin, uint32_t bx, uint32_t by,
                                                 uint32_t *t, int which)
{
    if (m == 0xffffffffu && !(bx & (bx - 1)) && !(by & (by - 1))) {
        const int sx = __builtin_ctz(bx), sy = __builtin_ctz(by);
        const uint32_t shift = which == 0 ? 0 : which == 1 ? (uint32_t)sx : (uint32_t)(sx + sy);
        const uint64_t mask = which == 0 ? bx - 1 : which == 1 ? by - 1 : ~0ull;
        for (int l = 0; l < BC_WARP; l++) d[l] = ((uint64_t)(lin + (uint32_t)l) >> shift) & mask;
        return;
    }
    for (int l = 0; l < BC_WARP; l++) {
        if ((m >> l) & 1) d[l] = t[which];
        if (++t[0] == bx) { t[0] = 0; if (++t[1] == by) { t[1] = 0; t[2]++; } }
    }
}

/* Loads and stores of 1, 2, 4 or 8 bytes (little-endian host). */
static inline uint64_t load_n(const uint8_t *p, uint32_t n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* The vector loads and stores with a copy of their lane loop each: v2 and v4
 * of 1-, 2- and 4-byte values, v2 of 8-byte ones.  VEC_FORMS(F) expands to
 * a switch on (sz, nv) calling F(SZ, NV) in each case. */
static inline int vec_form(uint32_t sz, uint32_t nv)
{
    return (nv == 2 && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) || (nv == 4 && (sz == 1 || sz == 2 || sz == 4));
}
#define VEC_FORMS(F) switch (sz * 8 + nv) { \
    case 1 * 8 + 2: F(1, 2); break; case 1 * 8 + 4: F(1, 4); break; \
    case 2 * 8 + 2: F(2, 2); break; case 2 * 8 + 4: F(2, 4); break; \
    case 4 * 8 + 2: F(4, 2); break; case 4 * 8 + 4: F(4, 4); break; \
    default: F(8, 2); break; }

static inline void store_n(uint8_t *p, uint64_t v, uint32_t n)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8);
    }
}

#if defined(__AVX2__)
/* 1 when lanes k..k+7 of ra[] are sz bytes apart, in order (one 8*sz-byte
 * block of memory). */
static inline int row_side_by_side(const uint64_t *ra, uint32_t sz)
{
    const __m256i s = _mm256_set1_epi64x(sz), st0 = _mm256_mul_epu32(_mm256_setr_epi64x(0, 1, 2, 3), s),
                  st1 = _mm256_mul_epu32(_mm256_setr_epi64x(4, 5, 6, 7), s);
    __m256i x0 = _mm256_loadu_si256((const __m256i *)ra), x1 = _mm256_loadu_si256((const __m256i *)(ra + 4));
    __m256i first = _mm256_permute4x64_epi64(x0, 0);
    __m256i diff = _mm256_or_si256(_mm256_xor_si256(_mm256_sub_epi64(x0, first), st0),
                                   _mm256_xor_si256(_mm256_sub_epi64(x1, first), st1));
    return _mm256_testz_si256(diff, diff);
}
/* 1 when lanes k..k+7 of ra[] hold one address. */
static inline int row_same(const uint64_t *ra)
{
    __m256i x0 = _mm256_loadu_si256((const __m256i *)ra), x1 = _mm256_loadu_si256((const __m256i *)(ra + 4));
    __m256i first = _mm256_permute4x64_epi64(x0, 0);
    __m256i diff = _mm256_or_si256(_mm256_xor_si256(x0, first), _mm256_xor_si256(x1, first));
    return _mm256_testz_si256(diff, diff);
}
/* 1 when every 8-lane group of the whole warp's r[] lies side by side, sz bytes apart
 * (row_side_by_side of each group, their differences or'ed into one test; sz a constant
 * where it is inlined); where same is not NULL, *same = 1 when every group lies on its
 * first address. */
static inline __attribute__((always_inline)) int row_side_by_side4(const uint64_t *r, uint32_t sz, int *same)
{
    const long long z = sz;
    const __m256i st0 = _mm256_setr_epi64x(0, z, 2 * z, 3 * z), st1 = _mm256_setr_epi64x(4 * z, 5 * z, 6 * z, 7 * z);
    __m256i side = _mm256_setzero_si256(), flat = _mm256_setzero_si256();
    for (int g = 0; g < BC_WARP; g += 8) {
        __m256i first = _mm256_set1_epi64x((long long)r[g]);
        __m256i d0 = _mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)(r + g)), first),
                d1 = _mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)(r + g + 4)), first);
        if (same) flat = _mm256_or_si256(flat, _mm256_or_si256(d0, d1));
        side = _mm256_or_si256(side, _mm256_or_si256(_mm256_xor_si256(d0, st0), _mm256_xor_si256(d1, st1)));
    }
    if (same) *same = _mm256_testz_si256(flat, flat);
    return _mm256_testz_si256(side, side);
}
/* 4 lanes' 4-byte loads at base + ra[l], already checked: side by side one
 * 16-byte load, on one word one load, else an AVX2 gather. */
static inline void load4_lanes(uint64_t *d, const uint64_t *ra, uintptr_t base, uint32_t dm)
{
    const __m256i step = _mm256_setr_epi64x(0, 4, 8, 12);
    __m256i a = _mm256_loadu_si256((const __m256i *)ra);
    __m256i rel = _mm256_sub_epi64(a, _mm256_permute4x64_epi64(a, 0));
    __m128i v;
    if (_mm256_testc_si256(_mm256_cmpeq_epi64(rel, step), _mm256_set1_epi64x(-1)))
        v = _mm_loadu_si128((const __m128i *)(base + ra[0]));
    else if (_mm256_testz_si256(rel, rel)) {
        uint32_t x;
        memcpy(&x, (const void *)(base + ra[0]), 4);
        v = _mm_set1_epi32((int)x);
    } else v = _mm256_i64gather_epi32((const int *)base, a, 1);
    _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu32_epi64(_mm_and_si128(v, _mm_set1_epi32((int)dm))));
}
/* A whole warp's loads of 4 or 8 bytes at base + ra[l], already checked
 * (group_base): 8 lanes side by side are one block copy, 8 lanes on one
 * address one load, 4-byte loads of other shapes 4 lanes at a time
 * (load4_lanes), 8-byte ones lane by lane.
 * d may be ra (each group of 8 reads its addresses before writing). */
static inline void load_row(uint64_t *d, const uint64_t *ra, uintptr_t base, uint32_t sz, uint64_t dm)
{
    for (int g = 0; g < BC_WARP; g += 8) {
        if (row_side_by_side(ra + g, sz)) {
            const uint8_t *p = (const uint8_t *)(base + ra[g]);
            if (sz == 4) {
                __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)p), _mm256_set1_epi32((int)(uint32_t)dm));
                _mm256_storeu_si256((__m256i *)(d + g), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
                _mm256_storeu_si256((__m256i *)(d + g + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
            } else {
                __m256i v0 = _mm256_loadu_si256((const __m256i *)p), v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
                _mm256_storeu_si256((__m256i *)(d + g), v0);
                _mm256_storeu_si256((__m256i *)(d + g + 4), v1);
            }
        } else if (row_same(ra + g)) {
            __m256i v = _mm256_set1_epi64x((long long)(load_n((const uint8_t *)(base + ra[g]), sz) & dm));
            _mm256_storeu_si256((__m256i *)(d + g), v);
            _mm256_storeu_si256((__m256i *)(d + g + 4), v);
        } else if (sz == 4) {
            load4_lanes(d + g, ra + g, base, (uint32_t)dm);
            load4_lanes(d + g + 4, ra + g + 4, base, (uint32_t)dm);
        } else
            for (int l = g; l < g + 8; l++) d[l] = load_n((const uint8_t *)(base + ra[l]), sz) & dm;
    }
}
/* Whether lanes 0 and 7 of ra[] are 7 * sz bytes apart: the test that keeps row_side_by_side4 off
 * the loads and stores of one address or scattered ones (warp_divergent's took 1.6% more host
 * instructions without it). */
static inline int side_by_side_first(const uint64_t *ra, uint32_t sz) { return ra[7] - ra[0] == 7ull * sz; }
/* load_side_row32 of 8-byte values: two 32-byte loads per group. */
static inline void load_side_row64(uint64_t *d, const uint64_t *ra, uintptr_t base, uint64_t dm)
{
    const __m256i m = _mm256_set1_epi64x((long long)dm);
    for (int g = 0; g < BC_WARP; g += 8) {
        const uint8_t *p = (const uint8_t *)(base + ra[g]);
        __m256i v0 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)p), m);
        __m256i v1 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(p + 32)), m);
        _mm256_storeu_si256((__m256i *)(d + g), v0);
        _mm256_storeu_si256((__m256i *)(d + g + 4), v1);
    }
}
/* load_row of 4-byte values whose 8-lane groups each lie side by side (row_side_by_side4),
 * already checked: one 32-byte load per group.  d may be ra (each group reads its address
 * before it writes). */
static inline void load_side_row32(uint64_t *d, const uint64_t *ra, uintptr_t base, uint32_t dm)
{
    const __m256i m = _mm256_set1_epi32((int)dm);
    for (int g = 0; g < BC_WARP; g += 8) {
        __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(base + ra[g])), m);
        _mm256_storeu_si256((__m256i *)(d + g), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
        _mm256_storeu_si256((__m256i *)(d + g + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
    }
}
/* A whole warp's 32-bit shared-memory load: 1 and d[] written when every
 * lane's offset ra[l] + imm is at most lim and aligned (checked in two
 * chains, not one; then load_row); else 0 and nothing written (the general
 * path decides). */
static inline __attribute__((always_inline)) int shared_load_row(const uint64_t *ra, uint64_t imm, const uint8_t *sh, uint64_t lim, uint32_t dm,
                                  uint64_t *d)
{
    enum { G = BC_WARP / 4 };                      /* groups of 4 lanes, one ymm each */
    const __m256i vimm = _mm256_set1_epi64x((long long)imm), sign = _mm256_set1_epi64x((long long)(1ull << 63));
    const __m256i vlim = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sign), three = _mm256_set1_epi64x(3);
    __m256i bad0 = _mm256_setzero_si256(), bad1 = bad0;     /* two chains, not one */
    for (int g = 0; g < G; g += 2) {
        __m256i a0 = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(ra + 4 * g)), vimm);
        __m256i a1 = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(ra + 4 * g + 4)), vimm);
        bad0 = _mm256_or_si256(bad0, _mm256_or_si256(_mm256_cmpgt_epi64(_mm256_xor_si256(a0, sign), vlim),
                                                     _mm256_and_si256(a0, three)));     /* a > lim, unsigned */
        bad1 = _mm256_or_si256(bad1, _mm256_or_si256(_mm256_cmpgt_epi64(_mm256_xor_si256(a1, sign), vlim),
                                                     _mm256_and_si256(a1, three)));
    }
    bad0 = _mm256_or_si256(bad0, bad1);
    if (!_mm256_testz_si256(bad0, bad0)) return 0;
    load_row(d, ra, (uintptr_t)sh + imm, 4, dm);
    return 1;
}
/* ---- OP_LDS_FMA (vm/fuse.c) ---- */
enum { ROW8_SIDE, ROW8_SAME, ROW8_GATHER };        /* the shape of 8 lanes' addresses */
typedef struct row8 { int shape; __m256i idx; } row8;
/* The low words of 8 slots, as 8 packed 32-bit values: one vshufps takes the low words of both
 * loads (slots 0 1 4 5 | 2 3 6 7), one vpermq puts their pairs in order.  (Two vpermd and a
 * vperm2i128 did it before: 14 micro-ops on AMD's Zen 1, against 4.) */
static inline __m256i row8_pack2(__m256i a, __m256i b)
{
    __m256 x = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(x), _MM_SHUFFLE(3, 1, 2, 0));
}
static inline __m256i row8_pack(const uint64_t *s)
{
    return row8_pack2(_mm256_loadu_si256((const __m256i *)s), _mm256_loadu_si256((const __m256i *)(s + 4)));
}
/* 8 packed 32-bit values into 8 slots, zero-extended. */
static inline void row8_put(uint64_t *d, __m256i v)
{
    _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    _mm256_storeu_si256((__m256i *)(d + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
}
/* 4 32-bit integers as doubles (exactly), unsigned or signed. */
static inline __m256d i32x4_pd(__m128i v, int sgn)
{
    if (sgn) return _mm256_cvtepi32_pd(v);
    return _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(v, _mm_set1_epi32(INT32_MIN))), _mm256_set1_pd(2147483648.0));
}
/* The integer values of 4 doubles in (-2^31, 2^32), their low 32 bits in a 128-bit vector:
 * + 1.5 * 2^52 puts a value's two's complement in the low bits of the double's. */
static inline __m128i pd_i32x4(__m256d q)
{
    __m256i b = _mm256_castpd_si256(_mm256_add_pd(q, _mm256_set1_pd(6755399441055744.0)));
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}
/* div (rem: rem) .s32/.u32 (sgn) of a whole warp into d (which may be an operand): the
 * operands' quotient as doubles, truncated, is exact (|a| < 2^53, and a quotient that is not
 * an integer lies at least 1/|b| from one, farther than the division's rounding error); the
 * remainder is a - q * b.  Returns the lanes dividing by 0 and (signed) INT32_MIN by -1,
 * whose d the caller sets. */
/* Whether the 8 lanes of a and b all lie in (-2^24, 2^24) (unsigned: below 2^24), where
 * they are exact as floats and the f32 quotient, truncated, is the integer one: a
 * quotient that is not an integer lies at least 1/|b| from one, and the division's
 * rounding error is at most |a / b| * 2^-24, less than that while |a| < 2^24. */
static inline int div32_small8(__m256i a, __m256i b, int sgn)
{
    __m256i in;
    if (sgn) {
        const __m256i lo = _mm256_set1_epi32(-(1 << 24)), hi = _mm256_set1_epi32(1 << 24);
        in = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(a, lo), _mm256_cmpgt_epi32(hi, a)),
                              _mm256_and_si256(_mm256_cmpgt_epi32(b, lo), _mm256_cmpgt_epi32(hi, b)));
    } else in = _mm256_cmpeq_epi32(_mm256_srli_epi32(_mm256_or_si256(a, b), 24), _mm256_setzero_si256());
    return _mm256_movemask_ps(_mm256_castsi256_ps(in)) == 0xff;
}
static inline uint32_t div32_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int sgn, int rem)
{
    uint32_t bad = 0;
    for (int g = 0; g < BC_WARP; g += 8) {
        __m256i av = row8_pack(a + g), bv = row8_pack(b + g);
        __m256i z = _mm256_cmpeq_epi32(bv, _mm256_setzero_si256());
        if (sgn) z = _mm256_or_si256(z, _mm256_and_si256(_mm256_cmpeq_epi32(av, _mm256_set1_epi32(INT32_MIN)),
                                                         _mm256_cmpeq_epi32(bv, _mm256_set1_epi32(-1))));
        bad |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(z)) << g;
        __m256i one = _mm256_set1_epi32(1);
        bv = _mm256_blendv_epi8(bv, one, z);                 /* no division by 0: those lanes are redone */
        if (div32_small8(av, bv, sgn)) {
            __m256i q = _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(av), _mm256_cvtepi32_ps(bv)));
            row8_put(d + g, rem ? _mm256_sub_epi32(av, _mm256_mullo_epi32(q, bv)) : q);
            continue;
        }
        __m256d qlo = _mm256_round_pd(_mm256_div_pd(i32x4_pd(_mm256_castsi256_si128(av), sgn),
                                                    i32x4_pd(_mm256_castsi256_si128(bv), sgn)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        __m256d qhi = _mm256_round_pd(_mm256_div_pd(i32x4_pd(_mm256_extracti128_si256(av, 1), sgn),
                                                    i32x4_pd(_mm256_extracti128_si256(bv, 1), sgn)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(pd_i32x4(qlo)), pd_i32x4(qhi), 1);
        row8_put(d + g, rem ? _mm256_sub_epi32(av, _mm256_mullo_epi32(q, bv)) : q);
    }
    return bad;
}

/* div (rem: rem) .s64/.u64 (sgn) of a whole warp into d (which may be an operand), for
 * the lanes whose operands both lie in [-2^50, 2^50) (unsigned: below 2^50): as doubles
 * they are exact, the truncated quotient of the doubles is the integer one (|a| < 2^53, as
 * in div32_row) and a - q * b is exact too (|q * b| <= |a|).  Integers and doubles convert
 * by adding 1.5 * 2^52, whose significand then holds the integer (|x| < 2^51).  Returns
 * the other lanes and those dividing by 0, whose d the caller sets. */
static inline uint32_t div64_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int sgn, int rem)
{
    const __m256i bias = _mm256_set1_epi64x(sgn ? 1ll << 50 : 0), magic = _mm256_set1_epi64x(0x4338000000000000ll);
    const __m256d magicd = _mm256_set1_pd(6755399441055744.0), one = _mm256_set1_pd(1.0);
    uint64_t res[BC_WARP];
    uint32_t bad = 0;
    for (int g = 0; g < BC_WARP; g += 4) {
        __m256i av = _mm256_loadu_si256((const __m256i *)(a + g)), bv = _mm256_loadu_si256((const __m256i *)(b + g));
        __m256i both = _mm256_or_si256(_mm256_add_epi64(av, bias), _mm256_add_epi64(bv, bias));
        __m256i wide = sgn ? _mm256_srli_epi64(both, 51) : _mm256_srli_epi64(both, 50);   /* biased: [0, 2^51) */
        __m256i out = _mm256_or_si256(_mm256_xor_si256(_mm256_cmpeq_epi64(wide, _mm256_setzero_si256()), _mm256_set1_epi64x(-1)),
                                      _mm256_cmpeq_epi64(bv, _mm256_setzero_si256()));
        bad |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(out)) << g;
        __m256d ad = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(av, magic)), magicd);
        __m256d bd = _mm256_blendv_pd(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(bv, magic)), magicd), one,
                                      _mm256_castsi256_pd(out));      /* those lanes are redone */
        __m256d q = _mm256_round_pd(_mm256_div_pd(ad, bd), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        __m256d r = rem ? _mm256_sub_pd(ad, _mm256_mul_pd(q, bd)) : q;
        _mm256_storeu_si256((__m256i *)(res + g), _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(r, magicd)), magic));
    }
    memcpy(d, res, sizeof res);
    return bad;
}

/* The shape of r[0..7], and its lowest and highest value and their OR
 * folded into *mn, *mx, *any (side by side: r[0] .. r[0] + 28). */
static inline row8 row8_shape(const uint64_t *r, uint64_t *mn, uint64_t *mx, uint64_t *any)
{
    row8 s;
    uint64_t lo = r[0], hi = r[0], bits = r[0];
    if (row_side_by_side(r, 4)) { s.shape = ROW8_SIDE; hi = lo + 28; }
    else if (row_same(r)) s.shape = ROW8_SAME;
    else {
        s.shape = ROW8_GATHER;
        s.idx = row8_pack(r);
        for (int l = 1; l < 8; l++) { lo = r[l] < lo ? r[l] : lo; hi = r[l] > hi ? r[l] : hi; bits |= r[l]; }
    }
    *mn = lo < *mn ? lo : *mn;
    *mx = hi > *mx ? hi : *mx;
    *any |= bits;
    return s;
}
/* The shape all four 8-lane groups of a whole warp's r[] have, ROW8_SIDE or ROW8_SAME, with
 * the lowest and highest address and their OR as row8_shape folds them in; -1 (and *mn, *mx,
 * *any untouched) when the groups' shapes differ or one is a gather. */
static inline int row4_shape(const uint64_t *r, uint64_t *mn, uint64_t *mx, uint64_t *any)
{
    int same, side = row_side_by_side4(r, 4, &same);
    int shape = same ? ROW8_SAME : side ? ROW8_SIDE : -1;
    if (shape < 0) return -1;
    uint64_t lo = r[0], hi = r[0], bits = r[0];
    for (int g = 8; g < BC_WARP; g += 8) { lo = r[g] < lo ? r[g] : lo; hi = r[g] > hi ? r[g] : hi; bits |= r[g]; }
    *mn = lo;
    *mx = shape == ROW8_SIDE ? hi + 28 : hi;
    *any = bits;
    return shape;
}
/* 8 lanes' 4-byte loads at base + r[l], r[] of the shape given (a constant
 * where it is inlined), r0 = r[0], idx the packed r[] of a gather. */
static inline __attribute__((always_inline)) __m256 row8_load(int shape, const uint8_t *base, uint64_t r0, __m256i idx)
{
    if (shape == ROW8_SIDE) return _mm256_loadu_ps((const float *)(base + r0));
    if (shape == ROW8_SAME) { float f; memcpy(&f, base + r0, 4); return _mm256_set1_ps(f); }
    return _mm256_i32gather_ps((const float *)base, idx, 1);
}
/* Whether every r + imm, r in [mn, mx] with the bits any, imm in [lo, hi]
 * (multiples of 4), is an aligned offset of at most lim. */
static inline int lds_in_range(uint64_t mn, uint64_t mx, uint64_t any, int64_t lo, int64_t hi, uint64_t lim)
{
    return !(any & 3) && mx < (1ull << 40) && (int64_t)mn + lo >= 0 && (int64_t)mx + hi <= (int64_t)lim;
}
/* add, sub, mul, fma or div.f32 of a whole warp with PTX's rounding r and .ftz: f32_row or
 * fma32_row in that host mode (d may be an operand). */
__attribute__((target("fma"))) static void f32_mode_row(int op, fp_rnd r, int ftz, uint64_t *d, const uint64_t *a,
                                                        const uint64_t *b, const uint64_t *c)
{
    const uint32_t csr = host_fp_on(r, ftz);
    switch (op) {
    case FPX_ADD: f32_row(F32_ROW_ADD, d, a, b); break;
    case FPX_SUB: f32_row(F32_ROW_SUB, d, a, b); break;
    case FPX_MUL: f32_row(F32_ROW_MUL, d, a, b); break;
    case FPX_DIV: f32_row(F32_ROW_DIV, d, a, b); break;
    default: fma32_row(d, a, b, c); break;
    }
    host_fp_off(csr);
}
/* .sat (sat32) of the f32 results in 4 slots' low words, as 32-bit integers: NaN and
 * anything with the sign bit set 0, above 1.0 1.0; the high words zeroed. */
static inline __m256i sat32x4(__m256i v)
{
    const __m256i one = _mm256_set1_epi32(0x3f800000), inf = _mm256_set1_epi32(0x7f800000);
    const __m256i zero = _mm256_setzero_si256(), lo = _mm256_set1_epi64x(0xffffffff);
    __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi32(zero, v), _mm256_cmpgt_epi32(v, inf));
    return _mm256_and_si256(_mm256_andnot_si256(bad, _mm256_min_epi32(v, one)), lo);
}
/* cvt.sat.f32.f32 of a whole warp (sat32 of each slot's low word; with .ftz a subnormal first
 * flushed to its signed zero, which .sat then takes to +0, as a zero exponent does here). */
static inline void sat32_row(uint64_t *d, const uint64_t *a, int ftz)
{
    const __m256i expo = _mm256_set1_epi32(0x7f800000), zero = _mm256_setzero_si256();
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a + k));
        if (ftz) v = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(v, expo), zero), v);
        _mm256_storeu_si256((__m256i *)(d + k), sat32x4(v));
    }
}
/* add, sub, mul or fma.sat.f32 of a whole warp with rounding rnd (.ftz, or a directed rounding: in
 * that host mode, host_fp_on): the host's operation on the slots as they are (as f32_row), then .sat
 * (a clamp, which commutes with the rounding), which also takes NaNs to 0.  d may be an operand. */
__attribute__((target("fma"))) static void f32_sat_row(int op, fp_rnd rnd, int ftz, uint64_t *d, const uint64_t *a,
                                                       const uint64_t *b, const uint64_t *c)
{
    const int mode = ftz || rnd != FP_RN;
    const uint32_t csr = mode ? host_fp_on(rnd, ftz) : 0;
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 x = f32_row_load(a + k), y = f32_row_load(b + k);
        __m256 r = op == FPX_ADD ? _mm256_add_ps(x, y) : op == FPX_SUB ? _mm256_sub_ps(x, y)
                 : op == FPX_MUL ? _mm256_mul_ps(x, y) : _mm256_fmadd_ps(x, y, f32_row_load(c + k));
        _mm256_storeu_si256((__m256i *)(d + k), sat32x4(_mm256_castps_si256(r)));
    }
    if (mode) host_fp_off(csr);
}
/* One triple of a run, decoded once per run: the offsets of its loads from
 * the two bases, the slots the values of its first and second load and its
 * fma go to, and which of them need not be written (BC_FUSE_*). */
typedef bc_fuse_step lds_step;
enum { LDS_MAX_STEPS = 64 };        /* triples per call (the rest: the next head) */
/* The run's triples for lanes 8g..8g+7, whose addresses have the shapes sa
 * and sb (constants: one copy of the loop per pair of shapes). */
__attribute__((target("fma"))) static inline __attribute__((always_inline)) void
lds_fma_group(int sa, int sb, uint64_t *R, const lds_step *T, uint32_t n, const uint8_t *sh, const uint64_t *ra,
              const uint64_t *rb, __m256i ia, __m256i ib, uint32_t c)
{
    const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 acc = _mm256_castsi256_ps(row8_pack(R + c));
    for (uint32_t k = 0; k < n; k++) {
        const lds_step *t = &T[k];
        __m256 u = row8_load(sa, sh + t->ia, ra[0], ia), v = row8_load(sb, sh + t->ib, rb[0], ib);
        acc = _mm256_fmadd_ps(u, v, acc);
        if (__builtin_expect(t->dead != (BC_FUSE_X_DEAD | BC_FUSE_Y_DEAD | BC_FUSE_ACC_DEAD), 0)) {
            if (!(t->dead & BC_FUSE_X_DEAD)) row8_put(R + t->dx, _mm256_castps_si256(t->sw ? v : u));
            if (!(t->dead & BC_FUSE_Y_DEAD)) row8_put(R + t->dy, _mm256_castps_si256(t->sw ? u : v));
            if (!(t->dead & BC_FUSE_ACC_DEAD))
                row8_put(R + t->dacc, _mm256_castps_si256(_mm256_blendv_ps(acc, qnan, _mm256_cmp_ps(acc, acc, _CMP_UNORD_Q))));
        }
    }
}
/* A whole warp's shape for lds_fma_warp besides ROW8_SIDE and ROW8_SAME: every group on one
 * address, groups 0 and 1 on the same one, and 2 and 3 (a 16-wide 2-D block's A[ty][k]: the
 * lanes of a row read one word): two broadcasts for the four groups. */
enum { LDS_PAIRS = 3, LDS_SHAPES = 4 };
/* Group g's 8 values at p[g] + off for a side of shape sh (a constant where it is inlined);
 * prev, group g - 1's, is group g's too when g is odd and the side's groups are LDS_PAIRS. */
static inline __attribute__((always_inline)) __m256 lds_group_load(int sh, const uint8_t *const *p, int g,
                                                                   uint64_t off, __m256 prev)
{
    if (sh == LDS_PAIRS && (g & 1)) return prev;
    return row8_load(sh == LDS_PAIRS ? ROW8_SAME : sh, p[g], off, _mm256_setzero_si256());
}
/* The same for all 4 groups of 8 lanes, whose addresses all have the shapes
 * sa and sb (ROW8_SIDE, ROW8_SAME or LDS_PAIRS: no gather): four accumulators, four
 * independent chains of fmas.  The run writes neither base (vm/fuse.c), so the
 * groups' bases are read once, into registers.  The first nd triples write
 * nothing (dead): their loop has no test, and its loads go straight into the fmas. */
__attribute__((target("fma"))) static inline __attribute__((always_inline)) void
lds_fma_warp(int sa, int sb, uint64_t *R, const lds_step *T, uint32_t nd, uint32_t n, const uint8_t *sh,
             const uint64_t *ra, const uint64_t *rb, uint32_t c)
{
    const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const uint8_t *pa[4], *pb[4];
    __m256 acc[4];
#pragma GCC unroll 4
    for (int g = 0; g < 4; g++) {
        acc[g] = _mm256_castsi256_ps(row8_pack(R + c + 8 * g));
        pa[g] = sh + ra[8 * g], pb[g] = sh + rb[8 * g];
    }
    uint32_t k = 0;
    for (; k < nd; k++) {
        const uint64_t ia = (uint64_t)T[k].ia, ib = (uint64_t)T[k].ib;
        __m256 u = _mm256_setzero_ps(), v = _mm256_setzero_ps();
#pragma GCC unroll 4
        for (int g = 0; g < 4; g++) {
            u = lds_group_load(sa, pa, g, ia, u), v = lds_group_load(sb, pb, g, ib, v);
            acc[g] = _mm256_fmadd_ps(u, v, acc[g]);
        }
    }
    for (; k < n; k++) {
        const lds_step *t = &T[k];
        __m256 u[4], v[4];
#pragma GCC unroll 4
        for (int g = 0; g < 4; g++) {
            u[g] = lds_group_load(sa, pa, g, (uint64_t)t->ia, g ? u[g - 1] : _mm256_setzero_ps());
            v[g] = lds_group_load(sb, pb, g, (uint64_t)t->ib, g ? v[g - 1] : _mm256_setzero_ps());
            acc[g] = _mm256_fmadd_ps(u[g], v[g], acc[g]);
        }
        if (__builtin_expect(t->dead != (BC_FUSE_X_DEAD | BC_FUSE_Y_DEAD | BC_FUSE_ACC_DEAD), 0))
#pragma GCC unroll 4
            for (int g = 0; g < 4; g++) {
                if (!(t->dead & BC_FUSE_X_DEAD)) row8_put(R + t->dx + 8 * g, _mm256_castps_si256(t->sw ? v[g] : u[g]));
                if (!(t->dead & BC_FUSE_Y_DEAD)) row8_put(R + t->dy + 8 * g, _mm256_castps_si256(t->sw ? u[g] : v[g]));
                if (!(t->dead & BC_FUSE_ACC_DEAD))
                    row8_put(R + t->dacc + 8 * g,
                             _mm256_castps_si256(_mm256_blendv_ps(acc[g], qnan, _mm256_cmp_ps(acc[g], acc[g], _CMP_UNORD_Q))));
            }
    }
}
/* n (at most LDS_MAX_STEPS) triples of OP_LDS_FMA (vm/fuse.c) from I for a
 * whole warp, the loads from the bases of I's own two loads, ra and rb: 1
 * when done; 0, with nothing written, when some offset is out of range or
 * unaligned (the original instructions then run and fault at the exact pc).
 * The accumulator stays in registers between the fmas (.ftz: lds_fma_run sets the host's mode);
 * each group of 8 lanes runs all the triples in turn, so every slot is written in program
 * order, each fma result as FMA_F32 writes it (the canonical NaN; a NaN
 * accumulator only ever gives a NaN, so the NaN kept in a register between
 * the fmas changes no result). */
__attribute__((target("fma"))) static int lds_fma_rows(const bc_module *M, vm_warp *w, uint64_t *R, const bc_insn *I,
                                                       uint32_t n, const uint8_t *sh, uint64_t lim)
{
    const uint64_t *ra = R + I[0].a, *rb = R + I[1].a;
    /* the head's triples as vm/fuse.c decoded them; the ranges are those of all I->b of them
     * (a run cut short by the turn takes the original instructions only if a later offset is
     * out of range) */
    const bc_fuse_head *hd = &M->fuse_heads[I->x];
    const lds_step *T = M->fuse_steps + hd->first;
    int64_t alo = hd->alo, ahi = hd->ahi, blo = hd->blo, bhi = hd->bhi;
    lds_step cut[LDS_MAX_STEPS];
    uint32_t nd = hd->ndead < n ? hd->ndead : n;
    if (n < I->b && (T[n - 1].dead & BC_FUSE_ACC_DEAD)) {   /* the last accumulator run is read after it */
        memcpy(cut, T, sizeof *T * n);
        cut[n - 1].dead &= ~(uint32_t)BC_FUSE_ACC_DEAD;
        T = cut;
        nd = nd < n - 1 ? nd : n - 1;
    }
    enum { G = BC_WARP / 8 };
    _Static_assert(G == 4, "lds_fma_warp takes 4 groups");
    row8 sa[G], sb[G];
    uint64_t amn, amx, aany, bmn, bmx, bany;   /* each side's lowest and highest address, and their OR */
    int a4, b4;
    if (hd->fin >= 0 && (w->fin_ok >> hd->fin & 1)) {   /* final rows, checked before in this block */
        a4 = (int)(w->fin_val[hd->fin] / LDS_SHAPES), b4 = (int)(w->fin_val[hd->fin] % LDS_SHAPES);
    } else {
        a4 = row4_shape(ra, &amn, &amx, &aany), b4 = a4 < 0 ? -1 : row4_shape(rb, &bmn, &bmx, &bany);
        if (b4 >= 0 && (!lds_in_range(amn, amx, aany, alo, ahi, lim) || !lds_in_range(bmn, bmx, bany, blo, bhi, lim)))
            return 0;
        if (a4 == ROW8_SAME && ra[0] == ra[8] && ra[16] == ra[24]) a4 = LDS_PAIRS;
        if (b4 == ROW8_SAME && rb[0] == rb[8] && rb[16] == rb[24]) b4 = LDS_PAIRS;
        if (b4 >= 0 && hd->fin >= 0) w->fin_ok |= 1ull << hd->fin, w->fin_val[hd->fin] = (uint32_t)(a4 * LDS_SHAPES + b4);
    }
    if (b4 >= 0) {                     /* the usual case: every group of each side has one shape */
        uint32_t c = I[2].c;
#define LDS_WARP(x, y) lds_fma_warp(x, y, R, T, nd, n, sh, ra, rb, c)
        switch (a4 * LDS_SHAPES + b4) {
        case ROW8_SIDE * LDS_SHAPES + ROW8_SIDE: LDS_WARP(ROW8_SIDE, ROW8_SIDE); return 1;
        case ROW8_SIDE * LDS_SHAPES + ROW8_SAME: LDS_WARP(ROW8_SIDE, ROW8_SAME); return 1;
        case ROW8_SAME * LDS_SHAPES + ROW8_SIDE: LDS_WARP(ROW8_SAME, ROW8_SIDE); return 1;
        case ROW8_SIDE * LDS_SHAPES + LDS_PAIRS: LDS_WARP(ROW8_SIDE, LDS_PAIRS); return 1;   /* a 16 x 16 tile loop */
        case LDS_PAIRS * LDS_SHAPES + ROW8_SIDE: LDS_WARP(LDS_PAIRS, ROW8_SIDE); return 1;
        default: LDS_WARP(ROW8_SAME, ROW8_SAME); return 1;   /* (pairs are also on one address a group) */
        }
#undef LDS_WARP
    }
    amn = bmn = UINT64_MAX, amx = bmx = aany = bany = 0;
    for (int g = 0; g < G; g++) {
        sa[g] = row8_shape(ra + 8 * g, &amn, &amx, &aany);
        sb[g] = row8_shape(rb + 8 * g, &bmn, &bmx, &bany);
    }
    if (!lds_in_range(amn, amx, aany, alo, ahi, lim) || !lds_in_range(bmn, bmx, bany, blo, bhi, lim)) return 0;
    for (int g = 0; g < G; g++) {
        uint64_t *Rg = R + 8 * g;
        const uint64_t *pa = ra + 8 * g, *pb = rb + 8 * g;
        uint32_t c = I[2].c;
#define LDS_GROUP(x, y) lds_fma_group(x, y, Rg, T, n, sh, pa, pb, sa[g].idx, sb[g].idx, c)
        switch (sa[g].shape * 3 + sb[g].shape) {
        case ROW8_SIDE * 3 + ROW8_SIDE: LDS_GROUP(ROW8_SIDE, ROW8_SIDE); break;
        case ROW8_SIDE * 3 + ROW8_SAME: LDS_GROUP(ROW8_SIDE, ROW8_SAME); break;
        case ROW8_SAME * 3 + ROW8_SIDE: LDS_GROUP(ROW8_SAME, ROW8_SIDE); break;
        case ROW8_SAME * 3 + ROW8_SAME: LDS_GROUP(ROW8_SAME, ROW8_SAME); break;
        default: LDS_GROUP(sa[g].shape, sb[g].shape); break;     /* a gather: its cost hides the branches */
        }
#undef LDS_GROUP
    }
    return 1;
}
/* lds_fma_rows; .ftz runs (the same in every triple of the run) in the host's .ftz mode, host_fp_on */
__attribute__((target("fma"))) static int lds_fma_run(const bc_module *M, vm_warp *w, uint64_t *R, const bc_insn *I,
                                                      uint32_t n, const uint8_t *sh, uint64_t lim)
{
    if (!(I[0].e & BC_FUSE_FTZ)) return lds_fma_rows(M, w, R, I, n, sh, lim);
    const uint32_t csr = host_fp_on(FP_RN, 1);
    int done = lds_fma_rows(M, w, R, I, n, sh, lim);
    host_fp_off(csr);
    return done;
}
/* A whole warp's stores of 4 or 8 bytes of v[l] at base + ra[l], already
 * checked: 8 lanes side by side are one block copy; others lane by lane, in
 * ascending lane order (the later lane's value stays where lanes meet). */
/* ld.v2/.v4 of 32-bit values (float2, float4) by a whole warp: component k
 * of lane l into d[k][l] (masked by dm), from base + ra[l].  8 lanes side by
 * side (4 * nv bytes apart, the usual a[i] of a vector type) are 1 or 4 ymm
 * loads taken apart into components; other lanes go one by one.  A d[k] may
 * be ra: each group of 8 lanes reads its addresses before it writes. */
static inline void load_vec32_row(uint64_t *const *d, int nv, const uint64_t *ra, uintptr_t base, uint32_t dm)
{
    /* a 64-bit element holds components 2i and 2i+1 of one lane: the low word masked, the high
     * one shifted down, are two slots (no cross-lane shuffle but the vpermq of lanes' order) */
    const __m256i mask = _mm256_set1_epi64x(dm);
#define PUT2(k, g, v) do { _mm256_storeu_si256((__m256i *)(d[k] + (g)), _mm256_and_si256(v, mask)); \
                           _mm256_storeu_si256((__m256i *)(d[(k) + 1] + (g)), _mm256_and_si256(_mm256_srli_epi64(v, 32), mask)); } while (0)
    for (int g = 0; g < BC_WARP; g += 8) {
        const uint8_t *p = (const uint8_t *)(base + ra[g]);
        if (nv == 2 && row_side_by_side(ra + g, 8)) {
            __m256i a = _mm256_loadu_si256((const __m256i *)p), b = _mm256_loadu_si256((const __m256i *)(p + 32));
            PUT2(0, g, a);
            PUT2(0, g + 4, b);
        } else if (nv == 4 && row_side_by_side(ra + g, 16)) {
            __m256i q[4];             /* q[j]: lanes 2j, 2j+1, components 0-1 | 2-3 of each */
            for (int j = 0; j < 4; j++) q[j] = _mm256_loadu_si256((const __m256i *)(p + 32 * j));
            for (int h = 0; h < 2; h++) {                       /* lanes 0-3, then 4-7 */
                /* unpack: lanes 0 2 | 1 3 of the pair of loads; vpermq: 0 1 2 3 */
                __m256i c01 = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(q[2 * h], q[2 * h + 1]), _MM_SHUFFLE(3, 1, 2, 0));
                __m256i c23 = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(q[2 * h], q[2 * h + 1]), _MM_SHUFFLE(3, 1, 2, 0));
                PUT2(0, g + 4 * h, c01);
                PUT2(2, g + 4 * h, c23);
            }
        } else
            for (int l = g; l < g + 8; l++) {
                const uint8_t *q = (const uint8_t *)(base + ra[l]);
                uint64_t v[4];
                for (int k = 0; k < nv; k++) v[k] = load_n(q + 4 * k, 4) & dm;
                for (int k = 0; k < nv; k++) d[k][l] = v[k];
            }
    }
#undef PUT2
}
/* st.v2/.v4 of 32-bit values by a whole warp: the reverse of load_vec32_row
 * (lanes side by side do not overlap, so the order of their stores does not
 * matter; the others store one by one in ascending order). */
static inline void store_vec32_row(const uint64_t *const *s, int nv, const uint64_t *ra, uintptr_t base)
{
    const __m256i lo = _mm256_set1_epi64x(0xffffffff);
    /* components k and k+1 of slots g..g+3 as one lane's 64-bit pair each */
#define GET2(k, g) _mm256_or_si256(_mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s[k] + (g))), lo), \
                                   _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(s[(k) + 1] + (g))), 32))
    for (int g = 0; g < BC_WARP; g += 8) {
        uint8_t *p = (uint8_t *)(base + ra[g]);
        if (nv == 2 && row_side_by_side(ra + g, 8)) {
            _mm256_storeu_si256((__m256i *)p, GET2(0, g));
            _mm256_storeu_si256((__m256i *)(p + 32), GET2(0, g + 4));
        } else if (nv == 4 && row_side_by_side(ra + g, 16)) {
            for (int h = 0; h < 2; h++) {
                /* vpermq: lanes 0 2 1 3, so that the unpacks give lanes 0 1 | 2 3, each c01 c23 */
                __m256i c01 = _mm256_permute4x64_epi64(GET2(0, g + 4 * h), _MM_SHUFFLE(3, 1, 2, 0));
                __m256i c23 = _mm256_permute4x64_epi64(GET2(2, g + 4 * h), _MM_SHUFFLE(3, 1, 2, 0));
                _mm256_storeu_si256((__m256i *)(p + 64 * h), _mm256_unpacklo_epi64(c01, c23));
                _mm256_storeu_si256((__m256i *)(p + 64 * h + 32), _mm256_unpackhi_epi64(c01, c23));
            }
        } else
            for (int l = g; l < g + 8; l++)
                for (int k = 0; k < nv; k++) store_n((uint8_t *)(base + ra[l]) + 4 * k, s[k][l], 4);
    }
#undef GET2
}

/* store_row of 4-byte values whose 8-lane groups each lie side by side (row_side_by_side4),
 * already checked: one 32-byte store per group, in ascending order (where groups meet, the
 * later one's lanes stay, as lane by lane). */
static inline void store_side_row32(const uint64_t *ra, const uint64_t *v, uintptr_t base)
{
    for (int g = 0; g < BC_WARP; g += 8)
        _mm256_storeu_si256((__m256i *)(base + ra[g]), row8_pack2(_mm256_loadu_si256((const __m256i *)(v + g)),
                                                                 _mm256_loadu_si256((const __m256i *)(v + g + 4))));
}
/* store_side_row32 of 8-byte values: two 32-byte stores per group. */
static inline void store_side_row64(const uint64_t *ra, const uint64_t *v, uintptr_t base)
{
    for (int g = 0; g < BC_WARP; g += 8) {
        uint8_t *p = (uint8_t *)(base + ra[g]);
        _mm256_storeu_si256((__m256i *)p, _mm256_loadu_si256((const __m256i *)(v + g)));
        _mm256_storeu_si256((__m256i *)(p + 32), _mm256_loadu_si256((const __m256i *)(v + g + 4)));
    }
}
static inline void store_row(const uint64_t *ra, const uint64_t *v, uintptr_t base, uint32_t sz)
{
    for (int g = 0; g < BC_WARP; g += 8) {
        if (row_side_by_side(ra + g, sz)) {
            uint8_t *p = (uint8_t *)(base + ra[g]);
            __m256i v0 = _mm256_loadu_si256((const __m256i *)(v + g)), v1 = _mm256_loadu_si256((const __m256i *)(v + g + 4));
            if (sz == 4) _mm256_storeu_si256((__m256i *)p, row8_pack2(v0, v1));   /* the low words of 8 slots */
            else {
                _mm256_storeu_si256((__m256i *)p, v0);
                _mm256_storeu_si256((__m256i *)(p + 32), v1);
            }
        } else
            for (int l = g; l < g + 8; l++) store_n((uint8_t *)(base + ra[l]), v[l], sz);
    }
}

/* ---- OP_LDG_STS (vm/fuse.c) ---- */
/* ldg_sts_run's other shapes, and a live loaded value: the loads into a row, then the stores. */
static __attribute__((noinline)) int ldg_sts_rows(vm_launch *L, vm_cta *cta, vm_warp *w, uint64_t *R, const bc_insn *I,
                                                  const bc_insn *J, int dead, int sa, int ss)
{
    uintptr_t hg, hs;
    uint64_t lg, lsh;
    const uint64_t *ra = R + I->a, *rs = R + J->a;
    if (!(sa ? group_base_shape(L, cta, w, R, FULL, I->a, (uint64_t)I->imm, BC_SP_GLOBAL, 4, 0, &hg, &lg, 1)
             : group_base(L, cta, w, R, FULL, I->a, (uint64_t)I->imm, BC_SP_GLOBAL, 4, 0, &hg, &lg)) ||
        !(ss ? group_base_shape(L, cta, w, R, FULL, J->a, (uint64_t)J->imm, BC_SP_SHARED, 4, 1, &hs, &lsh, 1)
             : group_base(L, cta, w, R, FULL, J->a, (uint64_t)J->imm, BC_SP_SHARED, 4, 1, &hs, &lsh)))
        return 0;
    uint64_t t[BC_WARP], *x = dead ? t : R + I->d;
    load_row(x, ra, hg + (uint64_t)I->imm, 4, 0xffffffffu);
    store_row(rs, x, hs + (uint64_t)J->imm, 4);
    return 1;
}
/* The four 32-byte copies of ldg_sts_run's usual case: group g's 8 words from gb + ra[g] to
 * sb + rs[g] (lanes store in ascending order: so do the groups). */
static inline __attribute__((always_inline)) void ldg_sts_copy(uintptr_t sb, const uint64_t *rs, uintptr_t gb,
                                                               const uint64_t *ra)
{
#pragma GCC unroll 4
    for (int g = 0; g < BC_WARP; g += 8) memcpy((void *)(sb + rs[g]), (const void *)(gb + ra[g]), 32);
}
/* ldg_sts_run's usual case: the host address of lane 0's load (ld.global.b32 [a + imm] of a
 * whole warp, a = ra[]) when the lanes' 8-lane groups lie side by side, in range and aligned
 * in the global buffer hit last or the one before it, which no worker of a parallel launch
 * tracks reads of; else 0 (the general path, group_base_shape, decides). */
static inline __attribute__((always_inline)) uintptr_t ldg_side_base(const vm_launch *L, const uint64_t *ra, uint64_t imm)
{
    const uint64_t a0 = ra[0] + imm;
    uint64_t off, size;
    const uint8_t *host;
    const struct par_alloc *pa;
    if (a0 - L->gc_base < L->gc_size) off = L->gc_base, size = L->gc_size, host = L->gc_host, pa = L->gc_pa;
    else if (a0 - L->gc2_base < L->gc2_size) off = L->gc2_base, size = L->gc2_size, host = L->gc2_host, pa = L->gc2_pa;
    else return 0;
    if (!host || size < 8 * 4 || (pa && !pa->ro)) return 0;
    const uint64_t glim = size - 8 * 4;   /* a group's first offset at most this: its last word ends by size */
    uint64_t bad = 0, any = 0;
    for (int g = 0; g < BC_WARP; g += 8) {
        bad |= 0 - (uint64_t)(ra[g] + imm - off > glim);
        any |= ra[g] + imm;
    }
    if (bad || (any & 3) || !row_side_by_side4(ra, 4, NULL)) return 0;
    return (uintptr_t)host - (uintptr_t)off + (uintptr_t)imm;
}
/* ldg_sts_run's general case: either side's rows checked here (the shared side's verdict kept
 * when it is final, vm_warp.fin_ok), a live value, other shapes (ldg_sts_rows). */
static __attribute__((noinline)) int ldg_sts_gen(vm_launch *L, vm_cta *cta, vm_warp *w, uint64_t *R, const bc_insn *I,
                                                 const bc_insn *J, int dead)
{
    const uint64_t *ra = R + I->a, *rs = R + J->a;
    const int fin = I->m2 - 1, known = fin >= 0 && (w->fin_ok >> fin & 1);   /* rs final, checked in this block */
    const int sa = row_side_by_side4(ra, 4, NULL), ss = known || row_side_by_side4(rs, 4, NULL);
    if (!(sa & ss & dead)) return ldg_sts_rows(L, cta, w, R, I, J, dead, sa, ss);
    uintptr_t hg, hs = (uintptr_t)cta->shared;
    uint64_t lg, lsh;
    if (!group_base_shape(L, cta, w, R, FULL, I->a, (uint64_t)I->imm, BC_SP_GLOBAL, 4, 0, &hg, &lg, 1) ||
        (!known && !group_base_shape(L, cta, w, R, FULL, J->a, (uint64_t)J->imm, BC_SP_SHARED, 4, 1, &hs, &lsh, 1)))
        return 0;
    if (fin >= 0) w->fin_ok |= 1ull << fin;
    ldg_sts_copy(hs + (uint64_t)J->imm, rs, hg + (uint64_t)I->imm, ra);
    return 1;
}
/* The load I (ld.global.b32 x, [a + imm]) and the store J after it (st.shared.b32 [..], x) of a
 * whole warp: 1 when done, 0 with nothing done when either side's lanes are not all in range
 * and aligned (the original instructions then run, and fault at the exact pc).  x is written
 * unless dead.  The usual case, both sides' 8-lane groups side by side and x dead, is four
 * 32-byte copies, each side range-checked at its groups' ends; the shared side, when final,
 * once a block (its groups then lie side by side in range: only the global side is looked at,
 * ldg_side_base); the rest is ldg_sts_gen. */
static __attribute__((noinline)) int ldg_sts_run(vm_launch *L, vm_cta *cta, vm_warp *w, uint64_t *R, const bc_insn *I,
                                                 const bc_insn *J, int dead)
{
    const int fin = I->m2 - 1;
    if (dead && fin >= 0 && (w->fin_ok >> fin & 1)) {
        const uint64_t *ra = R + I->a, *rs = R + J->a;
        const uintptr_t gb = ldg_side_base(L, ra, (uint64_t)I->imm);
        if (gb) {
            ldg_sts_copy((uintptr_t)cta->shared + (uint64_t)J->imm, rs, gb, ra);
            return 1;
        }
    }
    return ldg_sts_gen(L, cta, w, R, I, J, dead);
}
#endif


static const char *const space_name[] = { "generic", "global", "shared", "local", "const", "param" };

static vm_status mem_fault(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, int space,
                           uint64_t a, uint64_t n, int write, int misaligned)
{
    char where[320];
    int rs = space;
    uint64_t ra = a;
    vm_resolve(L, space, a, &rs, &ra);        /* outside every window: global (maybe host-mapped) memory */
    char gen[48] = "";
    if (space == BC_SP_GENERIC && rs != BC_SP_GLOBAL && rs != BC_SP_GENERIC)
        snprintf(gen, sizeof gen, "generic address 0x%llx, ", (unsigned long long)a);
    switch (rs) {
    case BC_SP_GLOBAL: mem_describe(L->mem, a, where, sizeof where); break;
    case BC_SP_SHARED: {
        uint64_t dyn = L->cfg.dyn_shared, st = L->shared_dyn_base;
        if (misaligned || (ra < L->shared_size && n <= L->shared_size - ra))
            snprintf(where, sizeof where, "offset 0x%llx (%sinside the block's %llu-byte shared window)", (unsigned long long)ra,
                     gen, (unsigned long long)L->shared_size);
        else
            snprintf(where, sizeof where, "offset 0x%llx (%s%s the block's %llu-byte shared window: %llu static + %llu "
                     "dynamic bytes from offset %llu, rounded up to %u as on the GPU)", (unsigned long long)ra, gen,
                     ra < L->shared_size ? "running past the end of" : "beyond", (unsigned long long)L->shared_size,
                     (unsigned long long)L->shared_static, (unsigned long long)dyn, (unsigned long long)st, VM_SMEM_GRANULE);
        break;
    }
    case BC_SP_LOCAL:
        snprintf(where, sizeof where, "offset 0x%llx (%sthe thread's local memory is %u bytes; --stack sets it)",
                 (unsigned long long)ra, gen, L->cfg.local_size);
        break;
    case BC_SP_CONST:
        snprintf(where, sizeof where, "offset 0x%llx (%sthe module's const bank is %llu bytes%s)", (unsigned long long)ra, gen,
                 (unsigned long long)L->m->const_size, write ? " and read-only" : "");
        break;
    case BC_SP_KPARAM:
        snprintf(where, sizeof where, "offset 0x%llx (%sthe kernel's parameters are %zu bytes%s)", (unsigned long long)ra, gen,
                 L->cfg.params_size, write ? " and read-only" : "");
        break;
    default:
        snprintf(where, sizeof where, "0x%llx", (unsigned long long)a);
    }
    return vm_fail(L, cta, w, lane, pc, VM_FAULT, "%s %s of %llu bytes in %s space at %s",
                   misaligned ? "misaligned" : "illegal address:", write ? "write" : "read",
                   (unsigned long long)n, space_name[rs == BC_SP_GLOBAL || rs == BC_SP_GENERIC ? space : rs], where);
}

/* Reader for printf: generic addresses as seen by one lane. */
typedef struct lane_ctx { vm_launch *L; vm_cta *cta; vm_warp *w; int lane; } lane_ctx;

static int lane_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    lane_ctx *c = ctx;
    uint8_t *p = vm_xlate(c->L, c->cta, c->w, c->lane, BC_SP_GENERIC, addr, n, 0);
    if (!p) return -1;
    memcpy(dst, p, n);
    return 0;
}

static int read_cstr(lane_ctx *c, uint64_t addr, char *buf, size_t len)
{
    size_t i = 0;
    for (; i + 1 < len; i++) {
        if (lane_read(c, addr + i, buf + i, 1)) { buf[i] = 0; return -1; }
        if (!buf[i]) return 0;
    }
    buf[i] = 0;
    return 0;
}

/* Linear thread id and 3-D tid of lane l of warp w. */
static void tid3(const vm_launch *L, const vm_warp *w, int l, uint32_t t[3])
{
    uint32_t lin = (uint32_t)w->id * BC_WARP + (uint32_t)l;
    t[0] = lin % L->cfg.block[0];
    t[1] = lin / L->cfg.block[0] % L->cfg.block[1];
    t[2] = lin / (L->cfg.block[0] * L->cfg.block[1]);
}

/* ---- built-in and host calls ------------------------------------------------------------ */

static vm_status builtin(vm_launch *L, vm_cta *cta, vm_warp *w, int l, uint32_t pc, const bc_insn *I)
{
    const bc_func *f = &L->m->funcs[I->imm];
    const uint32_t *x = &L->m->extra[I->x];
    uint64_t fp = w->R[L->m->slot_fp + l];
    uint8_t *frame = w->local + (uint64_t)l * L->local_stride;
    uint64_t arg[8] = { 0 };
    for (uint32_t k = 0; k < x[0] && k < 8; k++) {
        uint32_t off = x[3 + 3 * k], sz = x[5 + 3 * k];
        if (fp + off + sz > L->cfg.local_size) return vm_fail(L, cta, w, l, pc, VM_FAULT, "call argument outside the stack");
        memcpy(&arg[k], frame + fp + off, sz > 8 ? 8 : sz);
    }
    uint64_t ret = 0;
    lane_ctx lc = { L, cta, w, l };
    switch (f->builtin) {
    case BC_BUILTIN_VPRINTF: {
        char err[256];
        int r = 0;
        const vm_builtins *B = L->cfg.builtins;
        if (!B || !B->device_printf)
            return vm_fail(L, cta, w, l, pc, VM_ERROR, "device printf: no formatter configured (vm_config.builtins)");
        if (B->device_printf(lane_read, &lc, arg[0], arg[1], L->cfg.output, L->cfg.output_ctx, &r, err, sizeof err))
            return vm_fail(L, cta, w, l, pc, VM_FAULT, "printf: %s", err);
        ret = (uint64_t)(int64_t)r;
        break;
    }
    case BC_BUILTIN_ASSERTFAIL: {
        char msg[256], file[256], func[256];
        read_cstr(&lc, arg[0], msg, sizeof msg);
        read_cstr(&lc, arg[1], file, sizeof file);
        read_cstr(&lc, arg[3], func, sizeof func);
        uint32_t t[3];
        tid3(L, w, l, t);
        return vm_fail(L, cta, w, l, pc, VM_ASSERT,
                       "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file,
                       (unsigned)arg[2], func, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], t[0], t[1], t[2], msg);
    }
    case BC_BUILTIN_MALLOC: ret = mem_alloc_bytes(L->mem, arg[0], "malloc"); break;
    case BC_BUILTIN_FREE: if (arg[0]) mem_free(L->mem, arg[0]); L->gc_size = L->gc2_size = L->gc3_size = 0; break;
    }
    for (uint32_t k = 0; k < x[1]; k++) {
        uint32_t j = x[0] + k, off = x[3 + 3 * j], sz = x[5 + 3 * j];
        if (fp + off + sz <= L->cfg.local_size) memcpy(frame + fp + off, &ret, sz > 8 ? 8 : sz);
        local_wrote(w, fp + off + (sz > 8 ? 8 : sz));
    }
    return VM_OK;
}

static vm_status host_call(vm_launch *L, vm_cta *cta, vm_warp *w, int l, uint32_t pc, const bc_insn *I)
{
    const bc_func *f = &L->m->funcs[I->imm];
    const uint32_t *x = &L->m->extra[I->x];
    uint64_t fp = w->R[L->m->slot_fp + l];
    uint8_t *frame = w->local + (uint64_t)l * L->local_stride;
    uint64_t av[VM_EXTERN_MAX_ARGS], ret = 0;
    int n = (int)x[0];
    if (n > VM_EXTERN_MAX_ARGS) n = VM_EXTERN_MAX_ARGS;
    for (int k = 0; k < n; k++) {
        uint32_t off = x[3 + 3 * k], sz = x[5 + 3 * k];
        av[k] = 0;
        if (fp + off + sz <= L->cfg.local_size) memcpy(&av[k], frame + fp + off, sz > 8 ? 8 : sz);
    }
    char err[256];
    const vm_builtins *B = L->cfg.builtins;
    int r = B && B->extern_call ? B->extern_call(B->extern_ctx, f, n, av, &ret, err, sizeof err) : VM_EXTERN_UNDEFINED;
    if (r == VM_EXTERN_UNDEFINED)
        return vm_fail(L, cta, w, l, pc, VM_ERROR, "call to external function '%s', which no --load library defines", f->name);
    if (r) return vm_fail(L, cta, w, l, pc, VM_ERROR, "call to '%s': %s", f->name, err);
    for (uint32_t k = 0; k < x[1]; k++) {
        uint32_t j = x[0] + k, off = x[3 + 3 * j], sz = x[5 + 3 * j];
        if (fp + off + sz <= L->cfg.local_size) memcpy(frame + fp + off, &ret, sz > 8 ? 8 : sz);
        local_wrote(w, fp + off + (sz > 8 ? 8 : sz));
    }
    return VM_OK;
}

/* Grows a lane's call stack to hold `more` further words. */
static int stack_reserve(struct vm_stack *s, uint32_t more)
{
    uint32_t nc = s->cap ? s->cap : 64;
    while (nc - s->n < more) nc *= 2;
    uint64_t *nv = realloc(s->v, nc * sizeof *nv);
    if (!nv) return -1;
    s->v = nv;
    s->cap = nc;
    return 0;
}

#define VM_MAX_CALL_DEPTH 4096

/* A .param copy between frames (usually 4 or 8 bytes: no library call). */
static inline void frame_copy(uint8_t *d, const uint8_t *s, uint32_t n)
{
    uint64_t v;
    if (n == 4) { memcpy(&v, s, 4); memcpy(d, &v, 4); }
    else if (n == 8) { memcpy(&v, s, 8); memcpy(d, &v, 8); }
    else memmove(d, s, n);
}

/* Enters function fidx for lane l: saves the callee's registers, the frame
 * pointer and the call pc, then copies the arguments into the new frame. */
static vm_status call_enter(vm_launch *L, vm_cta *cta, vm_warp *w, int l, uint32_t pc, const bc_insn *I, int fidx)
{
    const bc_module *m = L->m;
    const bc_func *f = &m->funcs[fidx];
    const uint32_t *x = &m->extra[I->x];
    struct vm_stack *s = &w->stack[l];
    uint64_t *R = w->R;
    uint64_t fp = R[m->slot_fp + l], nfp = fp + x[2];
    if (s->depth >= VM_MAX_CALL_DEPTH || nfp + (uint64_t)f->frame_size > L->cfg.local_size)
        return vm_fail(L, cta, w, l, pc, VM_FAULT, "stack overflow calling '%s' (call depth %u, %u bytes of local memory per thread)",
                       f->name, s->depth, L->cfg.local_size);
    /* what the call saves: the callee's registers (the debugger's layout), or
     * only the caller's registers live after the call that the callee may
     * change (vm/flow.c) */
    const uint32_t *live = L->frames_full ? NULL : &m->call_save_list[m->call_save[pc]];
    uint32_t ns = live ? live[0] : f->nslots;
    uint32_t need = ns + 3;            /* room for the whole activation at once, then plain stores */
    if (s->cap - s->n < need && stack_reserve(s, need)) return vm_fail(L, cta, w, l, pc, VM_ERROR, "out of host memory");
    uint64_t *v = s->v + s->n;
    if (live) {
        for (uint32_t k = 0; k < ns; k++) v[k] = R[(uint64_t)live[1 + k] * BC_WARP + (uint32_t)l];
    } else {
        const uint64_t *src = R + (uint64_t)f->slot_base * BC_WARP + (uint32_t)l;
        for (uint32_t k = 0; k < ns; k++) v[k] = src[(uint64_t)k * BC_WARP];
    }
    v[ns] = pc;
    v[ns + 1] = fp;
    v[ns + 2] = (uint64_t)fidx;
    s->n += need;
    s->depth++;
    w->called |= 1u << l;
    uint8_t *lm = w->local + (uint64_t)l * L->local_stride;
    if (x[0] != (uint32_t)f->nparams || x[1] != (uint32_t)f->nrets)
        return vm_fail(L, cta, w, l, pc, VM_FAULT, "indirect call to '%s' with %u arguments and %u results; it takes %d and %d",
                       f->name, x[0], x[1], f->nparams, f->nrets);
    for (uint32_t k = 0; k < x[0]; k++) {
        /* an indirect call learns the callee's layout only now */
        uint32_t so = x[3 + 3 * k], sz = x[5 + 3 * k];
        uint32_t d = x[4 + 3 * k] == UINT32_MAX ? (uint32_t)f->params[k].offset : x[4 + 3 * k];
        if (sz > (uint32_t)f->params[k].size) sz = (uint32_t)f->params[k].size;
        frame_copy(lm + nfp + d, lm + fp + so, sz);
        local_wrote(w, nfp + d + sz);
    }
    R[m->slot_fp + l] = nfp;
    return VM_OK;
}

/* The .param copies of one lane's call or return: n values, triple k of t
 * (source offset from s, destination offset from d, bytes); all4 when
 * every copy is 4 bytes (the usual int and float values: one 32-bit move
 * each, no size test). */
static inline void frame_copies(uint8_t *d, const uint8_t *s, uint32_t n, const uint32_t *t, int all4)
{
    if (all4) {
        uint32_t v, k = 0;
        if (n & 1) { memcpy(&v, s + t[0], 4); memcpy(d + t[1], &v, 4); k = 1; t += 3; }
        _Pragma("GCC unroll 1") for (; k < n; k += 2, t += 6) {   /* two at a time: the second load before the first store */
            uint32_t v2;
            memcpy(&v, s + t[0], 4); memcpy(&v2, s + t[3], 4);
            memcpy(d + t[1], &v, 4); memcpy(d + t[4], &v2, 4);
        }
    } else {
        for (uint32_t k = 0; k < n; k++, t += 3) frame_copy(d + t[1], s + t[0], t[2]);
    }
}

/* call_enter for each lane of m in turn (a direct call of fidx at pc), with
 * what depends only on the call site planned at compile time (the copy plan
 * after the saved registers, bc.h): the same effects, and the same failure
 * at the same lane (*fl), as calling call_enter per lane. */
static vm_status call_enter_group(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t m, uint32_t pc, const bc_insn *I,
                                  int fidx, int *fl)
{
    const bc_module *M = L->m;
    if (L->frames_full || !M->call_save_list[M->call_plan[pc]]) {
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            vm_status st = call_enter(L, cta, w, l, pc, I, fidx);
            if (st) { *fl = l; return st; }
        }
        return VM_OK;
    }
    const uint32_t *live = &M->call_save_list[M->call_save[pc]], *plan = &M->call_save_list[M->call_plan[pc]];
    const uint32_t np = plan[BC_CALL_PLAN_NP], hw = plan[BC_CALL_PLAN_HWP], off = plan[BC_CALL_PLAN_OFF];
    const uint32_t *cp = plan + BC_CALL_PLAN_COPIES;
    const int all4 = (int)plan[BC_CALL_PLAN_ALL4P];
    const uint32_t ns = live[0], need = ns + 3;
    const uint64_t lsize = L->cfg.local_size, fend = plan[BC_CALL_PLAN_FEND];
    uint64_t *R = w->R, *rfp = R + M->slot_fp, top = 0;   /* top: the highest new frame pointer */
    vm_status st;
    int l;
    _Pragma("GCC unroll 1") for (uint32_t mm = m; mm; mm &= mm - 1) {
        l = __builtin_ctz(mm);
        struct vm_stack *s = &w->stack[l];
        uint64_t fp = rfp[l], nfp = fp + off;
        if (s->depth >= VM_MAX_CALL_DEPTH || nfp + fend > lsize) {
            st = vm_fail(L, cta, w, l, pc, VM_FAULT, "stack overflow calling '%s' (call depth %u, %u bytes of local memory per thread)",
                         M->funcs[fidx].name, s->depth, L->cfg.local_size);
            goto stopped;
        }
        if (s->cap - s->n < need && stack_reserve(s, need)) {
            st = vm_fail(L, cta, w, l, pc, VM_ERROR, "out of host memory");
            goto stopped;
        }
        uint64_t *v = s->v + s->n;
        _Pragma("GCC unroll 1") for (uint32_t k = 0; k < ns; k++) v[k] = R[(uint64_t)live[1 + k] * BC_WARP + (uint32_t)l];
        v[ns] = pc;
        v[ns + 1] = fp;
        v[ns + 2] = (uint64_t)fidx;
        s->n += need;
        s->depth++;
        uint8_t *lm = w->local + (uint64_t)l * L->local_stride;
        frame_copies(lm + nfp, lm + fp, np, cp, all4);
        top = nfp > top ? nfp : top;
        rfp[l] = nfp;
    }
    w->called |= m;
    if (np && top) local_wrote(w, top + hw);
    return VM_OK;
stopped:                               /* lane l failed: the lanes below it entered */
    if (np && top) local_wrote(w, top + hw);
    w->called |= m & ~(~0u << l);
    *fl = l;
    return st;
}

/* Returns lane l from its current .func; sets *npc.  Returns 1 when the
 * lane has no caller (a ret in the kernel: the thread exits). */
static int call_return(vm_launch *L, vm_warp *w, int l, uint32_t *npc)
{
    const bc_module *m = L->m;
    struct vm_stack *s = &w->stack[l];
    if (!s->depth) return 1;
    uint64_t *R = w->R;
    int fidx = (int)s->v[--s->n];
    uint64_t fp = s->v[--s->n];
    uint32_t cpc = (uint32_t)s->v[--s->n];
    const bc_func *f = &m->funcs[fidx];
    const bc_insn *C = &L->code[cpc];
    const uint32_t *x = &m->extra[C->x];
    uint64_t cfp = R[m->slot_fp + l];
    uint8_t *lm = w->local + (uint64_t)l * L->local_stride;
    for (uint32_t k = 0; k < x[1]; k++) {
        uint32_t j = x[0] + k, d = x[3 + 3 * j], sz = x[5 + 3 * j];
        uint32_t so = x[4 + 3 * j] == UINT32_MAX ? (uint32_t)f->rets[k].offset : x[4 + 3 * j];
        if (sz > (uint32_t)f->rets[k].size) sz = (uint32_t)f->rets[k].size;
        frame_copy(lm + fp + d, lm + cfp + so, sz);
        local_wrote(w, fp + d + sz);
    }
    if (!L->frames_full) {
        const uint32_t *live = &m->call_save_list[m->call_save[cpc]];
        s->n -= live[0];
        for (uint32_t k = 0; k < live[0]; k++) R[(uint64_t)live[1 + k] * BC_WARP + (uint32_t)l] = s->v[s->n + k];
    } else {
        s->n -= f->nslots;
        uint64_t *dst = R + (uint64_t)f->slot_base * BC_WARP + (uint32_t)l;
        for (uint32_t k = 0; k < f->nslots; k++) dst[(uint64_t)k * BC_WARP] = s->v[s->n + k];
    }
    R[m->slot_fp + l] = fp;
    if (!--s->depth) w->called &= ~(1u << l);
    *npc = cpc + 1;
    return 0;
}

/* The result copies of a return from fidx to a call (an indirect one: no
 * plan) whose operands are at extra[x]: the plan's triples into t, their
 * count, end and all-4-bytes flag; 0 when there are more than
 * BC_CALL_PLAN_MAX (call_return's general path). */
static __attribute__((noinline)) int ret_plan(const bc_module *M, uint32_t xi, int fidx, uint32_t *t, uint32_t *nr,
                                              uint32_t *hw, int *all4)
{
    if (M->extra[xi + 1] > BC_CALL_PLAN_MAX) return 0;
    uint32_t a4;
    *nr = bc_call_copies(M, xi, fidx, 1, t, hw, &a4);
    *all4 = (int)a4;
    return 1;
}

/* call_return for each lane of m: the lanes that have no caller are
 * returned (they exit); the others get their return pc.  What depends only
 * on the call site and callee (the call's copy plan, or for an indirect
 * call the same worked out here) is looked up once per run of lanes that
 * returns to the same call (usually the whole group): the same effects as
 * call_return per lane. */
static uint32_t call_return_group(vm_launch *L, vm_warp *w, uint32_t m)
{
    const bc_module *M = L->m;
    const uint32_t out = m & ~w->called;   /* lanes at the kernel's own ret: they exit */
    m &= w->called;
    if (L->frames_full) {
        uint32_t exited = out;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t np;
            if (call_return(L, w, l, &np)) exited |= 1u << l; else w->pc[l] = np;
        }
        return exited;
    }
    uint64_t *R = w->R, *rfp = R + M->slot_fp;
    uint32_t exited = out, ccpc = UINT32_MAX, nr = 0, hw = 0;
    int all4 = 1;
    uint64_t cfidx = UINT64_MAX;
    const uint32_t *live = NULL, *cp = NULL;
    uint32_t own[3 * BC_CALL_PLAN_MAX];   /* an indirect call's copies */
    _Pragma("GCC unroll 1") for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        struct vm_stack *s = &w->stack[l];
        uint64_t fidx = s->v[s->n - 1], fp = s->v[s->n - 2];
        uint32_t cpc = (uint32_t)s->v[s->n - 3];
        if (cpc != ccpc || fidx != cfidx) {
            live = &M->call_save_list[M->call_save[cpc]];
            const uint32_t *plan = &M->call_save_list[M->call_plan[cpc]];
            if (plan[0]) {                 /* a direct call: fidx is its callee */
                nr = plan[BC_CALL_PLAN_NR]; hw = plan[BC_CALL_PLAN_HWR]; all4 = (int)plan[BC_CALL_PLAN_ALL4R];
                cp = plan + BC_CALL_PLAN_COPIES + 3 * plan[BC_CALL_PLAN_NP];
            } else {
                if (!ret_plan(M, L->code[cpc].x, (int)fidx, own, &nr, &hw, &all4)) {   /* many results */
                    uint32_t np;
                    call_return(L, w, l, &np);
                    w->pc[l] = np;
                    ccpc = UINT32_MAX;
                    continue;
                }
                cp = own;
            }
            ccpc = cpc; cfidx = fidx;
        }
        s->n -= 3;
        uint64_t cfp = rfp[l];
        uint8_t *lm = w->local + (uint64_t)l * L->local_stride;
        frame_copies(lm + fp, lm + cfp, nr, cp, all4);
        if (nr) local_wrote(w, fp + hw);
        s->n -= live[0];
        const uint64_t *v = s->v + s->n;
        _Pragma("GCC unroll 1") for (uint32_t k = 0; k < live[0]; k++) R[(uint64_t)live[1 + k] * BC_WARP + (uint32_t)l] = v[k];
        rfp[l] = fp;
        if (!--s->depth) w->called &= ~(1u << l);
        w->pc[l] = cpc + 1;
    }
    return exited;
}

/* Atomic read-modify-write operations: the new value from the old one, the
 * operand b and (cas) c, all masked to the access size by the caller.
 * atom_select picks one per instruction from (operation, kind). */
typedef uint64_t (*atom_fn)(uint64_t old, uint64_t b, uint64_t c, int ftz);

static uint64_t at_add(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return o + b; }
static uint64_t at_fadd32(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; return fp32_add((uint32_t)o, (uint32_t)b, FP_RN, f, 0); }
static uint64_t at_fadd64(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp64_add(o, b, FP_RN); }
static uint64_t at_hadd(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp16_add((uint16_t)o, (uint16_t)b, FP_RN, 0, 0); }
static uint64_t at_bhadd(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return bf16_add((uint16_t)o, (uint16_t)b, FP_RN, 0, 0); }
static uint64_t at_h2add(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp16x2_add((uint32_t)o, (uint32_t)b, FP_RN, 0, 0); }
static uint64_t at_bh2add(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return bf16x2_add((uint32_t)o, (uint32_t)b, FP_RN, 0, 0); }
static uint64_t at_umin(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return b < o ? b : o; }
static uint64_t at_umax(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return b > o ? b : o; }
static uint64_t at_smin32(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return (int32_t)b < (int32_t)o ? b : o; }
static uint64_t at_smax32(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return (int32_t)b > (int32_t)o ? b : o; }
static uint64_t at_smin64(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return (int64_t)b < (int64_t)o ? b : o; }
static uint64_t at_smax64(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return (int64_t)b > (int64_t)o ? b : o; }
static uint64_t at_fmin32(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp32_min((uint32_t)o, (uint32_t)b, 0, 0); }
static uint64_t at_fmax32(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp32_max((uint32_t)o, (uint32_t)b, 0, 0); }
static uint64_t at_fmin64(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp64_min(o, b); }
static uint64_t at_fmax64(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return fp64_max(o, b); }
static uint64_t at_and(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return o & b; }
static uint64_t at_or(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return o | b; }
static uint64_t at_xor(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return o ^ b; }
static uint64_t at_inc(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return o >= b ? 0 : o + 1; }
static uint64_t at_dec(uint64_t o, uint64_t b, uint64_t c, int f) { (void)c; (void)f; return (o == 0 || o > b) ? b : o - 1; }
static uint64_t at_exch(uint64_t o, uint64_t b, uint64_t c, int f) { (void)o; (void)c; (void)f; return b; }
static uint64_t at_cas(uint64_t o, uint64_t b, uint64_t c, int f) { (void)f; return o == b ? c : o; }

static atom_fn atom_select(int op, int kind)
{
    int s64 = kind == BC_K_S64, s32 = kind == BC_K_S32, f32k = kind == BC_K_F32, f64k = kind == BC_K_F64;
    switch (op) {
    case BC_RED_ADD:
        switch (kind) {
        case BC_K_F32: return at_fadd32;
        case BC_K_F64: return at_fadd64;
        case BC_K_F16: return at_hadd;
        case BC_K_BF16: return at_bhadd;
        case BC_K_F16X2: return at_h2add;
        case BC_K_BF16X2: return at_bh2add;
        default: return at_add;
        }
    case BC_RED_MIN: return f32k ? at_fmin32 : f64k ? at_fmin64 : s32 ? at_smin32 : s64 ? at_smin64 : at_umin;
    case BC_RED_MAX: return f32k ? at_fmax32 : f64k ? at_fmax64 : s32 ? at_smax32 : s64 ? at_smax64 : at_umax;
    case BC_RED_AND: return at_and;
    case BC_RED_OR: return at_or;
    case BC_RED_XOR: return at_xor;
    case BC_RED_INC: return at_inc;
    case BC_RED_DEC: return at_dec;
    case BC_RED_EXCH: return at_exch;
    default: return at_cas;
    }
}

/* An atomic operation as a host atomic (a parallel launch's global memory):
 * returns the old value.  p is aligned to size. */
static uint64_t atom_host(uint8_t *p, int size, atom_fn fn, uint64_t b, uint64_t c, int ftz)
{
    if (size == 2) {
        uint16_t *q = (uint16_t *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &o, (uint16_t)fn(o, b, c, ftz), 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {}
        return o;
    }
    if (size == 4) {
        uint32_t *q = (uint32_t *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &o, (uint32_t)fn(o, b, c, ftz), 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {}
        return o;
    }
    uint64_t *q = (uint64_t *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &o, fn(o, b, c, ftz), 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {}
    return o;
}

/* The same with no other thread: old value back, fn's result stored
 * (2, 4 or 8 bytes: loads and stores of a fixed size, not memcpy calls). */
static inline uint64_t atom_plain(uint8_t *p, int size, atom_fn fn, uint64_t b, uint64_t c, int ftz)
{
    if (size == 4) {
        uint32_t o, n;
        memcpy(&o, p, 4);
        n = (uint32_t)fn(o, b, c, ftz);
        memcpy(p, &n, 4);
        return o;
    }
    if (size == 8) {
        uint64_t o, n;
        memcpy(&o, p, 8);
        n = fn(o, b, c, ftz);
        memcpy(p, &n, 8);
        return o;
    }
    uint16_t o, n;
    memcpy(&o, p, 2);
    n = (uint16_t)fn(o, b, c, ftz);
    memcpy(p, &n, 2);
    return o;
}

static int atom_size(int kind)
{
    switch (kind) {
    case BC_K_U64: case BC_K_S64: case BC_K_F64: return 8;
    case BC_K_F16: case BC_K_BF16: return 2;
    default: return 4;
    }
}

static uint64_t sreg(vm_launch *L, vm_cta *cta, vm_warp *w, int l, int id, int comp)
{
    uint32_t t[3];
    switch (id) {
    case BC_SR_TID: tid3(L, w, l, t); return t[comp];
    case BC_SR_NTID: return L->cfg.block[comp];
    case BC_SR_CTAID: return cta->ctaid[comp];
    case BC_SR_NCTAID: return L->cfg.grid[comp];
    case BC_SR_LANEID: return (uint64_t)l;
    case BC_SR_WARPID: return (uint64_t)w->id;
    case BC_SR_NWARPID: return 64;
    case BC_SR_SMID: return 0;
    case BC_SR_NSMID: return 1;
    case BC_SR_GRIDID: return 1;
    case BC_SR_LANEMASK_EQ: return 1u << l;
    case BC_SR_LANEMASK_LT: return (1u << l) - 1;
    case BC_SR_LANEMASK_LE: return l == 31 ? 0xffffffffu : (2u << l) - 1;
    case BC_SR_LANEMASK_GT: return l == 31 ? 0 : ~((2u << l) - 1) & 0xffffffffu;
    case BC_SR_LANEMASK_GE: return ~((1u << l) - 1) & 0xffffffffu;
    case BC_SR_CLOCK: return (uint32_t)(L->insns * 4);
    case BC_SR_CLOCK64: return L->insns * 4;
    case BC_SR_GLOBALTIMER:          /* comp 1: %globaltimer_lo, 2: %globaltimer_hi */
        return comp == 1 ? (uint32_t)(L->insns * 2) : comp == 2 ? L->insns * 2 >> 32 : L->insns * 2;
    case BC_SR_DYN_SMEM: return L->cfg.dyn_shared;
    case BC_SR_TOTAL_SMEM: return L->shared_dyn_base + ((L->cfg.dyn_shared + 15) & ~15ull);
    case BC_SR_NCLUSTERID: case BC_SR_CLUSTER_NCTARANK: return 1;
    case BC_SR_CLUSTER_NCTAID: return comp == 0 ? 1 : 1;
    case BC_SR_IS_EXPLICIT_CLUSTER: return 0;
    /* cooperative launch: %envreg1:%envreg2 = the grid-sync workspace (0 otherwise, as CUDA) */
    case BC_SR_ENVREG: return comp == 1 ? L->grid_ws >> 32 : comp == 2 ? (uint32_t)L->grid_ws : 0;
    case BC_SR_RESERVED_SMEM: {
        uint64_t begin = VM_RESERVED_SMEM_BASE;
        return comp == 0 ? begin : comp == 1 ? begin + VM_RESERVED_SMEM : comp == 2 ? VM_RESERVED_SMEM : begin + 8u * (unsigned)(comp - 3);
    }
    default: return 0;
    }
}

#ifndef VM_EXEC_VARIANT
vm_status vm_fail(vm_launch *L, vm_cta *cta, vm_warp *w, int lane, uint32_t pc, vm_status st, const char *fmt, ...)
{
    vm_fault *f = &L->fault;
    if (f->status != VM_OK) return f->status;        /* keep the first */
    f->status = st;
    f->pc = pc;
    f->warp = w ? w->id : -1;
    f->lane = lane;
    if (cta) memcpy(f->cta, cta->ctaid, sizeof f->cta);
    if (w && lane >= 0) tid3(L, w, lane, f->tid);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return st;
}

#endif

/* Bits set in a lane mask (baseline x86-64 has no popcnt: __builtin_popcount is a libgcc call). */
static inline uint32_t popc32(uint32_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#endif
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* fma.rn.f32 of lanes m with the FMA unit (one instruction, not a libm call per lane):
 * the same correctly rounded result; used only where the CPU has it (see have_fma). */
__attribute__((target("fma"))) static void fma32_hw(uint64_t *R, const bc_insn *I, uint32_t m)
{
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        R[I->d + l] = canon32(__builtin_fmaf(f32(R[I->a + l]), f32(R[I->b + l]), f32(R[I->c + l])));
    }
}
#if defined(__AVX2__)
/* add, sub, mul, fma or div.f32 of lanes m with rounding r and .ftz, in that host mode
 * (the AVX2 copy's partial warps). */
__attribute__((target("fma"))) static void f32_mode_lanes(int op, fp_rnd r, int ftz, uint64_t *R, const bc_insn *I,
                                                          uint32_t m)
{
    const uint32_t csr = host_fp_on(r, ftz);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        float x = f32(R[I->a + l]), y = f32(R[I->b + l]);
        R[I->d + l] = canon32(op == FPX_ADD ? x + y : op == FPX_SUB ? x - y : op == FPX_MUL ? x * y
                            : op == FPX_DIV ? x / y : __builtin_fmaf(x, y, f32(R[I->c + l])));
    }
    host_fp_off(csr);
}
/* vm/fp.c's add, sub, mul, fma or div.f64 (FPX_*) with rounding r: the host-mode paths' NaN lanes */
static uint64_t fp64_op(int op, uint64_t a, uint64_t b, uint64_t c, fp_rnd r)
{
    return op == FPX_ADD ? fp64_add(a, b, r) : op == FPX_SUB ? fp64_sub(a, b, r) : op == FPX_MUL ? fp64_mul(a, b, r)
         : op == FPX_DIV ? fp64_div(a, b, r) : fp64_fma(a, b, c, r);
}
/* add, sub, mul, fma or div.f64 of lanes m with rounding r: the host in that mode, then
 * vm/fp.c, after the mode is restored, for the NaN results (their payload rules). */
__attribute__((target("fma"))) static void f64_mode_lanes(int op, fp_rnd r, uint64_t *R, const bc_insn *I, uint32_t m)
{
    uint64_t t[BC_WARP];
    uint32_t nan = 0;
    const uint32_t csr = host_fp_on(r, 0);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        double x = f64(R[I->a + l]), y = f64(R[I->b + l]);
        double v = op == FPX_ADD ? x + y : op == FPX_SUB ? x - y : op == FPX_MUL ? x * y
                 : op == FPX_DIV ? x / y : __builtin_fma(x, y, f64(R[I->c + l]));
        t[l] = bf64(v);
        nan |= (uint32_t)(v != v) << l;
    }
    host_fp_off(csr);
    for (uint32_t mm = nan; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        t[l] = fp64_op(op, R[I->a + l], R[I->b + l], op == FPX_FMA ? R[I->c + l] : 0, r);
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        R[I->d + l] = t[l];
    }
}
/* dp4a of a whole warp (sa, sb: the bytes of a, b signed), 4 slots per step: each slot's 4 bytes
 * as 16-bit words, bytes 0 and 2 in one vector and 1 and 3 in another, so that two vpmaddwd give
 * a0*b0 + a2*b2 and a1*b1 + a3*b3 in the slot's low word (exact: |sums| < 2^18); + c, mod 2^32.
 * The slot's high word (zero for a 32-bit value) only feeds the high words, cleared at the end. */
static inline __attribute__((always_inline)) void dp4a_row(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c, int sa, int sb)
{
    const __m256i even = _mm256_set1_epi32(0x00ff00ff), lo = _mm256_set1_epi64x(0xffffffff);
#define DP4A_EVEN(v, s) ((s) ? _mm256_srai_epi16(_mm256_slli_epi16(v, 8), 8) : _mm256_and_si256(v, even))
#define DP4A_ODD(v, s) ((s) ? _mm256_srai_epi16(v, 8) : _mm256_srli_epi16(v, 8))
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + k)), y = _mm256_loadu_si256((const __m256i *)(b + k));
        __m256i s = _mm256_add_epi32(_mm256_madd_epi16(DP4A_EVEN(x, sa), DP4A_EVEN(y, sb)),
                                     _mm256_madd_epi16(DP4A_ODD(x, sa), DP4A_ODD(y, sb)));
        s = _mm256_add_epi32(s, _mm256_loadu_si256((const __m256i *)(c + k)));
        _mm256_storeu_si256((__m256i *)(d + k), _mm256_and_si256(s, lo));
    }
#undef DP4A_EVEN
#undef DP4A_ODD
}
/* d[l] = t[l] for the lanes l of m, 4 slots per step (a dense partial group's results
 * computed for all 32 lanes in t, the idle lanes' thrown away). */
static inline void row_merge(uint64_t *d, const uint64_t *t, uint32_t m)
{
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256i on = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((m >> k) & 15), bit), bit);
        __m256i v = _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)(d + k)),
                                       _mm256_loadu_si256((const __m256i *)(t + k)), on);
        _mm256_storeu_si256((__m256i *)(d + k), v);
    }
}
/* cvt.f64.f32 (widen: 1) or cvt.rn.f32.f64 (0) of a whole warp: the host's conversion (exact, or
 * rounded to nearest in the default mode), 4 slots per step; the f32 values of 4 slots are
 * gathered by vshufps on the two halves (vpermd and vperm2i128 are 3 and 8 micro-ops on Zen 1).
 * Returns the lanes whose result is a NaN, for vm/fp.c's payload rules. */
static inline uint32_t cvt_f32_f64_row(uint64_t *d, const uint64_t *a, int widen)
{
    uint32_t nan = 0;
    for (int k = 0; k < BC_WARP; k += 4) {
        __m256 v = _mm256_loadu_ps((const float *)(a + k));
        if (widen) {
            __m128 f = _mm_shuffle_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1), _MM_SHUFFLE(2, 0, 2, 0));
            __m256d r = _mm256_cvtps_pd(f);
            nan |= (uint32_t)_mm256_movemask_pd(_mm256_cmp_pd(r, r, _CMP_UNORD_Q)) << k;
            _mm256_storeu_pd((double *)(d + k), r);
        } else {
            __m128 r = _mm256_cvtpd_ps(_mm256_castps_pd(v));
            nan |= (uint32_t)_mm_movemask_ps(_mm_cmpunord_ps(r, r)) << k;
            _mm256_storeu_si256((__m256i *)(d + k), _mm256_cvtepu32_epi64(_mm_castps_si128(r)));
        }
    }
    return nan;
}
/* cvt_f32_f64_row into d = a, NaN results by vm/fp.c (out of line: see fma32_dense) */
__attribute__((noinline)) static void cvt_f32_f64_warp(uint64_t *R, const bc_insn *I, int widen)
{
    uint64_t t[BC_WARP];
    const uint64_t *a = R + I->a;
    for (uint32_t nan = cvt_f32_f64_row(t, a, widen); nan; nan &= nan - 1) {
        int l = __builtin_ctz(nan);
        t[l] = widen ? fp_cvt_f2f(a[l] & 0xffffffffu, FP_F32, FP_F64, FP_RN, 0) : fp_cvt_f2f(a[l], FP_F64, FP_F32, FP_RN, 0);
    }
    memcpy(R + I->d, t, sizeof t);
}
/* A dense partial group (VM_DENSE lanes or more) of fma.rn.f32, and of f32_mode_lanes' operations:
 * the whole warp's row, then the lanes of m merged into d (the idle lanes' results thrown away).
 * Out of line: a local array in the dispatch loop costs every handler (register allocation). */
__attribute__((noinline)) static void fma32_dense(uint64_t *R, const bc_insn *I, uint32_t m)
{
    uint64_t t[BC_WARP];
    fma32_row(t, R + I->a, R + I->b, R + I->c);
    row_merge(R + I->d, t, m);
}
__attribute__((noinline)) static void f32_mode_dense(int op, fp_rnd r, int ftz, uint64_t *R, const bc_insn *I, uint32_t m)
{
    uint64_t t[BC_WARP];
    f32_mode_row(op, r, ftz, t, R + I->a, R + I->b, R + I->c);
    row_merge(R + I->d, t, m);
}
/* A partial group of a MUFU function's row (vm/fp_approx.c) or a division row (b: its divisor),
 * VM_MUFU_DENSE lanes or more: the row over all 32 lanes, the idle lanes' operands 1.0 (which no
 * row hands to its scalar function), then the lanes of m merged into d.  The row costs about what
 * 15-17 lanes of the scalar function do (ex2, lg2, sin, div.full on Zen 1), so fewer lanes go one
 * by one (LANES_CALL). */
#define VM_MUFU_DENSE 16
#define F32_ONE 0x3f800000u   /* 1.0f */
/* x = a in the lanes of m, idle elsewhere: a dense helper's operand row */
static inline void dense_operand(uint64_t *x, const uint64_t *a, uint32_t m, uint64_t idle)
{
    for (int l = 0; l < BC_WARP; l++) x[l] = (m >> l) & 1 ? a[l] : idle;
}
__attribute__((noinline)) static void mufu_dense(void (*row)(uint64_t *, const uint64_t *, int), uint64_t *R,
                                                 const bc_insn *I, uint32_t m, int ftz)
{
    uint64_t x[BC_WARP], t[BC_WARP];
    dense_operand(x, R + I->a, m, F32_ONE);
    row(t, x, ftz);
    row_merge(R + I->d, t, m);
}
__attribute__((noinline)) static void div_dense(void (*row)(uint64_t *, const uint64_t *, const uint64_t *, int),
                                                uint64_t *R, const bc_insn *I, uint32_t m, int ftz)
{
    uint64_t x[BC_WARP], y[BC_WARP], t[BC_WARP];
    dense_operand(x, R + I->a, m, F32_ONE);
    dense_operand(y, R + I->b, m, F32_ONE);
    row(t, x, y, ftz);
    row_merge(R + I->d, t, m);
}
/* A partial group of a half-precision operation that has a row (half_row): the row over all 32
 * lanes, the idle lanes' operands 0 (which no row redoes lane by lane), then the lanes of m
 * merged into d; 0, with nothing written, when the combination has no row.
 * half_dense_lanes says from how many lanes. */
__attribute__((noinline)) static int half_dense(uint64_t *R, const bc_insn *I, uint32_t m, int ftz, int sat)
{
    uint64_t x[3][BC_WARP], t[BC_WARP];
    const uint32_t src[3] = { I->a, I->b, I->c };
    const int nops = I->op == OP_HFMA ? 3 : I->op <= OP_HMAX ? 2 : 1;
    for (int o = 0; o < nops; o++) dense_operand(x[o], R + src[o], m, 0);
    int done = half_row(I, ftz, sat, t, x[0], x[1], x[2]);
    if (done) row_merge(R + I->d, t, m);
    return done;
}
/* The same for setp of halves (x2: setp.{f16x2,bf16x2} d|e): the row into temporaries, then d
 * (and with x2 e) merged in the lanes of m.  The row costs what 7-8 lanes of the loop below do
 * (two widenings and a compare each), 5 of pairs: it is taken from VM_HALF_DENSE_SETP_ONE and
 * VM_HALF_DENSE_SETP_PAIR lanes on. */
__attribute__((noinline)) static int setp_half_dense(uint64_t *R, const bc_insn *I, uint32_t m, fp_type t, int x2, int ftz)
{
    uint64_t x[BC_WARP], y[BC_WARP], td[BC_WARP], te[BC_WARP];
    dense_operand(x, R + I->a, m, 0);
    dense_operand(y, R + I->b, m, 0);
    if (!fp_setp_half_row(I->m1, t, x2, ftz, td, te, x, y)) return 0;
    row_merge(R + I->d, td, m);
    if (x2) row_merge(R + I->e, te, m);
    return 1;
}
/* f64_mode_lanes of a whole warp, 4 lanes a step; d may be an operand (written last). */
__attribute__((target("fma"))) static void f64_mode_row(int op, fp_rnd r, uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                        const uint64_t *c)
{
    uint64_t t[BC_WARP];
    __asm__ volatile("" : : "r"(t) : "memory");   /* t escapes: host_fp_off's barrier keeps its stores in the mode */
    __m256d nan = _mm256_setzero_pd();
    const uint32_t csr = host_fp_on(r, 0);
#define F64_MODE_LOOP(expr) \
    for (int k = 0; k < BC_WARP; k += 4) { \
        __m256d x = _mm256_loadu_pd((const double *)(a + k)), y = _mm256_loadu_pd((const double *)(b + k)), v = (expr); \
        nan = _mm256_or_pd(nan, _mm256_cmp_pd(v, v, _CMP_UNORD_Q)); \
        _mm256_storeu_pd((double *)(t + k), v); \
    }
    switch (op) {
    case FPX_ADD: F64_MODE_LOOP(_mm256_add_pd(x, y)) break;
    case FPX_SUB: F64_MODE_LOOP(_mm256_sub_pd(x, y)) break;
    case FPX_MUL: F64_MODE_LOOP(_mm256_mul_pd(x, y)) break;
    case FPX_DIV: F64_MODE_LOOP(_mm256_div_pd(x, y)) break;
    default: F64_MODE_LOOP(_mm256_fmadd_pd(x, y, _mm256_loadu_pd((const double *)(c + k)))) break;
    }
#undef F64_MODE_LOOP
    host_fp_off(csr);
    if (_mm256_movemask_pd(nan))
        for (int l = 0; l < BC_WARP; l++)
            if (isnan64(t[l])) t[l] = fp64_op(op, a[l], b[l], op == FPX_FMA ? c[l] : 0, r);
    memcpy(d, t, sizeof t);
}
/* sqrt or rcp.f32 of lanes m with rounding r and .ftz: the host in that mode (sqrtss,
 * a division of 1), then vm/fp.c, after the mode is restored, for the NaN results. */
static void f32_unary_mode(int op, fp_rnd r, int ftz, uint64_t *R, const bc_insn *I, uint32_t m)
{
    uint64_t t[BC_WARP];
    uint32_t nan = 0;
    const uint32_t csr = host_fp_on(r, ftz);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        float x = f32(R[I->a + l]), v = op == F32U_SQRT ? _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))) : 1.0f / x;
        t[l] = (uint32_t)bf32(v);
        nan |= (uint32_t)(v != v) << l;
    }
    host_fp_off(csr);
    for (uint32_t mm = nan; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm), a = (uint32_t)R[I->a + l];
        t[l] = op == F32U_SQRT ? fp32_sqrt(a, r, ftz) : fp32_rcp(a, r, ftz);
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(mm);
        R[I->d + l] = t[l];
    }
}
#endif
#if !defined(__AVX2__)       /* the AVX2 copy has fma32_row */
__attribute__((target("fma"))) static void fma32_hw_full(uint64_t *R, const bc_insn *I)
{
    uint64_t *d = R + I->d;
    const uint64_t *a = R + I->a, *b = R + I->b, *c = R + I->c;
    _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++)   /* vectorised: slots are a warp apart */
        d[l] = canon32(__builtin_fmaf(f32(a[l]), f32(b[l]), f32(c[l])));
}
#define fma32_full(R, I) fma32_hw_full(R, I)
#else
#define fma32_full(R, I) fma32_row((R) + (I)->d, (R) + (I)->a, (R) + (I)->b, (R) + (I)->c)
#endif
static int cpu_has_fma(void)
{
    static int v = -1;                 /* threads may race to set it, to the same value */
    int r = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (r < 0) {
        __builtin_cpu_init();
        r = __builtin_cpu_supports("fma") ? 1 : 0;
        __atomic_store_n(&v, r, __ATOMIC_RELAXED);
    }
    return r;
}
#endif

/* ---- the dispatch loop ----------------------------------------------------------------- */

/* The full-warp loop has no dependence between lanes: slots are BC_WARP
 * apart, so a destination never overlaps another lane's source (ivdep lets
 * GCC vectorise it without a run-time overlap check). */
#define LANES(...) do { \
        if (m == FULL) { _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) { __VA_ARGS__; } } \
        else { _Pragma("GCC unroll 1") for (uint32_t mm_ = m; mm_; mm_ &= mm_ - 1) { int l = __builtin_ctz(mm_); __VA_ARGS__; } } \
    } while (0)

/* An ALU handler: D = the expression for lanes m, which reads registers and
 * has no side effect.  A dense partial group computes all 32 lanes and
 * keeps the old value where a lane is off, which vectorises like the full
 * warp (the idle lanes' results are thrown away). */
#define VM_DENSE 12
#define LANES_D(...) do { \
        if (m == FULL) { _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) { D = (__VA_ARGS__); } } \
        else if (popc32(m) >= VM_DENSE) { _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) { \
            uint64_t v_ = (__VA_ARGS__); D = (m >> l) & 1 ? v_ : D; } } \
        else { _Pragma("GCC unroll 1") for (uint32_t mm_ = m; mm_; mm_ &= mm_ - 1) { int l = __builtin_ctz(mm_); D = (__VA_ARGS__); } } \
    } while (0)

/* LANES_D for an expression that does not vectorise: one that calls out of line (vm/fp.c), or
 * may (F64OP), or divides integers.  A partial group goes lane by lane, never all 32 lanes (12
 * active lanes of fma.rn.f64 took 2.3 times 8 lanes' time, of cvt.rn.f16.f32 2.8 times, by
 * LANES_D; 16 lanes of div.s32 twice their time by this). */
#define LANES_CALL(...) do { \
        if (m == FULL) { for (int l = 0; l < BC_WARP; l++) { D = (__VA_ARGS__); } } \
        else { _Pragma("GCC unroll 1") for (uint32_t mm_ = m; mm_; mm_ &= mm_ - 1) { int l = __builtin_ctz(mm_); D = (__VA_ARGS__); } } \
    } while (0)

/* A whole warp's `fast` expression (of lane l), then `slow` for each lane
 * whose result v_ is `bad` (a NaN, a conversion out of range): nothing in
 * the first loop branches to a call, so it vectorises; D is written last,
 * so `slow` still reads the operands when D is one of them. */
#define LANES_FIX(fast, bad, slow) do { \
        uint64_t t_[BC_WARP], any_ = 0; \
        _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) { uint64_t v_ = (fast); t_[l] = v_; any_ |= (bad); } \
        if (any_) for (int l = 0; l < BC_WARP; l++) { uint64_t v_ = t_[l]; (void)v_; if (bad) t_[l] = (slow); } \
        _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) D = t_[l]; \
    } while (0)

#define RD(s) (R + (s))[l]
#define D RD(I->d)
#define A RD(I->a)
#define B RD(I->b)
#define C RD(I->c)
#define E RD(I->e)
/* 32-bit results computed in 64 bits and masked: the same low word, and GCC vectorises
 * them on the 64-bit slots directly instead of narrowing and widening every operand */
#define M32 0xffffffffull
#define A32 ((uint32_t)A)
#define B32 ((uint32_t)B)
#define C32 ((uint32_t)C)
#define S16(v) ((int16_t)(v))
#define S32(v) ((int32_t)(v))
#define S64(v) ((int64_t)(v))
#define U16(v) ((uint64_t)(v) & 0xffffu)   /* 64-bit, as M32: GCC vectorises on the slots without narrowing */
#define FTZ (I->flags & BC_IF_FTZ)
#define SAT (I->flags & BC_IF_SAT)
#define RND ((fp_rnd)I->m1)

/* The instructions an OP_ALU_RUN (vm/fuse.c, bc.h's BC_ALU_RUN_OPS) runs, each lane's result
 * as an expression of A, B, C (and mk): the one definition their own handlers and the run's
 * loop expand. */
#define ALU_MOV (A)
#define ALU_ADD_16 (U16(A + B))
#define ALU_ADD_32 ((A + B) & M32)
#define ALU_ADD_64 (A + B)
#define ALU_SUB_32 ((A - B) & M32)
#define ALU_SUB_64 (A - B)
#define ALU_MUL_32 ((uint32_t)(A * B))
#define ALU_MAD_16 (U16(A * B + C))
#define ALU_MAD_32 (((uint64_t)A32 * B32 + C) & M32)
#define ALU_AND (A & B)
#define ALU_OR (A | B)
#define ALU_XOR (A ^ B)
#define ALU_NOT_32 (~A & M32)
#define ALU_SHL_32 (shl32(A, B32))
#define ALU_SHL_64 (shl64(A, B32))
#define ALU_SHR_U16 (B32 >= 16 ? 0 : U16(A) >> B32)
#define ALU_SHR_U32 (shr32(A, B32))
#define ALU_SHR_U64 (shr64(A, B32))
#define ALU_SHR_S32 ((uint32_t)(S32(A) >> (B32 >= 32 ? 31 : B32)))
#define ALU_CVT_ZX (A & mk)                /* mk: the low imm bits */

#ifdef VM_USE_GOTO
#define vmdispatch(o) goto *jump[o];
#define vmcase(name) L_##name:
#define vmfallthrough
#else
#define vmdispatch(o) switch (o)
#define vmcase(name) case OP_##name:
#define vmfallthrough __attribute__((fallthrough));
#endif
/* The group's next instruction at pc (threaded: an unguarded one is
 * dispatched from here, each handler with its own indirect jump, which the
 * branch predictor learns per handler; a guarded one, and every one in the
 * switch build, goes through the loop's head). */
#ifdef VM_USE_GOTO
#define vmthread { I = &code[pc]; \
        if (__builtin_expect(I->guard == BC_NO_GUARD, 1)) { \
            m = group; n_ins++; if (m != FULL) n_short += BC_WARP - popc32(m); goto *first[I->op]; } \
        continue; }
#else
#define vmthread continue;
#endif
/* The group's turn ends at `limit`, the lower of `stop` (where other ready
 * lanes wait) and `bend`, the pc at which its budget of instructions runs
 * out if it goes on in sequence: the next instruction is one compare. */
#define vmnext { if (++pc >= limit) goto out_budget; vmthread }
/* a taken jump of the whole group: the budget left moves with it */
#define vmjump(t) { int64_t left_ = bend - (int64_t)pc - 1; pc = (t); \
        if (left_ <= 0 || pc >= stop) goto out_budget; \
        bend = (int64_t)pc + left_; limit = vm_limit(stop, bend); continue; }
/* the group's lanes may now sit at different pcs or states: let the scheduler decide */
#define vmregroup { writeback = 0; goto out; }

/* The lower of stop and bend (both pcs; bend may lie past the last one). */
static inline uint32_t vm_limit(uint32_t stop, int64_t bend)
{
    return bend < (int64_t)stop ? (uint32_t)bend : stop;
}

/* Writes the group's shared pc back to its lanes. */
static inline void put_pc(vm_warp *w, uint32_t mask, uint32_t pc)
{
    if (mask == FULL) { for (int l = 0; l < BC_WARP; l++) w->pc[l] = pc; return; }   /* vectorised */
    for (uint32_t mm = mask; mm; mm &= mm - 1) w->pc[__builtin_ctz(mm)] = pc;
}

/* If every lane of mask is ready at one pc, and no other ready lane of the
 * warp waits there (a collective or barrier may have released some: they
 * must join the group, as on hardware), returns 1 with the pc in *pc. */
static int uniform(const vm_warp *w, uint32_t mask, uint32_t *pc)
{
    if (!mask) return 0;
    int f = __builtin_ctz(mask);
    uint32_t p = w->pc[f];
    if (mask == FULL) {
        /* the whole warp (after a bar.sync it released): one vectorised pass, no other lanes;
         * a warp still waiting (the usual case) is seen in its first lane */
        _Static_assert(LANE_READY == 0, "a ready lane's state byte is 0");
        if (w->state[f] != LANE_READY) return 0;
        uint32_t diff = 0, busy = 0;
        for (int l = 0; l < BC_WARP; l++) { diff |= w->pc[l] ^ p; busy |= w->state[l]; }
        if (diff | busy) return 0;
        *pc = p;
        return 1;
    }
    for (uint32_t mm = mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (w->state[l] != LANE_READY || w->pc[l] != p) return 0;
    }
    for (uint32_t mm = w->live & ~mask; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (w->state[l] == LANE_READY && w->pc[l] == p) return 0;
    }
    *pc = p;
    return 1;
}

/* vm_next_turn, its usual case with this copy's vectors; out of line: inline in the dispatch
 * loop, its registers cost unrelated handlers (warp_divergent +1.4% host instructions). */
static __attribute__((noinline)) int next_turn(vm_launch *L, vm_cta *c, vm_turn *t)
{
    return vm_next_turn_whole(L, c, t) || vm_next_turn(L, c, t);
}

#ifdef VM_EXEC_VARIANT
#define VM_EXEC_LOOP vm_exec_avx2
#else
#define VM_EXEC_LOOP vm_exec_base
static
#endif
vm_status VM_EXEC_LOOP(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc, int budget, uint32_t stop);
vm_status VM_EXEC_LOOP(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc, int budget, uint32_t stop)
{
#ifdef VM_USE_GOTO
    static const void *const jump[OP__COUNT] = {
#define OP(name, text, fmt) &&L_##name,
#include "ops.def"
#undef OP
    };
    /* with a step hook (the debugger), every instruction goes to it first */
    static const void *const jump_step[OP__COUNT] = { [0 ... OP__COUNT - 1] = &&L_step_hook };
#endif
    const bc_module *M = L->m;
    const vm_hooks *H = L->cfg.hooks;
    /* with no observer, the code with superinstructions (vm/fuse.c) */
    const bc_insn *code = !H && L->m->fused ? L->m->fused : L->code;
    uint64_t *R = w->R;
    const int hacc = H && H->access;   /* memory accesses are reported lane by lane */
    int (*const step)(void *, vm_launch *, vm_cta *, vm_warp *, uint32_t, uint32_t) = H ? H->step : NULL;
#if defined(__x86_64__) && defined(__GNUC__)
    const int have_fma = cpu_has_fma();
#endif
    vm_status st = VM_OK;
    int writeback = 1;
    int fl = 0;                    /* faulting lane */
    uint64_t fa = 0;               /* faulting address */
    uint32_t m = group;
    const bc_insn *I = NULL;
    /* L->insns and L->lane_insns, kept in registers: n_ins instructions of 32
     * lanes, less n_short lanes for those issued by fewer */
    uint64_t n_ins = 0, n_short = 0;
#define FLUSH_COUNTS() do { L->insns += n_ins; L->lane_insns += n_ins * BC_WARP - n_short; n_ins = n_short = 0; } while (0)
#ifdef VM_USE_GOTO
    const void *const *const first = step ? jump_step : jump;
#endif
    int64_t bend;                  /* see vmnext */
    uint32_t limit;
    /* with no hooks and one CTA in flight, a warp that is the only one able
     * to issue takes its next turns here (vm_repick), not through the scheduler */
    const int solo = !H && L->nres == 1;
next_group:
    L->group = group;
    /* Reconvergence: the group stops when it reaches the pc of the next
     * group of ready lanes above it, so the scheduler can merge them. */
    if (!stop) {
        stop = UINT32_MAX;
        for (uint32_t mm = w->live & ~group; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if (w->state[l] == LANE_READY && w->pc[l] > pc && w->pc[l] < stop) stop = w->pc[l];
        }
    }
    bend = (int64_t)pc + budget;
    limit = vm_limit(stop, bend);
    for (;;) {
        I = &code[pc];
        m = group;
        if (I->guard != BC_NO_GUARD) {
            uint32_t g = 0;
            const uint64_t *rg = R + I->guard;
            if (group == FULL) g = vm_pred_bits(rg);
            else for (uint32_t mm = group; mm; mm &= mm - 1) {
                int l = __builtin_ctz(mm);
                g |= (uint32_t)(rg[l] & 1) << l;
            }
            m = I->gneg ? group & ~g : g;
        }
        n_ins++;
        if (m != FULL) n_short += BC_WARP - popc32(m);
#ifdef VM_USE_GOTO
        goto *first[I->op];
    L_step_hook:
#else
        if (__builtin_expect(step != NULL, 0))
#endif
        {
            FLUSH_COUNTS();            /* the debugger reads them (%clock) */
            if (step(H->ctx, L, cta, w, m, pc)) { L->insns--; L->lane_insns -= popc32(m); st = VM_PAUSED; goto out; }
        }
    redispatch:                    /* a superinstruction's original instruction (I) */
        vmdispatch(I->op) {
        /* ---- data movement ---- */
        vmcase(MOV) LANES_D(ALU_MOV); vmnext
        vmcase(PACK2) { uint64_t mk = (1ull << I->imm) - 1; LANES_D((A & mk) | (B & mk) << I->imm); } vmnext
        vmcase(PACK4) { uint64_t mk = (1ull << I->imm) - 1; int s = (int)I->imm;
            LANES_D((A & mk) | (B & mk) << s | (C & mk) << 2 * s | (E & mk) << 3 * s); } vmnext
        vmcase(UNPACK) { const uint32_t *dl = &M->extra[I->x]; int s = (int)I->imm; uint64_t mk = s >= 64 ? ~0ull : (1ull << s) - 1;
            LANES({ uint64_t v = A; for (int k = 0; k < I->n; k++) RD(dl[k]) = (v >> (k * s)) & mk; }); } vmnext
        vmcase(SREG)
            if (I->imm == BC_SR_TID && I->m1 < 3) {   /* %tid.{x,y,z} stepped lane by lane: no divisions per lane */
                uint32_t bx = L->cfg.block[0], by = L->cfg.block[1], lin = (uint32_t)w->id * BC_WARP;
                uint32_t t[3] = { lin % bx, lin / bx % by, lin / (bx * by) };
                if (m == FULL && t[0] + BC_WARP <= bx) {     /* the warp within one row of the block */
                    uint64_t v = t[I->m1], step = I->m1 == 0;
                    _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) D = v + step * (uint64_t)l;
                } else tid_lanes(R + I->d, m, lin, bx, by, t, I->m1);
            } else if (I->imm == BC_SR_LANEID) LANES_D((uint64_t)l);
            else {
                FLUSH_COUNTS();            /* %clock and %globaltimer count instructions */
                if (I->imm >= BC_SR_LANEMASK_EQ && I->imm <= BC_SR_LANEMASK_GE) LANES(D = sreg(L, cta, w, l, (int)I->imm, I->m1));
                else { uint64_t v = sreg(L, cta, w, 0, (int)I->imm, I->m1); LANES_D(v); }   /* the same in every lane */
            }
            vmnext
        /* ---- integer ---- */
#if defined(__AVX2__)
#define ROW32(name) if (m == FULL) { row32(ROW_##name, R + I->d, R + I->a, R + I->b, R + I->c); vmnext }
#else
#define ROW32(name)
#endif
        vmcase(ADD_16) LANES_D(ALU_ADD_16); vmnext
        vmcase(ADD_32) LANES_D(ALU_ADD_32); vmnext
        vmcase(ADD_64) LANES_D(ALU_ADD_64); vmnext
        vmcase(SUB_16) LANES_D(U16(A - B)); vmnext
        vmcase(SUB_32) LANES_D(ALU_SUB_32); vmnext
        vmcase(SUB_64) LANES_D(ALU_SUB_64); vmnext
        vmcase(MUL_16) LANES_D(U16(A * B)); vmnext
        vmcase(MUL_32) ROW32(MUL_32) LANES_D(ALU_MUL_32); vmnext
        vmcase(MUL_64) LANES_D(A * B); vmnext
        vmcase(MULHI_S16) LANES_D(U16((S16(A) * S16(B)) >> 16)); vmnext
        vmcase(MULHI_U16) LANES_D(U16((U16(A) * (uint32_t)U16(B)) >> 16)); vmnext
        vmcase(MULHI_S32) ROW32(MULHI_S32) LANES_D((uint32_t)(((int64_t)S32(A) * S32(B)) >> 32)); vmnext
        vmcase(MULHI_U32) ROW32(MULHI_U32) LANES_D((uint32_t)(((uint64_t)A32 * B32) >> 32)); vmnext
        vmcase(MULHI_S64) LANES_D(smulhi64(S64(A), S64(B))); vmnext
        vmcase(MULHI_U64) LANES_D(umulhi64(A, B)); vmnext
        vmcase(MULWIDE_S16) ROW32(MULWIDE_S16) LANES_D((uint32_t)(S16(A) * S16(B))); vmnext
        vmcase(MULWIDE_U16) ROW32(MULWIDE_U16) LANES_D((uint32_t)U16(A) * U16(B)); vmnext
        vmcase(MULWIDE_S32) ROW32(MULWIDE_S32) LANES_D((uint64_t)((int64_t)S32(A) * S32(B))); vmnext
        vmcase(MULWIDE_U32) ROW32(MULWIDE_U32) LANES_D((uint64_t)A32 * B32); vmnext
        vmcase(MUL24_S32) LANES_D((uint32_t)((int64_t)(S32(A << 8) >> 8) * (S32(B << 8) >> 8))); vmnext
        vmcase(MUL24_U32) LANES_D(((A & 0xffffff) * (B & 0xffffff)) & M32); vmnext
#define S24(v) ((int64_t)(S32((uint32_t)(v) << 8) >> 8))
        vmcase(MUL24HI_S32) LANES_D((uint32_t)((uint64_t)(S24(A) * S24(B)) >> 16)); vmnext
        vmcase(MUL24HI_U32) LANES_D((uint32_t)(((A & 0xffffff) * (B & 0xffffff)) >> 16)); vmnext
        vmcase(MAD24_S32) LANES_D((uint32_t)((uint64_t)(S24(A) * S24(B)) + C)); vmnext
        vmcase(MAD24_U32) LANES_D(((A & 0xffffff) * (B & 0xffffff) + C) & M32); vmnext
        vmcase(MAD24HI_S32) LANES_D((uint32_t)(((uint64_t)(S24(A) * S24(B)) >> 16) + C)); vmnext
        vmcase(MAD24HI_U32) LANES_D(((((A & 0xffffff) * (B & 0xffffff)) >> 16) + C) & M32); vmnext
        vmcase(MAD_16) LANES_D(ALU_MAD_16); vmnext
        vmcase(MAD_32) ROW32(MAD_32) LANES_D(ALU_MAD_32); vmnext
        vmcase(MAD_64) LANES_D(A * B + C); vmnext
        vmcase(MADHI_S32) ROW32(MADHI_S32) LANES_D(((((int64_t)S32(A) * S32(B)) >> 32) + C) & M32); vmnext
        vmcase(MADHI_U32) ROW32(MADHI_U32) LANES_D(((((A & M32) * (B & M32)) >> 32) + C) & M32); vmnext
        vmcase(MADHI_S64) LANES_D(smulhi64(S64(A), S64(B)) + C); vmnext
        vmcase(MADHI_U64) LANES_D(umulhi64(A, B) + C); vmnext
        vmcase(MADWIDE_S16) LANES_D((uint32_t)((int64_t)S16(A) * S16(B) + S32(C))); vmnext
        vmcase(MADWIDE_U16) LANES_D((U16(A) * U16(B) + C) & M32); vmnext
        vmcase(MADWIDE_S32) ROW32(MADWIDE_S32) LANES_D((uint64_t)((int64_t)S32(A) * S32(B)) + C); vmnext
        vmcase(MADWIDE_U32) ROW32(MADWIDE_U32) LANES_D((uint64_t)A32 * B32 + C); vmnext
        /* in 64 bits, the low words compared at the top of the slot (signed) or masked: no narrowing */
        vmcase(SAD_S32) LANES_D(((S64(A << 32) > S64(B << 32) ? A - B : B - A) + C) & M32); vmnext
        vmcase(SAD_U32) LANES_D((((A & M32) > (B & M32) ? A - B : B - A) + C) & M32); vmnext
        vmcase(SAD_S64) LANES_D((S64(A) > S64(B) ? A - B : B - A) + C); vmnext
        vmcase(SAD_U64) LANES_D((A > B ? A - B : B - A) + C); vmnext
        vmcase(MADHISAT_S32) LANES({ int64_t s = (((int64_t)S32(A) * S32(B)) >> 32) + S32(C);
            D = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s); }); vmnext
        vmcase(ADDSUB_16X2) LANES({
            uint32_t r = 0;
            for (int k = 0; k < 2; k++) {
                int64_t x = I->m2 ? (int16_t)(A32 >> 16 * k) : (int64_t)((A32 >> 16 * k) & 0xffff);
                int64_t y = I->m2 ? (int16_t)(B32 >> 16 * k) : (int64_t)((B32 >> 16 * k) & 0xffff);
                int64_t v = I->m1 ? x - y : x + y;
                if (SAT) { int64_t lo = I->m2 ? -32768 : 0, hi = I->m2 ? 32767 : 65535; v = v < lo ? lo : v > hi ? hi : v; }
                r |= ((uint32_t)v & 0xffff) << 16 * k;
            }
            D = r; }); vmnext
        vmcase(VABSDIFF4) LANES({
            uint32_t r = 0, sum = 0;
            for (int k = 0; k < 4; k++) {
                int x = I->m1 ? (int8_t)(A32 >> 8 * k) : (int)((A32 >> 8 * k) & 0xff);
                int y = I->m2 ? (int8_t)(B32 >> 8 * k) : (int)((B32 >> 8 * k) & 0xff);
                int v = x > y ? x - y : y - x;
                sum += (uint32_t)v;
                if (SAT && v > 255) v = 255;
                r |= ((uint32_t)v & 0xff) << 8 * k;
            }
            D = I->m3 ? sum + C32 : r; }); vmnext
        vmcase(DIV_S16) LANES_D(U16(S16(B) == 0 ? -1 : (S16(A) == INT16_MIN && S16(B) == -1) ? INT16_MIN : S16(A) / S16(B))); vmnext
        vmcase(DIV_U16) LANES_D(U16(B) == 0 ? 0xffff : U16(A) / U16(B)); vmnext
#if defined(__AVX2__)
#define DIV32_ROW(sgn, rem, one) if (m == FULL) { \
            for (uint32_t bad = div32_row(R + I->d, R + I->a, R + I->b, sgn, rem); bad; bad &= bad - 1) { \
                int l = __builtin_ctz(bad); D = one(A32, B32); } vmnext }
#define DIV64_ROW(sgn, rem, one) if (m == FULL) { \
            for (uint32_t bad = div64_row(R + I->d, R + I->a, R + I->b, sgn, rem); bad; bad &= bad - 1) { \
                int l = __builtin_ctz(bad); D = one(A, B); } vmnext }
#else
#define DIV32_ROW(sgn, rem, one)
#define DIV64_ROW(sgn, rem, one)
#endif
        vmcase(DIV_S32) DIV32_ROW(1, 0, div_s32) LANES_CALL(div_s32(A32, B32)); vmnext
        vmcase(DIV_U32) DIV32_ROW(0, 0, div_u32) LANES_CALL(div_u32(A32, B32)); vmnext
        vmcase(DIV_S64) DIV64_ROW(1, 0, div_s64) LANES_CALL(div_s64(A, B)); vmnext
        vmcase(DIV_U64) DIV64_ROW(0, 0, div_u64) LANES_CALL(div_u64(A, B)); vmnext
        vmcase(REM_S16) LANES_D(U16(S16(B) == 0 ? -1 : S16(B) == -1 ? 0 : S16(A) % S16(B))); vmnext
        vmcase(REM_U16) LANES_D(U16(B) == 0 ? 0xffff : U16(A) % U16(B)); vmnext
        vmcase(REM_S32) DIV32_ROW(1, 1, rem_s32) LANES_CALL(rem_s32(A32, B32)); vmnext
        vmcase(REM_U32) DIV32_ROW(0, 1, rem_u32) LANES_CALL(rem_u32(A32, B32)); vmnext
#undef DIV32_ROW
        vmcase(REM_S64) DIV64_ROW(1, 1, rem_s64) LANES_CALL(rem_s64(A, B)); vmnext
        vmcase(REM_U64) DIV64_ROW(0, 1, rem_u64) LANES_CALL(rem_u64(A, B)); vmnext
        vmcase(MIN_S16) LANES_D(U16(S64(A << 48) < S64(B << 48) ? A : B)); vmnext
        vmcase(MIN_U16) LANES_D(U16(A) < U16(B) ? U16(A) : U16(B)); vmnext
        vmcase(MAX_S16) LANES_D(U16(S64(A << 48) > S64(B << 48) ? A : B)); vmnext
        vmcase(MAX_U16) LANES_D(U16(A) > U16(B) ? U16(A) : U16(B)); vmnext
        vmcase(MIN_S32) ROW32(MIN_S32) LANES_D((uint32_t)sel(S32(A) < S32(B), A, B)); vmnext
        vmcase(MIN_U32) ROW32(MIN_U32) LANES_D(A32 < B32 ? A32 : B32); vmnext
        vmcase(MAX_S32) ROW32(MAX_S32) LANES_D((uint32_t)sel(S32(A) > S32(B), A, B)); vmnext
        vmcase(MAX_U32) ROW32(MAX_U32) LANES_D(A32 > B32 ? A32 : B32); vmnext
        vmcase(MIN_S64) LANES_D(S64(A) < S64(B) ? A : B); vmnext
        vmcase(MIN_U64) LANES_D(A < B ? A : B); vmnext
        vmcase(MAX_S64) LANES_D(S64(A) > S64(B) ? A : B); vmnext
        vmcase(MAX_U64) LANES_D(A > B ? A : B); vmnext
        vmcase(MINMAX_16X2) LANES({
            uint32_t r = 0;
            for (int k = 0; k < 2; k++) {
                uint32_t x = (A32 >> 16 * k) & 0xffff, y = (B32 >> 16 * k) & 0xffff, v;
                int lt = I->m2 ? (int16_t)x < (int16_t)y : x < y;
                v = I->m1 ? (lt ? y : x) : (lt ? x : y);
                if ((I->flags & BC_IF_RELU) && (v & 0x8000)) v = 0;
                r |= v << 16 * k;
            }
            D = r; }); vmnext
        vmcase(ABS_16) LANES_D(U16(S16(A) < 0 ? (uint64_t)-S16(A) : A)); vmnext
        vmcase(ABS_32) LANES_D(abs32(A)); vmnext
        vmcase(ABS_64) LANES_D(S64(A) < 0 ? -A : A); vmnext
        vmcase(NEG_16) LANES_D(U16(-A)); vmnext
        vmcase(NEG_32) LANES_D(-A & M32); vmnext
        vmcase(NEG_64) LANES_D(-A); vmnext
        vmcase(ADDSAT_S32) LANES({ int64_t s = (int64_t)S32(A) + S32(B); D = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s); }); vmnext
        vmcase(SUBSAT_S32) LANES({ int64_t s = (int64_t)S32(A) - S32(B); D = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s); }); vmnext
#define CCR RD(M->slot_cc)
        vmcase(ADDCC_32) LANES({ uint64_t s = (uint64_t)A32 + B32; D = (uint32_t)s; CCR = s >> 32; }); vmnext
        vmcase(ADDC_32) LANES_D((A + B + (CCR & 1)) & M32); vmnext
        vmcase(ADDCCC_32) LANES({ uint64_t s = (uint64_t)A32 + B32 + (CCR & 1); D = (uint32_t)s; CCR = s >> 32; }); vmnext
        vmcase(SUBCC_32) LANES({ uint64_t s = (uint64_t)A32 - B32; D = (uint32_t)s; CCR = (s >> 32) & 1; }); vmnext
        vmcase(SUBC_32) LANES_D((A - B - (CCR & 1)) & M32); vmnext
        vmcase(SUBCCC_32) LANES({ uint64_t s = (uint64_t)A32 - B32 - (CCR & 1); D = (uint32_t)s; CCR = (s >> 32) & 1; }); vmnext
        vmcase(ADDCC_64) LANES({ unsigned __int128 s = (unsigned __int128)A + B; D = (uint64_t)s; CCR = (uint64_t)(s >> 64); }); vmnext
        vmcase(ADDC_64) LANES_D(A + B + (CCR & 1)); vmnext
        vmcase(ADDCCC_64) LANES({ unsigned __int128 s = (unsigned __int128)A + B + (CCR & 1); D = (uint64_t)s; CCR = (uint64_t)(s >> 64); }); vmnext
        vmcase(SUBCC_64) LANES({ unsigned __int128 s = (unsigned __int128)A - B; D = (uint64_t)s; CCR = (uint64_t)(s >> 64) & 1; }); vmnext
        vmcase(SUBC_64) LANES_D(A - B - (CCR & 1)); vmnext
        vmcase(SUBCCC_64) LANES({ unsigned __int128 s = (unsigned __int128)A - B - (CCR & 1); D = (uint64_t)s; CCR = (uint64_t)(s >> 64) & 1; }); vmnext
        /* mad.cc / madc(.cc): m1 = hi half, m2 = signed */
        vmcase(MADCC_32) vmcase(MADC_32) vmcase(MADCCC_32) {
            int cin = I->op != OP_MADCC_32, cout = I->op != OP_MADC_32;
            LANES({
                uint64_t p = I->m2 ? (uint64_t)((int64_t)S32(A) * S32(B)) : (uint64_t)A32 * B32;
                uint32_t part = I->m1 ? (uint32_t)(p >> 32) : (uint32_t)p;
                uint64_t s = (uint64_t)part + C32 + (cin ? (CCR & 1) : 0);
                D = (uint32_t)s;
                if (cout) CCR = s >> 32;
            });
        } vmnext
        /* ---- logic ---- */
        vmcase(AND) LANES_D(ALU_AND); vmnext
        vmcase(OR) LANES_D(ALU_OR); vmnext
        vmcase(XOR) LANES_D(ALU_XOR); vmnext
        vmcase(NOT_16) LANES_D(U16(~A)); vmnext
        vmcase(NOT_32) LANES_D(ALU_NOT_32); vmnext
        vmcase(NOT_64) LANES_D(~A); vmnext
        vmcase(NOT_PRED) LANES_D(!(A & 1)); vmnext
        vmcase(CNOT) LANES_D(A == 0); vmnext
        vmcase(SHL_16) LANES_D(B32 >= 16 ? 0 : U16(A << B32)); vmnext
        vmcase(SHL_32) ROW32(SHL_32) LANES_D(ALU_SHL_32); vmnext
        vmcase(SHL_64) LANES_D(ALU_SHL_64); vmnext
        vmcase(SHR_U16) LANES_D(ALU_SHR_U16); vmnext
        vmcase(SHR_U32) ROW32(SHR_U32) LANES_D(ALU_SHR_U32); vmnext
        vmcase(SHR_U64) LANES_D(ALU_SHR_U64); vmnext
        vmcase(SHR_S16) LANES_D(U16(S16(A) >> (B32 >= 16 ? 15 : B32))); vmnext
        vmcase(SHR_S32) ROW32(SHR_S32) LANES_D(ALU_SHR_S32); vmnext
        vmcase(SHR_S64) LANES_D((uint64_t)(S64(A) >> (B32 >= 64 ? 63 : B32))); vmnext
#if defined(__AVX2__)
#define POPC_ROW(mask32) if (m == FULL) { popc_row(R + I->d, R + I->a, mask32); vmnext }
#else
#define POPC_ROW(mask32)
#endif
        vmcase(POPC_32) POPC_ROW(1) LANES_D((uint64_t)__builtin_popcount(A32)); vmnext
        vmcase(POPC_64) POPC_ROW(0) LANES_D((uint64_t)__builtin_popcountll(A)); vmnext
#undef POPC_ROW
        vmcase(CLZ_32)
#if defined(__AVX2__)
            if (m == FULL) { clz32_row(R + I->d, R + I->a); vmnext }
#endif
            LANES_D(A32 ? (uint64_t)__builtin_clz(A32) : 32); vmnext
        vmcase(CLZ_64) LANES_D(A ? (uint64_t)__builtin_clzll(A) : 64); vmnext
        vmcase(BREV_32) LANES_D(brev32(A32)); vmnext
        vmcase(BREV_64) LANES_D((uint64_t)brev32(A32) << 32 | brev32((uint32_t)(A >> 32))); vmnext
        vmcase(BFIND_U32) LANES_D(bfind(A32, 32, 0, I->m1)); vmnext
        vmcase(BFIND_S32) LANES_D(bfind(A32, 32, 1, I->m1)); vmnext
        vmcase(BFIND_U64) LANES_D(bfind(A, 64, 0, I->m1)); vmnext
        vmcase(BFIND_S64) LANES_D(bfind(A, 64, 1, I->m1)); vmnext
        /* position and length are nearly always immediates (constant slots: one value in every lane) */
#define BFE_CONST(bits, sign) if (m == FULL && I->b / BC_WARP < M->nconsts && I->c / BC_WARP < M->nconsts) { \
            bfe_row(R + I->d, R + I->a, (uint32_t)R[I->b], (uint32_t)R[I->c], bits, sign); vmnext }
        vmcase(BFE_U32) BFE_CONST(32, 0) LANES_D(bfe(A32, B32, C32, 32, 0)); vmnext
        vmcase(BFE_S32) BFE_CONST(32, 1) LANES_D(bfe(A32, B32, C32, 32, 1)); vmnext
        vmcase(BFE_U64) BFE_CONST(64, 0) LANES_D(bfe(A, B32, C32, 64, 0)); vmnext
        vmcase(BFE_S64) BFE_CONST(64, 1) LANES_D(bfe(A, B32, C32, 64, 1)); vmnext
#undef BFE_CONST
        vmcase(BFI_32)
#if defined(__AVX2__)
            if (m == FULL) { bfi32_row(R + I->d, R + I->a, R + I->b, R + I->c, R + I->e); vmnext }
#endif
            LANES_D((uint32_t)bfi(A32, B32, C32, (uint32_t)E, 32)); vmnext
        vmcase(BFI_64) LANES_D(bfi(A, B, C32, (uint32_t)E, 64)); vmnext
        vmcase(PRMT)
#if defined(__AVX2__)
            if (!I->m1 && m == FULL && I->c / BC_WARP < M->nconsts && !((uint32_t)R[I->c] & 0x8888u)) {
                prmt0_row(R + I->d, R + I->a, R + I->b, (uint32_t)R[I->c]);
                vmnext
            }
            if (!I->m1 && m == FULL) { prmt0_var_row(R + I->d, R + I->a, R + I->b, R + I->c); vmnext }
#endif
            if (!I->m1) LANES_D(prmt0(A32, B32, C32)); else LANES_D(prmt(A32, B32, C32, I->m1));
            vmnext
        vmcase(LOP3) { uint64_t mk[8];
            for (int k = 0; k < 8; k++) mk[k] = 0 - (((uint64_t)I->imm >> k) & 1);
            LANES_D(lop3(A, B, C, mk) & M32); } vmnext
        vmcase(SHF_L) LANES({ uint32_t n = I->m1 ? (C32 > 32 ? 32 : C32) : C32 & 31;
            uint64_t v = (uint64_t)B32 << 32 | A32; D = (uint32_t)((v << n) >> 32); }); vmnext
        vmcase(SHF_R) LANES({ uint32_t n = I->m1 ? (C32 > 32 ? 32 : C32) : C32 & 31;
            uint64_t v = (uint64_t)B32 << 32 | A32; D = (uint32_t)(v >> n); }); vmnext
        vmcase(BMSK) LANES({ uint32_t p = A32, w2 = B32;
            if (I->m1) { if (p > 32) p = 32; if (w2 > 32) w2 = 32; } else { p &= 31; w2 &= 31; }
            uint64_t msk = w2 >= 64 ? ~0ull : (1ull << w2) - 1; D = p >= 32 ? 0 : (uint32_t)(msk << p); }); vmnext
        vmcase(FNS) LANES_D(fns(A32, B32, S32(C))); vmnext
        vmcase(SZEXT) LANES({ uint32_t n = I->m2 ? (B32 > 32 ? 32 : B32) : B32 & 31;
            D = n == 0 ? 0 : n >= 32 ? A32 : I->m1 ? (uint32_t)sext(A32, (int)n) : A32 & ((1u << n) - 1); }); vmnext
        /* the low 32 bits of c + the four byte products: a sum mod 2^32, whatever c's signedness;
         * one loop per pair of byte signednesses (constants: it vectorises) */
        vmcase(DP4A)
#if defined(__AVX2__)
            if (m == FULL) { dp4a_row(R + I->d, R + I->a, R + I->b, R + I->c, I->m1, I->m2); vmnext }
#endif
            if (I->m1) { if (I->m2) LANES_D(dp4a(A32, B32, C32, 1, 1)); else LANES_D(dp4a(A32, B32, C32, 1, 0)); }
            else { if (I->m2) LANES_D(dp4a(A32, B32, C32, 0, 1)); else LANES_D(dp4a(A32, B32, C32, 0, 0)); }
            vmnext
        vmcase(DP2A) LANES({ int64_t s = I->m1 || I->m2 ? (int64_t)S32(C) : (int64_t)C32;
            for (int k = 0; k < 2; k++) {
                int64_t x = I->m1 ? (int16_t)(A32 >> 16 * k) : (int64_t)((A32 >> 16 * k) & 0xffff);
                int64_t y = I->m2 ? (int8_t)(B32 >> 8 * (k + 2 * I->m3)) : (int64_t)((B32 >> 8 * (k + 2 * I->m3)) & 0xff);
                s += x * y; }
            D = (uint32_t)s; }); vmnext
        /* ---- compare and select ---- */
        vmcase(SETP_EQ) LANES_D(A == B); vmnext
        vmcase(SETP_NE) LANES_D(A != B); vmnext
        /* narrow signed compares on the operands shifted to the top of the slot: the same
         * order, and AVX2 compares 64-bit lanes directly (sign-extending each half costs
         * shuffles: a whole-warp setp.lt.s32 took 80 instructions, now 56) */
        vmcase(SETP_LT_S16) LANES_D(S64(A << 48) < S64(B << 48)); vmnext
        vmcase(SETP_LE_S16) LANES_D(S64(A << 48) <= S64(B << 48)); vmnext
#if defined(__AVX2__)
#define SETP32_ROW(le) if (m == FULL) { setp_s32_row(R + I->d, R + I->a, R + I->b, le); vmnext }
#else
#define SETP32_ROW(le)
#endif
        vmcase(SETP_LT_S32) SETP32_ROW(0) LANES_D(S64(A << 32) < S64(B << 32)); vmnext
        vmcase(SETP_LE_S32) SETP32_ROW(1) LANES_D(S64(A << 32) <= S64(B << 32)); vmnext
#undef SETP32_ROW
        vmcase(SETP_LT_S64) LANES_D(S64(A) < S64(B)); vmnext
        vmcase(SETP_LE_S64) LANES_D(S64(A) <= S64(B)); vmnext
        vmcase(SETP_LT_U) LANES_D(A < B); vmnext
        vmcase(SETP_LE_U) LANES_D(A <= B); vmnext
        /* float compares: the comparison is chosen once, outside the lane loop */
#define FCMP_SWITCH(X, Y) switch (I->m1) { \
        case BC_CMP_EQ: LANES_D(X == Y); break;          case BC_CMP_NE: LANES_D(X < Y || X > Y); break; \
        case BC_CMP_LT: LANES_D(X < Y); break;           case BC_CMP_LE: LANES_D(X <= Y); break; \
        case BC_CMP_GT: LANES_D(X > Y); break;           case BC_CMP_GE: LANES_D(X >= Y); break; \
        case BC_CMP_EQU: LANES_D(!(X < Y || X > Y)); break; case BC_CMP_NEU: LANES_D(X != Y); break; \
        case BC_CMP_LTU: LANES_D(!(X >= Y)); break;      case BC_CMP_LEU: LANES_D(!(X > Y)); break; \
        case BC_CMP_GTU: LANES_D(!(X <= Y)); break;      case BC_CMP_GEU: LANES_D(!(X < Y)); break; \
        case BC_CMP_NUM: LANES_D(X == X && Y == Y); break; default: LANES_D(X != X || Y != Y); break; }
        vmcase(SETP_F32)
#if defined(__AVX2__)
            if (m == FULL) { (FTZ ? setp_f32_ftz_row : setp_f32_row)(I->m1, R + I->d, R + I->a, R + I->b); vmnext }
#endif
            if (FTZ) FCMP_SWITCH(f32(ftz32(A32)), f32(ftz32(B32)))
            else FCMP_SWITCH(f32(A), f32(B))
            vmnext
        vmcase(SETP_F64) FCMP_SWITCH(f64(A), f64(B)) vmnext
        /* setp{.ftz}.{f16,bf16}(x2): whole warps in vm/fp_rows.c; the halves compared exactly as doubles */
        vmcase(SETP_F16) { fp_type t = I->m2 == BC_K_BF16 ? FP_BF16 : FP_F16;
            if (m == FULL && fp_setp_half_row(I->m1, t, 0, FTZ, R + I->d, R + I->e, R + I->a, R + I->b)) vmnext
#if defined(__AVX2__)
            if (popc32(m) >= VM_HALF_DENSE_SETP_ONE && setp_half_dense(R, I, m, t, 0, FTZ)) vmnext
#endif
            LANES_CALL(fcmp(half_f64(A, t, FTZ), half_f64(B, t, FTZ), I->m1)); } vmnext
        vmcase(SETP_F16X2) { fp_type t = I->m2 == BC_K_BF16 ? FP_BF16 : FP_F16;
            if (m == FULL && fp_setp_half_row(I->m1, t, 1, FTZ, R + I->d, R + I->e, R + I->a, R + I->b)) vmnext
#if defined(__AVX2__)
            if (popc32(m) >= VM_HALF_DENSE_SETP_PAIR && setp_half_dense(R, I, m, t, 1, FTZ)) vmnext
#endif
            LANES({
                D = (uint64_t)fcmp(half_f64(A, t, FTZ), half_f64(B, t, FTZ), I->m1);
                E = (uint64_t)fcmp(half_f64(A >> 16, t, FTZ), half_f64(B >> 16, t, FTZ), I->m1);
            }); } vmnext
        vmcase(SETP_BOOL) LANES({ int a = (int)(A & 1), c = (int)(C & 1);
            int r = I->m1 == BC_BOOL_AND ? (a & c) : I->m1 == BC_BOOL_OR ? (a | c) : (a ^ c);
            int na = !a; int q = I->m1 == BC_BOOL_AND ? (na & c) : I->m1 == BC_BOOL_OR ? (na | c) : (na ^ c);
            D = (uint64_t)r; if (I->flags & BC_IF_HAS_E) E = (uint64_t)q; }); vmnext
        vmcase(SELP) LANES_D(B ^ ((A ^ B) & -(C & 1))); vmnext   /* both read: vectorises as a blend */
        vmcase(SET_INT) LANES_D((A & 1) ? 0xffffffffu : 0); vmnext
        vmcase(SET_F32) LANES_D((A & 1) ? 0x3f800000u : 0); vmnext
        vmcase(SLCT_S) LANES_D(S32(C) >= 0 ? A : B); vmnext
        vmcase(SLCT_F) LANES_D(f32(ftz32(C32)) >= 0.0f ? A : B); vmnext
        /* ---- f32 ---- */
#if defined(__AVX2__)
#define F32_ROW(op) if (m == FULL) { f32_row(op, R + I->d, R + I->a, R + I->b); vmnext }
#else
#define F32_ROW(op)
#endif
        vmcase(ADD_F32) F32_ROW(F32_ROW_ADD) LANES_D(canon32(f32(A) + f32(B))); vmnext
        vmcase(SUB_F32) F32_ROW(F32_ROW_SUB) LANES_D(canon32(f32(A) - f32(B))); vmnext
        vmcase(MUL_F32) F32_ROW(F32_ROW_MUL) LANES_D(canon32(f32(A) * f32(B))); vmnext
#undef F32_ROW
        vmcase(FMA_F32)
#if defined(__x86_64__) && defined(__GNUC__)
            if (have_fma) {
                if (m == FULL) fma32_full(R, I);
#if defined(__AVX2__)
                else if (popc32(m) >= VM_DENSE) fma32_dense(R, I, m);
#endif
                else fma32_hw(R, I, m);
                vmnext
            }
#endif
            LANES_D(canon32(fmaf(f32(A), f32(B), f32(C)))); vmnext
        /* .sat (any rounding, with or without .ftz) of a whole warp: f32_sat_row */
#if defined(__AVX2__)
#define F32_SAT_ROW(op) if (m == FULL && SAT && have_fma) { \
                            f32_sat_row(op, RND, FTZ != 0, R + I->d, R + I->a, R + I->b, op == FPX_FMA ? R + I->c : R + I->a); vmnext }
#else
#define F32_SAT_ROW(op)
#endif
        /* any rounding, .ftz (-use_fast_math), no .sat: the host's operation in that mode
         * (f32_mode_row, f32_mode_lanes); the base copy keeps vm/fp.c, rowdiff.py's reference */
#if defined(__AVX2__)
#define F32_MODE(op) if (!SAT && have_fma) { \
                         if (m == FULL) f32_mode_row(op, RND, FTZ != 0, R + I->d, R + I->a, R + I->b, R + I->c); \
                         else if (popc32(m) >= VM_DENSE) f32_mode_dense(op, RND, FTZ != 0, R, I, m); \
                         else f32_mode_lanes(op, RND, FTZ != 0, R, I, m); \
                         vmnext }
#define F64_MODE(op) if (have_fma) { \
                         if (m == FULL) f64_mode_row(op, RND, R + I->d, R + I->a, R + I->b, R + I->c); \
                         else f64_mode_lanes(op, RND, R, I, m); \
                         vmnext }
#else
#define F32_MODE(op)
#define F64_MODE(op)
#endif
        vmcase(ADD_F32X) F32_SAT_ROW(FPX_ADD) F32_MODE(FPX_ADD) LANES_CALL(fp32_add(A32, B32, RND, FTZ, SAT)); vmnext
        vmcase(SUB_F32X) F32_SAT_ROW(FPX_SUB) F32_MODE(FPX_SUB) LANES_CALL(fp32_sub(A32, B32, RND, FTZ, SAT)); vmnext
        vmcase(MUL_F32X) F32_SAT_ROW(FPX_MUL) F32_MODE(FPX_MUL) LANES_CALL(fp32_mul(A32, B32, RND, FTZ, SAT)); vmnext
        vmcase(FMA_F32X) F32_SAT_ROW(FPX_FMA) F32_MODE(FPX_FMA) LANES_CALL(fp32_fma(A32, B32, C32, RND, FTZ, SAT)); vmnext
#undef F32_SAT_ROW
        vmcase(DIV_F32) LANES_D(canon32(f32(A) / f32(B))); vmnext
        vmcase(DIV_F32X) F32_MODE(FPX_DIV) LANES_CALL(fp32_div(A32, B32, RND, FTZ)); vmnext
        /* div.approx and div.full (-use_fast_math's a / b): MUFU.RCP of the divisor times the
         * dividend (vm/fp_approx.c); a whole warp (or a partial group of VM_MUFU_DENSE lanes or
         * more) by its AVX2 row, which redoes the lanes it leaves with the same scalar function */
#if defined(__AVX2__)
#define DIV_ROW(fn) if (m == FULL) { fn##_row(R + I->d, R + I->a, R + I->b, FTZ); vmnext } \
                    if (popc32(m) >= VM_MUFU_DENSE) { div_dense(fn##_row, R, I, m, FTZ); vmnext }
#else
#define DIV_ROW(fn)
#endif
        vmcase(DIV_APPROX_F32) DIV_ROW(fp32_div_approx) LANES_CALL(fp32_div_approx(A32, B32, FTZ)); vmnext
        vmcase(DIV_FULL_F32) DIV_ROW(fp32_div_full) LANES_CALL(fp32_div_full(A32, B32, FTZ)); vmnext
#undef DIV_ROW
        vmcase(SQRT_F32)
#if defined(__AVX2__)
            if (m == FULL && RND == FP_RN && !FTZ) {  /* inline: 13% faster than through f32_unary_row */
                uint64_t t[BC_WARP];
                if (sqrt32_row(t, R + I->a))
                    for (int l = 0; l < BC_WARP; l++) if ((t[l] & 0x7fffffffu) > 0x7f800000u) t[l] = fp32_sqrt(A32, FP_RN, 0);
                memcpy(R + I->d, t, sizeof t);
            }
            else if (m == FULL) f32_unary_row(F32U_SQRT, RND, FTZ != 0, R + I->d, R + I->a);
            else f32_unary_mode(F32U_SQRT, RND, FTZ != 0, R, I, m);
            vmnext
#endif
            LANES_CALL(fp32_sqrt(A32, RND, FTZ)); vmnext
        vmcase(RCP_F32)   /* the host's correctly rounded 1/x (in the rounding's mode), but NaNs */
#if defined(__AVX2__)
            if (m == FULL) f32_unary_row(F32U_RCP, RND, FTZ != 0, R + I->d, R + I->a);
            else f32_unary_mode(F32U_RCP, RND, FTZ != 0, R, I, m);
#else
            if (m == FULL && RND == FP_RN && !FTZ) LANES_FIX(bf32(1.0f / f32(A)), (v_ & 0x7fffffffu) > 0x7f800000u, fp32_rcp(A32, FP_RN, 0));
            else LANES_CALL(fp32_rcp(A32, RND, FTZ));
#endif
            vmnext
        /* the MUFU functions of a whole warp or a partial group of VM_MUFU_DENSE lanes or more:
         * vm/fp_approx.c's AVX2 rows */
#if defined(__AVX2__)
#define MUFU_ROW(fn) if (m == FULL) { fn##_row(R + I->d, R + I->a, FTZ); vmnext } \
                     if (popc32(m) >= VM_MUFU_DENSE) { mufu_dense(fn##_row, R, I, m, FTZ); vmnext }
#else
#define MUFU_ROW(fn)
#endif
        vmcase(RCP_APPROX_F32) MUFU_ROW(fp32_rcp_approx) LANES_CALL(fp32_rcp_approx(A32, FTZ)); vmnext
        vmcase(RSQRT_APPROX_F32) MUFU_ROW(fp32_rsqrt_approx) LANES_CALL(fp32_rsqrt_approx(A32, FTZ)); vmnext
        vmcase(SQRT_APPROX_F32) MUFU_ROW(fp32_sqrt_approx) LANES_CALL(fp32_sqrt_approx(A32, FTZ)); vmnext
        vmcase(EX2_APPROX_F32) MUFU_ROW(fp32_ex2_approx) LANES_CALL(fp32_ex2_approx(A32, FTZ)); vmnext
        vmcase(LG2_APPROX_F32) MUFU_ROW(fp32_lg2_approx) LANES_CALL(fp32_lg2_approx(A32, FTZ)); vmnext
        vmcase(SIN_APPROX_F32) MUFU_ROW(fp32_sin_approx) LANES_CALL(fp32_sin_approx(A32, FTZ)); vmnext
        vmcase(COS_APPROX_F32) MUFU_ROW(fp32_cos_approx) LANES_CALL(fp32_cos_approx(A32, FTZ)); vmnext
        vmcase(TANH_APPROX_F32) MUFU_ROW(fp32_tanh_approx) LANES_CALL(fp32_tanh_approx(A32)); vmnext
#undef MUFU_ROW
#if defined(__AVX2__)
#define MINMAX32_ROW(ismax) if (m == FULL) { minmax_f32_row(R + I->d, R + I->a, R + I->b, I->m3, ismax, FTZ != 0); vmnext }
#else
#define MINMAX32_ROW(ismax)
#endif
        vmcase(MIN_F32) MINMAX32_ROW(0) if (!FTZ) LANES_D(minmax32(A32, B32, I->m3, 0)); else LANES_CALL(fp32_min(A32, B32, FTZ, I->m3)); vmnext
        vmcase(MAX_F32) MINMAX32_ROW(1) if (!FTZ) LANES_D(minmax32(A32, B32, I->m3, 1)); else LANES_CALL(fp32_max(A32, B32, FTZ, I->m3)); vmnext
#undef MINMAX32_ROW
        vmcase(ABS_F32) if (!FTZ) LANES_D(absneg32(A, 0, 0x7fffffffu)); else LANES_CALL(fp32_abs(A32, FTZ)); vmnext
        vmcase(NEG_F32) if (!FTZ) LANES_D(absneg32(A, 0x80000000u, 0xffffffffu)); else LANES_CALL(fp32_neg(A32, FTZ)); vmnext
        vmcase(COPYSIGN_F32) LANES_CALL(fp32_copysign(A32, B32)); vmnext
#define TESTP_ROW(W) switch (I->m1) { \
        case 0: LANES_D(testp(A, W, 0)); break; case 1: LANES_D(testp(A, W, 1)); break; \
        case 2: LANES_D(testp(A, W, 2)); break; case 3: LANES_D(testp(A, W, 3)); break; \
        case 4: LANES_D(testp(A, W, 4)); break; default: LANES_D(testp(A, W, 5)); break; }
        vmcase(TESTP_F32) TESTP_ROW(0) vmnext
        vmcase(TESTP_F64) TESTP_ROW(1) vmnext
#undef TESTP_ROW
        /* ---- f64 ---- */
#define F64_ROW(expr, slow) if (m == FULL) LANES_FIX(bf64(expr), isnan64(v_), slow); else LANES_CALL(F64OP(expr, slow));
        vmcase(ADD_F64) F64_ROW(f64(A) + f64(B), fp64_add(A, B, FP_RN)) vmnext
        vmcase(SUB_F64) F64_ROW(f64(A) - f64(B), fp64_sub(A, B, FP_RN)) vmnext
        vmcase(MUL_F64) F64_ROW(f64(A) * f64(B), fp64_mul(A, B, FP_RN)) vmnext
        vmcase(DIV_F64) F64_ROW(f64(A) / f64(B), fp64_div(A, B, FP_RN)) vmnext
#undef F64_ROW
        vmcase(FMA_F64)
#if defined(__AVX2__)
            if (have_fma && m == FULL) { fma64_row(R + I->d, R + I->a, R + I->b, R + I->c); vmnext }
#endif
            LANES_CALL(F64OP(fma(f64(A), f64(B), f64(C)), fp64_fma(A, B, C, FP_RN))); vmnext
        vmcase(ADD_F64X) F64_MODE(FPX_ADD) LANES_CALL(fp64_add(A, B, RND)); vmnext
        vmcase(SUB_F64X) F64_MODE(FPX_SUB) LANES_CALL(fp64_sub(A, B, RND)); vmnext
        vmcase(MUL_F64X) F64_MODE(FPX_MUL) LANES_CALL(fp64_mul(A, B, RND)); vmnext
        vmcase(FMA_F64X) F64_MODE(FPX_FMA) LANES_CALL(fp64_fma(A, B, C, RND)); vmnext
        vmcase(DIV_F64X) F64_MODE(FPX_DIV) LANES_CALL(fp64_div(A, B, RND)); vmnext
#undef F32_MODE
#undef F64_MODE
        vmcase(SQRT_F64)
#if defined(__AVX2__)
            if (m == FULL && RND == FP_RN) {
                uint64_t t[BC_WARP];
                if (sqrt64_row(t, R + I->a))
                    for (int l = 0; l < BC_WARP; l++) if (isnan64(t[l])) t[l] = fp64_sqrt(A, FP_RN);
                memcpy(R + I->d, t, sizeof t);
                vmnext
            }
#endif
            LANES_CALL(fp64_sqrt(A, RND)); vmnext
        vmcase(RCP_F64)
            if (m == FULL && RND == FP_RN) LANES_FIX(bf64(1.0 / f64(A)), isnan64(v_), fp64_rcp(A, FP_RN));
            else LANES_CALL(fp64_rcp(A, RND));
            vmnext
        vmcase(RCP_APPROX_F64) LANES_CALL(fp64_rcp_approx_ftz(A)); vmnext
        vmcase(RSQRT_APPROX_F64) LANES_CALL(fp64_rsqrt_approx(A, FTZ)); vmnext
        /* min/max.f64: a whole warp's row (minmax_f64_row); without AVX2 the host's compare
         * where it decides (no NaN, not +0 against -0: the lanes whose operands compare
         * equal with different bits), fp64_min/max the rest */
#if defined(__AVX2__)
#define MINMAX64_ROW(ismax) if (m == FULL) { minmax_f64_row(R + I->d, R + I->a, R + I->b, ismax); vmnext }
#else
#define MINMAX64_ROW(ismax)
#endif
        vmcase(MIN_F64) MINMAX64_ROW(0)
            if (m == FULL) LANES_FIX(f64(A) < f64(B) ? A : B, !(f64(A) < f64(B) || f64(A) > f64(B)) && (A != B || isnan64(A)), fp64_min(A, B));
            else LANES_CALL(fp64_min(A, B));
            vmnext
        vmcase(MAX_F64) MINMAX64_ROW(1)
            if (m == FULL) LANES_FIX(f64(A) > f64(B) ? A : B, !(f64(A) < f64(B) || f64(A) > f64(B)) && (A != B || isnan64(A)), fp64_max(A, B));
            else LANES_CALL(fp64_max(A, B));
            vmnext
#undef MINMAX64_ROW
        vmcase(ABS_F64) LANES_D(absneg64(A, 0, 0x7fffffffffffffffull)); vmnext
        vmcase(NEG_F64) LANES_D(absneg64(A, 0x8000000000000000ull, ~0ull)); vmnext
        vmcase(COPYSIGN_F64) LANES_D((B & 0x7fffffffffffffffull) | (A & 0x8000000000000000ull)); vmnext   /* fp64_copysign */
        /* ---- half precision ---- */
        vmcase(HADD) vmcase(HSUB) vmcase(HMUL) vmcase(HFMA) vmcase(HMIN) vmcase(HMAX)
        vmcase(HNEG) vmcase(HABS) vmcase(HEX2_APPROX) vmcase(HTANH_APPROX)
            if (I->op == OP_HFMA && (I->flags & BC_IF_RELU)) {
                /* fma.rn.relu of a whole warp: fma.rn by vm/fp_rows.c, then each half as the
                 * fp16_fma_relu family does: a NaN kept, anything with the sign bit set 0 */
                int k = I->m2 - BC_K_F16;
                fp_type t = k >> 1 ? FP_BF16 : FP_F16;
                if (m == FULL && I->m1 == BC_RN && fp_half_row(OP_HFMA - OP_HADD, t, k & 1, FTZ, 0, R + I->d, R + I->a, R + I->b, R + I->c)) {
                    const uint64_t inf = t == FP_BF16 ? 0x7f80 : 0x7c00;
                    uint64_t *rd = R + I->d;
                    for (int l = 0; l < BC_WARP; l++) {
                        uint64_t v = rd[l], lo = v & 0xffff, hi = (v >> 16) & 0xffff;
                        lo = (lo & 0x7fff) > inf || !(lo & 0x8000) ? lo : 0;
                        hi = (hi & 0x7fff) > inf || !(hi & 0x8000) ? hi : 0;
                        rd[l] = lo | (k & 1 ? hi << 16 : 0);
                    }
                    vmnext
                }
                switch (I->m2) {
                case BC_K_F16: LANES_CALL(fp16_fma_relu((uint16_t)A, (uint16_t)B, (uint16_t)C, FTZ)); break;
                case BC_K_BF16: LANES_CALL(bf16_fma_relu((uint16_t)A, (uint16_t)B, (uint16_t)C, FTZ)); break;
                case BC_K_F16X2: LANES_CALL(fp16x2_fma_relu(A32, B32, C32, FTZ)); break;
                default: LANES_CALL(bf16x2_fma_relu(A32, B32, C32, FTZ)); break;
                }
            } else {
                /* .rn add/sub/mul/fma of a whole warp: vm/fp_rows.c (kinds in the order f16, f16x2, bf16, bf16x2) */
                int k = I->m2 - BC_K_F16;
                if (m == FULL && half_dense_lanes(I) <= BC_WARP && half_row(I, FTZ, SAT, R + I->d, R + I->a, R + I->b, R + I->c)) vmnext
#if defined(__AVX2__)
                if (m != FULL && popc32(m) >= half_dense_lanes(I) && half_dense(R, I, m, FTZ, SAT)) vmnext
#endif
                half_fn f = half_fns[k][I->op - OP_HADD];
                LANES_CALL(f(A, B, C, I->m1, FTZ, SAT, I->m3));
            }
            vmnext
        /* ---- conversions ---- */
        vmcase(CVT_ZX) { uint64_t mk = BC_LOW_BITS(I->imm); LANES_D(ALU_CVT_ZX); } vmnext
        vmcase(CVT_SX) {
            uint64_t mk = I->m1 >= 8 ? ~0ull : (1ull << (8 * I->m1)) - 1;
#if defined(__AVX2__)
            if (m == FULL && I->imm >= 1 && I->imm <= 32) { sext_row(R + I->d, R + I->a, (int)I->imm, mk); vmnext }
#endif
            LANES_D(sext(A, (int)I->imm) & mk);
        } vmnext
        vmcase(CVT_ISAT) {
            int sb = I->m1 & 0x7f, ss = I->m1 >> 7, db = I->m2 & 0x7f, ds = I->m2 >> 7;
            LANES({
                uint64_t v = A & (sb >= 64 ? ~0ull : (1ull << sb) - 1);
                int neg = ss && ((v >> (sb - 1)) & 1);
                int64_t sv = ss ? (int64_t)sext(v, sb) : 0;
                uint64_t r;
                if (ds) {
                    int64_t hi = db >= 64 ? INT64_MAX : ((int64_t)1 << (db - 1)) - 1, lo = -hi - 1;
                    if (neg) r = (uint64_t)(sv < lo ? lo : sv);
                    else r = v > (uint64_t)hi ? (uint64_t)hi : v;
                } else {
                    uint64_t hi = db >= 64 ? ~0ull : (1ull << db) - 1;
                    r = neg ? 0 : v > hi ? hi : v;
                }
                D = r & (db >= 64 ? ~0ull : (1ull << db) - 1);
            });
        } vmnext
        vmcase(CVT_F2F) {
            fp_type s = ftype(I->m1), d = ftype(I->m2);
            int fl2 = (FTZ ? FP_CVT_FTZ : 0) | (SAT ? FP_CVT_SAT : 0) | ((I->flags & BC_IF_RELU) ? FP_CVT_RELU : 0) |
                      ((I->flags & BC_IF_HAS_E) ? FP_CVT_SATFINITE : 0);
            uint64_t sm = I->m1 >= 64 ? ~0ull : (1ull << (I->m1 == 17 ? 16 : I->m1)) - 1;
            int rn = I->m3 == 8 || I->m3 == FP_RN;
            /* f16/bf16 <-> f32 of a whole warp: vm/fp_rows.c */
            if (m == FULL && (I->m3 < 4 || I->m3 == 8) &&
                fp_cvt_half_row(s, d, I->m3 == 8 ? FP_RN : (fp_rnd)I->m3, fl2, R + I->d, R + I->a))
                vmnext
            if (I->m3 >= 4 && I->m3 < 8 && m == FULL && s == d && (s == FP_F32 || s == FP_F64) && !(fl2 & ~FP_CVT_FTZ)) {
                /* one loop per mode (the mode a constant in each) */
#define FRINT_ROWS(r) \
                if (s == FP_F32) LANES_FIX(bf32(frint_f(f32(A), r)), (v_ & 0x7fffffffu) > 0x7f800000u || (fl2 && !(A & 0x7f800000u) && (A & 0x7fffffu)), \
                                           fp_cvt_frint(A & sm, s, r, fl2)); \
                else LANES_FIX(bf64(frint_d(f64(A), r)), isnan64(v_), fp_cvt_frint(A, s, r, fl2));
#if defined(__AVX2__)
                if (s == FP_F32) { frint32_row(R + I->d, R + I->a, (fp_rint)(I->m3 - 4), fl2); vmnext }
#endif
                switch (I->m3 - 4) {
                case FP_RNI: FRINT_ROWS(FP_RNI) break;
                case FP_RZI: FRINT_ROWS(FP_RZI) break;
                case FP_RMI: FRINT_ROWS(FP_RMI) break;
                default: FRINT_ROWS(FP_RPI) break;
                }
#undef FRINT_ROWS
            } else if (I->m3 >= 4 && I->m3 < 8) LANES_CALL(fp_cvt_frint(A & sm, s, (fp_rint)(I->m3 - 4), fl2));
            else if (m == FULL && !fl2 && ((s == FP_F32 && d == FP_F64) || (s == FP_F64 && d == FP_F32 && rn))) {
                /* exact, or rounded to nearest: the host's, but NaNs (vm/fp.c) */
#if defined(__AVX2__)
                if (I->d != I->a)          /* the NaN lanes then still read their operand */
                    for (uint32_t nan = cvt_f32_f64_row(R + I->d, R + I->a, s == FP_F32); nan; nan &= nan - 1) {
                        int l = __builtin_ctz(nan);
                        D = fp_cvt_f2f(A & sm, s, d, FP_RN, 0);
                    }
                else cvt_f32_f64_warp(R, I, s == FP_F32);
#else
                if (s == FP_F32) LANES_FIX(bf64((double)f32(A)), isnan64(v_), fp_cvt_f2f(A & sm, s, d, FP_RN, 0));
                else LANES_FIX(bf32((float)f64(A)), (v_ & 0x7fffffffu) > 0x7f800000u, fp_cvt_f2f(A & sm, s, d, FP_RN, 0));
#endif
            }
            else if (m == FULL && !fl2 && s == FP_F64 && (d == FP_F16 || d == FP_BF16) && rn) {
                /* f64 -> f16/bf16 (__double2half): rounded to odd at f32 (24 bits: at least two more
                 * than the half keeps, at every exponent the half reaches), then to nearest by the
                 * f32 row, which is then the correctly rounded result; NaNs by fp_cvt_f2f */
                uint64_t t[BC_WARP], av[BC_WARP];
                memcpy(av, R + I->a, sizeof av);
                for (int l = 0; l < BC_WARP; l++) t[l] = f32_round_odd(av[l]);
                if (!fp_cvt_half_row(FP_F32, d, FP_RN, 0, R + I->d, t)) LANES_CALL(fp_cvt_f2f(A & sm, s, d, FP_RN, 0));
                else for (int l = 0; l < BC_WARP; l++) if (isnan64(av[l])) D = fp_cvt_f2f(av[l], s, d, FP_RN, 0);
            }
            else if (m == FULL && s == FP_F32 && d == FP_F32 && (fl2 & FP_CVT_SAT) && !(fl2 & ~(FP_CVT_SAT | FP_CVT_FTZ)))
            {   /* cvt.sat.f32.f32 (__saturatef) as fp_cvt_f2f: flushed with .ftz, then NaN and
                 * anything with the sign bit 0, above 1 1 */
#if defined(__AVX2__)
                sat32_row(R + I->d, R + I->a, FTZ);
#else
                LANES_D(sat32(FTZ ? ftz32(A32) : A32));
#endif
            }
            else LANES_CALL(fp_cvt_f2f(A & sm, s, d, I->m3 == 8 ? FP_RN : (fp_rnd)I->m3, fl2));
        } vmnext
        vmcase(CVT_F2I) {
            fp_type s = ftype(I->m1);
            int fl2 = (FTZ ? FP_CVT_FTZ : 0) | (SAT ? FP_CVT_SAT : 0);
            uint64_t sm = I->m1 >= 64 ? ~0ull : (1ull << (I->m1 == 17 ? 16 : I->m1)) - 1;
            int db = I->m2 & 0x7f, ds = I->m2 >> 7;
            /* truncation of an f32 or f64 in range of a 32-bit destination: C's conversion
             * (the operand is replaced by 0 where it is out of range or NaN, so the C
             * conversion is always defined; those lanes take fp_cvt_f2i) */
            if (m == FULL && !fl2 && I->m3 == FP_RZI && db == 32 && (s == FP_F32 || s == FP_F64)) {
                const double lo = ds ? -2147483648.0 : -1.0, hi = ds ? 2147483648.0 : 4294967296.0;
#define F2I_OK(x) ((x) > lo - (ds ? 1.0 : 0.0) && (x) < hi)
#if defined(__AVX2__)
                if (s == FP_F32 && ds) {
                    uint64_t t[BC_WARP];
                    if (!f2i32_rzi_row(t, R + I->a))
                        for (int l = 0; l < BC_WARP; l++) { float x = f32(A); if (!(x >= -2147483648.0f && x < 2147483648.0f)) t[l] = fp_cvt_f2i(A & sm, s, 32, 1, FP_RZI, 0); }
                    memcpy(R + I->d, t, sizeof t);
                    vmnext
                }
#endif
                if (s == FP_F32) {           /* the same bounds as floats (-2^31 and 2^31 are floats) */
                    const float flo = ds ? -2147483648.0f : -1.0f, fhi = ds ? 2147483648.0f : 4294967296.0f;
#define F2I_OKF(x) ((ds ? (x) >= flo : (x) > flo) && (x) < fhi)
                    if (ds) LANES_FIX((uint32_t)(int32_t)(F2I_OKF(f32(A)) ? f32(A) : 0.0f), !F2I_OKF(f32(A)),
                                      fp_cvt_f2i(A & sm, s, 32, 1, FP_RZI, 0));
                    else LANES_FIX((uint32_t)(int64_t)(F2I_OKF(f32(A)) ? f32(A) : 0.0f), !F2I_OKF(f32(A)),
                                   fp_cvt_f2i(A & sm, s, 32, 0, FP_RZI, 0));
#undef F2I_OKF
                } else {
                    if (ds) LANES_FIX((uint32_t)(int32_t)(F2I_OK(f64(A)) ? f64(A) : 0.0), !F2I_OK(f64(A)),
                                      fp_cvt_f2i(A, s, 32, 1, FP_RZI, 0));
                    else LANES_FIX((uint32_t)(F2I_OK(f64(A)) ? f64(A) : 0.0), !F2I_OK(f64(A)), fp_cvt_f2i(A, s, 32, 0, FP_RZI, 0));
                }
#undef F2I_OK
                vmnext
            }
            if (m == FULL && !fl2 && I->m3 == FP_RZI && db == 64 && s == FP_F64) {
                /* (long long)x and (unsigned long long)x in range: C's conversion, the rest fp_cvt_f2i */
#define F2L_OK(x) (ds ? (x) >= -9223372036854775808.0 && (x) < 9223372036854775808.0 : (x) > -1.0 && (x) < 18446744073709551616.0)
                if (ds) LANES_FIX((uint64_t)(int64_t)(F2L_OK(f64(A)) ? f64(A) : 0.0), !F2L_OK(f64(A)), fp_cvt_f2i(A, s, 64, 1, FP_RZI, 0));
                else LANES_FIX((uint64_t)(F2L_OK(f64(A)) ? f64(A) : 0.0), !F2L_OK(f64(A)), fp_cvt_f2i(A, s, 64, 0, FP_RZI, 0));
#undef F2L_OK
                vmnext
            }
            LANES_CALL(fp_cvt_f2i(A & sm, s, db, ds, (fp_rint)I->m3, fl2));
        } vmnext
        vmcase(CVT_I2F) {
            fp_type d = ftype(I->m2);
            int fl2 = (FTZ ? FP_CVT_FTZ : 0) | (SAT ? FP_CVT_SAT : 0);
            int sb = I->m1 & 0x7f, ss = I->m1 >> 7;
            if (!fl2 && I->m3 == FP_RN && (sb == 32 || sb == 64) && (d == FP_F32 || d == FP_F64)) {   /* the host's RN */
                if (d == FP_F32) {
                    if (sb == 32) { if (ss) LANES_D(bf32((float)S32(A))); else LANES_D(bf32((float)A32)); }
                    else { if (ss) LANES_D(bf32((float)S64(A))); else LANES_D(bf32((float)A)); }
                } else {
                    if (sb == 32) { if (ss) LANES_D(bf64((double)S32(A))); else LANES_D(bf64((double)A32)); }
                    else { if (ss) LANES_D(bf64((double)S64(A))); else LANES_D(bf64((double)A)); }
                }
                vmnext
            }
            LANES_CALL(fp_cvt_i2f(A, sb, ss, d, (fp_rnd)I->m3, fl2));
        } vmnext
        vmcase(CVT_PACK_F16X2) {
            fp_type d = I->m2 == BC_K_BF16X2 ? FP_BF16 : FP_F16;
            int fl2 = (SAT ? FP_CVT_SAT : 0) | ((I->flags & BC_IF_RELU) ? FP_CVT_RELU : 0) | (I->m3 ? FP_CVT_SATFINITE : 0);
            if (m == FULL && fp_cvt_pack_half_row(d, (fp_rnd)I->m1, fl2, R + I->d, R + I->a, R + I->b)) vmnext
            LANES_CALL(fp_cvt_f2f(A32, FP_F32, d, (fp_rnd)I->m1, fl2) << 16 | fp_cvt_f2f(B32, FP_F32, d, (fp_rnd)I->m1, fl2));
        } vmnext
        vmcase(CVT_TF32) LANES_D(cvt_tf32(A32, I->m1, I->flags & BC_IF_HAS_E)); vmnext
        vmcase(CVT_F8X2) {
            int k = I->m2, relu = (I->flags & BC_IF_RELU) != 0;
            if (I->m1 == 0) LANES_CALL((uint64_t)fp8_from_f32(A32, k, relu) << 8 | fp8_from_f32(B32, k, relu));
            else if (I->m1 == 1)
                LANES_CALL((uint64_t)fp8_from_f32((uint32_t)fp_cvt_f2f(A >> 16 & 0xffff, FP_F16, FP_F32, FP_RN, 0), k, relu) << 8 |
                        fp8_from_f32((uint32_t)fp_cvt_f2f(A & 0xffff, FP_F16, FP_F32, FP_RN, 0), k, relu));
            else LANES_CALL((uint64_t)fp8_to_f16((uint8_t)(A >> 8), k, relu) << 16 | fp8_to_f16((uint8_t)A, k, relu));
        } vmnext
        /* ---- memory ---- */
        vmcase(LD_LOCAL) {         /* the frame's loads (most of a call-heavy kernel's) first */
            if ((I->flags & BC_IF_FRAME) && !hacc) {   /* in the frame: in range and aligned (BC_IF_FRAME) */
                const uint8_t *lb = w->local + I->imm;
                const uint64_t ls = L->local_stride;
                if (I->m1 == 4) {
                    const uint64_t dm = I->m3 >= 8 ? ~0ull : (1ull << (8 * I->m3)) - 1;
                    LANES(D = load_n(lb + (uint64_t)l * ls + A, 4) & dm);
                } else LANES(D = load_n(lb + (uint64_t)l * ls + A, 8));
                vmnext
            }
            goto ld_any;
        }
        vmcase(LDS_FMA) {          /* I is bc_module.fused's: I->b triples from here (vm/fuse.c) */
#if defined(__AVX2__)
            uint32_t k = (uint32_t)I->b, room = (stop - pc) / 3, turn = (uint32_t)(bend - pc) / 3;
            k = k < LDS_MAX_STEPS ? k : LDS_MAX_STEPS;
            k = k < room ? k : room;
            k = k < turn ? k : turn;       /* the slice ends where it would have without fusing */
            if (k && m == FULL && have_fma && L->shared_size >= 4 &&
                lds_fma_run(M, w, R, I, k, cta->shared, L->shared_size - 4)) {
                n_ins += 3 * k - 1;
                pc += 3 * k - 1;
                vmnext
            }
#endif
            I = &L->code[pc];          /* the original ld.shared */
        }
        vmfallthrough
        vmcase(LD_GLOBAL) vmcase(LD_SHARED) vmcase(LD_CONST) vmcase(LD_KPARAM) vmcase(LD_GENERIC) {
        ld_any:;
            static const int8_t sp[] = { BC_SP_GLOBAL, BC_SP_SHARED, BC_SP_LOCAL, BC_SP_CONST, BC_SP_KPARAM, BC_SP_GENERIC };
            int space = sp[I->op - OP_LD_GLOBAL];
            uint32_t sz = I->m1, nv = I->n, tot = sz * nv;
            const uint32_t *dl = nv > 1 ? &M->extra[I->x] : &I->d;
            uint64_t dm = I->m3 >= 8 ? ~0ull : (1ull << (8 * I->m3)) - 1;
            int sb = (int)(8 * sz);
            uintptr_t hb = 0;
            uint64_t ls, imm = (uint64_t)I->imm;
#if defined(__AVX2__)
            if (m == FULL && space == BC_SP_SHARED && sz == 4 && nv == 1 && !I->m2 && !hacc && L->shared_size >= 4 &&
                shared_load_row(R + I->a, imm, cta->shared, L->shared_size - 4, (uint32_t)dm, R + I->d))
                vmnext
            /* the same with an observer that takes a load's lanes at once (the checker): the
             * offsets kept before the loads (d may be a), reported after them (a block of its
             * own: folded into the plain one above, with hacc tests, it cost plain runs
             * 0.5-0.9% more host instructions) */
            if (m == FULL && space == BC_SP_SHARED && sz == 4 && nv == 1 && !I->m2 && hacc && H->access_lanes &&
                L->shared_size >= 4) {
                uint64_t ad_[BC_WARP];
                for (int l = 0; l < BC_WARP; l++) ad_[l] = (uint32_t)(A + imm);
                if (shared_load_row(R + I->a, imm, cta->shared, L->shared_size - 4, (uint32_t)dm, R + I->d)) {
                    H->access_lanes(H->ctx, L, cta, w, FULL, pc, BC_SP_SHARED, ad_, 4,
                                    VM_ACC_READ | ((I->flags & BC_IF_VOLATILE) ? VM_ACC_VOLATILE : 0));
                    vmnext
                }
            }
            /* a whole warp's 32- or 64-bit loads from 4 groups of 8 lanes side by side (a[i] indexed
             * by the thread: most global loads; shared ones took shared_load_row above): each group's
             * ends range-checked, one or two loads per group */
            if (m == FULL && nv == 1 && !I->m2 && !hacc) {
                if (sz == 4 && side_by_side_first(R + I->a, 4) && row_side_by_side4(R + I->a, 4, NULL) &&
                    group_base_shape(L, cta, w, R, FULL, I->a, imm, space, 4, 0, &hb, &ls, 1) && !ls) {
                    load_side_row32(R + I->d, R + I->a, hb + imm, (uint32_t)dm);
                    vmnext
                }
                if (sz == 8 && side_by_side_first(R + I->a, 8) && row_side_by_side4(R + I->a, 8, NULL) &&
                    group_base_shape(L, cta, w, R, FULL, I->a, imm, space, 8, 0, &hb, &ls, 1) && !ls) {
                    load_side_row64(R + I->d, R + I->a, hb + imm, dm);
                    vmnext
                }
            }
#endif
            if (!hacc && group_base(L, cta, w, R, m, I->a, imm, space, tot, 0, &hb, &ls)) {
                if (nv == 1 && !I->m2 && !ls) {    /* one scalar per lane: a loop per size */
                    switch (sz) {
                    case 1: LANES(D = *(const uint8_t *)(hb + A + imm) & dm); break;
                    case 2: LANES(D = load_n((const uint8_t *)(hb + A + imm), 2) & dm); break;
                    case 4:
#if defined(__AVX2__)
                        if (m == FULL) { load_row(R + I->d, R + I->a, hb + imm, 4, dm); break; }
#endif
                        LANES(D = load_n((const uint8_t *)(hb + A + imm), 4) & dm); break;
                    default:
#if defined(__AVX2__)
                        if (m == FULL) { load_row(R + I->d, R + I->a, hb + imm, 8, dm); break; }
#endif
                        LANES(D = load_n((const uint8_t *)(hb + A + imm), 8) & dm); break;
                    }
                } else if (nv == 1 && !I->m2 && (sz == 4 || sz == 8)) {   /* local: each lane's own memory */
                    if (sz == 4) LANES(D = load_n((const uint8_t *)(hb + A + imm + (uint64_t)l * ls), 4) & dm);
                    else LANES(D = load_n((const uint8_t *)(hb + A + imm + (uint64_t)l * ls), 8) & dm);
                } else if (!I->m2 && nv <= 4 && vec_form(sz, nv)) {
                    /* .v2/.v4 (float4, int2, uchar4, ...): the general loop below with the size
                     * and count constants, one copy each */
#if defined(__AVX2__)
#define LD_VEC32(SZ, NV) if (SZ == 4 && m == FULL && !ls) { load_vec32_row(d_, NV, R + I->a, hb + imm, (uint32_t)dm); break; }
#else
#define LD_VEC32(SZ, NV)
#endif
#define LD_VEC(SZ, NV) { \
                        uint64_t *d_[NV]; \
                        _Pragma("GCC unroll 4") for (int k = 0; k < NV; k++) d_[k] = R + dl[k]; \
                        LD_VEC32(SZ, NV) \
                        LANES({ const uint8_t *p_ = (const uint8_t *)(hb + A + imm + (uint64_t)l * ls); \
                                _Pragma("GCC unroll 4") for (int k = 0; k < NV; k++) d_[k][l] = load_n(p_ + k * SZ, SZ) & dm; }); }
                    VEC_FORMS(LD_VEC)
#undef LD_VEC
#undef LD_VEC32
                } else LANES({
                    const uint8_t *p = (const uint8_t *)(hb + A + imm + (uint64_t)l * ls);
                    for (uint32_t k = 0; k < nv; k++) {
                        uint64_t v = load_n(p + k * sz, sz);
                        if (I->m2) v = sext(v, sb);
                        RD(dl[k]) = v & dm;
                    }
                });
                vmnext
            }
            /* an observer of every access: lane by lane, or all lanes' reads in one
             * call after the loads (access_lanes; global and shared addresses need
             * no resolution) */
            const int accf = VM_ACC_READ | ((I->flags & BC_IF_VOLATILE) ? VM_ACC_VOLATILE : 0);
            const int batch = H && H->access_lanes && (space == BC_SP_GLOBAL || space == BC_SP_SHARED);
            uint64_t ad_[BC_WARP];
            uint32_t did = 0;
            LANES({
                uint64_t a = A + (uint64_t)I->imm;
                uint8_t *p = xl(L, cta, w, l, space, a, tot, 0);
                if (!p || (a & (tot - 1))) {
                    if (did) H->access_lanes(H->ctx, L, cta, w, did, pc, space, ad_, (int)tot, accf);
                    fl = l; fa = a; st = mem_fault(L, cta, w, l, pc, space, a, tot, 0, p != NULL); goto out;
                }
                if (batch) { ad_[l] = space == BC_SP_SHARED ? (uint32_t)a : a; did |= 1u << l; }
                else if (H && H->access) hook_access(L, cta, w, l, pc, space, a, tot, accf);
                for (uint32_t k = 0; k < nv; k++) {
                    uint64_t v = load_n(p + k * sz, sz);
                    if (I->m2) v = sext(v, sb);
                    RD(dl[k]) = v & dm;
                }
            });
            if (did) H->access_lanes(H->ctx, L, cta, w, did, pc, space, ad_, (int)tot, accf);
        } vmnext
        vmcase(ST_LOCAL) {         /* the frame's stores first, as for the loads */
            if ((I->flags & BC_IF_FRAME) && !hacc) {   /* in the frame: in range and aligned (BC_IF_FRAME) */
                const uint64_t imm = (uint64_t)I->imm, ls = L->local_stride, lsz = L->cfg.local_size;
                uint8_t *lb = w->local + imm;
                uint64_t any = 0, end;
                if (I->m1 == 4) { LANES({ any |= A; store_n(lb + (uint64_t)l * ls + A, B, 4); }); end = any + imm + 4; }
                else { LANES({ any |= A; store_n(lb + (uint64_t)l * ls + A, B, 8); }); end = any + imm + 8; }
                if (m) local_wrote(w, end < lsz ? end : lsz);   /* as group_base */
                vmnext
            }
            goto st_any;
        }
        vmcase(ST_GLOBAL) vmcase(ST_SHARED) vmcase(ST_GENERIC) {
        st_any:;
            static const int8_t sp[] = { BC_SP_GLOBAL, BC_SP_SHARED, BC_SP_LOCAL, BC_SP_GENERIC };
            int space = sp[I->op - OP_ST_GLOBAL];
            uint32_t sz = I->m1, nv = I->n, tot = sz * nv;
            const uint32_t *sl = nv > 1 ? &M->extra[I->x] : &I->b;
            uintptr_t hb = 0;
            uint64_t ls, imm = (uint64_t)I->imm;
#if defined(__AVX2__)
            /* a whole warp's 32- or 64-bit stores to 4 groups of 8 lanes side by side: as the loads */
            if (m == FULL && nv == 1 && !hacc) {
                if (sz == 4 && side_by_side_first(R + I->a, 4) && row_side_by_side4(R + I->a, 4, NULL) &&
                    group_base_shape(L, cta, w, R, FULL, I->a, imm, space, 4, 1, &hb, &ls, 1) && !ls) {
                    store_side_row32(R + I->a, R + I->b, hb + imm);
                    vmnext
                }
                if (sz == 8 && side_by_side_first(R + I->a, 8) && row_side_by_side4(R + I->a, 8, NULL) &&
                    group_base_shape(L, cta, w, R, FULL, I->a, imm, space, 8, 1, &hb, &ls, 1) && !ls) {
                    store_side_row64(R + I->a, R + I->b, hb + imm);
                    vmnext
                }
            }
#endif
            if (!hacc && group_base(L, cta, w, R, m, I->a, imm, space, tot, 1, &hb, &ls)) {
                if (nv == 1 && !ls) {           /* lanes store in ascending order, as below */
                    switch (sz) {
                    case 1: LANES(*(uint8_t *)(hb + A + imm) = (uint8_t)B); break;
                    case 2: LANES(store_n((uint8_t *)(hb + A + imm), B, 2)); break;
                    case 4:
#if defined(__AVX2__)
                        if (m == FULL) { store_row(R + I->a, R + I->b, hb + imm, 4); break; }
#endif
                        LANES(store_n((uint8_t *)(hb + A + imm), B, 4)); break;
                    default:
#if defined(__AVX2__)
                        if (m == FULL) { store_row(R + I->a, R + I->b, hb + imm, 8); break; }
#endif
                        LANES(store_n((uint8_t *)(hb + A + imm), B, 8)); break;
                    }
                } else if (nv == 1 && (sz == 4 || sz == 8)) {    /* local: each lane's own memory */
                    if (sz == 4) LANES(store_n((uint8_t *)(hb + A + imm + (uint64_t)l * ls), B, 4));
                    else LANES(store_n((uint8_t *)(hb + A + imm + (uint64_t)l * ls), B, 8));
                } else if (nv <= 4 && vec_form(sz, nv)) {      /* .v2/.v4: as for ld */
#if defined(__AVX2__)
#define ST_VEC32(SZ, NV) if (SZ == 4 && m == FULL && !ls) { store_vec32_row(s_, NV, R + I->a, hb + imm); break; }
#else
#define ST_VEC32(SZ, NV)
#endif
#define ST_VEC(SZ, NV) { \
                        const uint64_t *s_[NV]; \
                        _Pragma("GCC unroll 4") for (int k = 0; k < NV; k++) s_[k] = R + sl[k]; \
                        ST_VEC32(SZ, NV) \
                        LANES({ uint8_t *p_ = (uint8_t *)(hb + A + imm + (uint64_t)l * ls); \
                                _Pragma("GCC unroll 4") for (int k = 0; k < NV; k++) store_n(p_ + k * SZ, s_[k][l], SZ); }); }
                    VEC_FORMS(ST_VEC)
#undef ST_VEC
#undef ST_VEC32
                } else LANES({
                    uint8_t *p = (uint8_t *)(hb + A + imm + (uint64_t)l * ls);
                    for (uint32_t k = 0; k < nv; k++) store_n(p + k * sz, RD(sl[k]), sz);
                });
                vmnext
            }
            LANES({
                uint64_t a = A + (uint64_t)I->imm;
                uint8_t *p = xl(L, cta, w, l, space, a, tot, 1);
                if (!p || (a & (tot - 1))) { fl = l; fa = a; st = mem_fault(L, cta, w, l, pc, space, a, tot, 1, p != NULL); goto out; }
                if (H && H->access) hook_access(L, cta, w, l, pc, space, a, tot, VM_ACC_WRITE | ((I->flags & BC_IF_VOLATILE) ? VM_ACC_VOLATILE : 0));
                for (uint32_t k = 0; k < nv; k++) store_n(p + k * sz, RD(sl[k]), sz);
            });
        } vmnext
        vmcase(CVTA_TO) vmcase(CVTA_FROM) {
            static const uint64_t win[] = { 0, 0, MEM_SHARED_WINDOW, MEM_LOCAL_WINDOW, MEM_CONST_WINDOW, MEM_PARAM_WINDOW };
            uint64_t base = win[I->m1 % 6];
            if (I->op == OP_CVTA_TO) { if (I->m2) LANES_D((A + base) & M32); else LANES_D(A + base); }
            else { if (I->m2) LANES_D((A - base) & M32); else LANES_D(A - base); }
        } vmnext
        vmcase(ISSPACEP) {
            static const uint64_t win[] = { 0, 0, MEM_SHARED_WINDOW, MEM_LOCAL_WINDOW, MEM_CONST_WINDOW, MEM_PARAM_WINDOW };
            uint64_t base = win[I->m1 % 6];
            if (I->m1 == BC_SP_GLOBAL) LANES_D(A >= MEM_GLOBAL_BASE || A < MEM_PARAM_WINDOW);
            else LANES_D(A - base < MEM_WINDOW_SIZE);
        } vmnext
        vmcase(ATOM) {
            int size = atom_size(I->m2);
            atom_fn fn = atom_select(I->m1, I->m2);
            uint64_t msk = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
            int how = L->par_atom_how ? L->par_atom_how[pc] : PAR_WRITE;   /* a reduction several blocks may share */
            uintptr_t hb;
            uint64_t ls, imm = (uint64_t)I->imm;
            if (!hacc && (I->m3 == BC_SP_SHARED || (I->m3 == BC_SP_GLOBAL && !L->par)) &&
                group_base(L, cta, w, R, m, I->a, imm, I->m3, (uint32_t)size, 1, &hb, &ls)) {
                /* shared memory, or global memory with no other thread, every lane in range and
                 * aligned: lanes in ascending order, the common 32-bit operations without a call per lane */
#define SHP(l) ((uint8_t *)(hb + A + imm))
                uint32_t o32, n32 = 0;
                if (size == 4 && I->m1 == BC_RED_CAS) {
                    LANES({ memcpy(&o32, SHP(l), 4); if (o32 == (uint32_t)B) { n32 = (uint32_t)C; memcpy(SHP(l), &n32, 4); } if (I->n) D = o32; });
                    vmnext
                }
                if (size == 4 && I->m1 == BC_RED_EXCH) {
                    LANES({ memcpy(&o32, SHP(l), 4); n32 = (uint32_t)B; memcpy(SHP(l), &n32, 4); if (I->n) D = o32; });
                    vmnext
                }
                /* lanes one after another on one word (a histogram's bin, a sum) add in a register:
                 * the word is stored when the next lane's differs, and read only then */
#define ADD_RUN(next) do { \
                    uint8_t *pw = NULL; \
                    LANES({ \
                        uint8_t *p = SHP(l); \
                        if (p != pw) { if (pw) memcpy(pw, &n32, 4); memcpy(&n32, p, 4); pw = p; } \
                        o32 = n32; n32 = (next); if (I->n) D = o32; \
                    }); \
                    if (pw) memcpy(pw, &n32, 4); \
                } while (0)
                if (size == 4 && I->m1 == BC_RED_ADD && (I->m2 == BC_K_U32 || I->m2 == BC_K_S32)) { ADD_RUN(o32 + (uint32_t)B); vmnext }
                if (size == 4 && I->m1 == BC_RED_ADD && I->m2 == BC_K_F32) { ADD_RUN(fadd32_host(o32, (uint32_t)B, FTZ != 0)); vmnext }
#undef ADD_RUN
                if (size == 8 && I->m1 == BC_RED_ADD && I->m2 == BC_K_F64) {
                    /* atomicAdd on doubles: the host's sum, NaNs (payload rules) by fp64_add */
                    LANES({
                        uint64_t o, n;
                        memcpy(&o, SHP(l), 8);
                        n = bf64(f64(o) + f64(B));
                        if (isnan64(n)) n = fp64_add(o, B, FP_RN);
                        memcpy(SHP(l), &n, 8);
                        if (I->n) D = o;
                    });
                    vmnext
                }
                if (size == 4 && (I->m2 == BC_K_U32 || I->m2 == BC_K_S32) && I->m1 >= BC_RED_MIN && I->m1 <= BC_RED_DEC) {
                    /* the other 32-bit integer operations (atomicMax, atomicOr, atomicInc, ...):
                     * the operation chosen once, not a call through fn per lane */
                    int sg = I->m2 == BC_K_S32;
#define ATOM32(expr) LANES({ memcpy(&o32, SHP(l), 4); uint32_t b_ = (uint32_t)B; (void)b_; n32 = (expr); \
                             memcpy(SHP(l), &n32, 4); if (I->n) D = o32; })
                    switch (I->m1) {
                    case BC_RED_MIN: if (sg) ATOM32((int32_t)b_ < (int32_t)o32 ? b_ : o32); else ATOM32(b_ < o32 ? b_ : o32); break;
                    case BC_RED_MAX: if (sg) ATOM32((int32_t)b_ > (int32_t)o32 ? b_ : o32); else ATOM32(b_ > o32 ? b_ : o32); break;
                    case BC_RED_AND: ATOM32(o32 & b_); break;
                    case BC_RED_OR: ATOM32(o32 | b_); break;
                    case BC_RED_XOR: ATOM32(o32 ^ b_); break;
                    case BC_RED_INC: ATOM32(o32 >= b_ ? 0 : o32 + 1); break;
                    default: ATOM32(o32 == 0 || o32 > b_ ? b_ : o32 - 1); break;
                    }
#undef ATOM32
                    vmnext
                }
                LANES({
                    uint64_t old = atom_plain(SHP(l), size, fn, B & msk, C & msk, FTZ);
                    if (I->n) D = old;
                });
#undef SHP
                vmnext
            }
            LANES({
                uint64_t a = A + (uint64_t)I->imm;
                uint8_t *p = xl(L, cta, w, l, I->m3, a, (uint64_t)size, how);
                if (!p || (a & (uint64_t)(size - 1))) { fl = l; fa = a; st = mem_fault(L, cta, w, l, pc, I->m3, a, (uint64_t)size, 1, p != NULL); goto out; }
                if (H && H->access) hook_access(L, cta, w, l, pc, I->m3, a, (uint32_t)size, VM_ACC_READ | VM_ACC_WRITE | VM_ACC_ATOMIC);
                uint64_t old = 0;
                if (L->par && (I->m3 == BC_SP_GLOBAL || (I->m3 == BC_SP_GENERIC && generic_is_global(a))))
                    old = atom_host(p, size, fn, B & msk, C & msk, FTZ);   /* other workers may reduce into it */
                else old = atom_plain(p, size, fn, B & msk, C & msk, FTZ);
                if (I->n) D = old;
            });
        } vmnext
        vmcase(FENCE) { if (H && H->fence && m) H->fence(H->ctx, L, cta, w, m, pc); } vmnext
        vmcase(PREFETCH) vmnext
        vmcase(NOP) vmnext
        vmcase(BRKPT) vmnext
        /* ---- control ---- */
        vmcase(LDG_STS) {          /* I is bc_module.fused's: ld.global, then st.shared of its value at pc + 1 (vm/fuse.c) */
#if defined(__AVX2__)
            if (m == FULL && pc + 1 < limit && ldg_sts_run(L, cta, w, R, I, &L->code[pc + 1], (int)I->b)) {
                n_ins++;
                pc++;
                vmnext
            }
#endif
            I = &L->code[pc];          /* the original ld.global */
            goto redispatch;
        }
        vmcase(ALU_RUN) {          /* I is bc_module.fused's: I->b ALU instructions from here, a whole warp's (vm/fuse.c) */
            uint32_t n = (uint32_t)I->b;
            n = n < limit - pc ? n : limit - pc;           /* the slice ends where it would have without fusing */
            if (group == FULL && n >= 2) {
                const bc_insn *I0 = &L->code[pc];
                for (uint32_t k = 0; k < n; k++) {
                    I = &I0[k];
                    switch (I->op) {
#define ALU_RUN_CASE(name) case OP_##name: _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) D = ALU_##name; break;
#if defined(__AVX2__)
#define ALU_RUN_ROW(name) case OP_##name: row32(ROW_##name, R + I->d, R + I->a, R + I->b, R + I->c); break;
                    BC_ALU_RUN_PLAIN(ALU_RUN_CASE)
                    BC_ALU_RUN_ROWS(ALU_RUN_ROW)
#undef ALU_RUN_ROW
#else
                    BC_ALU_RUN_OPS(ALU_RUN_CASE)
#endif
#undef ALU_RUN_CASE
                    case OP_CVT_ZX: {
                        uint64_t mk = BC_LOW_BITS(I->imm);
                        _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) D = ALU_CVT_ZX;
                        break;
                    }
                    default: break;        /* vm/fuse.c marks no other */
                    }
                }
                n_ins += n - 1;
                pc += n - 1;
                vmnext
            }
            I = &L->code[pc];          /* the original instruction */
            goto redispatch;
        }
        vmcase(WIDE_ADD) {         /* I is bc_module.fused's: mul.wide, then add.s64 at pc + 1 (vm/fuse.c) */
            if (pc + 1 < limit) {
                uint64_t *t = R + I->d, *dd = R + I->e;
                const uint64_t *ra = R + I->a, *rb = R + I->b, *rc = R + I->c;
                /* t (unless dead) then e, lane by lane: e may be c, a or b, never t's other operand */
#define WIDE_ADD_LANES(prod, keep) LANES({ uint64_t v_ = (prod); if (keep) t[l] = v_; dd[l] = rc[l] + v_; })
#define WIDE_S ((uint64_t)((int64_t)(int32_t)ra[l] * (int32_t)rb[l]))
#define WIDE_U ((uint64_t)(uint32_t)ra[l] * (uint32_t)rb[l])
#if defined(__AVX2__)
                if (m == FULL) {           /* the product into t (unless dead), then e = c + t */
                    if (!I->m2) {
                        row32(I->m1 ? ROW_MULWIDE_S32 : ROW_MULWIDE_U32, t, ra, rb, NULL);
                        _Pragma("GCC ivdep") for (int l = 0; l < BC_WARP; l++) dd[l] = rc[l] + t[l];
                    } else row32(I->m1 ? ROW_MADWIDE_S32 : ROW_MADWIDE_U32, dd, ra, rb, rc);
                } else
#endif
                if (I->m1) { if (I->m2) WIDE_ADD_LANES(WIDE_S, 0); else WIDE_ADD_LANES(WIDE_S, 1); }
                else { if (I->m2) WIDE_ADD_LANES(WIDE_U, 0); else WIDE_ADD_LANES(WIDE_U, 1); }
#undef WIDE_ADD_LANES
#undef WIDE_S
#undef WIDE_U
                n_ins++;
                if (m != FULL) n_short += BC_WARP - popc32(m);
                pc++;
                vmnext
            }
            I = &L->code[pc];          /* the original mul.wide */
            goto redispatch;
        }
        vmcase(SETP_BRA) {         /* I is bc_module.fused's: a compare and a branch (vm/fuse.c) */
            const bc_fuse_bra *F = &M->fuse_bras[I->x];
            uint32_t at = pc + F->len - 1;         /* the bra, which must still fall in this turn */
            if (at < limit) {
                uint32_t g = setp_bra_run(w, R, F, group);
                n_ins += F->len - 1;
                if (group != FULL) n_short += (uint64_t)(F->len - 2) * (BC_WARP - popc32(group));
                m = F->neg ? group & ~g : g;
                if (m != FULL) n_short += BC_WARP - popc32(m);
                pc = at;
                if (m == group) vmjump(F->target)
                if (m == 0) vmnext
                put_pc(w, m, F->target);
                put_pc(w, group & ~m, pc + 1);
                vmregroup
            }
            I = &L->code[pc];          /* the original setp */
            goto redispatch;
        }
        vmcase(BRA) {
            uint32_t t = (uint32_t)I->imm;
            if (m == group) vmjump(t)
            if (m == 0) vmnext
            put_pc(w, m, t);
            put_pc(w, group & ~m, pc + 1);
            vmregroup
        }
        vmcase(BRX) {
            uint32_t tab = (uint32_t)I->imm & 0xffffff, n = (uint32_t)I->imm >> 24;
            LANES({ if (A32 >= n) { fl = l; st = vm_fail(L, cta, w, l, pc, VM_FAULT, "brx.idx index %u out of range (%u targets)", A32, n); goto out; }
                    w->pc[l] = M->extra[tab + A32]; });
            put_pc(w, group & ~m, pc + 1);
            vmregroup
        }
        vmcase(CALL) {
            int fidx = (int)I->imm;
            if (m && (st = call_enter_group(L, cta, w, m, pc, I, fidx, &fl))) goto out;
            if (m == group) vmjump(M->funcs[fidx].pc_begin)
            if (m == 0) vmnext
            put_pc(w, m, M->funcs[fidx].pc_begin);
            put_pc(w, group & ~m, pc + 1);
            vmregroup
        }
        vmcase(CALLI) {
            LANES({
                uint64_t fa2 = A - BC_FUNC_ADDR_BASE;
                if (A < BC_FUNC_ADDR_BASE || fa2 >= (uint64_t)M->nfuncs || M->funcs[fa2].kind != BC_FN_DEFINED) {
                    fl = l; st = vm_fail(L, cta, w, l, pc, VM_FAULT, "indirect call through 0x%llx, which is not a defined function", (unsigned long long)A); goto out; }
                st = call_enter(L, cta, w, l, pc, I, (int)fa2);
                if (st) { fl = l; goto out; }
                w->pc[l] = M->funcs[fa2].pc_begin;
            });
            put_pc(w, group & ~m, pc + 1);
            vmregroup
        }
        vmcase(CALL_BUILTIN) vmcase(CALL_FFI) {
            LANES({ st = I->op == OP_CALL_BUILTIN ? builtin(L, cta, w, l, pc, I) : host_call(L, cta, w, l, pc, I);
                    if (st) { fl = l; goto out; } });
        } vmnext
        vmcase(RET) {
            uint32_t exited = 0;
            if (m) exited = call_return_group(L, w, m);
            for (uint32_t mm = exited; mm; mm &= mm - 1) w->state[__builtin_ctz(mm)] = LANE_EXITED;
            put_pc(w, group & ~m, pc + 1);
            if (exited) { w->live &= ~exited; if (H && H->exit) H->exit(H->ctx, L, cta, w, exited, pc); warp_on_exit(L, cta, w); }
            vmregroup
        }
        vmcase(EXIT) {
            for (uint32_t mm = m; mm; mm &= mm - 1) w->state[__builtin_ctz(mm)] = LANE_EXITED;
            w->live &= ~m;
            put_pc(w, group & ~m, pc + 1);
            if (m) { if (H && H->exit) H->exit(H->ctx, L, cta, w, m, pc); warp_on_exit(L, cta, w); }
            vmregroup
        }
        vmcase(TRAP) {
            if (!m) vmnext
            fl = __builtin_ctz(m);
            st = vm_fail(L, cta, w, fl, pc, VM_TRAP, "trap instruction");
            goto out;
        }
        vmcase(NANOSLEEP) { pc++; goto out_budget; }
        /* ---- warp collectives and barriers ---- */
        vmcase(SHFL) vmcase(VOTE_ALL) vmcase(VOTE_ANY) vmcase(VOTE_UNI) vmcase(VOTE_BALLOT)
        vmcase(MATCH_ANY) vmcase(MATCH_ALL) vmcase(REDUX) vmcase(ELECT) vmcase(WARPSYNC) {
            if (m == group && warp_collective_group(L, w, I, group)) vmnext
            if (m && m != group && !H) {
                /* guarded: the lanes turned off are excused (hardware fact P9) and move on
                 * with the group, as warp_collective does; the rest meet at once or not here */
                uint32_t ex = w->excused;
                w->excused |= group & ~m;
                if (warp_collective_group(L, w, I, m)) vmnext
                w->excused = ex;
            }
            put_pc(w, group, pc);
            st = warp_collective(L, cta, w, m, group, pc);
            if (st) goto out;
            uint32_t np;
            if (uniform(w, group, &np)) vmjump(np)
            vmregroup
        }
        vmcase(ACTIVEMASK) LANES_D(m); vmnext
        vmcase(BAR) {
            if (m == FULL && !H) {     /* a whole warp, no hook to tell: usually bar.sync 0 */
                int done = warp_bar_whole(L, cta, w, pc);
                if (done > 0) vmjump(pc + 1)
                if (done == 0) {       /* every lane waits: nothing for vm_repick; the round's next warp */
                    vm_turn t;
                    if (solo && next_turn(L, cta, &t)) {
                        w = t.w, R = w->R, group = t.group, pc = t.pc, stop = t.stop, budget = t.budget;
                        goto next_group;
                    }
                    FLUSH_COUNTS();
                    return VM_OK;
                }
            }
            put_pc(w, group, pc);
            put_pc(w, group & ~m, pc + 1);
            st = warp_barrier(L, cta, w, m, pc);
            if (st) goto out;
            uint32_t np;
            if (uniform(w, group, &np)) vmjump(np)
            vmregroup
        }

        /* ---- matrix collectives (vm/mma.c): addresses are checked here, results come at the rendezvous ---- */
        vmcase(LDMATRIX) vmcase(STMATRIX) vmcase(WMMA_LOAD) vmcase(WMMA_STORE) {
            const uint32_t *ol = &M->extra[I->x];
            uint32_t aslot = ol[4 + ol[0]], lslot = ol[4 + ol[0] + ol[1]];
            int wr = I->op == OP_STMATRIX || I->op == OP_WMMA_STORE, mat = I->op == OP_LDMATRIX || I->op == OP_STMATRIX;
            LANES({
                if (mat && l >= 8 * I->m1) continue;
                uint64_t a = RD(aslot) + (uint64_t)I->imm;
                uint64_t n = mat ? 16 : mma_wmma_extent(I->n, I->m1, I->m2 & 15, I->m2 >> 4, RD(lslot) & 0xffffffffu);
                uint8_t *p = xl(L, cta, w, l, I->m3, a, n, wr);
                if (!p || (a & 15)) { fl = l; fa = a; st = mem_fault(L, cta, w, l, pc, I->m3, a, n, wr, p != NULL); goto out; }
                if (H && H->access) hook_access(L, cta, w, l, pc, I->m3, a, (uint32_t)n, wr ? VM_ACC_WRITE : VM_ACC_READ);
            });
            goto matrix_coll;
        }
        vmcase(MOVMATRIX) vmcase(MMA) vmcase(WMMA_MMA) {
        matrix_coll:
            put_pc(w, group, pc);
            st = warp_collective(L, cta, w, m, group, pc);
            if (st) goto out;
            uint32_t np;
            if (uniform(w, group, &np)) vmjump(np)
            vmregroup
        }
        /* ---- asynchronous copies (complete at once) and mbarriers ---- */
        vmcase(CP_ASYNC) {
            uint32_t n = I->m1;
            if (!hacc && m) {
                /* every lane copies all n bytes (no zero fill), each side in one region: the
                 * checks once for the group, as a load's and a store's (both aligned to n) */
                uint64_t few = 0;
                LANES(few |= (C & 0xffffffffu) < n);
                uintptr_t sb, db;
                uint64_t sls, dls;
                if (!few && group_base(L, cta, w, R, m, I->b, 0, BC_SP_GLOBAL, n, 0, &sb, &sls) && !sls &&
                    group_base(L, cta, w, R, m, I->a, I->imm, BC_SP_SHARED, n, 1, &db, &dls) && !dls) {
                    if (n == 16) LANES(memcpy((uint8_t *)(db + A + I->imm), (const uint8_t *)(sb + B), 16));
                    else if (n == 8) LANES(memcpy((uint8_t *)(db + A + I->imm), (const uint8_t *)(sb + B), 8));
                    else LANES(memcpy((uint8_t *)(db + A + I->imm), (const uint8_t *)(sb + B), 4));
                    vmnext
                }
            }
            LANES({
                uint64_t da = A + (uint64_t)I->imm, sa = B, ss = C & 0xffffffffu;
                if (ss > n) ss = n;
                uint8_t *dp = xl(L, cta, w, l, BC_SP_SHARED, da, n, 1);
                if (!dp || (da & (n - 1))) { fl = l; fa = da; st = mem_fault(L, cta, w, l, pc, BC_SP_SHARED, da, n, 1, dp != NULL); goto out; }
                uint8_t *sp = ss ? xl(L, cta, w, l, BC_SP_GLOBAL, sa, ss, 0) : NULL;
                if (ss && (!sp || (sa & (n - 1)))) { fl = l; fa = sa; st = mem_fault(L, cta, w, l, pc, BC_SP_GLOBAL, sa, ss, 0, sp != NULL); goto out; }
                if (H && H->access) {
                    if (ss) hook_access(L, cta, w, l, pc, BC_SP_GLOBAL, sa, (uint32_t)ss, VM_ACC_READ);
                    hook_access(L, cta, w, l, pc, BC_SP_SHARED, da, n, VM_ACC_WRITE);
                }
                if (ss == n) {                 /* the whole size from global (no zero fill): a copy of fixed size */
                    if (n == 16) memcpy(dp, sp, 16);
                    else if (n == 8) memcpy(dp, sp, 8);
                    else memcpy(dp, sp, 4);
                } else {
                    uint8_t tmp[16] = { 0 };
                    if (ss) memcpy(tmp, sp, ss);
                    memcpy(dp, tmp, n);
                }
            });
        } vmnext
        vmcase(CP_ASYNC_COMMIT) vmnext
        vmcase(CP_ASYNC_WAIT) vmnext
        vmcase(MBAR_INIT) vmcase(MBAR_INVAL) vmcase(MBAR_ARRIVE) vmcase(MBAR_TX) vmcase(MBAR_WAIT) vmcase(CP_ASYNC_MBAR) {
            int waiting = 0;
            LANES({
                uint64_t a = A + (uint64_t)I->imm;
                int wr = I->op != OP_MBAR_WAIT;
                uint8_t *p = xl(L, cta, w, l, I->m3, a, 8, wr);
                if (!p || (a & 7)) { fl = l; fa = a; st = mem_fault(L, cta, w, l, pc, I->m3, a, 8, wr, p != NULL); goto out; }
                if (H && H->access) hook_access(L, cta, w, l, pc, I->m3, a, 8, wr ? VM_ACC_READ | VM_ACC_WRITE | VM_ACC_ATOMIC : VM_ACC_READ | VM_ACC_ATOMIC);
                uint64_t v;
                memcpy(&v, p, 8);
                switch (I->op) {
                case OP_MBAR_INIT: v = mb_make(B, B, 0, 0); break;
                case OP_MBAR_INVAL: v = 0; break;
                case OP_MBAR_ARRIVE: D = v; v = mb_arrive(v, B & MB_M21, C & 0xffffffffu, I->m1, I->m2); break;
                case OP_CP_ASYNC_MBAR: if (I->m1) v = mb_arrive(v, 1, 0, 0, 0); break;
                case OP_MBAR_TX: v = I->m1 ? mb_settle(mb_make(v, v >> 21, mb_tx(v) - (int64_t)(B & 0xffffffffu), v >> 63))
                                           : mb_make(v, v >> 21, mb_tx(v) + (int64_t)(B & 0xffffffffu), v >> 63); break;
                default: {           /* test_wait / try_wait: has the phase of the state (parity) completed? */
                    int done = I->m1 ? (v >> 63) != (B & 1) : (v >> 63) != (B >> 63);
                    D = (uint64_t)done;
                    waiting |= !done;
                    break;
                }
                }
                memcpy(p, &v, 8);
            });
            if (waiting) { pc++; goto out_budget; }   /* a failed wait lets the other warps run */
        } vmnext
        vmcase(MBAR_PENDING) LANES_D(A & MB_M21); vmnext
#ifndef VM_USE_GOTO
        default:
            st = vm_fail(L, cta, w, __builtin_ctz(group), pc, VM_ERROR, "opcode %d has no handler", I->op);
            goto out;
#endif
        }
    }
out_budget:
    FLUSH_COUNTS();
    if (pc < stop) w->tick += VM_AGE_SLICE;   /* the slice ran out, not at other lanes: ageing (vm.h) */
    put_pc(w, group, pc);
    if (solo && vm_repick(L, cta, w, &group, &pc, &stop, &budget, &st)) goto next_group;
    return st;
out:
    FLUSH_COUNTS();
    (void)fl; (void)fa;
    if (writeback && (st == VM_OK || st == VM_PAUSED)) put_pc(w, group, pc);
    if (st == VM_OK && solo && vm_repick(L, cta, w, &group, &pc, &stop, &budget, &st)) {
        writeback = 1;
        goto next_group;
    }
    return st;
}

#ifndef VM_EXEC_VARIANT
#ifdef VM_EXEC_AVX2
vm_status vm_exec_avx2(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc, int budget, uint32_t stop);

/* 1 when the AVX2 copy of the loop may run: the CPU has what it was compiled
 * for, and PTXEMU_NO_AVX2 is not set (the tests run the base copy with it, as
 * a CPU without AVX2 would). */
static int cpu_has_avx2(void)
{
    static int v = -1;                 /* threads may race to set it, to the same value */
    int r = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (r < 0) {
        __builtin_cpu_init();
        const char *off = getenv("PTXEMU_NO_AVX2");
        r = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
            __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("lzcnt") && !(off && *off) ? 1 : 0;
        __atomic_store_n(&v, r, __ATOMIC_RELAXED);
    }
    return r;
}
#endif

vm_status vm_exec(vm_launch *L, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc, int budget, uint32_t stop)
{
#ifdef VM_EXEC_AVX2
    if (cpu_has_avx2()) return vm_exec_avx2(L, cta, w, group, pc, budget, stop);
#endif
    return vm_exec_base(L, cta, w, group, pc, budget, stop);
}
#endif
