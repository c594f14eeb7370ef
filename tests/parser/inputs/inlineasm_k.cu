#include <cuda_fp16.h>
__device__ int g_counter = 7;
__device__ int g_tab[3] = {1, 2, 3};
__constant__ float c_coef[4] = {1.0f, 0.5f, 0.25f, -2.0f};
__device__ int *g_ptr = &g_counter;
__global__ void kasm(unsigned *out, const unsigned *in, int n) {
    unsigned x = in[threadIdx.x], r;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p add.u32 %0, %1, 1;\n\t@!p mov.u32 %0, 5;\n}" : "=r"(r) : "r"(x));
    unsigned short lo, hi;
    asm("{.reg .f16 low,high; mov.b32 {low,high},%2; mov.b16 %0,low; mov.b16 %1,high;}" : "=h"(lo), "=h"(hi) : "r"(x));
    unsigned q;
    asm("{\n\t.reg .b32 t;\n\tadd.cc.u32 t, %1, 0x10;\n\taddc.u32 %0, t, 0b101;\n}" : "=r"(q) : "r"(x));
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    __half2 h = __floats2half2_rn((float)x, 1.5f);
    h = __hmul2(h, h);
    out[threadIdx.x] = r + lo + hi + q + lane + __half2float(__low2half(h)) + g_tab[n & 1] + (int)c_coef[n & 3] + *g_ptr;
    atomicAdd(&g_counter, 1);
}
__device__ int switchy(int v) {
    switch (v) { case 0: return 5; case 1: return 7; case 2: return 11; case 3: return 19; case 4: return 23; default: return 1; }
}
__global__ void kswitch(int *o, int v) { o[0] = switchy(v); }
