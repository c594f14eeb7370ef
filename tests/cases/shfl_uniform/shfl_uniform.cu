// shfl.sync by whole warps with one delta / source lane / xor mask in every lane and the
// whole warp's width (what nvcc's reductions and scans issue): every offset 0..31 in each
// mode, the value and the predicate (in range or not).  The emulator copies such shuffles
// as rows (vm/warp.c shfl_whole); per-lane operands take shfl_lanes.
// grid 1, block 64 (two warps); in: 64 words; out: 64 threads x 4 modes x 32 offsets words,
// predicate in bit 31 (the values are below 2^31).
#define FULL 0xffffffffu
__device__ __forceinline__ unsigned shfl_p(int mode, unsigned v, int k)
{
    unsigned r, p;
    switch (mode) {
    case 0: asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, 31, -1; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(k)); break;
    case 1: asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, 0, -1; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(k)); break;
    case 2: asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, 31, -1; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(k)); break;
    default: asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, 31, -1; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(k)); break;
    }
    return r | p << 31;
}
extern "C" __global__ void shfl_uniform(const unsigned *in, unsigned *out)
{
    unsigned v = in[threadIdx.x] & 0x7fffffffu;
    unsigned *o = out + threadIdx.x * 128;
#pragma unroll 1
    for (int mode = 0; mode < 4; mode++)
#pragma unroll 1
        for (int k = 0; k < 32; k++) o[mode * 32 + k] = shfl_p(mode, v, k);
}
