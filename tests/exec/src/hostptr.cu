// hostptr: a kernel handed a plain host pointer (malloc) — the GPU faults
// (or, with HMM, may not); ptxemu always faults and says it is host memory.
// Not GPU-recorded: tests/exec/run.sh checks ptxemu's message and status.
#include <cstdlib>
#include "common.h"

__global__ void touch(int *p) { p[threadIdx.x] = 1; }

int main()
{
    int *h = (int *)malloc(64 * sizeof(int));
    touch<<<1, 32>>>(h);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\n", (int)e, cudaGetErrorName(e));
    free(h);
    return e == cudaSuccess ? 0 : 1;
}
