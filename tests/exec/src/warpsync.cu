// warpsync: a reduction that relies on implicit warp-synchronous execution
// (no __syncwarp between the shared-memory steps of the last warp): it gives
// the right sum on the GPU and in ptxemu's default schedule; `ptxemu exec
// --check` reports the race.
#include "common.h"

__global__ void reduce(const int *in, int *out)
{
    __shared__ volatile int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0) *out = s[0];
}

int main()
{
    int h[64], *d, *o, r = 0;
    for (int i = 0; i < 64; i++) h[i] = i + 1;
    QUIET(cudaMalloc(&d, sizeof h));
    QUIET(cudaMalloc(&o, sizeof(int)));
    QUIET(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    reduce<<<1, 64>>>(d, o);
    SHOW(cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost));
    printf("sum %d\n", r);
    return 0;
}
