// attrs: prints every cuDeviceGetAttribute value of device 0 ("NUMBER VALUE"
// per line) and the error strings, to regenerate runtime/cuda/attrs.def
// from a GPU (tests/exec/record/record.sh).
#include <cstdio>
#include <cuda.h>
int main()
{
    cuInit(0);
    CUdevice d;
    cuDeviceGet(&d, 0);
    for (int a = 1; a < 160; a++) {
        int v = 0;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, d);
        if (r == CUDA_SUCCESS) printf("attr %d %d\n", a, v);
        else printf("attr %d error %d\n", a, (int)r);
    }
    char name[256];
    cuDeviceGetName(name, sizeof name, d);
    printf("name %s\n", name);
    for (int e = 0; e < 1000; e++) {
        const char *s = 0, *n = 0;
        if (cuGetErrorName((CUresult)e, &n) == CUDA_SUCCESS && cuGetErrorString((CUresult)e, &s) == CUDA_SUCCESS)
            printf("error %d %s %s\n", e, n, s);
    }
    return 0;
}
