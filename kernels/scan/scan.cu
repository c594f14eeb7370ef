// scan: inclusive prefix sum of each block's 256 ints. Each warp scans its 32 values with
// __shfl_up_sync, warp totals go through shared memory, the first warp scans those, and
// every thread adds the total of the warps before it. Also writes each block's total.
extern "C" __global__ void scan(const int *in, int *out, int *block_sums) {
    __shared__ int warp_tot[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    int i = blockIdx.x * blockDim.x + tid;
    int v = in[i];
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (lane == 31) warp_tot[w] = v;
    __syncthreads();
    if (w == 0) {
        int nw = blockDim.x / 32;
        int t = lane < nw ? warp_tot[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += u;
        }
        if (lane < nw) warp_tot[lane] = t;
    }
    __syncthreads();
    if (w > 0) v += warp_tot[w - 1];
    out[i] = v;
    if (tid == blockDim.x - 1) block_sums[blockIdx.x] = v;
}
