/* nvjitlink.c — ptxemu's stand-in for libnvJitLink.so.13, preloaded by
 * `ptxemu exec` so that tools linking device code at run time (Numba-CUDA
 * through cuda.core, which prefers nvJitLink to the driver's cuLink*) get
 * something ptxemu can load: the "linked cubin" is the PTX text itself,
 * which cuModuleLoadData accepts.  One PTX input (or a fat binary carrying
 * PTX) per link; LTO-IR, cubins, objects and libraries are refused with an
 * error log that says so.
 *
 * Ownership: a handle owns its PTX copy and logs (nvJitLinkDestroy).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin.h"

#define NJ_API __attribute__((visibility("default")))

enum { NJ_SUCCESS = 0, NJ_ERROR_INVALID_INPUT = 3, NJ_ERROR_INTERNAL = 6, NJ_ERROR_NULL_INPUT = 10 };
enum { NJ_INPUT_PTX = 2, NJ_INPUT_FATBIN = 4, NJ_INPUT_ANY = 10 };

typedef struct nj_handle {
    char *ptx;
    size_t len;
    char err[1024];
} nj_handle;

static int nj_fail(nj_handle *h, int code, const char *msg)
{
    snprintf(h->err, sizeof h->err, "ptxemu (nvJitLink stand-in): %s\n", msg);
    fputs(h->err, stderr);
    return code;
}

NJ_API int nvJitLinkCreate(nj_handle **out, uint32_t nopts, const char **opts)
{
    if (!out) return NJ_ERROR_NULL_INPUT;
    *out = calloc(1, sizeof **out);
    return *out ? NJ_SUCCESS : NJ_ERROR_INTERNAL;
}

NJ_API int nvJitLinkDestroy(nj_handle **h)
{
    if (!h || !*h) return NJ_ERROR_NULL_INPUT;
    free((*h)->ptx);
    free(*h);
    *h = NULL;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkAddData(nj_handle *h, int type, const void *data, size_t size, const char *name)
{
    if (!h || !data) return NJ_ERROR_NULL_INPUT;
    const char *p = data;
    int is_fatbin = fb_image(data) != NULL;
    if (h->ptx) return nj_fail(h, NJ_ERROR_INVALID_INPUT, "only one PTX input can be linked");
    if (is_fatbin && (type == NJ_INPUT_FATBIN || type == NJ_INPUT_ANY)) {
        char msg[512];
        int sm;
        if (fb_extract_ptx(data, size, &h->ptx, &h->len, &sm, msg, sizeof msg) != FB_OK)
            return nj_fail(h, NJ_ERROR_INVALID_INPUT, msg);
        return NJ_SUCCESS;
    }
    if (type != NJ_INPUT_PTX && type != NJ_INPUT_ANY)
        { char m[160]; snprintf(m, sizeof m, "input %s (type %d): only PTX inputs can be linked (LTO-IR, cubins, objects and libraries cannot)", name ? name : "?", type); return nj_fail(h, NJ_ERROR_INVALID_INPUT, m); }
    size_t n = size && p[size - 1] == 0 ? size - 1 : size;
    h->ptx = malloc(n + 1);
    if (!h->ptx) return NJ_ERROR_INTERNAL;
    memcpy(h->ptx, p, n);
    h->ptx[n] = 0;
    h->len = n;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkAddFile(nj_handle *h, int type, const char *path)
{
    if (!h || !path) return NJ_ERROR_NULL_INPUT;
    FILE *f = fopen(path, "rb");
    if (!f) return nj_fail(h, NJ_ERROR_INVALID_INPUT, "cannot open the input file");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    int r = b && fread(b, 1, (size_t)n, f) == (size_t)n ? nvJitLinkAddData(h, type, b, (size_t)n, path) : NJ_ERROR_INTERNAL;
    fclose(f);
    free(b);
    return r;
}

NJ_API int nvJitLinkComplete(nj_handle *h)
{
    if (!h) return NJ_ERROR_NULL_INPUT;
    return h->ptx ? NJ_SUCCESS : nj_fail(h, NJ_ERROR_INVALID_INPUT, "nothing to link");
}

NJ_API int nvJitLinkGetLinkedCubinSize(nj_handle *h, size_t *size)
{
    if (!h || !size || !h->ptx) return NJ_ERROR_NULL_INPUT;
    *size = h->len + 1;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkGetLinkedCubin(nj_handle *h, void *out)
{
    if (!h || !out || !h->ptx) return NJ_ERROR_NULL_INPUT;
    memcpy(out, h->ptx, h->len + 1);
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkGetLinkedPtxSize(nj_handle *h, size_t *size) { return nvJitLinkGetLinkedCubinSize(h, size); }
NJ_API int nvJitLinkGetLinkedPtx(nj_handle *h, char *out) { return nvJitLinkGetLinkedCubin(h, out); }

NJ_API int nvJitLinkGetErrorLogSize(nj_handle *h, size_t *size)
{
    if (!h || !size) return NJ_ERROR_NULL_INPUT;
    *size = strlen(h->err) + 1;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkGetErrorLog(nj_handle *h, char *log)
{
    if (!h || !log) return NJ_ERROR_NULL_INPUT;
    memcpy(log, h->err, strlen(h->err) + 1);
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkGetInfoLogSize(nj_handle *h, size_t *size)
{
    if (!h || !size) return NJ_ERROR_NULL_INPUT;
    *size = 1;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkGetInfoLog(nj_handle *h, char *log)
{
    if (!h || !log) return NJ_ERROR_NULL_INPUT;
    log[0] = 0;
    return NJ_SUCCESS;
}

NJ_API int nvJitLinkVersion(unsigned *major, unsigned *minor)
{
    if (!major || !minor) return NJ_ERROR_NULL_INPUT;
    /* below 12.3, the first release with LTO: Numba then compiles to PTX, not
     * LTO-IR, which is what this stand-in can pass on */
    *major = 12;
    *minor = 2;
    return NJ_SUCCESS;
}
