// reduce: sum of an int array. Each block loads two elements per thread, reduces them in
// shared memory with a tree (and __syncthreads) down to 32 values, then finishes with warp
// shuffles; thread 0 writes the block's partial sum and adds it to a global total with
// atomicAdd (integer: the total does not depend on the order).
extern "C" __global__ void reduce(const int *in, int n, int *partial, int *total) {
    extern __shared__ int s[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + tid;
    int v = 0;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st >= 32; st >>= 1) {
        if (tid < st) s[tid] = v = v + s[tid + st];
        __syncthreads();
    }
    if (tid < 32) {
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0) { partial[blockIdx.x] = v; atomicAdd(total, v); }
    }
}
