// device: device management and the properties of an sm_90 device that do
// not differ between H100 and H200 boards.
#include "common.h"

int main()
{
    int n = -1, dev = -1, drv = 0, rt = 0;
    SHOW(cudaGetDeviceCount(&n));
    printf("devices: %d\n", n);
    SHOW(cudaSetDevice(0));
    SHOW(cudaGetDevice(&dev));
    printf("device: %d\n", dev);
    SHOW(cudaSetDevice(1));
    SHOW(cudaGetLastError());
    SHOW(cudaDriverGetVersion(&drv));
    SHOW(cudaRuntimeGetVersion(&rt));
    printf("runtime: %d, driver >= runtime: %d\n", rt, drv >= rt);
    cudaDeviceProp p;
    SHOW(cudaGetDeviceProperties(&p, 0));
    printf("cc %d.%d warp %d maxThreadsPerBlock %d dims %d %d %d grid %d %d %d\n", p.major, p.minor, p.warpSize,
           p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0],
           p.maxGridSize[1], p.maxGridSize[2]);
    printf("sharedMemPerBlock %zu optin %zu perSM %zu reservedPerBlock %zu\n", p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
    printf("regsPerBlock %d regsPerSM %d totalConstMem %zu maxThreadsPerSM %d maxBlocksPerSM %d\n", p.regsPerBlock,
           p.regsPerMultiprocessor, p.totalConstMem, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("managed %d concurrentManaged %d unified %d coop %d canMapHost %d integrated %d\n", p.managedMemory,
           p.concurrentManagedAccess, p.unifiedAddressing, p.cooperativeLaunch, p.canMapHostMemory, p.integrated);
    printf("textureAlignment %zu memPitch %zu asyncEngines>0 %d concurrentKernels %d ecc %d\n", p.textureAlignment,
           p.memPitch, p.asyncEngineCount > 0, p.concurrentKernels, p.ECCEnabled);
    int v = 0;
    SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    printf("attr major %d\n", v);
    SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    printf("attr optin %d\n", v);
    SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 3));
    SHOW(cudaGetLastError());
    int lo = 0, hi = 0;
    SHOW(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("priorities %d %d\n", lo, hi);
    size_t lim = 0;
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    printf("stack %zu\n", lim);
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize));
    printf("printf fifo %zu\n", lim);
    SHOW(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
    SHOW(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    printf("heap %zu\n", lim);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaDeviceReset());
    SHOW(cudaGetDeviceCount(&n));
    return 0;
}
