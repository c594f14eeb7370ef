// histogram: 256-bin byte histogram. Each block builds a private histogram in shared memory
// with shared atomics (grid-stride over the input), then merges it into the global one with
// global atomics. Counts are order-independent, so the result is exact.
extern "C" __global__ void histogram(const unsigned char *data, int n, unsigned *hist) {
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i]) atomicAdd(&hist[i], local[i]);
}
