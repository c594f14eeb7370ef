/* fatbin.c — finds and decompresses the PTX of an nvcc fat binary (fatbin.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin.h"

#define FB_KIND_PTX 1
#define FB_KIND_ELF 2
#define FB_ENTRY_HEADER_MIN 64
#define FB_FLAG_LZ4  0x2000u
#define FB_FLAG_ZSTD 0x8000u
#define FB_MAX_TEXT  ((uint64_t)1 << 30)

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

const uint8_t *fb_image(const void *p)
{
    const uint8_t *b = p;
    if (!b) return NULL;
    if (rd32(b) == FB_IMAGE_MAGIC) return b;
    if (rd32(b) == FB_WRAPPER_MAGIC) {
        uint64_t img = rd64(b + 8);
        const uint8_t *i = (const uint8_t *)(uintptr_t)img;
        return i && rd32(i) == FB_IMAGE_MAGIC ? i : NULL;
    }
    return NULL;
}

uint64_t fb_image_size(const uint8_t *img) { return rd16(img + 6) + rd64(img + 8); }

long fb_lz4_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned tok = src[i++];
        size_t lit = tok >> 4;
        if (lit == 15) { unsigned c; do { if (i >= n) return -1; c = src[i++]; lit += c; } while (c == 255); }
        if (lit > n - i || lit > cap - o) return -1;
        memcpy(dst + o, src + i, lit);
        i += lit; o += lit;
        if (i == n) break;                       /* the last sequence has no match */
        if (n - i < 2) return -1;
        size_t off = src[i] | (size_t)src[i + 1] << 8;
        i += 2;
        size_t mlen = (tok & 15u) + 4;
        if ((tok & 15u) == 15) { unsigned c; do { if (i >= n) return -1; c = src[i++]; mlen += c; } while (c == 255); }
        if (off == 0 || off > o || mlen > cap - o) return -1;
        for (size_t k = 0; k < mlen; k++, o++) dst[o] = dst[o - off];   /* may overlap */
    }
    return (long)o;
}

/* zstd through the system's libzstd (present on every Debian/Ubuntu: apt
 * itself needs it), loaded only when a zstd payload appears. */
typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_iserror_fn)(size_t);

static long zstd_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, char *msg, size_t msglen)
{
    static void *lib;
    static zstd_decompress_fn dec;
    static zstd_iserror_fn iserr;
    if (!lib) {
        lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) { snprintf(msg, msglen, "the PTX is zstd-compressed and libzstd.so.1 cannot be loaded (install libzstd1)"); return -1; }
        dec = (zstd_decompress_fn)dlsym(lib, "ZSTD_decompress");
        iserr = (zstd_iserror_fn)dlsym(lib, "ZSTD_isError");
    }
    if (!dec || !iserr) { snprintf(msg, msglen, "libzstd.so.1 lacks ZSTD_decompress"); return -1; }
    size_t r = dec(dst, cap, src, n);
    if (iserr(r)) { snprintf(msg, msglen, "corrupt zstd-compressed PTX"); return -1; }
    return (long)r;
}

/* Decompresses (or copies) one PTX entry's payload into a NUL-terminated text. */
static int entry_text(const uint8_t *e, uint64_t hsize, uint64_t padded, char **out, size_t *len, char *msg, size_t msglen)
{
    uint64_t psize = rd32(e + 16), unc = rd64(e + 56), flags = rd64(e + 40);
    if (!psize || psize > padded) psize = padded;
    const uint8_t *pl = e + hsize;
    if (!(flags & (FB_FLAG_LZ4 | FB_FLAG_ZSTD))) unc = psize;
    if (unc > FB_MAX_TEXT) { snprintf(msg, msglen, "PTX entry of %llu bytes is too large", (unsigned long long)unc); return FB_BAD; }
    uint8_t *buf = malloc(unc + 1);
    if (!buf) { snprintf(msg, msglen, "out of memory"); return FB_BAD; }
    long n;
    if (flags & FB_FLAG_ZSTD) n = zstd_decompress(pl, psize, buf, unc, msg, msglen);
    else if (flags & FB_FLAG_LZ4) {
        n = fb_lz4_decompress(pl, psize, buf, unc);
        if (n < 0) snprintf(msg, msglen, "corrupt LZ4-compressed PTX");
    } else { memcpy(buf, pl, psize); n = (long)psize; }
    if (n < 0) { free(buf); return FB_BAD; }
    while (n > 0 && buf[n - 1] == 0) n--;        /* payloads are NUL-padded */
    buf[n] = 0;
    *out = (char *)buf;
    *len = (size_t)n;
    return FB_OK;
}

int fb_extract_ptx(const void *p, size_t avail, char **ptx, size_t *len, int *sm, char *msg, size_t msglen)
{
    *ptx = NULL;
    msg[0] = 0;
    const uint8_t *img = fb_image(p);
    if (!img) { snprintf(msg, msglen, "not a fat binary"); return FB_NOT_FATBIN; }
    uint64_t hs = rd16(img + 6), total = fb_image_size(img);
    if (avail && (const uint8_t *)p == img && total > avail) { snprintf(msg, msglen, "truncated fat binary"); return FB_BAD; }
    const uint8_t *best = NULL;
    uint64_t best_hs = 0, best_pad = 0;
    int best_sm = -1;
    char seen[256] = "";
    size_t sl = 0;
    for (uint64_t off = hs; off + FB_ENTRY_HEADER_MIN <= total;) {
        const uint8_t *e = img + off;
        uint16_t kind = rd16(e);
        uint64_t ehs = rd32(e + 4), pad = rd64(e + 8);
        int esm = (int)rd32(e + 28);
        if (ehs < FB_ENTRY_HEADER_MIN || ehs > total - off || pad > total - off - ehs) {
            snprintf(msg, msglen, "malformed fat binary entry at offset %llu", (unsigned long long)off);
            return FB_BAD;
        }
        if (sl < sizeof seen - 24)
            sl += (size_t)snprintf(seen + sl, sizeof seen - sl, "%s%s_%d", sl ? ", " : "",
                                   kind == FB_KIND_PTX ? "compute" : kind == FB_KIND_ELF ? "sm" : "?", esm);
        if (kind == FB_KIND_PTX && esm <= FB_MAX_SM && esm > best_sm) { best = e; best_sm = esm; best_hs = ehs; best_pad = pad; }
        off += ehs + pad;
    }
    if (!best) {
        snprintf(msg, msglen, "the program carries no PTX that ptxemu can run (it has %s); rebuild it with "
                 "-gencode arch=compute_90,code=compute_90 added to the nvcc command line", sl ? seen : "nothing");
        return FB_NO_PTX;
    }
    *sm = best_sm;
    return entry_text(best, best_hs, best_pad, ptx, len, msg, msglen);
}
