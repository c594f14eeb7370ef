// Control and warp instructions the other cases leave out: brx.idx through a .branchtargets
// table, exit from some lanes (they store nothing after it), __activemask() in divergent
// code, elect.sync (full mask and a partial mask), vote.sync.uni, nanosleep, prefetch /
// prefetchu, pmevent (a no-op), brkpt under a guard that is false at run time, and indirect
// calls through a table of function pointers. grid 2, block 64 (two warps per block).
#include <stdint.h>

#define K 12

__device__ __noinline__ uint32_t f0(uint32_t x) { return x * 3u + 1u; }
__device__ __noinline__ uint32_t f1(uint32_t x) { return x ^ 0x5a5a5a5au; }
__device__ __noinline__ uint32_t f2(uint32_t x) { return (x << 7) | (x >> 25); }
__device__ uint32_t (*const ftab[3])(uint32_t) = {f0, f1, f2};

extern "C" __global__ void control_misc(uint32_t *out, const uint32_t *data, int never) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    uint32_t lane = threadIdx.x % 32;
    uint32_t *o = out + t * K;
    uint32_t r;

    // brx.idx: four targets
    asm volatile("{\n\t.reg .pred p;\n\t.reg .u32 i;\n\t"
                 "and.b32 i, %1, 3;\n\t"
                 "ts: .branchtargets L0, L1, L2, L3;\n\t"
                 "brx.idx i, ts;\n"
                 "L0:\n\tmov.u32 %0, 100;\n\tbra.uni Ld;\n"
                 "L1:\n\tmov.u32 %0, 201;\n\tbra.uni Ld;\n"
                 "L2:\n\tmov.u32 %0, 302;\n\tbra.uni Ld;\n"
                 "L3:\n\tmov.u32 %0, 403;\n"
                 "Ld:\n\t}" : "=r"(r) : "r"((uint32_t)t * 7u));
    o[0] = r;
    // activemask in divergent code
    if (lane % 3 == 0) o[1] = __activemask();
    else o[1] = ~__activemask();
    // elect.sync: full mask, and the lanes of a partial mask
    {
        uint32_t leader, is;
        asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(leader), "=r"(is));
        o[2] = leader | is << 8;
        if ((0xf0f0f0f0u >> lane) & 1) {
            asm volatile("{ .reg .pred p; elect.sync %0|p, 0xf0f0f0f0; selp.u32 %1, 1, 0, p; }" : "=r"(leader), "=r"(is));
            o[3] = leader | is << 8;
        }
    }
    // vote.sync.uni: uniform and non-uniform predicates
    {
        uint32_t u1, u2;
        asm volatile("{ .reg .pred p, q; setp.lt.u32 p, %2, 64; vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q;"
                     " setp.lt.u32 p, %3, 5; vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %1, 1, 0, q; }"
                     : "=r"(u1), "=r"(u2) : "r"(threadIdx.x), "r"(lane));
        o[4] = u1 | u2 << 1;
        asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, !p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
                     : "=r"(u1) : "r"(blockIdx.x));
        o[5] = u1;
    }
    // nanosleep, prefetch, pmevent, a guarded-off brkpt
    __nanosleep(100 + t);
    asm volatile("prefetch.global.L1 [%0];" ::"l"(data + t));
    asm volatile("prefetch.global.L2 [%0];" ::"l"(data + t + 1));
    asm volatile("prefetch.L1 [%0];" ::"l"(data + t));
    asm volatile("prefetchu.L1 [%0];" ::"l"(data + t));
    asm volatile("pmevent 1;");
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %0, 0; @p brkpt; }" ::"r"(never));
    o[6] = data[t] + 1;
    // indirect calls
    o[7] = ftab[t % 3](data[t]);
    o[8] = ftab[(t / 3) % 3](o[7]);
    // exit: every fourth lane leaves here; its later slots stay zero
    if (lane % 4 == 3) asm volatile("exit;");
    o[9] = __activemask();
    o[10] = 0xc0ffee00u + lane;
}
