/* cu_export.c — how NVIDIA's runtime finds the driver: cuGetProcAddress
 * (versioned entry points, per-thread-stream variants) and the
 * undocumented export tables of cuGetExportTable (cu.h).
 *
 * The export tables' layouts were established by observing what CUDA 13's
 * cudart asks for (PTXEMU_CUDA_TRACE=1 prints every request) with ZLUDA's
 * public notes as the starting point.  Slots whose purpose is unknown hold
 * a function that traces its call and returns 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include "cu.h"

#define CU_API __attribute__((visibility("default")))

/* cu_procs.c: the entry with the highest version not above `version`. */
void (*cu_find_proc(const char *name, int version, int ptds, int *too_old))(void);

enum { CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };
enum { CU_GET_PROC_ADDRESS_SUCCESS = 0, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
       CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2 };

CU_API CUresult cuGetProcAddress_v2(const char *name, void **pfn, int version, uint64_t flags, int *status)
{
    if (!name || !pfn) return CUDA_ERROR_INVALID_VALUE;
    cu_lock();
    int too_old = 0;
    void (*fn)(void) = cu_find_proc(name, version, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0, &too_old);
    cu_trace("cuGetProcAddress(%s, %d, %llu) -> %s", name, version, (unsigned long long)flags, fn ? "found" : "none");
    cu_unlock();
    *pfn = (void *)fn;
    if (status) *status = fn ? CU_GET_PROC_ADDRESS_SUCCESS : too_old ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                                                    : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_SUCCESS;     /* as the driver: a NULL pointer and the status say it is missing */
}

CU_API CUresult cuGetProcAddress(const char *name, void **pfn, int version, uint64_t flags)
{
    return cuGetProcAddress_v2(name, pfn, version, flags, NULL);
}

/* ---- export tables ------------------------------------------------------- */

/* A slot nobody has seen called: say so under tracing and succeed. */
#define UNKNOWN_SLOT(tbl, n) \
    static uint64_t tbl##_slot##n(void *a, void *b, void *c, void *d) { \
        cu_trace("export table " #tbl " slot " #n " called (%p, %p, %p, %p)", a, b, c, d); return 0; }

/* Loads the fat binary a registered translation unit carries. */
static CUresult module_from_fatbin(CUmodule *m, const void *fatbin) { return cuModuleLoadData(m, fatbin); }


static CUresult rt_get_module(CUmodule *m, const void *wrapper)
{
    cu_trace("cudart: module from fat binary %p", wrapper);
    return module_from_fatbin(m, wrapper);
}

static CUresult rt_primary_ctx(CUcontext *pctx, CUdevice d)
{
    cu_trace("cudart: primary context of device %d", d);
    return cuDevicePrimaryCtxRetain(pctx, d);
}

static CUresult rt_get_module_ext1(CUmodule *m, const void *wrapper, void *a3, void *a4, unsigned a5)
{
    cu_trace("cudart: module from fat binary (ext1) %p %p %p %u", wrapper, a3, a4, a5);
    return module_from_fatbin(m, wrapper);
}

static CUresult rt_fn7(uintptr_t a) { cu_trace("cudart: interface fn7(%p)", (void *)a); return CUDA_SUCCESS; }

static CUresult rt_get_module_ext2(const void *fatbin, CUmodule *m, void *a3, void *a4, unsigned a5)
{
    cu_trace("cudart: module from fat binary (ext2) %p %p %p %u", fatbin, a3, a4, a5);
    return module_from_fatbin(m, fatbin);
}

UNKNOWN_SLOT(rt, 3) UNKNOWN_SLOT(rt, 4) UNKNOWN_SLOT(rt, 5) UNKNOWN_SLOT(rt, 9) UNKNOWN_SLOT(rt, 10)
UNKNOWN_SLOT(rt, 11) UNKNOWN_SLOT(rt, 12)

static const void *cudart_interface[] = {
    (void *)(13 * sizeof(void *)), (void *)rt_get_module, (void *)rt_primary_ctx, (void *)rt_slot3,
    (void *)rt_slot4, (void *)rt_slot5, (void *)rt_get_module_ext1, (void *)rt_fn7,
    (void *)rt_get_module_ext2, (void *)rt_slot9, (void *)rt_slot10, (void *)rt_slot11, (void *)rt_slot12,
};

/* Tools hooks: the runtime asks for two scratch arrays it may write to
 * and refuses to start (cudaErrorInsufficientDriver) unless the first has
 * more than 522 entries and the second more than 13. */
static uintptr_t hooks_space2[1024];
static unsigned char hooks_space6[256];
static void hooks_fn2(void **p, size_t *n) { *p = hooks_space2; *n = sizeof hooks_space2 / sizeof hooks_space2[0]; }
static void hooks_fn6(void **p, size_t *n) { *p = hooks_space6; *n = sizeof hooks_space6; }
UNKNOWN_SLOT(hooks, 1) UNKNOWN_SLOT(hooks, 3) UNKNOWN_SLOT(hooks, 4) UNKNOWN_SLOT(hooks, 5)
static const void *tools_hooks[] = {
    (void *)(7 * sizeof(void *)), (void *)hooks_slot1, (void *)hooks_fn2, (void *)hooks_slot3,
    (void *)hooks_slot4, (void *)hooks_slot5, (void *)hooks_fn6,
};

UNKNOWN_SLOT(tls, 1) UNKNOWN_SLOT(tls, 2) UNKNOWN_SLOT(tls, 3)
static const void *tools_tls[] = { (void *)(4 * sizeof(void *)), (void *)tls_slot1, (void *)tls_slot2, (void *)tls_slot3 };

/* Context-local storage: cudart keeps its per-context state here. */
static CUresult cls_ctor(CUcontext c, void *mgr, void *state, void (*dtor)(CUcontext, void *, void *))
{
    if (!c) c = cu_current_ctx();
    if (!c) c = &cu_g.primary;
    cu_trace("cudart: context-local storage set on %p", (void *)c);
    c->cls_mgr = mgr;
    c->cls_state = state;
    c->cls_dtor = dtor;
    return CUDA_SUCCESS;
}

static CUresult cls_dtor(void *a, void *b) { cu_trace("cudart: context-local storage dtor"); return CUDA_SUCCESS; }

static CUresult cls_get(void **state, CUcontext c, void *mgr)
{
    if (!c) c = cu_current_ctx();
    if (!c) c = &cu_g.primary;
    if (!c->cls_state) return CUDA_ERROR_INVALID_VALUE;
    *state = c->cls_state;
    return CUDA_SUCCESS;
}
UNKNOWN_SLOT(cls, 3)
static const void *cls_interface[] = { (void *)cls_ctor, (void *)cls_dtor, (void *)cls_get, (void *)cls_slot3 };

/* Context checks (CUDA 13): slot 2 reports a context as usable by writing
 * 0 to its first result and leaving the second alone. */
static CUresult ctxchk_check(CUcontext c, uint32_t *result1, const void **result2)
{
    cu_trace("cudart: context check %p", (void *)c);
    if (result1) *result1 = 0;
    return CUDA_SUCCESS;
}
static uint32_t ctxchk_fn3(void) { return 0; }
UNKNOWN_SLOT(ctxchk, 1) UNKNOWN_SLOT(ctxchk, 4) UNKNOWN_SLOT(ctxchk, 5) UNKNOWN_SLOT(ctxchk, 6) UNKNOWN_SLOT(ctxchk, 7)
UNKNOWN_SLOT(ctxchk, 8) UNKNOWN_SLOT(ctxchk, 9) UNKNOWN_SLOT(ctxchk, 10) UNKNOWN_SLOT(ctxchk, 11)
UNKNOWN_SLOT(ctxchk, 12) UNKNOWN_SLOT(ctxchk, 13) UNKNOWN_SLOT(ctxchk, 14)
static const void *context_checks[] = {
    (void *)(15 * sizeof(void *)), (void *)ctxchk_slot1, (void *)ctxchk_check, (void *)ctxchk_fn3,
    (void *)ctxchk_slot4, (void *)ctxchk_slot5, (void *)ctxchk_slot6, (void *)ctxchk_slot7, (void *)ctxchk_slot8,
    (void *)ctxchk_slot9, (void *)ctxchk_slot10, (void *)ctxchk_slot11, (void *)ctxchk_slot12, (void *)ctxchk_slot13,
    (void *)ctxchk_slot14,
};

/* Integrity check (CUDA 13): the runtime calls slot 1 for versions 13000,
 * 13001 and 13002 and accepts the driver only if the 16 bytes returned for
 * 13002 equal its own HMAC-MD2 (RFC 1319 MD2, RFC 2104 HMAC with a 16-byte
 * block) of
 *   u32 driver version, u32 version, u32 getpid(), u32 pthread_self(),
 *   u64 &CUDART_INTERFACE table, u64 &this table, u64 this table's slot 1,
 *   u64 the time it passed,
 * then per device: its 16-byte UUID, u32 PCI domain, u32 PCI bus, u32 PCI
 * device.  The key is a constant of the runtime (established by observing
 * what the CUDA 13.0 runtime compares; cudart returns cudaErrorSoftware-
 * ValidityNotEstablished, 103, on a mismatch). */
static const uint8_t md2_s[256] = {
    41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199, 115, 140,
    152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229, 18,
    190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122, 169, 104, 121, 145, 21, 178, 7, 63,
    148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3,
    255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198, 79, 184, 56, 210, 150, 164, 125, 182,
    118, 252, 107, 226, 156, 116, 4, 241, 69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2,
    27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71, 163, 35, 221, 81, 175, 58,
    195, 92, 249, 206, 186, 197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82,
    106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74, 120, 136, 149, 139, 227, 99, 232, 109,
    233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10,
    49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20,
};

typedef struct { uint8_t x[48], c[16], n, l; } md2_ctx;

static void md2_byte(md2_ctx *m, uint8_t b)
{
    m->x[16 + m->n] = b;
    m->x[32 + m->n] = m->x[m->n] ^ b;
    m->l = m->c[m->n] ^= md2_s[b ^ m->l];
    if (++m->n < 16) return;
    m->n = 0;
    uint8_t t = 0;
    for (int j = 0; j < 18; j++) {
        for (int k = 0; k < 48; k++) t = m->x[k] ^= md2_s[t];
        t = (uint8_t)(t + j);
    }
}

static void md2_bytes(md2_ctx *m, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) md2_byte(m, ((const uint8_t *)p)[i]);
}

static void md2_final(md2_ctx *m, uint8_t out[16])
{
    uint8_t pad = (uint8_t)(16 - m->n), c[16];
    for (int i = 0; i < pad; i++) md2_byte(m, pad);
    memcpy(c, m->c, 16);
    md2_bytes(m, c, 16);
    memcpy(out, m->x, 16);
}

static const uint8_t integrity_key[16] = { 0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                           0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f };
static const void *integrity[3];

static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2])
{
    cu_trace("cudart: integrity check version %u time %llu", version, (unsigned long long)unix_seconds);
    struct { uint32_t drv, ver, pid, tid; uint64_t rt_table, table, fn, time; } d = {
        CU_DRIVER_VERSION, version, (uint32_t)getpid(), (uint32_t)pthread_self(),
        (uint64_t)(uintptr_t)cudart_interface, (uint64_t)(uintptr_t)integrity, (uint64_t)(uintptr_t)integrity[1],
        unix_seconds };
    CUuuid uuid;
    int pci[3];
    cuDeviceGetUuid(&uuid, 0);
    cuDeviceGetAttribute(&pci[0], CU_ATTR_PCI_DOMAIN_ID, 0);
    cuDeviceGetAttribute(&pci[1], CU_ATTR_PCI_BUS_ID, 0);
    cuDeviceGetAttribute(&pci[2], CU_ATTR_PCI_DEVICE_ID, 0);
    md2_ctx m;
    uint8_t pad[16], inner[16], outer[16];
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 16; i++) pad[i] = integrity_key[i] ^ 0x36;
    md2_bytes(&m, pad, 16);
    md2_bytes(&m, &d, sizeof d);
    md2_bytes(&m, uuid.bytes, 16);
    md2_bytes(&m, pci, sizeof pci);
    md2_final(&m, inner);
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 16; i++) pad[i] = integrity_key[i] ^ 0x5c;
    md2_bytes(&m, pad, 16);
    md2_bytes(&m, inner, 16);
    md2_final(&m, outer);
    memcpy(result, outer, 16);
    return CUDA_SUCCESS;
}
UNKNOWN_SLOT(integ, 2)
static const void *integrity[3] = { (void *)(3 * sizeof(void *)), (void *)integrity_check, (void *)integ_slot2 };

static CUresult bypass_ctx_create(CUcontext *pctx, unsigned flags, CUdevice d) { return cuCtxCreate_v2(pctx, flags, d); }
static const void *ctx_create_bypass[] = { (void *)(2 * sizeof(void *)), (void *)bypass_ctx_create };

static CUresult heap_alloc(const void **rec, size_t a, size_t b) { cu_trace("heap_alloc"); return cu_unsupported("HEAP_ACCESS heap_alloc"); }
static CUresult heap_free(const void *rec, size_t *a) { return CUDA_SUCCESS; }
static const void *heap_access[] = { (void *)(3 * sizeof(void *)), (void *)heap_alloc, (void *)heap_free };

static CUresult dev_attr_ext(CUdevice d, unsigned attr, int unknown, size_t *result)
{
    int v = 0;
    CUresult r = cuDeviceGetAttribute(&v, (int)attr, d);
    result[0] = (size_t)v;
    result[1] = 0;
    return r;
}
static CUresult dev_something(unsigned char *r, CUdevice d) { *r = 0; return CUDA_SUCCESS; }
UNKNOWN_SLOT(dext, 1) UNKNOWN_SLOT(dext, 2) UNKNOWN_SLOT(dext, 3) UNKNOWN_SLOT(dext, 4) UNKNOWN_SLOT(dext, 6)
UNKNOWN_SLOT(dext, 7) UNKNOWN_SLOT(dext, 8) UNKNOWN_SLOT(dext, 9) UNKNOWN_SLOT(dext, 10) UNKNOWN_SLOT(dext, 11)
UNKNOWN_SLOT(dext, 12) UNKNOWN_SLOT(dext, 14) UNKNOWN_SLOT(dext, 15) UNKNOWN_SLOT(dext, 16) UNKNOWN_SLOT(dext, 17)
UNKNOWN_SLOT(dext, 18) UNKNOWN_SLOT(dext, 19) UNKNOWN_SLOT(dext, 20) UNKNOWN_SLOT(dext, 21) UNKNOWN_SLOT(dext, 22)
UNKNOWN_SLOT(dext, 23) UNKNOWN_SLOT(dext, 24) UNKNOWN_SLOT(dext, 25)
static const void *device_extended_rt[] = {
    (void *)(26 * sizeof(void *)), (void *)dext_slot1, (void *)dext_slot2, (void *)dext_slot3, (void *)dext_slot4,
    (void *)dev_attr_ext, (void *)dext_slot6, (void *)dext_slot7, (void *)dext_slot8, (void *)dext_slot9,
    (void *)dext_slot10, (void *)dext_slot11, (void *)dext_slot12, (void *)dev_something, (void *)dext_slot14,
    (void *)dext_slot15, (void *)dext_slot16, (void *)dext_slot17, (void *)dext_slot18, (void *)dext_slot19,
    (void *)dext_slot20, (void *)dext_slot21, (void *)dext_slot22, (void *)dext_slot23, (void *)dext_slot24,
    (void *)dext_slot25,
};

static const struct { unsigned char id[16]; const char *name; const void *const *table; } tables[] = {
    { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 }, "CUDART_INTERFACE", cudart_interface },
    { { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc }, "TOOLS_TLS", tools_tls },
    { { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 }, "TOOLS_RUNTIME_CALLBACK_HOOKS", tools_hooks },
    { { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 }, "CONTEXT_LOCAL_STORAGE_INTERFACE_V0301", cls_interface },
    { { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e }, "CONTEXT_CHECKS", context_checks },
    { { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 }, "INTEGRITY_CHECK", integrity },
    { { 0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86 }, "CTX_CREATE_BYPASS", ctx_create_bypass },
    { { 0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae }, "HEAP_ACCESS", heap_access },
    { { 0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2 }, "DEVICE_EXTENDED_RT", device_extended_rt },
};

/* Asked for before cuInit; a driver without it must say NOT_FOUND (any
 * other answer stops the runtime with cudaErrorInsufficientDriver). */
static const unsigned char skip_init_id[16] = { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                                0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 };

CU_API CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
    if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
    if (!memcmp(id->bytes, skip_init_id, 16)) { *table = NULL; return CUDA_ERROR_NOT_FOUND; }
    cu_lock();
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (memcmp(tables[i].id, id->bytes, 16)) continue;
        cu_trace("cuGetExportTable(%s)", tables[i].name);
        *table = tables[i].table;
        cu_unlock();
        return CUDA_SUCCESS;
    }
    if (cu_g.trace) {
        char hex[33];
        for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", id->bytes[i]);
        cu_trace("cuGetExportTable(%s): unknown table", hex);
    }
    cu_unlock();
    *table = NULL;
    return CUDA_ERROR_NOT_FOUND;
}
