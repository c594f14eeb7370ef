// setp on packed halves: setp.CMP.f16x2 / .bf16x2 write two predicates (p|q), one per half
// (p from the low halves, q from the high halves). Thread t compares {h[t%16], h[t/16]}
// with {h[(t+5)%16], h[t%16]}.
#include <stdint.h>

__device__ const unsigned short hbits[16] = {0x0000, 0x8000, 0x3c00, 0xbe00, 0x0001, 0x83ff, 0x7bff, 0x7c00,
                                             0xfc00, 0x7e00, 0x3555, 0x4900, 0xc500, 0x0400, 0x2e66, 0x5640};

#define P2(ins, a, b) ({ uint32_t d_; asm volatile("{ .reg .pred p, q; " ins " p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }" : "=r"(d_) : "r"(a), "r"(b)); d_; })

extern "C" __global__ void setp_h2(uint32_t *out) {
    int t = threadIdx.x;
    uint32_t pa = hbits[t % 16] | (uint32_t)hbits[t / 16] << 16, pb = hbits[(t + 5) % 16] | (uint32_t)hbits[t % 16] << 16;
    out[t] = P2("setp.lt.f16x2", pa, pb) | P2("setp.ge.f16x2", pa, pb) << 2 | P2("setp.neu.f16x2", pa, pb) << 4 |
             P2("setp.nan.f16x2", pa, pb) << 6 | P2("setp.lt.bf16x2", pa, pb) << 8 | P2("setp.geu.bf16x2", pa, pb) << 10 |
             P2("setp.eq.bf16x2", pa, pb) << 12;
}
