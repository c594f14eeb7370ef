// Integer instructions the other cases leave out: cvt.sat between integer types (clamping
// narrowing and signed<->unsigned), not.b64, setp on s64, mul24/mad24 .lo/.hi signed and
// unsigned (operands beyond 24 bits), carry chains (add/sub.cc, addc/subc with and without
// .cc, 32 and 64-bit, mad.lo.cc/madc.hi/madc.lo), bmsk/szext clamp and wrap, shf clamp and
// wrap, dp2a lo/hi, dp4a, mov.b64 of four .b16 (pack), set.*.u32 and set.*.f32 results,
// slct. Thread t: A = w[t / 16], B = w[t % 16] (64-bit values), a/b their low words.
#include <stdint.h>

#define K 64

__device__ const unsigned long long w[16] = {
    0, 1, 0xffffffffffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x00000000ffffffffull,
    0x000000007fffffffull, 0xffffffff80000000ull, 0x0000000100000000ull, 0x123456789abcdef0ull,
    0xfedcba9876543210ull, 0x0000000000800000ull, 0xffffffffff7fffffull, 0x00000000000000ffull,
    0xffffffffffffff80ull, 0x0000000000012345ull};

#define R2(ins, a, b) ({ uint32_t d_; asm volatile(ins " %0, %1, %2;" : "=r"(d_) : "r"(a), "r"(b)); d_; })
#define R3(ins, a, b, c) ({ uint32_t d_; asm volatile(ins " %0, %1, %2, %3;" : "=r"(d_) : "r"(a), "r"(b), "r"(c)); d_; })
#define CVR(ins, a) ({ uint32_t d_; asm volatile(ins " %0, %1;" : "=r"(d_) : "r"(a)); d_; })
#define CVRL(ins, a) ({ uint32_t d_; asm volatile(ins " %0, %1;" : "=r"(d_) : "l"(a)); d_; })
#define CVLL(ins, a) ({ unsigned long long d_; asm volatile(ins " %0, %1;" : "=l"(d_) : "l"(a)); d_; })
#define CVHR(ins, a) ({ unsigned short d_; asm volatile(ins " %0, %1;" : "=h"(d_) : "r"(a)); (uint32_t)d_; })
#define CVHH(ins, a) ({ unsigned short d_; asm volatile(ins " %0, %1;" : "=h"(d_) : "h"(a)); (uint32_t)d_; })
#define PL(ins, a, b) ({ uint32_t d_; asm volatile("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(d_) : "l"(a), "l"(b)); d_; })

extern "C" __global__ void int_misc(uint32_t *out, unsigned long long *out64) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned long long A = w[t / 16], B = w[t % 16], C = w[(3 * (t / 16) + 5 * (t % 16) + 1) % 16];
    uint32_t a = (uint32_t)A, b = (uint32_t)B, c = (uint32_t)C;
    unsigned short ha = (unsigned short)A, hb = (unsigned short)(B >> 8);
    uint32_t *o = out + t * K;
    unsigned long long *O = out64 + t * 8;
    int n = 0, m = 0;

    // cvt.sat between integer types
    o[n++] = CVR("cvt.sat.s8.s32", a);
    o[n++] = CVR("cvt.sat.u8.s32", a);
    o[n++] = CVHR("cvt.sat.s16.s32", a);
    o[n++] = CVHR("cvt.sat.u16.u32", a);
    o[n++] = CVR("cvt.sat.u32.s32", a);
    o[n++] = CVR("cvt.sat.s32.u32", a);
    o[n++] = CVRL("cvt.sat.s32.s64", A);
    o[n++] = CVRL("cvt.sat.u32.s64", A);
    o[n++] = CVRL("cvt.sat.s32.u64", A);
    o[n++] = CVRL("cvt.sat.u32.u64", A);
    o[n++] = CVHH("cvt.sat.u16.s16", ha);
    o[n++] = CVHH("cvt.sat.s16.u16", ha);
    o[n++] = CVHH("cvt.sat.s8.u16", ha);
    O[m++] = CVLL("cvt.sat.u64.s64", A);
    O[m++] = CVLL("cvt.sat.s64.u64", A);
    // not.b64, setp on s64
    O[m++] = CVLL("not.b64", A);
    o[n++] = PL("setp.lt.s64", A, B) | PL("setp.le.s64", A, B) << 1 | PL("setp.gt.s64", A, B) << 2 |
             PL("setp.ge.s64", A, B) << 3 | PL("setp.lt.u64", A, B) << 4 | PL("setp.ge.u64", A, B) << 5;
    // mul24 / mad24
    o[n++] = R2("mul24.lo.s32", a, b);
    o[n++] = R2("mul24.lo.u32", a, b);
    o[n++] = R2("mul24.hi.s32", a, b);
    o[n++] = R2("mul24.hi.u32", a, b);
    o[n++] = R3("mad24.lo.s32", a, b, c);
    o[n++] = R3("mad24.lo.u32", a, b, c);
    o[n++] = R3("mad24.hi.s32", a, b, c);
    o[n++] = R3("mad24.hi.u32", a, b, c);
    // 32-bit carry chains: 96-bit add and subtract, multiply-add chains
    {
        uint32_t r0, r1, r2;
        asm volatile("add.cc.u32 %0, %3, %4; addc.cc.u32 %1, %4, %5; addc.u32 %2, %5, %3;"
                     : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c));
        o[n++] = r0; o[n++] = r1; o[n++] = r2;
        asm volatile("sub.cc.u32 %0, %3, %4; subc.cc.u32 %1, %4, %5; subc.u32 %2, %5, %3;"
                     : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c));
        o[n++] = r0; o[n++] = r1; o[n++] = r2;
        asm volatile("mad.lo.cc.u32 %0, %3, %4, %5; madc.hi.cc.u32 %1, %3, %4, %5; madc.lo.u32 %2, %4, %5, %3;"
                     : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c));
        o[n++] = r0; o[n++] = r1; o[n++] = r2;
        asm volatile("mad.hi.cc.s32 %0, %3, %4, %5; madc.lo.cc.s32 %1, %3, %4, %5; madc.hi.s32 %2, %4, %5, %3;"
                     : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c));
        o[n++] = r0; o[n++] = r1; o[n++] = r2;
    }
    // 64-bit carry chains: 192-bit add and subtract
    {
        unsigned long long r0, r1, r2;
        asm volatile("add.cc.u64 %0, %3, %4; addc.cc.u64 %1, %4, %5; addc.u64 %2, %5, %3;"
                     : "=l"(r0), "=l"(r1), "=l"(r2) : "l"(A), "l"(B), "l"(C));
        O[m++] = r0 ^ (r1 << 1); o[n++] = (uint32_t)r2; o[n++] = (uint32_t)(r2 >> 32);
        asm volatile("sub.cc.u64 %0, %3, %4; subc.cc.u64 %1, %4, %5; subc.u64 %2, %5, %3;"
                     : "=l"(r0), "=l"(r1), "=l"(r2) : "l"(A), "l"(B), "l"(C));
        O[m++] = r0 ^ (r1 << 1); O[m++] = r2;
    }
    // bmsk, szext, shf (clamp and wrap), dp2a, dp4a
    o[n++] = R2("bmsk.clamp.b32", a & 63, b & 63);
    o[n++] = R2("bmsk.wrap.b32", a & 63, b & 63);
    o[n++] = R2("szext.clamp.s32", a, b & 63);
    o[n++] = R2("szext.wrap.s32", a, b & 63);
    o[n++] = R2("szext.clamp.u32", a, b & 63);
    o[n++] = R2("szext.wrap.u32", a, b & 63);
    o[n++] = R3("shf.l.clamp.b32", a, b, c & 63);
    o[n++] = R3("shf.r.clamp.b32", a, b, c & 63);
    o[n++] = R3("shf.l.wrap.b32", a, b, c & 63);
    o[n++] = R3("shf.r.wrap.b32", a, b, c & 63);
    o[n++] = R3("dp2a.lo.u32.u32", a, b, c);
    o[n++] = R3("dp2a.hi.s32.s32", a, b, c);
    o[n++] = R3("dp2a.lo.s32.u32", a, b, c);
    o[n++] = R3("dp2a.hi.u32.s32", a, b, c);
    o[n++] = R3("dp4a.s32.u32", a, b, c);
    // mov.b64 of four 16-bit values (pack), set (int and float results), slct
    {
        unsigned long long d;
        asm volatile("mov.b64 %0, {%1, %2, %3, %4};" : "=l"(d) : "h"(ha), "h"(hb), "h"((unsigned short)c), "h"((unsigned short)t));
        O[m++] = d;
        uint32_t r;
        asm volatile("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[n++] = r;
        asm volatile("set.hi.u32.u64 %0, %1, %2;" : "=r"(r) : "l"(A), "l"(B)); o[n++] = r;
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %3, 0; set.ge.and.u32.s32 %0, %1, %2, p; }" : "=r"(r) : "r"(a), "r"(b), "r"(c & 1)); o[n++] = r;
        asm volatile("set.gt.f32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[n++] = r;
        asm volatile("set.ne.f32.u64 %0, %1, %2;" : "=r"(r) : "l"(A), "l"(C)); o[n++] = r;
        asm volatile("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[n++] = r;
    }
    o[K - 1] = n;
    O[7] = m;
}
