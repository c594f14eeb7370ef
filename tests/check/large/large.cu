// tests/check/large/large.cu — launches large enough for the checker to sample blocks
// (docs/CHECKING.md, "Large launches"): adversarial schedules check 8 blocks each, and when the
// hardware-like schedule finds the blocks independent, run only those (and a hardware-like
// reference).  Each defect must still be found, the clean kernel must stay silent.
// grid 64 (or 512), block 256; out holds 64 * 256 ints (512 * 256 for the sampled-schedule-0 case).

// every warp exchanges through shared memory without __syncwarp
extern "C" __global__ void large_race_warp(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t] + blockIdx.x;
    out[blockIdx.x * 256 + t] = s[t ^ 1];
}

// the last atomicExch of each block wins: independent blocks, each with a schedule-dependent result
extern "C" __global__ void large_last_writer(const int *in, int *out) {
    atomicExch(&out[blockIdx.x], (int)threadIdx.x + in[threadIdx.x]);
}

// each block adds its predecessor's result: the blocks depend on one another
extern "C" __global__ void large_chain(const int *in, int *out) {
    __shared__ int prev;
    if (threadIdx.x == 0) prev = blockIdx.x ? out[blockIdx.x - 1] : 0;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = prev + in[blockIdx.x & 255];
}

// correct: a block-wide sum of each block's slice, warp shuffles and one atomic per block
extern "C" __global__ void large_ok(const int *in, int *out) {
    __shared__ int s[8];
    int v = in[threadIdx.x] * (blockIdx.x + 1);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 8) {
        v = s[threadIdx.x];
        for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffu, v, o);
        if (threadIdx.x == 0) { out[blockIdx.x] = v; atomicAdd(&out[gridDim.x], v); }
    }
}
