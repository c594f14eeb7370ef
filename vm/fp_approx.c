/* fp_approx.c -- PTX .approx instructions (MUFU-style).  These are NOT yet
 * bit-exact with the hardware: they compute (nearly) correctly rounded
 * results, which are within the hardware's documented error; special values
 * (zero, inf, NaN, denormal handling) follow what the GPU was measured to do.
 * Kept in one module so that bit-exact table-driven versions can replace it. */
#include "fp.h"
#include <math.h>
#include <string.h>

static inline float b2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double b2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t d2b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline uint32_t ftz32(uint32_t x) { return ((x & 0x7f800000u) == 0) ? (x & 0x80000000u) : x; }
static inline int isnan32(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
/* double -> f32 bits, NaN canonical, optional flush of subnormal results */
static inline uint32_t out32(double v, int ftz)
{
    float f = (float)v;
    uint32_t u = f2b(f);
    if (f != f) return FP32_CANON_NAN;
    return ftz ? ftz32(u) : u;
}

uint32_t fp32_div_approx(uint32_t a, uint32_t b, int ftz)
{
    if (ftz) { a = ftz32(a); b = ftz32(b); }
    /* div.approx = a * rcp.approx(b), where a subnormal reciprocal is flushed
     * (so |b| in (2^126, 2^128) gives 0 or NaN for a = inf, as on hardware) */
    if (!ftz && (b & 0x7f800000u) == 0) /* subnormal divisor: hardware pre-scales */
        return out32((double)b2f(a) / (double)b2f(b), 0);
    float rc = (float)(1.0 / (double)b2f(b));
    if (rc == rc && (f2b(rc) & 0x7f800000u) == 0) rc = copysignf(0.0f, rc);
    return out32((double)b2f(a) * (double)rc, ftz);
}

uint32_t fp32_div_full(uint32_t a, uint32_t b, int ftz)
{
    if (ftz) { a = ftz32(a); b = ftz32(b); }
    return out32((double)b2f(a) / (double)b2f(b), ftz);
}

uint32_t fp32_rcp_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    return out32(1.0 / (double)b2f(a), ftz);
}

uint32_t fp32_sqrt_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    return out32(sqrt((double)b2f(a)), ftz);
}

uint32_t fp32_rsqrt_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    return out32(1.0 / sqrt((double)b2f(a)), ftz);
}

uint32_t fp32_ex2_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    return out32(exp2((double)b2f(a)), ftz);
}

uint32_t fp32_lg2_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    return out32(log2((double)b2f(a)), ftz);
}

/* Hardware range reduction (matches sm_90 to ~2^-21.5 absolute over the whole
 * f32 range): t = x * f32(1/(2pi)) rounded toward zero in f32, then the
 * fractional revolution is evaluated. */
static double sincos_arg(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    float x = b2f(a);
    if (fabsf(x) < 0x1p-20f) return (double)x; /* tiny: keep sin(x) = x exactly-ish */
    double t = (double)b2f(fp32_mul(a, 0x3e22f983u, FP_RZ, 0, 0));
    return 2.0 * M_PI * (t - nearbyint(t));
}

uint32_t fp32_sin_approx(uint32_t a, int ftz)
{
    if ((a & 0x7f800000u) == 0x7f800000u) return FP32_CANON_NAN;
    return out32(sin(sincos_arg(a, ftz)), ftz);
}

uint32_t fp32_cos_approx(uint32_t a, int ftz)
{
    if ((a & 0x7f800000u) == 0x7f800000u) return FP32_CANON_NAN;
    return out32(cos(sincos_arg(a, ftz)), ftz);
}

uint32_t fp32_tanh_approx(uint32_t a)
{
    return out32(tanh((double)b2f(a)), 0);
}

/* MUFU.RCP64H / RSQ64H style: only the high 32 bits of the result are
 * produced (low word zero). Rounded to nearest at bit 32 here. */
static uint64_t hi32(uint64_t u)
{
    if ((u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) return u & 0xffffffff00000000ull;
    return (u + 0x80000000ull) & 0xffffffff00000000ull;
}

/* these only look at the high word of the operand; NaN -> 0x7fffffff00000000 */
uint64_t fp64_rcp_approx_ftz(uint64_t a)
{
    a &= 0xffffffff00000000ull;
    double x = b2d(a);
    if ((a & 0x7ff0000000000000ull) == 0) x = copysign(0.0, x);
    double r = 1.0 / x;
    if (r != r) return 0x7fffffff00000000ull;
    uint64_t u = d2b(r);
    if ((u & 0x7ff0000000000000ull) == 0) u &= 0x8000000000000000ull;
    return hi32(u);
}

uint64_t fp64_rsqrt_approx(uint64_t a, int ftz)
{
    if (!ftz) { /* full precision, IEEE-like NaN handling */
        if ((a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return a | 0x0008000000000000ull;
        double r = 1.0 / sqrt(b2d(a));
        return r != r ? 0xfff8000000000000ull : d2b(r);
    }
    a &= 0xffffffff00000000ull;
    double x = b2d(a);
    if ((a & 0x7ff0000000000000ull) == 0) x = copysign(0.0, x);
    double r = 1.0 / sqrt(x);
    if (r != r) return 0x7fffffff00000000ull;
    return hi32(d2b(r));
}

/* f16 / bf16 helpers */
static double h2d(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(m | 0x400, e - 25);
    return s ? -v : v;
}
static uint16_t d2h(double v)
{
    /* RN double -> f16 via the cvt path (f64 source) */
    return (uint16_t)fp_cvt_f2f(d2b(v), FP_F64, FP_F16, FP_RN, 0);
}

uint16_t fp16_ex2_approx(uint16_t a) { return d2h(exp2(h2d(a))); }
uint16_t fp16_tanh_approx(uint16_t a) { return d2h(tanh(h2d(a))); }
uint16_t bf16_ex2_approx(uint16_t a)
{
    if ((a & 0x7f80) == 0) a &= 0x8000; /* ftz */
    double v = exp2((double)b2f((uint32_t)a << 16));
    uint16_t r = (uint16_t)fp_cvt_f2f(d2b(v), FP_F64, FP_BF16, FP_RN, 0);
    if ((r & 0x7f80) == 0) r &= 0x8000;
    return r;
}
uint16_t bf16_tanh_approx(uint16_t a)
{
    return (uint16_t)fp_cvt_f2f(d2b(tanh((double)b2f((uint32_t)a << 16))), FP_F64, FP_BF16, FP_RN, 0);
}
