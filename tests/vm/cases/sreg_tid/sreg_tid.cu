// %tid.x/.y/.z and %laneid in a block whose rows (63 threads) do not line up with warps: a
// warp starts mid-row, ends one lane short of a row's end, or spans two rows and two planes,
// and the last warp is partial (378 threads).  out: per thread (tid.x, tid.y, tid.z, laneid).
#include <stdint.h>
extern "C" __global__ void sreg_tid(uint32_t *out) {
    uint32_t lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint32_t base = blockIdx.x * blockDim.x * blockDim.y * blockDim.z;
    uint32_t lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    uint32_t *o = out + 4 * (base + lin);
    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z; o[3] = lane;
}
