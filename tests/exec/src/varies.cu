// varies: one kernel with a fixed grid whose work per thread depends on n (a
// grid-stride loop), launched small, large, small, then large three times.
// Under `exec` (tests/exec/run.sh checks --trace): the second launch is
// guessed small from the first (one thread), wrongly, so the kernel's launches
// are not guessed again and the fourth runs on every core; the fifth, the
// second large one, is timed on every core and the sixth on one thread.  The
// results are the GPU's either way.
#include "common.h"

__global__ void stride(int n, unsigned *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = y[i] * 3u + (unsigned)i;
}

int main()
{
    const int n = 1 << 20;
    unsigned *d;
    QUIET(cudaMalloc(&d, n * sizeof(unsigned)));
    QUIET(cudaMemset(d, 0, n * sizeof(unsigned)));
    stride<<<64, 256>>>(100, d);
    stride<<<64, 256>>>(n, d);
    stride<<<64, 256>>>(100, d);
    stride<<<64, 256>>>(n, d);
    stride<<<64, 256>>>(n, d);
    stride<<<64, 256>>>(n, d);
    SHOW(cudaDeviceSynchronize());
    unsigned *h = new unsigned[n];
    QUIET(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long s = 0;
    for (int i = 0; i < n; i++) s = s * 1000003ull + h[i];
    printf("varies: h[0]=%u h[99]=%u h[100]=%u h[%d]=%u hash=%llu\n", h[0], h[99], h[100], n - 1, h[n - 1], s);
    delete[] h;
    QUIET(cudaFree(d));
    return 0;
}
