/* cu_module.c — modules, libraries, functions, globals and the PTX linker
 * (cu.h).  A module image may be PTX text, an nvcc fat binary (image or
 * wrapper: its best PTX is used, fatbin.h) or the output of cuLinkComplete
 * (PTX text).  Machine code (cubin) cannot run here: loading it fails with
 * CUDA_ERROR_NO_BINARY_FOR_GPU and a message naming the nvcc flag to add.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cu.h"
#include "fatbin.h"
#include "ast.h"

#define CU_API __attribute__((visibility("default")))
#define CU_CHECK_STICKY() do { if (cu_g.sticky) { CUresult s_ = cu_g.sticky; cu_unlock(); return s_; } } while (0)

enum { CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
       CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* Copies text into the JIT error log the caller passed, if any. */
static void jit_error_log(unsigned n, const int *opts, void **vals, const char *text)
{
    char *buf = NULL;
    size_t size = 0;
    for (unsigned i = 0; opts && vals && i < n; i++) {
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER) buf = vals[i];
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) size = (size_t)(uintptr_t)vals[i];
    }
    if (buf && size) snprintf(buf, size, "%s", text);
}

static void free_module(cu_module *m)
{
    cu_profile_write(m);
    for (int i = 0; i < m->nfuncs; i++) m->funcs[i].magic = 0;
    free(m->funcs);
    free(m->var_addr);
    ptxemu_module_free(m->pm);
    free(m);
}

/* Compiles PTX text into a placed module; on error *log gets the messages. */
static CUresult load_ptx(const char *text, size_t len, const char *name, cu_module **out, char **log)
{
    diag_list diags;
    diag_init(&diags);
    ptxemu_module *pm = ptxemu_load_text(name, text, len, &diags);
    if (!pm) {
        size_t cap = 4096, n = 0;
        char *s = malloc(cap);
        for (int i = 0; s && i < diags.n && n < cap - 1; i++)
            n += (size_t)snprintf(s + n, cap - n, "%s:%d:%d: %s\n", name, diags.v[i].line, diags.v[i].col, diags.v[i].msg);
        *log = s;
        diag_list_free(&diags);
        return CUDA_ERROR_INVALID_PTX;
    }
    diag_list_free(&diags);
    cu_module *m = calloc(1, sizeof *m);
    char msg[256];
    if (!m || vm_place_module(pm->bc, &cu_g.mem, &m->var_addr, msg, sizeof msg)) {
        free(m);
        ptxemu_module_free(pm);
        *log = strdup("cannot place the module's variables in device memory");
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->pm = pm;
    const bc_module *bc = pm->bc;
    m->funcs = calloc((size_t)(bc->nfuncs ? bc->nfuncs : 1), sizeof *m->funcs);
    for (int i = 0; i < bc->nfuncs; i++) {
        if (!bc->funcs[i].is_entry || bc->funcs[i].kind != BC_FN_DEFINED) continue;
        cu_func *f = &m->funcs[m->nfuncs++];
        f->magic = CU_FUNC_MAGIC;
        f->mod = m;
        f->index = i;
        int64_t st = vm_kernel_shared_layout(bc, i, NULL);
        f->static_shared = st > 0 ? (uint64_t)st : 0;
        f->max_dyn_shared = (int)(CU_SHARED_PER_BLOCK - (f->static_shared < CU_SHARED_PER_BLOCK ? f->static_shared : CU_SHARED_PER_BLOCK));
    }
    m->next = cu_g.modules;
    cu_g.modules = m;
    *out = m;
    return CUDA_SUCCESS;
}

/* Loads any image a program may hand the driver. */
static CUresult load_image(const void *image, cu_module **out, unsigned nopts, const int *opts, void **vals)
{
    if (!image || !out) return CUDA_ERROR_INVALID_VALUE;
    const uint8_t *b = image;
    char *log = NULL;
    CUresult r;
    if (fb_image(image)) {
        char *ptx = NULL, msg[512];
        size_t len = 0;
        int sm = 0;
        int fr = fb_extract_ptx(image, 0, &ptx, &len, &sm, msg, sizeof msg);
        if (fr != FB_OK) {
            fprintf(stderr, "ptxemu: %s\n", msg);
            cu_report("nocode %s", msg);
            jit_error_log(nopts, opts, vals, msg);
            if (fr == FB_NO_PTX && fb_image(image) != image) {
                /* a wrapper: NVIDIA's runtime registering the program's own
                 * kernels, none of which can run here: stop (exit 2) */
                fflush(stdout);
                _exit(PTXEMU_EXIT_USAGE);
            }
            return fr == FB_NO_PTX ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE;
        }
        char name[32];
        snprintf(name, sizeof name, "fatbin.compute_%d.ptx", sm);
        r = load_ptx(ptx, len, name, out, &log);
        free(ptx);
    } else if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
        const char *msg = "the program loads machine code (a cubin) that ptxemu cannot run; build it as PTX "
                          "(nvcc -ptx, or -gencode arch=compute_90,code=compute_90 for a fat binary)";
        fprintf(stderr, "ptxemu: %s\n", msg);
        cu_report("nocode %s", msg);
        jit_error_log(nopts, opts, vals, msg);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    } else {
        r = load_ptx(image, strlen(image), "module.ptx", out, &log);
    }
    if (r != CUDA_SUCCESS && log) {
        fprintf(stderr, "ptxemu: the PTX does not compile:\n%s", log);
        jit_error_log(nopts, opts, vals, log);
    }
    free(log);
    return r;
}

CU_API CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, int *opts, void **vals)
{
    cu_lock();
    CU_CHECK_STICKY();
    CUresult r = load_image(image, m, n, opts, vals);
    cu_trace("cuModuleLoadData(%s) -> %d", image && fb_image(image) && fb_image(image) != image ? "fat binary wrapper" :
             image && fb_image(image) ? "fat binary" : "other", r);
    cu_unlock();
    return r;
}

CU_API CUresult cuModuleLoadData(CUmodule *m, const void *image) { return cuModuleLoadDataEx(m, image, 0, NULL, NULL); }
CU_API CUresult cuModuleLoadFatBinary(CUmodule *m, const void *fb) { return cuModuleLoadDataEx(m, fb, 0, NULL, NULL); }

/* Reads a whole file for cuModuleLoad / cuLinkAddFile; NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) { char *nb = realloc(buf, cap * 2 + 1); if (!nb) { free(buf); buf = NULL; break; } buf = nb; cap *= 2; }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

CU_API CUresult cuModuleLoad(CUmodule *m, const char *path)
{
    if (!path) return CUDA_ERROR_INVALID_VALUE;
    size_t len;
    char *data = slurp(path, &len);
    if (!data) return CUDA_ERROR_FILE_NOT_FOUND;
    CUresult r = cuModuleLoadData(m, data);
    free(data);
    return r;
}

CU_API CUresult cuModuleUnload(CUmodule m)
{
    cu_lock();
    cu_module **pp = &cu_g.modules;
    while (*pp && *pp != m) pp = &(*pp)->next;
    if (!*pp) { cu_unlock(); return CUDA_ERROR_INVALID_HANDLE; }
    *pp = m->next;
    free_module(m);
    cu_unlock();
    return CUDA_SUCCESS;
}

void cu_modules_reset(void)
{
    while (cu_g.modules) {
        cu_module *m = cu_g.modules;
        cu_g.modules = m->next;
        free_module(m);
    }
}

int cu_const_range(uint64_t p, uint64_t n)
{
    for (cu_module *m = cu_g.modules; m; m = m->next) {
        const bc_module *bc = m->pm->bc;
        uint64_t b = (uint64_t)(uintptr_t)bc->const_image;
        if (bc->const_image && p >= b && n <= bc->const_size && p - b <= bc->const_size - n) return 1;
    }
    return 0;
}

static int module_ok(const cu_module *m)
{
    for (const cu_module *x = cu_g.modules; x; x = x->next) if (x == m) return 1;
    return 0;
}

CU_API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (!f || !name) return CUDA_ERROR_INVALID_VALUE;
    cu_lock();
    if (!module_ok(m)) { cu_unlock(); return CUDA_ERROR_INVALID_HANDLE; }
    for (int i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->pm->bc->funcs[m->funcs[i].index].name, name)) { *f = &m->funcs[i]; cu_unlock(); return CUDA_SUCCESS; }
    cu_unlock();
    return CUDA_ERROR_NOT_FOUND;
}

CU_API CUresult cuModuleGetFunctionCount(unsigned *n, CUmodule m)
{
    if (!n || !m) return CUDA_ERROR_INVALID_VALUE;
    *n = (unsigned)m->nfuncs;
    return CUDA_SUCCESS;
}

CU_API CUresult cuModuleEnumerateFunctions(CUfunction *fs, unsigned n, CUmodule m)
{
    if (!fs || !m) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n && (int)i < m->nfuncs; i++) fs[i] = &m->funcs[i];
    return CUDA_SUCCESS;
}

CU_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name)
{
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    cu_lock();
    if (!module_ok(m)) { cu_unlock(); return CUDA_ERROR_INVALID_HANDLE; }
    const bc_module *bc = m->pm->bc;
    for (int i = 0; i < bc->nvars; i++) {
        const bc_var *v = &bc->vars[i];
        if (strcmp(v->name, name) || (v->space != BC_SP_GLOBAL && v->space != BC_SP_CONST)) continue;
        if (dptr) *dptr = v->space == BC_SP_GLOBAL ? m->var_addr[i] : (uint64_t)(uintptr_t)(bc->const_image + v->offset);
        if (bytes) *bytes = v->size;
        cu_unlock();
        return CUDA_SUCCESS;
    }
    cu_unlock();
    return CUDA_ERROR_NOT_FOUND;
}

enum { CU_MODULE_EAGER_LOADING = 1 };
CU_API CUresult cuModuleGetLoadingMode(int *mode) { if (!mode) return CUDA_ERROR_INVALID_VALUE; *mode = CU_MODULE_EAGER_LOADING; return CUDA_SUCCESS; }

/* ---- libraries (CUDA 12): a library is a module, a kernel its function ---- */

CU_API CUresult cuLibraryLoadData(CUmodule *lib, const void *code, int *jo, void **jv, unsigned nj,
                                  int *lo, void **lv, unsigned nl)
{
    CUresult r = cuModuleLoadDataEx(lib, code, nj, jo, jv);
    if (r == CUDA_SUCCESS) (*lib)->is_library = 1;
    return r;
}

CU_API CUresult cuLibraryLoadFromFile(CUmodule *lib, const char *path, int *jo, void **jv, unsigned nj,
                                      int *lo, void **lv, unsigned nl)
{
    CUresult r = cuModuleLoad(lib, path);
    if (r == CUDA_SUCCESS) (*lib)->is_library = 1;
    return r;
}

CU_API CUresult cuLibraryUnload(CUmodule lib) { return cuModuleUnload(lib); }
CU_API CUresult cuLibraryGetKernel(CUfunction *k, CUmodule lib, const char *name) { return cuModuleGetFunction(k, lib, name); }
CU_API CUresult cuLibraryGetModule(CUmodule *m, CUmodule lib) { if (!m) return CUDA_ERROR_INVALID_VALUE; *m = lib; return CUDA_SUCCESS; }
CU_API CUresult cuLibraryGetGlobal(CUdeviceptr *d, size_t *n, CUmodule lib, const char *name) { return cuModuleGetGlobal_v2(d, n, lib, name); }
CU_API CUresult cuLibraryGetManaged(CUdeviceptr *d, size_t *n, CUmodule lib, const char *name) { return CUDA_ERROR_NOT_FOUND; }
CU_API CUresult cuLibraryGetUnifiedFunction(void **f, CUmodule lib, const char *name) { return CUDA_ERROR_NOT_FOUND; }
CU_API CUresult cuLibraryGetKernelCount(unsigned *n, CUmodule lib) { return cuModuleGetFunctionCount(n, lib); }
CU_API CUresult cuLibraryEnumerateKernels(CUfunction *ks, unsigned n, CUmodule lib) { return cuModuleEnumerateFunctions(ks, n, lib); }
CU_API CUresult cuKernelGetFunction(CUfunction *f, CUfunction k)
{
    if (!f || !k || k->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *f = k;
    return CUDA_SUCCESS;
}
CU_API CUresult cuKernelGetLibrary(CUmodule *lib, CUfunction k)
{
    if (!lib || !k || k->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *lib = k->mod;
    return CUDA_SUCCESS;
}

/* ---- function attributes -------------------------------------------------- */

static CUresult func_attr(int *v, int attr, cu_func *f)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    const bc_module *bc = f->mod->pm->bc;
    const bc_func *bf = &bc->funcs[f->index];
    switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: {
        int64_t n = 1;
        for (int i = 0; i < 3; i++) {
            int64_t d = bf->reqntid[i] > 0 ? bf->reqntid[i] : bf->maxntid[i];
            if (d > 0) n *= d;
        }
        *v = (bf->reqntid[0] > 0 || bf->maxntid[0] > 0) && n < (int64_t)CU_MAX_THREADS_PER_BLOCK ? (int)n : (int)CU_MAX_THREADS_PER_BLOCK;
        break;
    }
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = (int)f->static_shared; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *v = (int)bc->const_size; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *v = bf->frame_size; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = bf->nslots < 255 ? (int)bf->nslots : 255; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = bc->target_sm ? bc->target_sm : 90; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *v = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = f->max_dyn_shared; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f->carveout_set ? f->carveout : -1; break;
    default:
        if (attr > CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT && attr < CU_FUNC_ATTRIBUTE_MAX) { *v = 0; break; }
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult func_set_attr(cu_func *f, int attr, int v)
{
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        if (v < 0 || (uint64_t)v + f->static_shared > CU_SHARED_PER_BLOCK_OPTIN) return CUDA_ERROR_INVALID_VALUE;
        f->max_dyn_shared = v;
        return CUDA_SUCCESS;
    }
    if (attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
        if (v < -1 || v > 100) return CUDA_ERROR_INVALID_VALUE;
        f->carveout = v;
        f->carveout_set = v >= 0;
        return CUDA_SUCCESS;
    }
    if (attr > CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT && attr < CU_FUNC_ATTRIBUTE_MAX) return CUDA_SUCCESS;
    return CUDA_ERROR_INVALID_VALUE;
}

CU_API CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f) { cu_lock(); CUresult r = func_attr(v, attr, f); cu_unlock(); return r; }
CU_API CUresult cuFuncSetAttribute(CUfunction f, int attr, int v) { cu_lock(); CUresult r = func_set_attr(f, attr, v); cu_unlock(); return r; }
CU_API CUresult cuKernelGetAttribute(int *v, int attr, CUfunction k, CUdevice d) { return cuFuncGetAttribute(v, attr, k); }
CU_API CUresult cuKernelSetAttribute(int attr, int v, CUfunction k, CUdevice d) { return cuFuncSetAttribute(k, attr, v); }
CU_API CUresult cuFuncSetCacheConfig(CUfunction f, int c) { return f && f->magic == CU_FUNC_MAGIC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }
CU_API CUresult cuKernelSetCacheConfig(CUfunction f, int c, CUdevice d) { return cuFuncSetCacheConfig(f, c); }
CU_API CUresult cuFuncSetSharedMemConfig(CUfunction f, int c) { return cuFuncSetCacheConfig(f, c); }

CU_API CUresult cuFuncGetName(const char **name, CUfunction f)
{
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *name = f->mod->pm->bc->funcs[f->index].name;
    return CUDA_SUCCESS;
}
CU_API CUresult cuKernelGetName(const char **name, CUfunction k) { return cuFuncGetName(name, k); }

CU_API CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t *offset, size_t *size)
{
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    const bc_func *bf = &f->mod->pm->bc->funcs[f->index];
    if (index >= (size_t)bf->nparams) return CUDA_ERROR_INVALID_VALUE;
    if (offset) *offset = (size_t)bf->params[index].offset;
    if (size) *size = (size_t)bf->params[index].size;
    return CUDA_SUCCESS;
}
CU_API CUresult cuKernelGetParamInfo(CUfunction k, size_t i, size_t *o, size_t *s) { return cuFuncGetParamInfo(k, i, o, s); }

CU_API CUresult cuFuncGetModule(CUmodule *m, CUfunction f)
{
    if (!m) return CUDA_ERROR_INVALID_VALUE;
    if (!f || f->magic != CU_FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *m = f->mod;
    return CUDA_SUCCESS;
}

CU_API CUresult cuFuncIsLoaded(int *state, CUfunction f) { if (!state) return CUDA_ERROR_INVALID_VALUE; *state = 1; return CUDA_SUCCESS; }
CU_API CUresult cuFuncLoad(CUfunction f) { return CUDA_SUCCESS; }

/* ---- the linker: PTX (or fat binary) inputs; the result is PTX text ----- */

enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1, CU_JIT_INPUT_FATBINARY = 2, CU_JIT_INPUT_OBJECT = 3,
       CU_JIT_INPUT_LIBRARY = 4 };

typedef struct cu_link {
    char *ptx;                   /* the one PTX input */
    size_t len;
    int ninputs;
} cu_link;

CU_API CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, CUlinkState *st)
{
    if (!st) return CUDA_ERROR_INVALID_VALUE;
    cu_link *l = calloc(1, sizeof *l);
    if (!l) return CUDA_ERROR_OUT_OF_MEMORY;
    *st = l;
    return CUDA_SUCCESS;
}

static CUresult link_add(cu_link *l, int type, const void *data, size_t size, const char *name)
{
    if (!l || !data) return CUDA_ERROR_INVALID_VALUE;
    char *text = NULL, msg[512];
    size_t len = 0;
    if (type == CU_JIT_INPUT_PTX) {
        len = size && ((const char *)data)[size - 1] == 0 ? size - 1 : size ? size : strlen(data);
        text = malloc(len + 1);
        if (!text) return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(text, data, len);
        text[len] = 0;
    } else if (type == CU_JIT_INPUT_FATBINARY) {
        int sm;
        if (fb_extract_ptx(data, size, &text, &len, &sm, msg, sizeof msg) != FB_OK) {
            fprintf(stderr, "ptxemu: cuLinkAddData(%s): %s\n", name ? name : "fatbin", msg);
            return CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
    } else {
        fprintf(stderr, "ptxemu: cuLinkAddData(%s): only PTX and fat binary inputs can be linked (input type %d)\n",
                name ? name : "?", type);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (l->ptx) {
        free(text);
        fprintf(stderr, "ptxemu: cuLinkAddData(%s): linking several PTX inputs into one module is not supported\n",
                name ? name : "?");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    l->ptx = text;
    l->len = len;
    l->ninputs++;
    return CUDA_SUCCESS;
}

CU_API CUresult cuLinkAddData_v2(CUlinkState st, int type, void *data, size_t size, const char *name,
                                 unsigned n, int *opts, void **vals)
{
    return link_add(st, type, data, size, name);
}

CU_API CUresult cuLinkAddFile_v2(CUlinkState st, int type, const char *path, unsigned n, int *opts, void **vals)
{
    size_t len;
    char *data = path ? slurp(path, &len) : NULL;
    if (!data) return CUDA_ERROR_FILE_NOT_FOUND;
    CUresult r = link_add(st, type, data, len, path);
    free(data);
    return r;
}

CU_API CUresult cuLinkComplete(CUlinkState st, void **out, size_t *size)
{
    if (!st || !out) return CUDA_ERROR_INVALID_VALUE;
    if (!st->ptx) return CUDA_ERROR_INVALID_VALUE;
    *out = st->ptx;
    if (size) *size = st->len + 1;
    return CUDA_SUCCESS;
}

CU_API CUresult cuLinkDestroy(CUlinkState st)
{
    if (!st) return CUDA_ERROR_INVALID_VALUE;
    free(st->ptx);
    free(st);
    return CUDA_SUCCESS;
}
