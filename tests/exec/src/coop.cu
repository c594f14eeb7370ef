// coop: a cooperative launch with grid-wide synchronisation.
#include <cooperative_groups.h>
#include "common.h"
namespace cg = cooperative_groups;

__global__ void twophase(int *buf, int *out, int n)
{
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) buf[i] = i + 1;
    g.sync();
    if (i < n) out[i] = buf[n - 1 - i] * 2;
}

int main()
{
    const int blocks = 8, threads = 128, n = blocks * threads;
    int *buf, *out;
    QUIET(cudaMalloc(&buf, n * sizeof(int)));
    QUIET(cudaMalloc(&out, n * sizeof(int)));
    int nn = n;
    void *args[] = { &buf, &out, &nn };
    int sup = 0;
    SHOW(cudaDeviceGetAttribute(&sup, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperative launch supported: %d\n", sup);
    SHOW(cudaLaunchCooperativeKernel((void *)twophase, dim3(blocks), dim3(threads), args, 0, 0));
    SHOW(cudaDeviceSynchronize());
    int h[n];
    QUIET(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("out[0]=%d out[1]=%d out[%d]=%d\n", h[0], h[1], n - 1, h[n - 1]);
    SHOW(cudaLaunchCooperativeKernel((void *)twophase, dim3(100000), dim3(threads), args, 0, 0));
    SHOW(cudaGetLastError());
    return 0;
}
