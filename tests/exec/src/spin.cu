// spin: a kernel waiting for a flag nobody sets.  On a GPU it hangs (the
// watchdog, where there is one, ends it); `ptxemu exec --timeout S` stops it
// with cudaErrorLaunchTimeout.  Not GPU-recorded: run.sh checks ptxemu.
#include "common.h"

__global__ void wait_for(volatile int *flag)
{
    while (*flag == 0) { }
}

int main()
{
    int *flag;
    QUIET(cudaMalloc(&flag, sizeof(int)));
    QUIET(cudaMemset(flag, 0, sizeof(int)));
    wait_for<<<1, 1>>>(flag);
    SHOW(cudaDeviceSynchronize());
    return 0;
}
