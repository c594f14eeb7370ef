// ld/st in every state space and width: sign/zero-extending narrow loads, vector loads and
// stores, truncating stores of wider registers, .volatile / .nc / ldu / cache operators /
// acquire-release forms, a .const array and a .global variable with initialisers, generic
// addressing (cvta to and from shared, local, global; isspacep), dynamic extern shared memory,
// and a local array indexed dynamically (kept in .local).
#include <stdint.h>

#define K 48

__constant__ int ctab[16] = {3, -1, 4, -1, 5, -9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 0x7fffffff};
__constant__ unsigned char cbytes[8] = {0x80, 0x7f, 0xff, 0x01, 0xfe, 0x00, 0x81, 0x10};
__device__ int gvar[8] = {100, 200, 300, 400, 500, 600, 700, 800};
__device__ unsigned long long gvar64 = 0x1122334455667788ULL;
__device__ float gfloat[4] = {1.5f, -2.25f, 3.0e10f, 0.0f};

extern __shared__ uint32_t dyn[];   // launched with shared 2048 (512 words)

__device__ __noinline__ int sum_local(int *p, int n) {   // takes a generic pointer to local memory
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i] * (i + 1);
    return s;
}

// grid 2, block 64. bytes: 1024 input bytes; scratch: 2 x 64 x 16 bytes written and read back;
// out: K words per thread.
extern "C" __global__ void mem_forms(const uint8_t *bytes, uint8_t *scratch, uint32_t *out, int sel) {
    __shared__ __align__(16) uint32_t sh[64 * 4];
    __shared__ unsigned long long sh64[64];
    uint32_t tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
    uint32_t *o = out + gid * K;
    int n = 0;
    const uint8_t *pb = bytes + gid * 8;
    uint32_t r, r2, r3, r4;

    // narrow loads: zero / sign extension into 32 and 64-bit registers
    asm volatile("ld.global.u8 %0, [%1];" : "=r"(r) : "l"(pb + 1)); o[n++] = r;
    asm volatile("ld.global.s8 %0, [%1];" : "=r"(r) : "l"(pb + 1)); o[n++] = r;
    asm volatile("ld.global.u16 %0, [%1];" : "=r"(r) : "l"(pb + 2)); o[n++] = r;
    asm volatile("ld.global.s16 %0, [%1];" : "=r"(r) : "l"(pb + 2)); o[n++] = r;
    {
        unsigned long long d;
        asm volatile("ld.global.s8 %0, [%1];" : "=l"(d) : "l"(pb + 3)); o[n++] = (uint32_t)(d >> 32);
        asm volatile("ld.global.s16 %0, [%1];" : "=l"(d) : "l"(pb + 4)); o[n++] = (uint32_t)(d >> 32) ^ (uint32_t)d;
    }
    o[n++] = (uint32_t)(int)(int8_t)pb[5] + (uint32_t)(int)(int16_t)(pb[6] | (pb[7] << 8));
    // vector loads from global
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r), "=r"(r2), "=r"(r3), "=r"(r4)
                 : "l"(bytes + (gid % 64) * 16));
    o[n++] = r ^ r2; o[n++] = r3 + r4;
    {
        unsigned short h0, h1, h2, h3;
        asm volatile("ld.global.v4.u16 {%0, %1, %2, %3}, [%4];" : "=h"(h0), "=h"(h1), "=h"(h2), "=h"(h3)
                     : "l"(bytes + 512 + (gid % 64) * 8));
        o[n++] = ((uint32_t)h0 << 16 | h3) + h1 * 3u + h2;
        unsigned long long d0, d1;
        asm volatile("ld.global.v2.u64 {%0, %1}, [%2];" : "=l"(d0), "=l"(d1) : "l"(bytes + (gid % 64) * 16));
        o[n++] = (uint32_t)(d0 >> 17) ^ (uint32_t)(d1 >> 5);
        unsigned char b0, b1, b2, b3;
        uint32_t w0, w1, w2, w3;
        asm volatile("ld.global.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(w0), "=r"(w1), "=r"(w2), "=r"(w3)
                     : "l"(bytes + 256 + (gid % 64) * 4));
        b0 = w0; b1 = w1; b2 = w2; b3 = w3;
        o[n++] = (uint32_t)b3 << 24 | (uint32_t)b2 << 16 | (uint32_t)b1 << 8 | b0;
        o[n++] = w0 | w1 | w2 | w3;   // upper bits zero-filled
        asm volatile("ld.global.v2.s8 {%0, %1}, [%2];" : "=r"(w0), "=r"(w1) : "l"(bytes + 700 + (gid % 64) * 2));
        o[n++] = w0 + (w1 << 1);
    }
    // cache operators, volatile, non-coherent, ldu, acquire / relaxed
    const uint32_t *pw = (const uint32_t *)bytes + (gid * 5) % 244;   // pw[0..11] stay inside the 256 words
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(r) : "l"(pw)); o[n++] = r;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(r) : "l"(pw + 1)); o[n++] = r;
    asm volatile("ld.global.cs.u32 %0, [%1];" : "=r"(r) : "l"(pw + 2)); o[n++] = r;
    asm volatile("ld.global.lu.u32 %0, [%1];" : "=r"(r) : "l"(pw + 3)); o[n++] = r;
    asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(r) : "l"(pw + 4)); o[n++] = r;
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(pw + 5)); o[n++] = r;
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(r) : "l"(pw + 6)); o[n++] = r;
    asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];" : "=r"(r), "=r"(r2) : "l"((const uint32_t *)bytes + 2 * (gid % 128))); o[n++] = r - r2;
    asm volatile("ldu.global.u32 %0, [%1];" : "=r"(r) : "l"((const uint32_t *)bytes + 7)); o[n++] = r;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(pw + 7)); o[n++] = r;
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(r) : "l"(pw + 8)); o[n++] = r;
    o[n++] = __ldg(pw + 9) + __ldcs(pw + 10) * 2u + __ldlu(pw + 11) * 3u;

    // stores: truncating narrow stores of a 32-bit register, vectors, release / volatile
    uint8_t *ps = scratch + gid * 16;
    uint32_t big = 0xA1B2C3D4u + gid * 0x01010101u;
    asm volatile("st.global.u8 [%0], %1;" ::"l"(ps + 0), "r"(big) : "memory");
    asm volatile("st.global.u16 [%0], %1;" ::"l"(ps + 2), "r"(big) : "memory");
    asm volatile("st.global.b8 [%0], %1;" ::"l"(ps + 1), "r"(big >> 8) : "memory");
    asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(ps + 4), "r"(~big) : "memory");
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(ps + 8), "r"(big * 3u) : "memory");
    asm volatile("st.global.v2.u16 [%0], {%1, %2};" ::"l"(ps + 12), "h"((unsigned short)gid), "h"((unsigned short)0xbeef) : "memory");
    __syncthreads();
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r), "=r"(r2), "=r"(r3), "=r"(r4) : "l"(ps));
    o[n++] = r; o[n++] = r2; o[n++] = r3; o[n++] = r4;

    // .const (initialised), .global module variables (initialised)
    o[n++] = (uint32_t)ctab[(gid + sel) % 16];
    asm volatile("ld.const.s8 %0, [cbytes+%1];" : "=r"(r) : "n"(0)); o[n++] = r;
    o[n++] = (uint32_t)(int)(signed char)cbytes[gid % 8];
    if (blockIdx.x == 0 && tid < 8) gvar[tid] += (int)tid;   // only block 0 writes gvar
    __syncthreads();
    o[n++] = (uint32_t)gvar[(tid + 1) % 8] * (blockIdx.x == 0) + (uint32_t)(gvar64 >> (tid % 64));
    o[n++] = __float_as_uint(gfloat[gid % 4]);

    // shared: vector stores / loads, 64-bit, and dynamic shared memory
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"((uint32_t)__cvta_generic_to_shared(&sh[tid * 4])),
                 "r"(gid), "r"(gid * 2), "r"(gid * 3), "r"(big) : "memory");
    sh64[tid] = ((unsigned long long)big << 32) | gid;
    dyn[tid * 8 + 7] = big ^ 0xffff;
    ((uint16_t *)dyn)[tid * 16 + 1] = (uint16_t)(gid * 1000);
    __syncthreads();
    uint32_t nb = (tid + 5) % 64;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r), "=r"(r2), "=r"(r3), "=r"(r4)
                 : "r"((uint32_t)__cvta_generic_to_shared(&sh[nb * 4])));
    o[n++] = r + r2 + r3 + r4;
    {
        unsigned long long a0, a1;
        asm volatile("ld.shared.v2.u64 {%0, %1}, [%2];" : "=l"(a0), "=l"(a1)
                     : "r"((uint32_t)__cvta_generic_to_shared(&sh64[(tid & ~1u)])));
        o[n++] = (uint32_t)(a0 >> 32) ^ (uint32_t)a1;
        asm volatile("ld.shared.s16 %0, [%1];" : "=r"(r) : "r"((uint32_t)__cvta_generic_to_shared(&sh[nb * 4 + 3]) + 2));
        o[n++] = r;
    }
    o[n++] = dyn[nb * 8 + 7] + ((uint16_t *)dyn)[nb * 16 + 1];

    // generic addressing: cvta to / from each space, isspacep
    {
        unsigned long long gen, back, sa;
        asm volatile("cvta.shared.u64 %0, %1;" : "=l"(gen) : "l"((unsigned long long)__cvta_generic_to_shared(&sh[nb * 4 + 1])));
        asm volatile("ld.u32 %0, [%1];" : "=r"(r) : "l"(gen)); o[n++] = r;     // generic ld of shared
        asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(sa) : "l"(gen));
        back = (unsigned long long)__cvta_generic_to_shared(&sh[nb * 4 + 1]);
        o[n++] = (sa == back);
        uint32_t p1, p2, p3;
        asm volatile("{ .reg .pred q; isspacep.shared q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p1) : "l"(gen));
        asm volatile("{ .reg .pred q; isspacep.global q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p2) : "l"(gen));
        asm volatile("{ .reg .pred q; isspacep.global q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p3) : "l"(pw));
        o[n++] = p1 | p2 << 1 | p3 << 2;
        unsigned long long gg;
        asm volatile("cvta.to.global.u64 %0, %1;" : "=l"(gg) : "l"(pw));
        asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(gg)); o[n++] = r;
    }

    // local memory: a dynamically indexed array, a pointer into it passed to a call,
    // and explicit ld.local / st.local through cvta.to.local
    {
        int loc[16];
        for (int i = 0; i < 16; i++) loc[i] = (int)(gid * 31 + i * 7) ^ (int)pb[i & 7];
        int idx = (pb[0] + sel) & 15;
        loc[(idx * 3) & 15] += 1000;
        o[n++] = (uint32_t)loc[idx];
        o[n++] = (uint32_t)sum_local(loc, 1 + (pb[1] & 15));
        unsigned long long la;
        uint32_t lv;
        asm volatile("cvta.to.local.u64 %0, %1;" : "=l"(la) : "l"((unsigned long long)&loc[idx]));
        asm volatile("st.local.u16 [%0], %1;" ::"l"(la), "r"(0x12345678u) : "memory");
        asm volatile("ld.local.u32 %0, [%1];" : "=r"(lv) : "l"(la) : "memory");
        o[n++] = lv;
        uint32_t p4;
        asm volatile("{ .reg .pred q; isspacep.local q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p4) : "l"((unsigned long long)&loc[idx]));
        o[n++] = p4;
    }
    o[K - 1] = n;
}
