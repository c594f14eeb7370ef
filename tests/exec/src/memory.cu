// memory: pinned, managed and device memory, async copies and memsets,
// symbols (__constant__, __device__), cudaGetSymbolAddress, 2D copies.
#include "common.h"

__constant__ float coef[4];
__device__ int counter;
__device__ int table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * coef[i % 4] + table[i % 8];
    if (i < n) atomicAdd(&counter, 1);
}

__global__ void incr(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += i;
}

int main()
{
    const int n = 256;
    float c[4] = { 0.5f, 1.0f, 2.0f, -1.0f };
    SHOW(cudaMemcpyToSymbol(coef, c, sizeof c));
    int zero = 0;
    SHOW(cudaMemcpyToSymbol(counter, &zero, sizeof zero));

    float *pinned;
    SHOW(cudaMallocHost(&pinned, n * sizeof(float)));
    for (int i = 0; i < n; i++) pinned[i] = (float)i;
    float *d;
    QUIET(cudaMalloc(&d, n * sizeof(float)));
    cudaStream_t s;
    QUIET(cudaStreamCreate(&s));
    SHOW(cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s));
    scale<<<2, 128, 0, s>>>(d, n);
    SHOW(cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("scale: %g %g %g %g %g\n", pinned[0], pinned[1], pinned[2], pinned[3], pinned[255]);
    int cnt = -1;
    SHOW(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    printf("counter: %d\n", cnt);
    int tb[8];
    SHOW(cudaMemcpyFromSymbol(tb, table, sizeof tb, 2 * sizeof(int)));
    SHOW(cudaMemcpyFromSymbol(tb, table, 4 * sizeof(int), 2 * sizeof(int)));
    printf("table[2..5]: %d %d %d %d\n", tb[0], tb[1], tb[2], tb[3]);
    int *tp;
    SHOW(cudaGetSymbolAddress((void **)&tp, table));
    incr<<<1, 8>>>(tp, 8);
    SHOW(cudaMemcpy(tb, tp, sizeof tb, cudaMemcpyDeviceToHost));
    printf("table after incr: %d %d %d\n", tb[0], tb[1], tb[7]);
    size_t sz = 0;
    SHOW(cudaGetSymbolSize(&sz, table));
    printf("sizeof table: %zu\n", sz);

    // pinned memory is device-accessible (unified addressing)
    int *hp;
    SHOW(cudaHostAlloc(&hp, 64 * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < 64; i++) hp[i] = 100;
    int *dp;
    SHOW(cudaHostGetDevicePointer((void **)&dp, hp, 0));
    incr<<<1, 64>>>(dp, 64);
    SHOW(cudaDeviceSynchronize());
    printf("mapped: %d %d\n", hp[0], hp[63]);

    int *m;
    SHOW(cudaMallocManaged(&m, 1024 * sizeof(int)));
    for (int i = 0; i < 1024; i++) m[i] = 1;
    incr<<<4, 256>>>(m, 1024);
    SHOW(cudaDeviceSynchronize());
    long sum = 0;
    for (int i = 0; i < 1024; i++) sum += m[i];
    printf("managed sum: %ld\n", sum);

    SHOW(cudaMemsetAsync(d, 0, n * sizeof(float), s));
    SHOW(cudaMemset(d, 0x3f, 8));
    float back[4];
    SHOW(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    printf("memset: %08x %08x %08x\n", *(unsigned *)&back[0], *(unsigned *)&back[1], *(unsigned *)&back[2]);

    // 2D copy: a 4x3 window of a pitched allocation
    int *pd;
    size_t pitch;
    SHOW(cudaMallocPitch((void **)&pd, &pitch, 16 * sizeof(int), 8));
    printf("pitch multiple of 512: %d\n", pitch % 512 == 0);
    int src[8][16], dst[3][4];
    for (int y = 0; y < 8; y++) for (int x = 0; x < 16; x++) src[y][x] = y * 100 + x;
    SHOW(cudaMemcpy2D(pd, pitch, src, sizeof src[0], sizeof src[0], 8, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy2D(dst, sizeof dst[0], (char *)pd + pitch * 2 + 3 * sizeof(int), pitch, sizeof dst[0], 3, cudaMemcpyDeviceToHost));
    printf("2d: %d %d %d\n", dst[0][0], dst[1][2], dst[2][3]);

    cudaPointerAttributes pa;
    SHOW(cudaPointerGetAttributes(&pa, d));
    printf("attr d: type %d device %d\n", (int)pa.type, pa.device);
    SHOW(cudaPointerGetAttributes(&pa, m));
    printf("attr m: type %d\n", (int)pa.type);
    size_t fr = 0, tot = 0;
    SHOW(cudaMemGetInfo(&fr, &tot));
    printf("meminfo: free <= total: %d\n", fr <= tot);
    SHOW(cudaFreeHost(pinned));
    SHOW(cudaFreeHost(hp));
    SHOW(cudaFree(m));
    SHOW(cudaFree(pd));
    SHOW(cudaFree(d));
    SHOW(cudaStreamDestroy(s));
    return 0;
}
