// trap: __trap() in a kernel; the error is sticky until cudaDeviceReset.
#include "common.h"

__global__ void boom(int *p, int bad)
{
    if (threadIdx.x == bad) __trap();
    p[threadIdx.x] = threadIdx.x;
}

int main()
{
    int *d;
    QUIET(cudaMalloc(&d, 1024));
    boom<<<1, 32>>>(d, 99);
    SHOW(cudaDeviceSynchronize());
    printf("first launch ok\n");
    boom<<<1, 32>>>(d, 5);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaGetLastError());
    SHOW(cudaPeekAtLastError());
    SHOW(cudaGetLastError());
    int h;
    SHOW(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    int *e;
    SHOW(cudaMalloc(&e, 16));
    boom<<<1, 32>>>(d, 99);
    SHOW(cudaGetLastError());
    SHOW(cudaDeviceReset());
    SHOW(cudaGetLastError());
    // (what follows a reset is not tested: on the recording machine the GPU
    // answered cudaErrorDevicesUnavailable to the next allocation)
    return 0;
}
