// Special registers on a 3-D grid of 3-D blocks (grid 3 2 2, block 8 4 2): %tid, %ntid,
// %ctaid, %nctaid (x, y, z each), %laneid and the lane masks (lanemask_lt/le/eq/ge/gt), plus
// the linear thread / warp index computed from them. %warpid, %smid and %clock are
// scheduler-dependent and are not recorded.
#include <stdint.h>

#define SREG(name) ({ uint32_t r_; asm volatile("mov.u32 %0, %%" name ";" : "=r"(r_)); r_; })

// out: 20 words per thread, indexed by the linear global thread id.
extern "C" __global__ void grid_3d(uint32_t *out) {
    uint32_t lin_block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    uint32_t lin_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    uint32_t *o = out + (lin_block * nthreads + lin_tid) * 20;
    o[0] = SREG("tid.x"); o[1] = SREG("tid.y"); o[2] = SREG("tid.z");
    o[3] = SREG("ntid.x"); o[4] = SREG("ntid.y"); o[5] = SREG("ntid.z");
    o[6] = SREG("ctaid.x"); o[7] = SREG("ctaid.y"); o[8] = SREG("ctaid.z");
    o[9] = SREG("nctaid.x"); o[10] = SREG("nctaid.y"); o[11] = SREG("nctaid.z");
    o[12] = SREG("laneid");
    o[13] = SREG("lanemask_lt"); o[14] = SREG("lanemask_le"); o[15] = SREG("lanemask_eq");
    o[16] = SREG("lanemask_ge"); o[17] = SREG("lanemask_gt");
    o[18] = lin_tid / 32 + 100 * lin_block;   // warp index within the block, computed
    o[19] = nthreads * 1000u + gridDim.x * gridDim.y * gridDim.z;
}
