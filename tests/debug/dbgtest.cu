// Kernels for the debugger tests (tests/debug): divergence with collectives,
// inlined and called device functions, named barriers and a deadlock.
#define FULL 0xffffffffu

__device__ __forceinline__ int scale(int v, int k)
{
    int t = v * k;
    return t + 1;
}

__device__ __noinline__ int addsq(int a, int b)
{
    int s = a * a;
    return s + b;
}

extern "C" __global__ void diverge(const int *in, int *out)
{
    int val = in[threadIdx.x];
    if (threadIdx.x % 2) {
        val += __shfl_sync(FULL, val, 0);
        val *= 3;
    } else {
        val += __shfl_sync(FULL, val, 0);
        val -= 7;
    }
    val = scale(val, blockIdx.x + 2);
    val = addsq(val, threadIdx.x);
    out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

extern "C" __global__ void named_bar(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    if (threadIdx.x >= 32) {
        s[lane] = in[lane] * 10;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[lane] = s[31 - lane];
    }
}

extern "C" __global__ void stuck(int *out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}
