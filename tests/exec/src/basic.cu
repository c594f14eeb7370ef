// basic: <<<>>> and cudaLaunchKernel, 1-3D grids, dynamic shared memory,
// device printf interleaved with host printf (the GPU flushes at sync points).
#include "common.h"

__global__ void fill(int *out, int n, int scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * scale;
}

__global__ void grid3(int *out)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[bx * blockDim.x * blockDim.y * blockDim.z + tx] = bx * 1000 + tx;
}

__global__ void reverse(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[n - 1 - t];
}

__global__ void hello(int tag)
{
    // one warp per launch: the order of the lanes' lines is defined
    if (threadIdx.x % 8 == 0) printf("device: block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}

int main()
{
    const int n = 1000;
    int *d, h[n];
    QUIET(cudaMalloc(&d, n * sizeof(int)));
    fill<<<(n + 255) / 256, 256>>>(d, n, 3);
    SHOW(cudaGetLastError());
    QUIET(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("fill: h[0]=%d h[999]=%d sum=%ld\n", h[0], h[999], sum);

    int nn = n, scale = 7;
    void *args[] = { &d, &nn, &scale };
    SHOW(cudaLaunchKernel((void *)fill, dim3(4), dim3(256), args, 0, 0));
    QUIET(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernel: h[1]=%d h[999]=%d\n", h[1], h[999]);

    int *g;
    QUIET(cudaMalloc(&g, 2 * 3 * 4 * 8 * sizeof(int)));
    grid3<<<dim3(2, 3, 4), dim3(2, 2, 2)>>>(g);
    int hg[192];
    QUIET(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    printf("grid3: %d %d %d %d\n", hg[0], hg[7], hg[100], hg[191]);

    int r[64];
    for (int i = 0; i < 64; i++) r[i] = i * i;
    QUIET(cudaMemcpy(d, r, sizeof r, cudaMemcpyHostToDevice));
    reverse<<<1, 64, 64 * sizeof(int)>>>(d, 64);
    QUIET(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
    printf("reverse: %d %d %d\n", r[0], r[1], r[63]);

    int *d2;
    QUIET(cudaMalloc(&d2, 64 * sizeof(int)));
    QUIET(cudaMemcpy(d2, d, 64 * sizeof(int), cudaMemcpyDeviceToDevice));
    QUIET(cudaMemset(d, 0xff, 16));
    QUIET(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
    int r2[64];
    QUIET(cudaMemcpy(r2, d2, sizeof r2, cudaMemcpyDeviceToHost));
    printf("memset: %d %d %d; copy: %d\n", r[0], r[3], r[4], r2[0]);

    printf("host: before launch\n");
    hello<<<1, 32>>>(1);
    printf("host: after launch, before sync\n");
    SHOW(cudaDeviceSynchronize());
    printf("host: after sync\n");
    hello<<<1, 32>>>(2);
    QUIET(cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost));
    printf("host: after memcpy\n");
    QUIET(cudaFree(d));
    QUIET(cudaFree(d2));
    QUIET(cudaFree(g));
    hello<<<1, 1>>>(3);
    printf("host: end of main\n");
    return 0;
}
