// assert: a failing device assert prints its message (stderr) and the
// context reports cudaErrorAssert from then on.
#include <cassert>
#include "common.h"

__global__ void check(const int *v, int n)
{
    int i = threadIdx.x;
    if (i < n) assert(v[i] >= 0);
}

int main()
{
    int h[8] = { 1, 2, 3, -4, 5, 6, 7, 8 };
    int *d;
    QUIET(cudaMalloc(&d, sizeof h));
    QUIET(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check<<<1, 3>>>(d, 8);
    SHOW(cudaDeviceSynchronize());
    printf("before the failing launch\n");
    fflush(stdout);
    check<<<1, 8>>>(d, 8);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    return 0;
}
