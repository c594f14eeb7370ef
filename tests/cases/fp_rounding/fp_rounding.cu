// Floating point, bit-exact, every rounding mode (approximate instructions in outa / outa64): f32/f64 add/sub/mul/fma/div/sqrt/rcp with
// .rn/.rz/.rm/.rp (inline PTX and the __fadd_rz-style intrinsics), .ftz / .sat / approx forms,
// min/max with NaN, conversions float<->int with every rounding, f64->f32, int->float,
// half / bfloat16 scalar and packed ops and conversions. Thread t takes a = f[t / 16],
// b = f[t % 16], c = f[(3 * (t / 16) + 5 * (t % 16) + 1) % 16] from tables of 16 values
// (zeros, ones, 0.1, 1/3, max, min normal, denormals, inf, NaN, 2^24 + 2 ...).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define K32 168
#define K64 56
#define KA 8      // approximate f32 results per thread (outa)
#define KA64 2    // approximate f64 results per thread (outa64)

#define F2(ins, a, b) ({ float d_; asm volatile(ins " %0, %1, %2;" : "=f"(d_) : "f"(a), "f"(b)); __float_as_uint(d_); })
#define F3(ins, a, b, c) ({ float d_; asm volatile(ins " %0, %1, %2, %3;" : "=f"(d_) : "f"(a), "f"(b), "f"(c)); __float_as_uint(d_); })
#define F1(ins, a) ({ float d_; asm volatile(ins " %0, %1;" : "=f"(d_) : "f"(a)); __float_as_uint(d_); })
#define D2(ins, a, b) ({ double d_; asm volatile(ins " %0, %1, %2;" : "=d"(d_) : "d"(a), "d"(b)); (uint64_t)__double_as_longlong(d_); })
#define D3(ins, a, b, c) ({ double d_; asm volatile(ins " %0, %1, %2, %3;" : "=d"(d_) : "d"(a), "d"(b), "d"(c)); (uint64_t)__double_as_longlong(d_); })
#define D1(ins, a) ({ double d_; asm volatile(ins " %0, %1;" : "=d"(d_) : "d"(a)); (uint64_t)__double_as_longlong(d_); })
#define CVT_F_I(ins, a) ({ uint32_t d_; asm volatile(ins " %0, %1;" : "=r"(d_) : "f"(a)); d_; })
#define H2(ins, a, b) ({ uint32_t d_; asm volatile(ins " %0, %1, %2;" : "=r"(d_) : "r"(a), "r"(b)); d_; })

extern "C" __global__ void fp_rounding(const float *f32, const double *f64, const uint16_t *h16,
                                       uint32_t *out32, uint64_t *out64, uint32_t *outa, uint64_t *outa64) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int ia = t / 16, ib = t % 16, ic = (3 * ia + 5 * ib + 1) % 16;
    float a = f32[ia], b = f32[ib], c = f32[ic];
    double A = f64[ia], B = f64[ib], C = f64[ic];
    uint32_t *o = out32 + t * K32;
    uint64_t *O = out64 + t * K64;
    uint32_t *oa = outa + t * KA;
    uint64_t *OA = outa64 + t * KA64;
    int n = 0, m = 0, na = 0, ma = 0;

    // f32 arithmetic, four rounding modes
    o[n++] = F2("add.rn.f32", a, b); o[n++] = F2("add.rz.f32", a, b); o[n++] = F2("add.rm.f32", a, b); o[n++] = F2("add.rp.f32", a, b);
    o[n++] = F2("sub.rn.f32", a, b); o[n++] = F2("sub.rz.f32", a, b); o[n++] = F2("sub.rm.f32", a, b); o[n++] = F2("sub.rp.f32", a, b);
    o[n++] = F2("mul.rn.f32", a, b); o[n++] = F2("mul.rz.f32", a, b); o[n++] = F2("mul.rm.f32", a, b); o[n++] = F2("mul.rp.f32", a, b);
    o[n++] = F3("fma.rn.f32", a, b, c); o[n++] = F3("fma.rz.f32", a, b, c); o[n++] = F3("fma.rm.f32", a, b, c); o[n++] = F3("fma.rp.f32", a, b, c);
    o[n++] = F2("div.rn.f32", a, b); o[n++] = F2("div.rz.f32", a, b); o[n++] = F2("div.rm.f32", a, b); o[n++] = F2("div.rp.f32", a, b);
    o[n++] = F1("sqrt.rn.f32", a); o[n++] = F1("sqrt.rz.f32", a); o[n++] = F1("sqrt.rm.f32", a); o[n++] = F1("sqrt.rp.f32", a);
    o[n++] = F1("rcp.rn.f32", b); o[n++] = F1("rcp.rz.f32", b); o[n++] = F1("rcp.rm.f32", b); o[n++] = F1("rcp.rp.f32", b);
    // flush-to-zero, saturate, approximate and full-range forms
    o[n++] = F2("add.rn.ftz.f32", a, b); o[n++] = F2("mul.rn.ftz.f32", a, b); o[n++] = F3("fma.rn.ftz.f32", a, b, c);
    o[n++] = F2("add.rn.sat.f32", a, b); o[n++] = F3("fma.rn.sat.f32", a, b, c); o[n++] = F2("mul.rz.ftz.sat.f32", a, b);
    o[n++] = F2("div.rn.ftz.f32", a, b); o[n++] = F1("sqrt.rn.ftz.f32", a); o[n++] = F1("rcp.rn.ftz.f32", b);
    // approximate forms go to the outa buffer
    oa[na++] = F2("div.full.f32", a, b); oa[na++] = F2("div.approx.f32", a, b); oa[na++] = F2("div.approx.ftz.f32", a, b);
    oa[na++] = F1("sqrt.approx.f32", a); oa[na++] = F1("rcp.approx.ftz.f32", b); oa[na++] = F1("rsqrt.approx.f32", a);
    // min / max / abs / neg / copysign with NaN and signed zeros
    o[n++] = F2("min.f32", a, b); o[n++] = F2("max.f32", a, b); o[n++] = F2("min.NaN.f32", a, b); o[n++] = F2("max.NaN.f32", a, b);
    o[n++] = F2("min.ftz.f32", a, b); o[n++] = F1("abs.f32", a); o[n++] = F1("neg.f32", a); o[n++] = F1("abs.ftz.f32", a);
    o[n++] = F2("copysign.f32", a, b);
    // compares (unordered too) and testp
    {
        uint32_t d;
        asm volatile("{ .reg .pred p, q, r, s; setp.lt.f32 p, %1, %2; setp.ltu.f32 q, %1, %2; setp.num.f32 r, %1, %2; setp.neu.f32 s, %1, %2;"
                     " selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; @r or.b32 %0, %0, 4; @s or.b32 %0, %0, 8; }" : "=r"(d) : "f"(a), "f"(b));
        o[n++] = d;
        asm volatile("{ .reg .pred p, q, r, s, u; testp.finite.f32 p, %1; testp.infinite.f32 q, %1; testp.number.f32 r, %1;"
                     " testp.normal.f32 s, %1; testp.subnormal.f32 u, %1; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2;"
                     " @r or.b32 %0, %0, 4; @s or.b32 %0, %0, 8; @u or.b32 %0, %0, 16; }" : "=r"(d) : "f"(a));
        o[n++] = d;
        asm volatile("set.gtu.u32.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b)); o[n++] = d;
        asm volatile("slct.f32.f32 %0, %1, %2, %3;" : "=f"(*(float *)&d) : "f"(a), "f"(b), "f"(c)); o[n++] = d;
    }
    // intrinsics
    o[n++] = __float_as_uint(__fadd_rz(a, b)); o[n++] = __float_as_uint(__fadd_ru(a, b)); o[n++] = __float_as_uint(__fadd_rd(a, b));
    o[n++] = __float_as_uint(__fsub_rn(a, b)); o[n++] = __float_as_uint(__fmul_ru(a, b)); o[n++] = __float_as_uint(__fmul_rd(a, b));
    o[n++] = __float_as_uint(__fmaf_rz(a, b, c)); o[n++] = __float_as_uint(__fmaf_ru(a, b, c));
    o[n++] = __float_as_uint(__fdiv_rz(a, b)); o[n++] = __float_as_uint(__fdiv_ru(a, b)); oa[na++] = __float_as_uint(__fdividef(a, b));
    o[n++] = __float_as_uint(__fsqrt_rd(a)); o[n++] = __float_as_uint(__frcp_ru(b)); o[n++] = __float_as_uint(__frsqrt_rn(a));
    o[n++] = __float_as_uint(__saturatef(a)); o[n++] = __float_as_uint(a / b); o[n++] = __float_as_uint(sqrtf(a));
    o[n++] = __float_as_uint(fmaxf(a, b)); o[n++] = __float_as_uint(fminf(a, c)); o[n++] = __float_as_uint(rintf(a * 3.5f));
    o[n++] = __float_as_uint(truncf(a * 1.75f)) ^ __float_as_uint(floorf(b * 1.25f));
    o[n++] = __float_as_uint(ceilf(a * 0.75f)); o[n++] = __float_as_uint(roundf(b * 2.5f));
    // conversions float -> int, every rounding and saturation at the boundaries
    float s = a * 1e9f + b;   // spreads values beyond int ranges
    o[n++] = CVT_F_I("cvt.rni.s32.f32", s); o[n++] = CVT_F_I("cvt.rzi.s32.f32", s); o[n++] = CVT_F_I("cvt.rmi.s32.f32", s); o[n++] = CVT_F_I("cvt.rpi.s32.f32", s);
    o[n++] = CVT_F_I("cvt.rni.u32.f32", s); o[n++] = CVT_F_I("cvt.rzi.u32.f32", s); o[n++] = CVT_F_I("cvt.rmi.u32.f32", b * 2.5f); o[n++] = CVT_F_I("cvt.rpi.u32.f32", b * 2.5f);
    o[n++] = CVT_F_I("cvt.rni.s32.f32", b * 2.5f); o[n++] = CVT_F_I("cvt.rni.ftz.s32.f32", b);
    o[n++] = (uint32_t)__float2int_rn(a * 2.5f); o[n++] = (uint32_t)__float2int_rz(a * 2.5f);
    o[n++] = (uint32_t)__float2int_ru(a * 2.5f); o[n++] = (uint32_t)__float2int_rd(a * 2.5f);
    o[n++] = __float2uint_rn(s); o[n++] = __float2uint_rd(b * 2.5f);
    {
        uint64_t d;
        asm volatile("cvt.rni.s64.f32 %0, %1;" : "=l"(d) : "f"(s * 1e9f)); O[m++] = d;
        asm volatile("cvt.rzi.u64.f32 %0, %1;" : "=l"(d) : "f"(s * 1e9f)); O[m++] = d;
        O[m++] = (uint64_t)__float2ll_rd(a * 2.5f); O[m++] = __float2ull_ru(a * 2.5f);
        O[m++] = (uint64_t)__double2ll_rn(A * 1e18); O[m++] = __double2ull_rz(A * 1e19);
        asm volatile("cvt.rmi.s64.f64 %0, %1;" : "=l"(d) : "d"(A * 3.5)); O[m++] = d;
        asm volatile("cvt.rpi.s64.f64 %0, %1;" : "=l"(d) : "d"(A * 3.5)); O[m++] = d;
    }
    // integer -> float with every rounding (b's bits as integers)
    {
        uint32_t bi = __float_as_uint(b) ^ (uint32_t)t * 0x01000193u;
        float d;
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(d) : "r"(bi)); o[n++] = __float_as_uint(d);
        asm volatile("cvt.rz.f32.s32 %0, %1;" : "=f"(d) : "r"(bi)); o[n++] = __float_as_uint(d);
        asm volatile("cvt.rm.f32.s32 %0, %1;" : "=f"(d) : "r"(bi)); o[n++] = __float_as_uint(d);
        asm volatile("cvt.rp.f32.u32 %0, %1;" : "=f"(d) : "r"(bi)); o[n++] = __float_as_uint(d);
        o[n++] = __float_as_uint(__int2float_rd((int)bi)); o[n++] = __float_as_uint(__uint2float_ru(bi));
        o[n++] = __float_as_uint(__ll2float_rz((long long)__double_as_longlong(B)));
        o[n++] = __float_as_uint(__ull2float_rd((unsigned long long)__double_as_longlong(A) * 3u));
        O[m++] = (uint64_t)__double_as_longlong(__ll2double_rz((long long)__double_as_longlong(B)));
        O[m++] = (uint64_t)__double_as_longlong(__ull2double_ru((unsigned long long)__double_as_longlong(C) * 7u));
    }
    // f64 -> f32 narrowing with rounding, f32 -> f64, frnd
    o[n++] = __float_as_uint(__double2float_rn(A * C)); o[n++] = __float_as_uint(__double2float_rz(A * C));
    o[n++] = __float_as_uint(__double2float_ru(A + C)); o[n++] = __float_as_uint(__double2float_rd(A - C));
    {
        float d;
        asm volatile("cvt.rn.ftz.f32.f64 %0, %1;" : "=f"(d) : "d"(A)); o[n++] = __float_as_uint(d);
        asm volatile("cvt.rn.sat.f32.f64 %0, %1;" : "=f"(d) : "d"(B)); o[n++] = __float_as_uint(d);
    }
    o[n++] = F1("cvt.rni.f32.f32", a * 2.5f); o[n++] = F1("cvt.rzi.f32.f32", a * 2.5f);
    o[n++] = F1("cvt.rmi.f32.f32", a * 2.5f); o[n++] = F1("cvt.rpi.f32.f32", b * 2.5f);
    O[m++] = (uint64_t)__double_as_longlong((double)a);
    { double d_; asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d_) : "f"(b)); O[m++] = (uint64_t)__double_as_longlong(d_); }

    // f64 arithmetic, four rounding modes
    O[m++] = D2("add.rn.f64", A, B); O[m++] = D2("add.rz.f64", A, B); O[m++] = D2("add.rm.f64", A, B); O[m++] = D2("add.rp.f64", A, B);
    O[m++] = D2("sub.rm.f64", A, B); O[m++] = D2("mul.rn.f64", A, B); O[m++] = D2("mul.rz.f64", A, B); O[m++] = D2("mul.rp.f64", A, B);
    O[m++] = D3("fma.rn.f64", A, B, C); O[m++] = D3("fma.rz.f64", A, B, C); O[m++] = D3("fma.rm.f64", A, B, C); O[m++] = D3("fma.rp.f64", A, B, C);
    O[m++] = D2("div.rn.f64", A, B); O[m++] = D2("div.rz.f64", A, B); O[m++] = D2("div.rm.f64", A, B); O[m++] = D2("div.rp.f64", A, B);
    O[m++] = D1("sqrt.rn.f64", A); O[m++] = D1("sqrt.rz.f64", A); O[m++] = D1("sqrt.rm.f64", A); O[m++] = D1("sqrt.rp.f64", A);
    O[m++] = D1("rcp.rn.f64", B); O[m++] = D1("rcp.rz.f64", B); O[m++] = D1("rcp.rp.f64", B); OA[ma++] = D1("rcp.approx.ftz.f64", B);
    O[m++] = D2("min.f64", A, B); O[m++] = D2("max.f64", A, B); O[m++] = D1("abs.f64", A); O[m++] = D1("neg.f64", A);
    O[m++] = (uint64_t)__double_as_longlong(__dadd_rz(A, B)); O[m++] = (uint64_t)__double_as_longlong(__dmul_ru(A, B));
    O[m++] = (uint64_t)__double_as_longlong(__ddiv_rd(A, B)); O[m++] = (uint64_t)__double_as_longlong(__dsqrt_ru(A));
    O[m++] = (uint64_t)__double_as_longlong(__fma_rd(A, B, C)); O[m++] = (uint64_t)__double_as_longlong(A / B);
    O[m++] = (uint64_t)__double_as_longlong(__drcp_rn(B));
    o[n++] = (uint32_t)__double2int_rz(A * 1e9) ^ ((uint32_t)__double2uint_ru(B * 3.3) << 1);
    o[n++] = (uint32_t)__double2int_rn(A * 2.5);

    // half precision (table h16[0..15]) and bfloat16 (h16[16..31])
    {
        uint16_t ha = h16[ia], hb = h16[ib], hc = h16[ic];
        uint16_t ba = h16[16 + ia], bb = h16[16 + ib], bc = h16[16 + ic];
        __half xa = __ushort_as_half(ha), xb = __ushort_as_half(hb), xc = __ushort_as_half(hc);
        __nv_bfloat16 ya = __ushort_as_bfloat16(ba), yb = __ushort_as_bfloat16(bb), yc = __ushort_as_bfloat16(bc);
        o[n++] = __half_as_ushort(__hadd(xa, xb)) | (uint32_t)__half_as_ushort(__hsub(xa, xb)) << 16;
        o[n++] = __half_as_ushort(__hmul(xa, xb)) | (uint32_t)__half_as_ushort(__hfma(xa, xb, xc)) << 16;
        o[n++] = __half_as_ushort(__hmax(xa, xb)) | (uint32_t)__half_as_ushort(__hmin(xa, xb)) << 16;
        o[n++] = __half_as_ushort(__hmax_nan(xa, xb)) | (uint32_t)__half_as_ushort(__hfma_sat(xa, xb, xc)) << 16;
        o[n++] = __half_as_ushort(__hdiv(xa, xb)) | (uint32_t)__half_as_ushort(__hneg(xa)) << 16;
        o[n++] = __half_as_ushort(__hadd_sat(xa, xb)) | (uint32_t)__half_as_ushort(__habs(xa)) << 16;
        o[n++] = (uint32_t)__hlt(xa, xb) | (uint32_t)__hgeu(xa, xb) << 1 | (uint32_t)__hisnan(xa) << 2 | (uint32_t)__hisinf(xb) << 3;
        o[n++] = __float_as_uint(__half2float(xa));
        o[n++] = __half_as_ushort(__float2half_rn(a)) | (uint32_t)__half_as_ushort(__float2half_rz(a)) << 16;
        o[n++] = __half_as_ushort(__float2half_rd(a * 1e-4f)) | (uint32_t)__half_as_ushort(__float2half_ru(a * 1e-4f)) << 16;
        o[n++] = __half_as_ushort(__double2half(A)) | (uint32_t)__half_as_ushort(__int2half_rn(t * 1000 - 70000)) << 16;
        o[n++] = (uint32_t)__half2int_rz(xa) ^ ((uint32_t)__half2ushort_rn(xb) << 12);
        o[n++] = (uint32_t)__half2short_rd(xa) ^ ((uint32_t)__half2uint_ru(xb) << 16);
        uint32_t pa = (uint32_t)ha | (uint32_t)hb << 16, pb = (uint32_t)hc | (uint32_t)ha << 16;
        o[n++] = H2("add.rn.f16x2", pa, pb); o[n++] = H2("mul.rn.f16x2", pa, pb); o[n++] = H2("sub.rn.f16x2", pa, pb);
        o[n++] = H2("max.f16x2", pa, pb); o[n++] = H2("min.NaN.f16x2", pa, pb); o[n++] = H2("add.rn.sat.f16x2", pa, pb);
        {
            uint32_t d; uint16_t h;
            asm volatile("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(pa), "r"(pb), "r"(pa)); o[n++] = d;
            asm volatile("fma.rn.relu.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(pa), "r"(pb), "r"(pb)); o[n++] = d;
            asm volatile("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(b)); o[n++] = h;
            asm volatile("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(b * 3.0f)); o[n++] = h;
            asm volatile("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b)); o[n++] = d;
            asm volatile("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(c)); o[n++] = d;
            asm volatile("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b)); o[n++] = d;
            asm volatile("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(c)); o[n++] = d;
            asm volatile("cvt.rn.tf32.f32 %0, %1;" : "=r"(d) : "f"(b * 1.1f)); o[n++] = d;
            asm volatile("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(d) : "f"(b * 1.1f)); o[n++] = d;
        }
        __half2 h2a = __halves2half2(xa, xb), h2b = __halves2half2(xc, xa);
        __half2 r2 = __hadd2(h2a, h2b);
        o[n++] = *(uint32_t *)&r2;
        r2 = __hfma2(h2a, h2b, h2a);
        o[n++] = *(uint32_t *)&r2;
        r2 = __hmax2(h2a, h2b);
        o[n++] = *(uint32_t *)&r2;
        r2 = __h2div(h2a, h2b);
        o[n++] = *(uint32_t *)&r2;
        // bfloat16
        o[n++] = __bfloat16_as_ushort(__hadd(ya, yb)) | (uint32_t)__bfloat16_as_ushort(__hmul(ya, yb)) << 16;
        o[n++] = __bfloat16_as_ushort(__hfma(ya, yb, yc)) | (uint32_t)__bfloat16_as_ushort(__hmax(ya, yb)) << 16;
        o[n++] = __bfloat16_as_ushort(__hmin_nan(ya, yb)) | (uint32_t)__bfloat16_as_ushort(__hsub(ya, yb)) << 16;
        o[n++] = __bfloat16_as_ushort(__float2bfloat16(a)) | (uint32_t)__bfloat16_as_ushort(__float2bfloat16_rz(a * 1.01f)) << 16;
        o[n++] = __bfloat16_as_ushort(__float2bfloat16_rd(b * 1.01f)) | (uint32_t)__bfloat16_as_ushort(__float2bfloat16_ru(b * 1.01f)) << 16;
        o[n++] = __float_as_uint(__bfloat162float(ya)) ^ __bfloat16_as_ushort(__double2bfloat16(B));
        uint32_t qa = (uint32_t)ba | (uint32_t)bb << 16, qb = (uint32_t)bc | (uint32_t)ba << 16;
        {
            uint32_t d;
            asm volatile("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(qa), "r"(qb), "r"(qa)); o[n++] = d;
            o[n++] = H2("max.bf16x2", qa, qb); o[n++] = H2("min.NaN.bf16x2", qa, qb);
            o[n++] = H2("add.rn.bf16x2", qa, qb); o[n++] = H2("mul.rn.bf16x2", qa, qb);
        }
        __nv_bfloat162 b2 = __hadd2(__halves2bfloat162(ya, yb), __halves2bfloat162(yc, ya));
        o[n++] = *(uint32_t *)&b2;
    }
    o[K32 - 1] = n;
    O[K64 - 1] = m;
}
