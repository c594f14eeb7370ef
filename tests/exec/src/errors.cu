// errors: error names and strings, launch-configuration errors and the
// last-error state (none of these is sticky).
#include "common.h"

__global__ void k(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void big(int *p)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (p) p[threadIdx.x] = s[0];
}
__global__ void __launch_bounds__(128) bounded(int *p) { if (p) p[threadIdx.x] = 2; }

int main()
{
    const cudaError_t codes[] = { cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                                  cudaErrorInvalidConfiguration, cudaErrorInvalidDeviceFunction, cudaErrorInvalidDevice,
                                  cudaErrorNoKernelImageForDevice, cudaErrorIllegalAddress, cudaErrorAssert,
                                  cudaErrorLaunchFailure, cudaErrorNotSupported, cudaErrorCooperativeLaunchTooLarge,
                                  cudaErrorLaunchOutOfResources, cudaErrorInvalidResourceHandle, cudaErrorNotReady };
    for (cudaError_t c : codes) printf("%d %s: %s\n", (int)c, cudaGetErrorName(c), cudaGetErrorString(c));

    int *d;
    QUIET(cudaMalloc(&d, 4096));
    k<<<1, 1025>>>(d);
    SHOW(cudaPeekAtLastError());
    SHOW(cudaGetLastError());
    SHOW(cudaGetLastError());
    k<<<1, dim3(1, 1, 65)>>>(d);
    SHOW(cudaGetLastError());
    k<<<dim3(1, 65536), 1>>>(d);
    SHOW(cudaGetLastError());
    k<<<0, 32>>>(d);
    SHOW(cudaGetLastError());
    bounded<<<1, 256>>>(d);
    SHOW(cudaGetLastError());
    big<<<1, 32, 48 * 1024 + 4>>>(d);
    SHOW(cudaGetLastError());
    SHOW(cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024));
    SHOW(cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    big<<<1, 32, 100 * 1024>>>(d);
    SHOW(cudaGetLastError());
    big<<<1, 32, 100 * 1024 + 4>>>(d);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    int h = 0;
    SHOW(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    printf("h %d\n", h);
    SHOW(cudaFree(d));
    SHOW(cudaFree(d));
    SHOW(cudaGetLastError());
    int *p;
    SHOW(cudaMalloc(&p, (size_t)1 << 50));
    SHOW(cudaGetLastError());
    SHOW(cudaStreamSynchronize((cudaStream_t)0));
    SHOW(cudaDeviceSynchronize());
    return 0;
}
