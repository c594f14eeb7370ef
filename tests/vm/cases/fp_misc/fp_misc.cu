// Floating-point instructions the other cases leave out: testp (all six) and setp (ordered,
// unordered, num/nan) on f64, copysign.f64, set.*.f32.f64, setp on f16 / bf16 (the x2 forms: case setp_h2),
// atom.add.noftz on f16 / bf16 / f16x2 / bf16x2 (sums of small integers, so exact in any
// order), cvt.rn.satfinite.f16x2.f32 packing; and the approximate instructions (ex2, lg2,
// sin, cos, tanh .approx.f32, rsqrt.approx.f64, ex2.approx.f16 / bf16) in buffers compared
// within the hardware's documented error. Thread t: A = d[t / 16], B = d[t % 16].
#include <stdint.h>

#define K 16
#define KC 12

__device__ const unsigned long long dbits[16] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff8000000000000ull,
    0x0000000000000001ull, 0x800fffffffffffffull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff4000000000001ull, 0x0010000000000000ull,
    0x4004000000000000ull, 0xc0091eb851eb851full, 0x3fb999999999999aull, 0x40f86a0000000000ull};
__device__ const unsigned short hbits[16] = {0x0000, 0x8000, 0x3c00, 0xbe00, 0x0001, 0x83ff, 0x7bff, 0x7c00,
                                             0xfc00, 0x7e00, 0x3555, 0x4900, 0xc500, 0x0400, 0x2e66, 0x5640};

__device__ unsigned short hacc[8];   // f16 accumulators 0..3, bf16 4..7
__device__ uint32_t pacc[4];         // f16x2 0..1, bf16x2 2..3

#define PD(ins, a, b) ({ uint32_t d_; asm volatile("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(d_) : "d"(a), "d"(b)); d_; })
#define TD(ins, a) ({ uint32_t d_; asm volatile("{ .reg .pred p; " ins " p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(d_) : "d"(a)); d_; })
#define PH(ins, a, b) ({ uint32_t d_; asm volatile("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(d_) : "h"(a), "h"(b)); d_; })
#define F1(ins, a) ({ float d_; asm volatile(ins " %0, %1;" : "=f"(d_) : "f"(a)); d_; })
#define HF(ins, a) ({ float f_; asm volatile("{ .reg .b16 h; " ins " h, %1; cvt.f32.f16 %0, h; }" : "=f"(f_) : "h"(a)); f_; })
#define BF(ins, a) ({ float f_; asm volatile("{ .reg .b16 h; .reg .b32 w; " ins " h, %1; mov.b32 w, {0, h}; mov.b32 %0, w; }" : "=f"(f_) : "h"(a)); f_; })

extern "C" __global__ void fp_misc(uint32_t *out, unsigned long long *out64, float *close_a, float *close_h,
                                   double *close_d, uint32_t *accs) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    double A = __longlong_as_double(dbits[t / 16]), B = __longlong_as_double(dbits[t % 16]);
    unsigned short ha = hbits[t / 16], hb = hbits[t % 16];
    uint32_t *o = out + t * K;
    unsigned long long *O = out64 + t * 2;
    float *ca = close_a + t * KC, *ch = close_h + t * KC;
    int n = 0, na = 0, nh = 0;

    o[n++] = TD("testp.finite.f64", A) | TD("testp.infinite.f64", A) << 1 | TD("testp.number.f64", A) << 2 |
             TD("testp.notanumber.f64", A) << 3 | TD("testp.normal.f64", A) << 4 | TD("testp.subnormal.f64", A) << 5;
    o[n++] = PD("setp.eq.f64", A, B) | PD("setp.ne.f64", A, B) << 1 | PD("setp.lt.f64", A, B) << 2 |
             PD("setp.le.f64", A, B) << 3 | PD("setp.gt.f64", A, B) << 4 | PD("setp.ge.f64", A, B) << 5 |
             PD("setp.equ.f64", A, B) << 6 | PD("setp.neu.f64", A, B) << 7 | PD("setp.ltu.f64", A, B) << 8 |
             PD("setp.leu.f64", A, B) << 9 | PD("setp.gtu.f64", A, B) << 10 | PD("setp.geu.f64", A, B) << 11 |
             PD("setp.num.f64", A, B) << 12 | PD("setp.nan.f64", A, B) << 13;
    {
        double d; uint32_t r;
        asm volatile("copysign.f64 %0, %1, %2;" : "=d"(d) : "d"(A), "d"(B)); O[0] = __double_as_longlong(d);
        asm volatile("set.ltu.f32.f64 %0, %1, %2;" : "=r"(r) : "d"(A), "d"(B)); o[n++] = r;
        asm volatile("set.ge.u32.f64 %0, %1, %2;" : "=r"(r) : "d"(A), "d"(B)); o[n++] = r;
    }
    o[n++] = PH("setp.lt.f16", ha, hb) | PH("setp.le.f16", ha, hb) << 1 | PH("setp.gt.f16", ha, hb) << 2 |
             PH("setp.ge.f16", ha, hb) << 3 | PH("setp.eq.f16", ha, hb) << 4 | PH("setp.ne.f16", ha, hb) << 5 |
             PH("setp.ltu.f16", ha, hb) << 6 | PH("setp.neu.f16", ha, hb) << 7 | PH("setp.nan.f16", ha, hb) << 8 |
             PH("setp.num.f16", ha, hb) << 9;
    o[n++] = PH("setp.lt.bf16", ha, hb) | PH("setp.ge.bf16", ha, hb) << 1 | PH("setp.equ.bf16", ha, hb) << 2 |
             PH("setp.nan.bf16", ha, hb) << 3 | PH("setp.gtu.bf16", ha, hb) << 4;
    {
        uint32_t r, pa = ha | (uint32_t)hb << 16, pb = hb | (uint32_t)hbits[(t + 5) % 16] << 16;
        asm volatile("cvt.rn.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"((float)A), "f"((float)B)); o[n++] = r;
    }
    // atomics on half types: thread t adds (t % 4 + 1) to accumulator t % 4 (exact sums)
    {
        unsigned short one = 0x3c00 + ((t % 4) == 1 ? 0x400 : (t % 4) == 2 ? 0x600 : (t % 4) == 3 ? 0x800 : 0);  // 1, 2, 3, 4
        unsigned short bone = 0x3f80 + ((t % 4) == 1 ? 0x80 : (t % 4) == 2 ? 0xc0 : (t % 4) == 3 ? 0x100 : 0);
        unsigned short old;
        uint32_t o2;
        asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"(&hacc[t % 4]), "h"(one) : "memory");
        asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(&hacc[4 + t % 4]), "h"(bone) : "memory");
        uint32_t p2 = one | (uint32_t)0x3c00 << 16, q2 = bone | (uint32_t)0x3f80 << 16;
        asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(o2) : "l"(&pacc[t % 2]), "r"(p2) : "memory");
        asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(o2) : "l"(&pacc[2 + t % 2]), "r"(q2) : "memory");
        asm volatile("red.global.add.noftz.f16 [%0], %1;" ::"l"(&hacc[(t + 1) % 4]), "h"((unsigned short)0x3c00) : "memory");
        (void)old; (void)o2;
    }
    // approximate instructions, arguments spread over their useful ranges
    {
        float x = (float)(t - 128) * 0.37f + 0.01f;          // -47.35 .. 46.98
        float y = (float)(t + 1) * 0.731f * (t % 3 ? 1.0f : 1e-20f);
        ca[na++] = F1("ex2.approx.f32", x * 0.5f);
        ca[na++] = F1("ex2.approx.ftz.f32", -x * 2.5f);
        ca[na++] = F1("lg2.approx.f32", y);
        ca[na++] = F1("lg2.approx.ftz.f32", y * 1e3f);
        ca[na++] = F1("sin.approx.f32", x * 0.1f);
        ca[na++] = F1("cos.approx.f32", x * 0.1f);
        ca[na++] = F1("sin.approx.ftz.f32", x);
        ca[na++] = F1("cos.approx.ftz.f32", x);
        ch[nh++] = F1("tanh.approx.f32", x * 0.05f);
        ch[nh++] = F1("tanh.approx.f32", x * 0.5f);
        unsigned short hx;
        asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(hx) : "f"(x * 0.25f));
        ch[nh++] = HF("ex2.approx.f16", hx);
        ch[nh++] = HF("ex2.approx.f16", (unsigned short)(hx ^ 0x8000));
        unsigned short bx = (unsigned short)(__float_as_uint(x * 0.25f) >> 16);
        ch[nh++] = BF("ex2.approx.ftz.bf16", bx);
        double d;
        asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(d) : "d"(fabs(A) + (double)y)); close_d[t * 2] = d;
        asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"((double)y * 3.0 + 1e-300)); close_d[t * 2 + 1] = d;
    }
    o[K - 1] = n;
    __syncthreads();
    if (t == 0) {
        __threadfence();
    }
    __syncthreads();
    if (t < 8) {
        unsigned short v;
        asm volatile("ld.volatile.global.u16 %0, [%1];" : "=h"(v) : "l"(&hacc[t]));
        accs[t] = v;
    } else if (t < 12) {
        accs[t] = *(volatile uint32_t *)&pacc[t - 8];
    }
}
