// illegal: a store through a bad pointer gives cudaErrorIllegalAddress,
// sticky for the rest of the program.
#include "common.h"

__global__ void store(int *p, int off) { p[threadIdx.x + off] = 1; }

int main()
{
    int *d;
    QUIET(cudaMalloc(&d, 256));
    store<<<1, 32>>>(d, 0);
    SHOW(cudaDeviceSynchronize());
    store<<<1, 32>>>((int *)0x10, 0);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaGetLastError());
    SHOW(cudaMalloc(&d, 256));
    SHOW(cudaFree(d));
    return 3;
}
