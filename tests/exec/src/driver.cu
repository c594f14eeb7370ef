// driver: the driver API on its own (no runtime calls): contexts, modules
// from PTX text, a fat binary and a library, the linker, all launch forms,
// memory, streams, events, cuGetProcAddress and error strings.
// usage: driver DIR (holding dkern.ptx and dkern.fatbin)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>

#define SHOWD(call) do { CUresult r_ = (call); const char *n_ = 0; cuGetErrorName(r_, &n_); printf("%-44s -> %d %s\n", #call, (int)r_, n_ ? n_ : "?"); } while (0)

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) { printf("cannot open %s\n", name); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = (char *)calloc(1, n + 1);
    if (fread(b, 1, n, f) != (size_t)n) exit(2);
    fclose(f);
    *len = n;
    return b;
}

static void run_scale(CUfunction f, const char *what)
{
    float h[64];
    for (int i = 0; i < 64; i++) h[i] = (float)i;
    CUdeviceptr d;
    cuMemAlloc(&d, sizeof h);
    cuMemcpyHtoD(d, h, sizeof h);
    float a = 2.0f;
    int n = 64;
    void *args[] = { &d, &a, &n };
    CUresult r = cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, 0, args, 0);
    cuMemcpyDtoH(h, d, sizeof h);
    printf("%s: launch %d, x[0]=%g x[1]=%g x[63]=%g\n", what, (int)r, h[0], h[1], h[63]);
    cuMemFree(d);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    SHOWD(cuInit(0));
    int v = 0, n = 0;
    SHOWD(cuDriverGetVersion(&v));
    printf("driver >= 13000: %d\n", v >= 13000);
    SHOWD(cuDeviceGetCount(&n));
    CUdevice dev;
    SHOWD(cuDeviceGet(&dev, 0));
    SHOWD(cuDeviceGet(&dev, 7));
    SHOWD(cuDeviceGet(&dev, 0));
    int major = 0, minor = 0;
    SHOWD(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    SHOWD(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("cc %d.%d\n", major, minor);
    size_t mem = 0;
    SHOWD(cuDeviceTotalMem(&mem, dev));
    printf("memory > 64 GiB: %d\n", mem > (64ull << 30));
    char name[256];
    SHOWD(cuDeviceGetName(name, sizeof name, dev));

    CUcontext prim, cur = 0, ctx, popped;
    SHOWD(cuDevicePrimaryCtxRetain(&prim, dev));
    SHOWD(cuCtxSetCurrent(prim));
    SHOWD(cuCtxGetCurrent(&cur));
    printf("current is primary: %d\n", cur == prim);
    SHOWD(cuCtxCreate(&ctx, NULL, 0, dev));
    SHOWD(cuCtxGetCurrent(&cur));
    printf("current is created: %d\n", cur == ctx);
    SHOWD(cuCtxPopCurrent(&popped));
    printf("popped created: %d\n", popped == ctx);
    SHOWD(cuCtxPushCurrent(ctx));
    CUdevice cd = -1;
    SHOWD(cuCtxGetDevice(&cd));
    SHOWD(cuCtxSynchronize());
    SHOWD(cuCtxPopCurrent(&popped));
    SHOWD(cuCtxDestroy(ctx));
    SHOWD(cuCtxSetCurrent(prim));

    size_t plen, flen;
    char *ptx = slurp(dir, "dkern.ptx", &plen);
    char *fat = slurp(dir, "dkern.fatbin", &flen);

    CUmodule m;
    SHOWD(cuModuleLoadData(&m, ptx));
    CUfunction f, mixed;
    SHOWD(cuModuleGetFunction(&f, m, "scale"));
    SHOWD(cuModuleGetFunction(&mixed, m, "nosuch"));
    SHOWD(cuModuleGetFunction(&mixed, m, "mixed"));
    run_scale(f, "ptx module");

    CUdeviceptr g;
    size_t gs = 0;
    SHOWD(cuModuleGetGlobal(&g, &gs, m, "bias"));
    int bias = 7;
    SHOWD(cuMemcpyHtoD(g, &bias, sizeof bias));
    printf("bias size %zu\n", gs);
    run_scale(f, "after bias=7");

    int attr = 0;
    SHOWD(cuFuncGetAttribute(&attr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    printf("max threads %d\n", attr);
    size_t off = 0, sz = 0;
    for (int i = 0; i < 5; i++) {
        CUresult r = cuFuncGetParamInfo(mixed, i, &off, &sz);
        printf("mixed param %d: %d offset %zu size %zu\n", i, (int)r, off, sz);
    }

    // all parameter-passing forms
    CUdeviceptr out;
    SHOWD(cuMemAlloc(&out, 16));
    struct Pair { char c; double d; int i; } p = { 3, 4.5, 6 };
    char c = 9;
    double dd = 1.25;
    short s = -3;
    void *args[] = { &out, &c, &dd, &p, &s };
    SHOWD(cuLaunchKernel(mixed, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
    int h[4];
    SHOWD(cuMemcpyDtoH(h, out, sizeof h));
    printf("kernelParams: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    unsigned char buf[64];
    memset(buf, 0, sizeof buf);
    size_t o = 0;
    for (int i = 0; i < 5; i++) {
        cuFuncGetParamInfo(mixed, i, &off, &sz);
        memcpy(buf + off, args[i], sz);
        o = off + sz;
    }
    c = 0;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &o, CU_LAUNCH_PARAM_END };
    SHOWD(cuMemsetD32(out, 0, 4));
    SHOWD(cuLaunchKernel(mixed, 1, 1, 1, 32, 1, 1, 0, 0, 0, extra));
    SHOWD(cuMemcpyDtoH(h, out, sizeof h));
    printf("param buffer: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 64; cfg.blockDimY = cfg.blockDimZ = 1;
    CUlaunchAttribute la;
    memset(&la, 0, sizeof la);
    la.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    la.value.priority = 0;
    cfg.attrs = &la;
    cfg.numAttrs = 1;
    c = 11;
    SHOWD(cuLaunchKernelEx(&cfg, mixed, args, 0));
    SHOWD(cuMemcpyDtoH(h, out, sizeof h));
    printf("cuLaunchKernelEx: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    SHOWD(cuLaunchKernel(mixed, 1, 1, 1, 2048, 1, 1, 0, 0, args, 0));
    SHOWD(cuModuleUnload(m));

    // bad PTX: an error and a log
    CUmodule bad;
    char log[4096] = "";
    CUjit_option jo[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *jv[] = { log, (void *)(size_t)sizeof log };
    SHOWD(cuModuleLoadDataEx(&bad, ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n", 2, jo, jv));
    printf("error log is not empty: %d\n", log[0] != 0);

    // a fat binary, as a module and as a library; PTX as a library
    CUmodule fm;
    SHOWD(cuModuleLoadFatBinary(&fm, fat));
    SHOWD(cuModuleGetFunction(&f, fm, "scale"));
    run_scale(f, "fatbin module");
    SHOWD(cuModuleUnload(fm));
    CUlibrary lib;
    CUkernel k;
    SHOWD(cuLibraryLoadData(&lib, fat, 0, 0, 0, 0, 0, 0));
    SHOWD(cuLibraryGetKernel(&k, lib, "scale"));
    SHOWD(cuKernelGetFunction(&f, k));
    run_scale(f, "fatbin library");
    SHOWD(cuLibraryUnload(lib));
    SHOWD(cuLibraryLoadData(&lib, ptx, 0, 0, 0, 0, 0, 0));
    SHOWD(cuLibraryGetKernel(&k, lib, "scale"));
    SHOWD(cuKernelGetFunction(&f, k));
    run_scale(f, "ptx library");
    SHOWD(cuLibraryGetGlobal(&g, &gs, lib, "bias"));
    printf("library global size %zu\n", gs);
    SHOWD(cuLibraryUnload(lib));

    // the linker
    CUlinkState ls;
    void *cubin = 0;
    size_t cubin_size = 0;
    SHOWD(cuLinkCreate(0, 0, 0, &ls));
    SHOWD(cuLinkAddData(ls, CU_JIT_INPUT_PTX, ptx, plen + 1, "dkern.ptx", 0, 0, 0));
    SHOWD(cuLinkComplete(ls, &cubin, &cubin_size));
    printf("linked image not empty: %d\n", cubin_size > 0);
    SHOWD(cuModuleLoadData(&m, cubin));
    SHOWD(cuLinkDestroy(ls));
    SHOWD(cuModuleGetFunction(&f, m, "scale"));
    run_scale(f, "linked module");

    // memory, streams, events
    CUdeviceptr mm;
    SHOWD(cuMemAllocManaged(&mm, 256, CU_MEM_ATTACH_GLOBAL));
    SHOWD(cuMemsetD8(mm, 7, 256));
    SHOWD(cuCtxSynchronize());
    printf("managed byte: %d\n", ((unsigned char *)mm)[100]);
    CUstream st;
    CUevent e0, e1;
    SHOWD(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    SHOWD(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    SHOWD(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    SHOWD(cuEventRecord(e0, st));
    float hx[64];
    for (int i = 0; i < 64; i++) hx[i] = 1.0f;
    CUdeviceptr dx;
    SHOWD(cuMemAlloc(&dx, sizeof hx));
    SHOWD(cuMemcpyHtoDAsync(dx, hx, sizeof hx, st));
    float a = 3.0f;
    int nn = 64;
    void *sargs[] = { &dx, &a, &nn };
    SHOWD(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, st, sargs, 0));
    SHOWD(cuMemcpyDtoHAsync(hx, dx, sizeof hx, st));
    SHOWD(cuEventRecord(e1, st));
    SHOWD(cuStreamWaitEvent(0, e1, 0));
    SHOWD(cuStreamSynchronize(st));
    SHOWD(cuEventQuery(e1));
    float ms = -1;
    SHOWD(cuEventElapsedTime(&ms, e0, e1));
    printf("stream result %g, elapsed >= 0: %d\n", hx[5], ms >= 0);
    SHOWD(cuMemcpyDtoD(dx, dx + 128, 64));
    SHOWD(cuEventDestroy(e0));
    SHOWD(cuEventDestroy(e1));
    SHOWD(cuStreamDestroy(st));
    SHOWD(cuMemFree(dx));
    SHOWD(cuMemFree(mm));

    // cuGetProcAddress
    CUresult (*alloc)(CUdeviceptr *, size_t) = 0;
    CUdriverProcAddressQueryResult qr;
    SHOWD(cuGetProcAddress("cuMemAlloc", (void **)&alloc, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    printf("query %d, found %d\n", (int)qr, alloc != 0);
    CUdeviceptr viap = 0;
    if (alloc) SHOWD(alloc(&viap, 64));
    SHOWD(cuMemFree(viap));
    void *none = 0;
    SHOWD(cuGetProcAddress("cuNoSuchFunction", &none, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    printf("query %d\n", (int)qr);

    const CUresult codes[] = { CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY,
                               CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_INVALID_CONTEXT, CUDA_ERROR_INVALID_PTX,
                               CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_ILLEGAL_ADDRESS,
                               CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_ASSERT, CUDA_ERROR_NOT_SUPPORTED,
                               CUDA_ERROR_NO_BINARY_FOR_GPU, CUDA_ERROR_UNKNOWN };
    for (CUresult r : codes) {
        const char *nm = 0, *str = 0;
        cuGetErrorName(r, &nm);
        cuGetErrorString(r, &str);
        printf("%d %s: %s\n", (int)r, nm, str);
    }
    const char *nm = 0;
    SHOWD(cuGetErrorName((CUresult)12345, &nm));
    SHOWD(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
