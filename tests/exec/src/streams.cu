// streams: streams, events and host callbacks run in the order the program
// asked for; event timing is positive.
#include "common.h"

__global__ void add(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 2 + v;
}

// host functions run on a driver thread on the GPU: they only record
static const char *order[4];
static int norder, cb_status = -1;
static void CUDART_CB note(void *arg) { order[norder++] = (const char *)arg; }
static void CUDART_CB cb(cudaStream_t, cudaError_t e, void *arg) { order[norder++] = (const char *)arg; cb_status = (int)e; }

int main()
{
    const int n = 4096;
    int *d, *h;
    QUIET(cudaMalloc(&d, n * sizeof(int)));
    QUIET(cudaMallocHost(&h, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i;
    cudaStream_t s1, s2, s3;
    SHOW(cudaStreamCreate(&s1));
    SHOW(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    SHOW(cudaStreamCreateWithPriority(&s3, cudaStreamDefault, -1));
    int pr = 0;
    unsigned fl = 9;
    SHOW(cudaStreamGetPriority(s3, &pr));
    SHOW(cudaStreamGetFlags(s2, &fl));
    printf("priority %d flags %u\n", pr, fl);
    cudaEvent_t a, b, c;
    SHOW(cudaEventCreate(&a));
    SHOW(cudaEventCreate(&b));
    SHOW(cudaEventCreateWithFlags(&c, cudaEventDisableTiming));
    SHOW(cudaEventRecord(a, s1));
    SHOW(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
    add<<<n / 256, 256, 0, s1>>>(d, 1, n);
    SHOW(cudaEventRecord(c, s1));
    SHOW(cudaStreamWaitEvent(s2, c, 0));
    add<<<n / 256, 256, 0, s2>>>(d, 10, n);
    SHOW(cudaLaunchHostFunc(s2, note, (void *)"after s2 kernel"));
    SHOW(cudaStreamAddCallback(s2, cb, (void *)"callback", 0));
    SHOW(cudaEventRecord(b, s2));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    SHOW(cudaStreamSynchronize(s2));
    printf("h[0]=%d h[1]=%d h[4095]=%d\n", h[0], h[1], h[4095]);
    printf("host functions ran: %d: %s, %s (status %d)\n", norder, order[0], order[1], cb_status);
    SHOW(cudaEventSynchronize(b));
    SHOW(cudaEventQuery(b));
    SHOW(cudaStreamQuery(s1));
    float ms = -1;
    SHOW(cudaEventElapsedTime(&ms, a, b));
    printf("elapsed >= 0: %d\n", ms >= 0);
    SHOW(cudaEventElapsedTime(&ms, a, c));
    add<<<1, 32>>>(d, 0, 32);
    SHOW(cudaStreamSynchronize(0));
    SHOW(cudaEventDestroy(a));
    SHOW(cudaEventDestroy(b));
    SHOW(cudaEventDestroy(c));
    SHOW(cudaStreamDestroy(s1));
    SHOW(cudaStreamDestroy(s2));
    SHOW(cudaStreamDestroy(s3));
    SHOW(cudaFreeHost(h));
    SHOW(cudaFree(d));
    return 0;
}
