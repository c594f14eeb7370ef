// Probe: static + dynamic shared memory: where does the dynamic array start, and where is the window's end?
// usage: smem_both DYN OFFSET -> "base B ok" or the CUDA error (write of 4 bytes at OFFSET from the static array's start)
#include <cstdio>
#include <cstdlib>
__global__ void both(int off, int *out) {
    __shared__ int s[25];                       // 100 bytes of static shared memory
    extern __shared__ char d[];
    s[threadIdx.x] = 1;
    __syncthreads();
    out[1] = (int)(__cvta_generic_to_shared(d) - __cvta_generic_to_shared(s));
    *(volatile int *)((char *)s + off) = 7;
    __syncthreads();
    out[0] = s[0];
}
int main(int argc, char **argv) {
    int dyn = atoi(argv[1]), off = atoi(argv[2]);
    int *d; cudaMalloc(&d, 8); cudaMemset(d, 0, 8);
    both<<<1, 1, dyn>>>(off, d);
    cudaError_t e = cudaDeviceSynchronize();
    int h[2] = {0, 0};
    if (e == cudaSuccess) cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
    printf("dyn %d off %d: base %d %s\n", dyn, off, h[1], e == cudaSuccess ? "ok" : cudaGetErrorName(e));
    return 0;
}
