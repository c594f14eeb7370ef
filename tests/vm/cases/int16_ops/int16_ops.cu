// 16-bit integer instructions on boundary values, through inline PTX on .b16 registers:
// add/sub/mul.lo/mul.hi/mul.wide/mad.lo/mad.wide (s16 and u16), div/rem by zero and
// -32768 / -1, min/max, abs/neg/not, shl/shr by 0..31 (>= 16 gives 0 or the sign),
// and setp lt/le/gt/ge on s16 and u16. Thread t: a = v[t / 16], b = v[t % 16].
#include <stdint.h>

#define K 40

__device__ const short v[16] = {0, 1, -1, 2, -2, 7, -7, 0x7fff, (short)0x8000, 0x1234, -0x1234, 255, -256, 100, -100, 0x4000};

#define H2(ins, a, b) ({ unsigned short d_; asm volatile(ins " %0, %1, %2;" : "=h"(d_) : "h"(a), "h"(b)); (uint32_t)d_; })
#define H3(ins, a, b, c) ({ unsigned short d_; asm volatile(ins " %0, %1, %2, %3;" : "=h"(d_) : "h"(a), "h"(b), "h"(c)); (uint32_t)d_; })
#define H1(ins, a) ({ unsigned short d_; asm volatile(ins " %0, %1;" : "=h"(d_) : "h"(a)); (uint32_t)d_; })
#define W2(ins, a, b) ({ uint32_t d_; asm volatile(ins " %0, %1, %2;" : "=r"(d_) : "h"(a), "h"(b)); d_; })
#define W3(ins, a, b, c) ({ uint32_t d_; asm volatile(ins " %0, %1, %2, %3;" : "=r"(d_) : "h"(a), "h"(b), "r"(c)); d_; })
#define SH(ins, a, s) ({ unsigned short d_; asm volatile(ins " %0, %1, %2;" : "=h"(d_) : "h"(a), "r"(s)); (uint32_t)d_; })
#define P2(ins, a, b) ({ uint32_t d_; asm volatile("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(d_) : "h"(a), "h"(b)); d_; })

extern "C" __global__ void int16_ops(uint32_t *out) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned short a = (unsigned short)v[t / 16], b = (unsigned short)v[t % 16];
    unsigned short c = (unsigned short)v[(3 * (t / 16) + 5 * (t % 16) + 1) % 16];
    uint32_t *o = out + t * K;
    int n = 0;
    uint32_t s = (uint32_t)(t % 16) * 2 + (t / 16) % 2;   // shift amounts 0..31

    o[n++] = H2("add.s16", a, b);
    o[n++] = H2("sub.s16", a, b);
    o[n++] = H2("sub.u16", b, a);
    o[n++] = H2("mul.lo.s16", a, b);
    o[n++] = H2("mul.hi.s16", a, b);
    o[n++] = H2("mul.hi.u16", a, b);
    o[n++] = W2("mul.wide.s16", a, b);
    o[n++] = W2("mul.wide.u16", a, b);
    o[n++] = H3("mad.lo.s16", a, b, c);
    o[n++] = H3("mad.lo.u16", a, c, b);
    o[n++] = W3("mad.wide.s16", a, b, 0x80000000u + t * 77u);
    o[n++] = W3("mad.wide.u16", a, b, 0xffff0000u + t * 77u);
    o[n++] = H2("div.s16", a, b);
    o[n++] = H2("div.u16", a, b);
    o[n++] = H2("rem.s16", a, b);
    o[n++] = H2("rem.u16", a, b);
    o[n++] = H2("min.s16", a, b);
    o[n++] = H2("min.u16", a, b);
    o[n++] = H2("max.s16", a, b);
    o[n++] = H2("max.u16", a, b);
    o[n++] = H1("abs.s16", a);
    o[n++] = H1("neg.s16", b);
    o[n++] = H1("not.b16", a);
    o[n++] = SH("shl.b16", a, s);
    o[n++] = SH("shr.u16", a, s);
    o[n++] = SH("shr.s16", a, s);
    o[n++] = SH("shr.s16", b, s + 3);
    o[n++] = P2("setp.lt.s16", a, b) | P2("setp.le.s16", a, b) << 1 | P2("setp.gt.s16", a, b) << 2 |
             P2("setp.ge.s16", a, b) << 3 | P2("setp.lt.u16", a, b) << 4 | P2("setp.ge.u16", a, b) << 5 |
             P2("setp.eq.s16", a, b) << 6 | P2("setp.ne.b16", a, b) << 7;
    o[n++] = H2("add.u16", a, c);
    o[n++] = H2("and.b16", a, b) | H2("or.b16", a, c) << 16;
    o[n++] = H2("xor.b16", b, c);
    o[K - 1] = n;
}
