#include <cstdio>
struct S { int a; float b; double c; };
__device__ __noinline__ float helper(float x, S s) { return x * s.b + (float)s.c; }
__global__ void kprintf(const float *__restrict__ in, float *out, int n, S s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = helper(in[i], s);
        printf("i=%d v=%f a=%d\n", i, v, s.a);
        out[i] = v;
    }
    assert(n > 0);
}
