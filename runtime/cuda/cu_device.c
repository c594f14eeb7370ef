/* cu_device.c — initialisation, errors, the device and its contexts (cu.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cu.h"

#define CU_API __attribute__((visibility("default")))

cu_state cu_g = { .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };

static __thread cu_ctx *ctx_stack[16];
static __thread int ctx_depth = -1;   /* -1: nothing set on this thread yet */

void cu_trace(const char *fmt, ...)
{
    if (!cu_g.trace) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("ptxemu-cuda: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cu_report(const char *fmt, ...)
{
    if (!cu_g.report) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(cu_g.report, fmt, ap);
    fputc('\n', cu_g.report);
    fflush(cu_g.report);
    va_end(ap);
}

static void state_init(void)
{
    const char *t = getenv("PTXEMU_CUDA_TRACE");
    cu_g.trace = t && *t && strcmp(t, "0") != 0;
    const char *to = getenv("PTXEMU_EXEC_TIMEOUT");
    cu_g.timeout = to ? atof(to) : 0;
    const char *ch = getenv("PTXEMU_EXEC_CHECK");
    cu_g.check = ch && *ch && strcmp(ch, "0") != 0;
    const char *j = getenv("PTXEMU_EXEC_JOBS");
    cu_g.jobs = j ? atoi(j) : 0;
    const char *pd = getenv("PTXEMU_EXEC_PROFILE");
    cu_g.profile_dir = pd && *pd ? strdup(pd) : NULL;
    const char *rp = getenv("PTXEMU_EXEC_REPORT");
    if (rp && *rp) {
        cu_g.report = fopen(rp, "a");
        if (cu_g.report) setvbuf(cu_g.report, NULL, _IOLBF, 0);
    }
    mem_init_host_mapped(&cu_g.mem);
    cu_g.primary.magic = CU_CTX_MAGIC;
    cu_g.primary.primary = 1;
    cu_g.initialized = 1;
}

void cu_lock(void)
{
    pthread_mutex_lock(&cu_g.lock);
    if (!cu_g.initialized) state_init();
}

void cu_unlock(void) { pthread_mutex_unlock(&cu_g.lock); }

void cu_flush_printf(void)
{
    if (!cu_g.printf_len) return;
    fwrite(cu_g.printf_buf, 1, cu_g.printf_len, stdout);
    fflush(stdout);
    cu_g.printf_len = 0;
}

__attribute__((destructor)) static void cu_fini(void)
{
    if (!cu_g.initialized) return;
    /* output of kernels nobody synchronised with is lost, as on the GPU */
    for (cu_module *m = cu_g.modules; m; m = m->next) cu_profile_write(m);
    if (cu_g.report) { fclose(cu_g.report); cu_g.report = NULL; }
}

CUresult cu_unsupported(const char *name)
{
    static char seen[64][64];
    static int nseen;
    cu_lock();
    int found = 0;
    for (int i = 0; i < nseen; i++) if (!strcmp(seen[i], name)) found = 1;
    if (!found) {
        fprintf(stderr, "ptxemu: %s is not supported by ptxemu (returning CUDA_ERROR_NOT_SUPPORTED)\n", name);
        if (nseen < 64) snprintf(seen[nseen++], sizeof seen[0], "%s", name);
        cu_report("unsupported %s", name);
    }
    cu_unlock();
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- errors --------------------------------------------------------------- */

static const struct { int v; const char *name; } err_names[] = {
    { 0, "CUDA_SUCCESS" },
#define CU_ERR(n, v) { v, #n },
#include "errors.def"
#undef CU_ERR
};

/* The driver's descriptions (errstr.def, recorded from a GPU). */
static const struct { int v; const char *s; } err_strings[] = {
#define CU_ERRSTR(v, s) { v, s },
#include "errstr.def"
#undef CU_ERRSTR
};

CU_API CUresult cuGetErrorName(CUresult e, const char **s)
{
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].v == e) { *s = err_names[i].name; return CUDA_SUCCESS; }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CU_API CUresult cuGetErrorString(CUresult e, const char **s)
{
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof err_strings / sizeof err_strings[0]; i++)
        if (err_strings[i].v == e) { *s = err_strings[i].s; return CUDA_SUCCESS; }
    const char *n;
    if (cuGetErrorName(e, &n) == CUDA_SUCCESS) { *s = n; return CUDA_SUCCESS; }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- init and device ------------------------------------------------------ */

CU_API CUresult cuInit(unsigned flags)
{
    cu_lock();
    cu_trace("cuInit(%u)", flags);
    cu_unlock();
    return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CU_API CUresult cuDriverGetVersion(int *v)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = CU_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetCount(int *n)
{
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", CU_DEVICE_NAME);
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *bytes = CU_DEVICE_TOTAL_MEM;
    return CUDA_SUCCESS;
}

static int attr_value(int attr, int *ok)
{
    switch (attr) {
#define CU_ATTR(n, v) case n: *ok = 1; return v;
#include "attrs.def"
#undef CU_ATTR
    }
    *ok = 0;
    return 0;
}

CU_API CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    int ok;
    *v = attr_value(attr, &ok);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice d)
{
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *major = 9;
    *minor = 0;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d)
{
    if (!u) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    static const unsigned char id[16] = { 'p', 't', 'x', 'e', 'm', 'u', '-', 's', 'm', '9', '0', 0, 0, 0, 0, 1 };
    memcpy(u->bytes, id, 16);
    return CUDA_SUCCESS;
}
CU_API CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice d) { return cuDeviceGetUuid(u, d); }

CU_API CUresult cuDeviceGetPCIBusId(char *s, int len, CUdevice d)
{
    if (!s || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(s, (size_t)len, "0000:00:00.0");
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetByPCIBusId(CUdevice *d, const char *s)
{
    if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
    *d = 0;
    return CUDA_SUCCESS;
}

CU_API CUresult cuDeviceGetP2PAttribute(int *v, int attr, CUdevice a, CUdevice b)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_ERROR_INVALID_DEVICE;       /* one device: no peer */
}

CU_API CUresult cuDeviceCanAccessPeer(int *can, CUdevice a, CUdevice b)
{
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    *can = 0;
    return a == 0 && b == 0 ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_INVALID_DEVICE;
}

/* ---- contexts --------------------------------------------------------------- */

cu_ctx *cu_current_ctx(void)
{
    if (ctx_depth < 0) return NULL;
    return ctx_stack[ctx_depth];
}

static void set_current(cu_ctx *c)
{
    if (ctx_depth < 0) ctx_depth = 0;
    ctx_stack[ctx_depth] = c;
}

CU_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d)
{
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    cu_lock();
    cu_g.primary_refs++;
    cu_g.primary.destroyed = 0;
    *pctx = &cu_g.primary;
    cu_unlock();
    return CUDA_SUCCESS;
}

CU_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    cu_lock();
    if (cu_g.primary_refs > 0) cu_g.primary_refs--;
    cu_unlock();
    return CUDA_SUCCESS;
}
CU_API CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return cuDevicePrimaryCtxRelease_v2(d); }

CU_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags)
{
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    cu_g.primary.flags = flags;
    return CUDA_SUCCESS;
}
CU_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned f) { return cuDevicePrimaryCtxSetFlags_v2(d, f); }

CU_API CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active)
{
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *flags = cu_g.primary.flags;
    *active = cu_g.primary_refs > 0;
    return CUDA_SUCCESS;
}

/* Frees every allocation and module and clears the sticky error (what
 * cudaDeviceReset does through the primary context's reset). */
void cu_reset_device(void);

CU_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice d)
{
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    cu_lock();
    cu_flush_printf();
    cu_ctx *p = &cu_g.primary;
    if (p->cls_dtor) {
        void (*dt)(CUcontext, void *, void *) = p->cls_dtor;
        p->cls_dtor = NULL;
        dt(p, p->cls_mgr, p->cls_state);
    }
    p->cls_mgr = p->cls_state = NULL;
    cu_reset_device();
    cu_g.primary_refs = 0;
    cu_unlock();
    return CUDA_SUCCESS;
}
CU_API CUresult cuDevicePrimaryCtxReset(CUdevice d) { return cuDevicePrimaryCtxReset_v2(d); }

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice d)
{
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    cu_ctx *c = calloc(1, sizeof *c);
    if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
    c->magic = CU_CTX_MAGIC;
    c->flags = flags;
    cu_lock();
    if (ctx_depth < 0) ctx_depth = 0;
    else if (ctx_stack[ctx_depth] && ctx_depth < 15) ctx_depth++;
    ctx_stack[ctx_depth] = c;
    cu_unlock();
    *pctx = c;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned flags, CUdevice d) { return ctx_create(pctx, flags, d); }
CU_API CUresult cuCtxCreate_v3(CUcontext *pctx, void *params, int n, unsigned flags, CUdevice d) { return ctx_create(pctx, flags, d); }
CU_API CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned flags, CUdevice d) { return ctx_create(pctx, flags, d); }

CU_API CUresult cuCtxDestroy_v2(CUcontext c)
{
    if (!c || c->magic != CU_CTX_MAGIC || c->primary) return CUDA_ERROR_INVALID_CONTEXT;
    cu_lock();
    cu_flush_printf();
    for (int i = 0; i <= ctx_depth; i++) if (ctx_stack[i] == c) ctx_stack[i] = NULL;
    while (ctx_depth > 0 && !ctx_stack[ctx_depth]) ctx_depth--;
    c->magic = 0;
    free(c);
    cu_unlock();
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxSetCurrent(CUcontext c)
{
    if (c && c->magic != CU_CTX_MAGIC) return CUDA_ERROR_INVALID_CONTEXT;
    set_current(c);
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxGetCurrent(CUcontext *pc)
{
    if (!pc) return CUDA_ERROR_INVALID_VALUE;
    *pc = cu_current_ctx();
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxPushCurrent_v2(CUcontext c)
{
    if (!c || c->magic != CU_CTX_MAGIC) return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx_depth >= 15) return CUDA_ERROR_INVALID_VALUE;
    if (ctx_depth < 0 || ctx_stack[ctx_depth]) ctx_depth++;
    ctx_stack[ctx_depth] = c;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxPopCurrent_v2(CUcontext *pc)
{
    cu_ctx *c = cu_current_ctx();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    if (pc) *pc = c;
    ctx_stack[ctx_depth] = NULL;
    if (ctx_depth > 0) ctx_depth--;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxGetDevice(CUdevice *d)
{
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    if (!cu_current_ctx()) return CUDA_ERROR_INVALID_CONTEXT;
    *d = 0;
    return CUDA_SUCCESS;
}
CU_API CUresult cuCtxGetDevice_v2(CUdevice *d, CUcontext c) { if (!d) return CUDA_ERROR_INVALID_VALUE; *d = 0; return CUDA_SUCCESS; }

CU_API CUresult cuCtxGetFlags(unsigned *f)
{
    if (!f) return CUDA_ERROR_INVALID_VALUE;
    cu_ctx *c = cu_current_ctx();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    *f = c->flags;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxSetFlags(unsigned f)
{
    cu_ctx *c = cu_current_ctx();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    c->flags = f;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxGetApiVersion(CUcontext c, unsigned *v)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = 3020;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxGetId(CUcontext c, unsigned long long *id)
{
    if (!id) return CUDA_ERROR_INVALID_VALUE;
    if (!c) c = cu_current_ctx();
    *id = c == &cu_g.primary ? 1 : (unsigned long long)(uintptr_t)c;
    return CUDA_SUCCESS;
}

enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2, CU_NLIMITS = 8 };
static const size_t limit_defaults[CU_NLIMITS] = { 1024, 8650752, 8388608, 2, 2048, 0, 0, 0 };   /* as an H100 reports */

CU_API CUresult cuCtxGetLimit(size_t *v, int limit)
{
    if (!v || limit < 0 || limit >= CU_NLIMITS) return CUDA_ERROR_UNSUPPORTED_LIMIT;
    cu_ctx *c = cu_current_ctx();
    if (!c) c = &cu_g.primary;
    *v = c->limits[limit] ? c->limits[limit] : limit_defaults[limit];
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxSetLimit(int limit, size_t v)
{
    if (limit < 0 || limit >= CU_NLIMITS) return CUDA_ERROR_UNSUPPORTED_LIMIT;
    cu_ctx *c = cu_current_ctx();
    if (!c) c = &cu_g.primary;
    c->limits[limit] = v;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxGetCacheConfig(int *cfg) { if (!cfg) return CUDA_ERROR_INVALID_VALUE; *cfg = 0; return CUDA_SUCCESS; }
CU_API CUresult cuCtxSetCacheConfig(int cfg) { return CUDA_SUCCESS; }
CU_API CUresult cuCtxGetSharedMemConfig(int *cfg) { if (!cfg) return CUDA_ERROR_INVALID_VALUE; *cfg = 1; return CUDA_SUCCESS; }
CU_API CUresult cuCtxSetSharedMemConfig(int cfg) { return CUDA_SUCCESS; }
CU_API CUresult cuCtxResetPersistingL2Cache(void) { return CUDA_SUCCESS; }

CU_API CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return CUDA_SUCCESS;
}

CU_API CUresult cuCtxSynchronize(void)
{
    cu_lock();
    cu_flush_printf();
    CUresult r = cu_g.sticky;
    cu_unlock();
    return r;
}
CU_API CUresult cuCtxSynchronize_v2(CUcontext c) { return cuCtxSynchronize(); }
