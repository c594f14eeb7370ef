/* fatbin_test.c — runtime/fatbin.c without nvcc: the PTX of a CUDA 13 fat
 * binary (zstd-compressed) equals nvcc -ptx's and compiles; a SASS-only fat
 * binary names the flag to add; LZ4 blocks decode; bad input is refused.
 * usage: fatbin_test DATA_DIR.  Prints PASS/FAIL lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin.h"
#include "ptxemu.h"

static int fails;
#define CHECK(cond, what) do { if (cond) printf("PASS fatbin: %s\n", what); else { printf("FAIL fatbin: %s\n", what); fails++; } } while (0)

/* The text without // comments and blanks (nvcc strips both from the PTX
 * it embeds). */
static char *uncommented(const char *s, size_t n)
{
    char *o = malloc(n + 1), *w = o;
    if (!o) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') { while (i < n && s[i] != '\n') i++; if (i == n) break; }
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n') *w++ = s[i];
    }
    *w = 0;
    return o;
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *len = (size_t)n;
    return b;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/exec/data";
    size_t fl = 0, pl = 0, sl = 0;
    char *fat = slurp(dir, "dkern.fatbin", &fl), *ptx = slurp(dir, "dkern.ptx", &pl), *sass = slurp(dir, "dkern-sass-only.fatbin", &sl);
    if (!fat || !ptx || !sass) { printf("FAIL fatbin: cannot read the files in %s\n", dir); return 1; }
    char *out = NULL, msg[512];
    size_t len = 0;
    int sm = 0;
    int r = fb_extract_ptx(fat, fl, &out, &len, &sm, msg, sizeof msg);
    CHECK(r == FB_OK && sm == 90, "the compute_90 PTX entry is found and decompressed (zstd)");
    char *a = out ? uncommented(out, len) : NULL, *b = uncommented(ptx, pl);
    CHECK(a && b && !strcmp(a, b), "it is the text nvcc -ptx gives (comments and blanks aside)");
    free(a);
    free(b);
    CHECK(fb_image(fat) == (const uint8_t *)fat && fb_image_size((const uint8_t *)fat) <= fl, "image header and size");
    diag_list d;
    diag_init(&d);
    ptxemu_module *m = out ? ptxemu_load_text("dkern.ptx", out, len, &d) : NULL;
    CHECK(m && bc_find_func(m->bc, "scale") >= 0 && bc_find_func(m->bc, "mixed") >= 0, "the PTX compiles (ptxemu_load_text)");
    ptxemu_module_free(m);
    diag_list_free(&d);
    free(out);
    /* a wrapper as __cudaRegisterFatBinary receives it */
    struct { uint32_t magic, version; const void *data, *other; } wrap = { FB_WRAPPER_MAGIC, 1, fat, NULL };
    out = NULL;
    r = fb_extract_ptx(&wrap, 0, &out, &len, &sm, msg, sizeof msg);
    CHECK(r == FB_OK && sm == 90 && out && strstr(out, ".entry scale("), "through a fat binary wrapper");
    free(out);
    r = fb_extract_ptx(sass, sl, &out, &len, &sm, msg, sizeof msg);
    CHECK(r == FB_NO_PTX && strstr(msg, "sm_90") && strstr(msg, "-gencode arch=compute_90,code=compute_90"),
          "machine code only: refused, naming what it has and the flag to add");
    r = fb_extract_ptx("not a fat binary", 17, &out, &len, &sm, msg, sizeof msg);
    CHECK(r == FB_NOT_FATBIN, "other bytes are not a fat binary");
    char bad[64];
    memcpy(bad, fat, sizeof bad);
    bad[16 + 4] = 8;     /* an entry header size smaller than the header */
    r = fb_extract_ptx(bad, sizeof bad, &out, &len, &sm, msg, sizeof msg);
    CHECK(r == FB_BAD, "a truncated or malformed image is refused");
    /* LZ4: literals "abc", a 5-byte match at offset 3, literals "xyzw!" */
    static const uint8_t lz[] = { 0x31, 'a', 'b', 'c', 3, 0, 0x50, 'x', 'y', 'z', 'w', '!' };
    uint8_t dst[32];
    long n = fb_lz4_decompress(lz, sizeof lz, dst, sizeof dst);
    CHECK(n == 13 && !memcmp(dst, "abcabcabxyzw!", 13), "LZ4 block with an overlapping match");
    CHECK(fb_lz4_decompress(lz, sizeof lz, dst, 8) < 0, "LZ4 output larger than the buffer is refused");
    static const uint8_t lzbad[] = { 0x31, 'a', 'b', 'c', 9, 0, 0x50, 'x', 'y', 'z', 'w', '!' };
    CHECK(fb_lz4_decompress(lzbad, sizeof lzbad, dst, sizeof dst) < 0, "LZ4 match before the start is refused");
    free(fat);
    free(ptx);
    free(sass);
    return fails != 0;
}
