// funcattr: cudaFuncGetAttributes/SetAttribute and the occupancy queries.
#include "common.h"

__global__ void simple(float *p) { p[threadIdx.x] += 1.0f; }
__global__ void withshared(float *p)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = tile[1023 - threadIdx.x];
}
__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] *= 2.0f; }

static void show(const char *name, const void *f)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    printf("%s: %d maxThreads %d shared %zu maxDynShared %d ptx %d binary %d\n", name, (int)e, a.maxThreadsPerBlock,
           a.sharedSizeBytes, a.maxDynamicSharedSizeBytes, a.ptxVersion, a.binaryVersion);
}

int main()
{
    show("simple", (const void *)simple);
    show("withshared", (const void *)withshared);
    show("bounded", (const void *)bounded);
    SHOW(cudaFuncSetAttribute(simple, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    show("simple after set", (const void *)simple);
    SHOW(cudaFuncSetAttribute(withshared, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024));
    SHOW(cudaFuncSetAttribute(simple, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    SHOW(cudaFuncSetCacheConfig(simple, cudaFuncCachePreferShared));
    int nb = -1;
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 256, 0));
    printf("blocks/SM simple 256: %d\n", nb);
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 1024, 0));
    printf("blocks/SM simple 1024: %d\n", nb);
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, simple, 128, 60 * 1024));
    printf("blocks/SM simple 128 + 60K: %d\n", nb);
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, withshared, 64, 0));
    printf("blocks/SM withshared 64: %d\n", nb);
    size_t avail = 0;
    SHOW(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, simple, 2, 128));
    printf("dyn smem for 2 blocks: %zu\n", avail);
    int grid = 0, block = 0;
    SHOW(cudaOccupancyMaxPotentialBlockSize(&grid, &block, simple, 0, 0));
    printf("potential: block %d grid/SMs %d\n", block, grid);
    float *d;
    QUIET(cudaMalloc(&d, 4096 * sizeof(float)));
    QUIET(cudaMemset(d, 0, 4096 * sizeof(float)));
    simple<<<1, 1024>>>(d);
    bounded<<<1, 256>>>(d);
    SHOW(cudaDeviceSynchronize());
    float h[2];
    QUIET(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("h %g %g\n", h[0], h[1]);
    return 0;
}
