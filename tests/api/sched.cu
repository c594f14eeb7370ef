// sched.cu — the default schedule's ageing rule (vm.h, VM_AGE_LIMIT), seen through %clock64,
// which ptxemu counts as 4 per warp instruction issued (tests/api/sched_api.c; nvcc -ptx
// -arch=sm_90 -lineinfo sched.cu).  One warp each.

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// Every lane recurses to its own depth, the odd ones twice: lanes that return early wait at
// the call site for the others (lowest pc first) instead of running ahead alone.
extern "C" __global__ void sched_fib(int *out, long long *clk)
{
    int a = 0;
    if (threadIdx.x & 1) a = fib(threadIdx.x % 7);
    out[threadIdx.x] = fib(threadIdx.x % 16) + a;
    __syncwarp();
    if (threadIdx.x == 0) clk[0] = clock64();
}

// An intra-warp spin lock: the spinners loop at a lower pc than the holder, which runs only
// because it has waited too long.
extern "C" __global__ void sched_lock(int *out, long long *clk)
{
    __shared__ int lock, count;
    if (threadIdx.x == 0) { lock = 0; count = 0; }
    __syncwarp();
    while (atomicCAS(&lock, 0, 1) != 0) { }
    {
        volatile int *c = &count;
        *c = *c + threadIdx.x + 1;
        __threadfence_block();
        atomicExch(&lock, 0);
    }
    __syncwarp();
    if (threadIdx.x == 0) { out[0] = count; clk[0] = clock64(); }
}
