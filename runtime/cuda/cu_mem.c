/* cu_mem.c — device, managed and pinned memory, copies and fills (cu.h).
 *
 * Every allocation lives in the host-mapped guest space, so a device
 * pointer is also a host pointer: managed memory is usable by host code as
 * it is, and pinned host memory is device-accessible (as under UVA).  Copies
 * check that the device side lies inside one live allocation (or a module's
 * constant bank) and fail with CUDA_ERROR_INVALID_VALUE otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu.h"

#define CU_API __attribute__((visibility("default")))

/* Constant banks of loaded modules count as device memory for copies
 * (cudaMemcpyToSymbol of a __constant__ variable). */
int cu_const_range(uint64_t p, uint64_t n);

int cu_valid_range(uint64_t p, uint64_t n)
{
    if (n == 0) return 1;
    if (mem_find(&cu_g.mem, p, n) >= 0) return 1;
    return cu_const_range(p, n);
}

/* Guards every API call that touches the device: the sticky error first. */
#define CU_ENTER() do { cu_lock(); if (cu_g.sticky) { CUresult s_ = cu_g.sticky; cu_unlock(); return s_; } } while (0)
#define CU_RETURN(r) do { CUresult r_ = (r); cu_unlock(); return r_; } while (0)

static CUresult alloc(CUdeviceptr *p, size_t n, const char *what)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    CU_ENTER();
    if (n == 0) { *p = 0; CU_RETURN(CUDA_ERROR_INVALID_VALUE); }
    uint64_t a = mem_alloc_bytes(&cu_g.mem, n, what);
    cu_trace("alloc %s %zu -> 0x%llx", what, n, (unsigned long long)a);
    if (!a) CU_RETURN(CUDA_ERROR_OUT_OF_MEMORY);
    *p = a;
    CU_RETURN(CUDA_SUCCESS);
}

CU_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return alloc(p, n, "cudaMalloc"); }
CU_API CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) { return alloc(p, n, "cudaMallocManaged"); }
CU_API CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) { return alloc(p, n, "cudaMallocAsync"); }
CU_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s) { return alloc(p, n, "cudaMallocAsync"); }
CU_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr *p, size_t n, void *pool, CUstream s) { return alloc(p, n, "cudaMallocFromPoolAsync"); }
CU_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *p, size_t n, void *pool, CUstream s) { return alloc(p, n, "cudaMallocFromPoolAsync"); }

CU_API CUresult cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned elem)
{
    if (!pitch) return CUDA_ERROR_INVALID_VALUE;
    size_t pt = (width + 511) & ~(size_t)511;
    *pitch = pt;
    return alloc(p, pt * height, "cudaMallocPitch");
}

CU_API CUresult cuMemAllocHost_v2(void **p, size_t n)
{
    CUdeviceptr d;
    CUresult r = alloc(&d, n, "cudaMallocHost");
    if (r == CUDA_SUCCESS) *p = (void *)(uintptr_t)d;
    return r;
}

CU_API CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags) { return cuMemAllocHost_v2(p, n); }

static CUresult release(uint64_t p)
{
    CU_ENTER();
    if (p == 0) CU_RETURN(CUDA_SUCCESS);
    cu_trace("free 0x%llx", (unsigned long long)p);
    CU_RETURN(mem_free(&cu_g.mem, p) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

CU_API CUresult cuMemFree_v2(CUdeviceptr p) { return release(p); }
CU_API CUresult cuMemFreeHost(void *p) { return release((uint64_t)(uintptr_t)p); }
CU_API CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s) { return release(p); }
CU_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s) { return release(p); }

CU_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned flags)
{
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    CU_ENTER();
    if (mem_find(&cu_g.mem, (uint64_t)(uintptr_t)p, 1) < 0) CU_RETURN(CUDA_ERROR_INVALID_VALUE);
    *d = (uint64_t)(uintptr_t)p;
    CU_RETURN(CUDA_SUCCESS);
}

CU_API CUresult cuMemHostGetFlags(unsigned *flags, void *p)
{
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = 0;
    return mem_find(&cu_g.mem, (uint64_t)(uintptr_t)p, 1) < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CU_API CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total)
{
    CU_ENTER();
    if (total) *total = CU_DEVICE_TOTAL_MEM;
    if (free_b) *free_b = CU_DEVICE_TOTAL_MEM - (cu_g.mem.total < CU_DEVICE_TOTAL_MEM ? cu_g.mem.total : 0);
    CU_RETURN(CUDA_SUCCESS);
}

CU_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
    CU_ENTER();
    int i = mem_find(&cu_g.mem, p, 1);
    if (i < 0) CU_RETURN(CUDA_ERROR_NOT_FOUND);
    if (base) *base = cu_g.mem.allocs[i].base;
    if (size) *size = cu_g.mem.allocs[i].size;
    CU_RETURN(CUDA_SUCCESS);
}

/* ---- copies ---------------------------------------------------------------- */

/* A copy between any two addresses of which the device-side ones must be
 * valid; host memory is whatever the process has mapped. */
static CUresult copy(uint64_t dst, uint64_t src, size_t n, int dst_dev, int src_dev)
{
    CU_ENTER();
    cu_flush_printf();
    if (n && ((dst_dev && !cu_valid_range(dst, n)) || (src_dev && !cu_valid_range(src, n)))) {
        cu_trace("copy of %zu bytes 0x%llx <- 0x%llx outside device memory", n, (unsigned long long)dst, (unsigned long long)src);
        CU_RETURN(CUDA_ERROR_INVALID_VALUE);
    }
    if (n && (!dst || !src)) CU_RETURN(CUDA_ERROR_INVALID_VALUE);
    if (n) memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    CU_RETURN(CUDA_SUCCESS);
}

/* cuMemcpy (unified addressing): an address inside our space is device
 * memory, anything else host memory. */
static CUresult copy_unified(uint64_t dst, uint64_t src, size_t n)
{
    return copy(dst, src, n, 0, 0);
}

#define H(p) ((uint64_t)(uintptr_t)(p))
CU_API CUresult cuMemcpy(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy_unified(d, s, n); }
CU_API CUresult cuMemcpy_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy_unified(d, s, n); }
CU_API CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy_unified(d, s, n); }
CU_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy_unified(d, s, n); }
CU_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { return copy(d, H(s), n, 1, 0); }
CU_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void *s, size_t n) { return copy(d, H(s), n, 1, 0); }
CU_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, CUstream st) { return copy(d, H(s), n, 1, 0); }
CU_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr d, const void *s, size_t n, CUstream st) { return copy(d, H(s), n, 1, 0); }
CU_API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { return copy(H(d), s, n, 0, 1); }
CU_API CUresult cuMemcpyDtoH_v2_ptds(void *d, CUdeviceptr s, size_t n) { return copy(H(d), s, n, 0, 1); }
CU_API CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, CUstream st) { return copy(H(d), s, n, 0, 1); }
CU_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *d, CUdeviceptr s, size_t n, CUstream st) { return copy(H(d), s, n, 0, 1); }
CU_API CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy(d, s, n, 1, 1); }
CU_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy(d, s, n, 1, 1); }
CU_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy(d, s, n, 1, 1); }
CU_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy(d, s, n, 1, 1); }

/* CUDA_MEMCPY2D (the v2 layout). */
typedef struct {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} cu_memcpy2d;

static uint64_t side_addr(int type, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch, int *is_dev)
{
    *is_dev = type == CU_MEMORYTYPE_DEVICE;
    uint64_t base = type == CU_MEMORYTYPE_HOST ? H(host) : dev;
    return base + y * pitch + x;
}

static CUresult copy2d(const cu_memcpy2d *c)
{
    if (!c || c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return c ? cu_unsupported("cuMemcpy2D with CUDA arrays") : CUDA_ERROR_INVALID_VALUE;
    for (size_t row = 0; row < c->Height; row++) {
        int sd, dd;
        uint64_t s = side_addr(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY + row, c->srcPitch, &sd);
        uint64_t d = side_addr(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY + row, c->dstPitch, &dd);
        CUresult r = copy(d, s, c->WidthInBytes, dd, sd);
        if (r) return r;
    }
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemcpy2D_v2(const cu_memcpy2d *c) { return copy2d(c); }
CU_API CUresult cuMemcpy2D_v2_ptds(const cu_memcpy2d *c) { return copy2d(c); }
CU_API CUresult cuMemcpy2DUnaligned_v2(const cu_memcpy2d *c) { return copy2d(c); }
CU_API CUresult cuMemcpy2DUnaligned_v2_ptds(const cu_memcpy2d *c) { return copy2d(c); }
CU_API CUresult cuMemcpy2DAsync_v2(const cu_memcpy2d *c, CUstream s) { return copy2d(c); }
CU_API CUresult cuMemcpy2DAsync_v2_ptsz(const cu_memcpy2d *c, CUstream s) { return copy2d(c); }

/* ---- fills ------------------------------------------------------------------ */

static CUresult fill(uint64_t d, size_t pitch, uint32_t v, int elem, size_t width, size_t height)
{
    CU_ENTER();
    for (size_t row = 0; row < height; row++) {
        uint64_t p = d + row * pitch;
        if (!cu_valid_range(p, width * (size_t)elem)) CU_RETURN(CUDA_ERROR_INVALID_VALUE);
        uint8_t *b = (uint8_t *)(uintptr_t)p;
        if (elem == 1) memset(b, (int)(v & 0xff), width);
        else if (elem == 2) for (size_t i = 0; i < width; i++) { uint16_t x = (uint16_t)v; memcpy(b + 2 * i, &x, 2); }
        else for (size_t i = 0; i < width; i++) memcpy(b + 4 * i, &v, 4);
    }
    CU_RETURN(CUDA_SUCCESS);
}

CU_API CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { return fill(d, 0, v, 1, n, 1); }
CU_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t n) { return fill(d, 0, v, 1, n, 1); }
CU_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return fill(d, 0, v, 1, n, 1); }
CU_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return fill(d, 0, v, 1, n, 1); }
CU_API CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) { return fill(d, 0, v, 2, n, 1); }
CU_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t n) { return fill(d, 0, v, 2, n, 1); }
CU_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return fill(d, 0, v, 2, n, 1); }
CU_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return fill(d, 0, v, 2, n, 1); }
CU_API CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) { return fill(d, 0, v, 4, n, 1); }
CU_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned v, size_t n) { return fill(d, 0, v, 4, n, 1); }
CU_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream s) { return fill(d, 0, v, 4, n, 1); }
CU_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned v, size_t n, CUstream s) { return fill(d, 0, v, 4, n, 1); }
CU_API CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return fill(d, p, v, 1, w, h); }
CU_API CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return fill(d, p, v, 1, w, h); }
CU_API CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return fill(d, p, v, 1, w, h); }
CU_API CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return fill(d, p, v, 1, w, h); }
CU_API CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h) { return fill(d, p, v, 4, w, h); }
CU_API CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h, CUstream s) { return fill(d, p, v, 4, w, h); }

/* ---- pointer attributes -------------------------------------------------- */

enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3, CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11, CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13
};

static CUresult pointer_attr(void *data, int attr, CUdeviceptr p)
{
    int i = mem_find(&cu_g.mem, p, 1);
    if (i < 0) {
        if (attr == CU_POINTER_ATTRIBUTE_MEMORY_TYPE) { *(unsigned *)data = 0; return CUDA_SUCCESS; }
        return CUDA_ERROR_INVALID_VALUE;
    }
    const mem_alloc *a = &cu_g.mem.allocs[i];
    int managed = a->name && !strcmp(a->name, "cudaMallocManaged");
    int host = a->name && !strcmp(a->name, "cudaMallocHost");
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = &cu_g.primary; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = p; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: *(void **)data = (managed || host) ? (void *)(uintptr_t)p : NULL; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned *)data = managed; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = a->base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = a->size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = 1; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CU_API CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr p)
{
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    cu_lock();
    CUresult r = pointer_attr(data, attr, p);
    cu_unlock();
    return r;
}

CU_API CUresult cuPointerGetAttributes(unsigned n, int *attrs, void **data, CUdeviceptr p)
{
    if (!attrs || !data) return CUDA_ERROR_INVALID_VALUE;
    cu_lock();
    for (unsigned i = 0; i < n; i++) {
        if (!data[i]) continue;
        if (pointer_attr(data[i], attrs[i], p) != CUDA_SUCCESS) {
            /* unregistered host memory: as the driver does, type 0 and nulls */
            if (attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) *(int *)data[i] = -2;
            else if (attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *(size_t *)data[i] = 0;
            else if (attrs[i] == CU_POINTER_ATTRIBUTE_CONTEXT || attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                     attrs[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER || attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR)
                *(void **)data[i] = NULL;
            else *(unsigned *)data[i] = 0;
        }
    }
    cu_unlock();
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice d, CUstream s) { return CUDA_SUCCESS; }
CU_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, int loc_type, int loc_id, unsigned flags, CUstream s) { return CUDA_SUCCESS; }
CU_API CUresult cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice d) { return CUDA_SUCCESS; }
CU_API CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, int loc_type, int loc_id) { return CUDA_SUCCESS; }

/* Frees everything (cuDevicePrimaryCtxReset). */
void cu_modules_reset(void);
void cu_reset_device(void)
{
    cu_modules_reset();
    mem_destroy(&cu_g.mem);
    mem_init_host_mapped(&cu_g.mem);
    cu_g.sticky = CUDA_SUCCESS;
}

/* ---- memory pools: allocations come from the one guest space whatever the
 * pool; a pool only keeps its attributes (stream-ordered allocators such as
 * cuda.core's query and set them) -------------------------------------------- */

typedef struct cu_pool { uint32_t magic; uint64_t attr[16]; } cu_pool;
#define CU_POOL_MAGIC 0x7074706cu
static cu_pool default_pool = { CU_POOL_MAGIC, { 0 } };
static cu_pool *current_pool = &default_pool;

enum { CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3,
       CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4, CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8 };

static int pool_ok(const cu_pool *p) { return p && p->magic == CU_POOL_MAGIC; }

CU_API CUresult cuDeviceGetDefaultMemPool(cu_pool **p, CUdevice d)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *p = &default_pool;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetMemPool(cu_pool **p, CUdevice d)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *p = current_pool;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceSetMemPool(CUdevice d, cu_pool *p)
{
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!pool_ok(p)) return CUDA_ERROR_INVALID_VALUE;
    current_pool = p;
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPoolCreate(cu_pool **p, const void *props)
{
    if (!p || !props) return CUDA_ERROR_INVALID_VALUE;
    *p = calloc(1, sizeof **p);
    if (!*p) return CUDA_ERROR_OUT_OF_MEMORY;
    (*p)->magic = CU_POOL_MAGIC;
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPoolDestroy(cu_pool *p)
{
    if (!pool_ok(p) || p == &default_pool) return CUDA_ERROR_INVALID_VALUE;
    if (current_pool == p) current_pool = &default_pool;
    p->magic = 0;
    free(p);
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPoolSetAttribute(cu_pool *p, int attr, void *v)
{
    if (!pool_ok(p) || !v || attr < 1 || attr > CU_MEMPOOL_ATTR_USED_MEM_HIGH) return CUDA_ERROR_INVALID_VALUE;
    p->attr[attr] = attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES ? (uint64_t)*(int *)v : *(uint64_t *)v;
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPoolGetAttribute(cu_pool *p, int attr, void *v)
{
    if (!pool_ok(p) || !v || attr < 1 || attr > CU_MEMPOOL_ATTR_USED_MEM_HIGH) return CUDA_ERROR_INVALID_VALUE;
    if (attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES) *(int *)v = (int)p->attr[attr];
    else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) *(uint64_t *)v = p->attr[attr];
    else *(uint64_t *)v = cu_g.mem.total;
    return CUDA_SUCCESS;
}

CU_API CUresult cuMemPoolTrimTo(cu_pool *p, size_t keep) { return pool_ok(p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

CU_API CUresult cuMemPoolSetAccess(cu_pool *p, const void *desc, size_t n) { return pool_ok(p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

CU_API CUresult cuMemPoolGetAccess(int *flags, cu_pool *p, const void *location)
{
    if (!flags || !pool_ok(p)) return CUDA_ERROR_INVALID_VALUE;
    *flags = 3;      /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE */
    return CUDA_SUCCESS;
}
