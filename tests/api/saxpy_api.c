/* saxpy_api.c — uses libptxemu the way a host program would: load a module,
 * allocate and copy device memory, launch, copy back, compare with the H200's
 * bytes.  Prints PASS/FAIL lines and "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif
#include "ptxemu.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)len + 1);
    *n = fread(p, 1, (size_t)len, f);
    fclose(f);
    return p;
}

int main(void)
{
    int pass = 0, fail = 0;
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load("kernels/saxpy/saxpy.ptx", &d, &text, &len);
    if (!m) { diag_render(&d, text, len, stderr); printf("FAIL load\n0 passed, 1 failed\n"); return 1; }
    size_t nx, ny, nw;
    unsigned char *x = slurp("kernels/saxpy/x.bin", &nx), *y = slurp("kernels/saxpy/y.bin", &ny);
    unsigned char *want = slurp("kernels/saxpy/expect/y.bin", &nw);
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    uint64_t dx = ptxemu_malloc(&dev, nx), dy = ptxemu_malloc(&dev, ny);
    ptxemu_memcpy_htod(&dev, dx, x, nx);
    ptxemu_memcpy_htod(&dev, dy, y, ny);
    struct { int32_t n; float a; uint64_t x, y; } params = { 1000, 2.5f, dx, dy };
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = 2; cfg.block[0] = 256;
    cfg.params = &params;
    cfg.params_size = sizeof params;
    vm_fault fault;
    vm_status st = ptxemu_launch(&dev, m, "saxpy", &cfg, &fault, NULL);
    if (st == VM_OK) { printf("PASS launch\n"); pass++; } else { printf("FAIL launch: %s\n", fault.msg); fail++; }
    unsigned char *got = malloc(ny);
    ptxemu_memcpy_dtoh(&dev, got, dy, ny);
    if (nw == ny && !memcmp(got, want, ny)) { printf("PASS result equals the H200's bytes\n"); pass++; }
    else { printf("FAIL result differs from the H200's bytes\n"); fail++; }
    if (ptxemu_memcpy_dtoh(&dev, got, dy + ny - 2, 4)) { printf("PASS copy past the end is refused\n"); pass++; }
    else { printf("FAIL copy past the end was allowed\n"); fail++; }
    st = ptxemu_launch(&dev, m, "no_such_kernel", &cfg, &fault, NULL);
    if (st == VM_ERROR && strstr(fault.msg, "no kernel")) { printf("PASS unknown kernel is an error\n"); pass++; }
    else { printf("FAIL unknown kernel: %s\n", fault.msg); fail++; }
#if defined(__x86_64__)
    /* A host program built with -ffast-math runs with the SSE control register's flush-to-zero
     * and denormals-are-zero bits set; the launch must still compute with subnormals (the
     * kernel's fma has no .ftz), and give the register back as it was. */
    {
        float tiny[256], zero[256], r[256], expect = fmaf(2.5f, 1e-40f, 0.0f);
        for (int i = 0; i < 256; i++) { tiny[i] = 1e-40f; zero[i] = 0.0f; }
        uint64_t tx = ptxemu_malloc(&dev, sizeof tiny), ty = ptxemu_malloc(&dev, sizeof zero);
        ptxemu_memcpy_htod(&dev, tx, tiny, sizeof tiny);
        ptxemu_memcpy_htod(&dev, ty, zero, sizeof zero);
        struct { int32_t n; float a; uint64_t x, y; } p2 = { 256, 2.5f, tx, ty };
        cfg.params = &p2;
        cfg.params_size = sizeof p2;
        cfg.grid[0] = 2;                        /* two blocks on two threads: the workers too */
        cfg.block[0] = 128;
        cfg.jobs = 2;
        unsigned csr = _mm_getcsr();
        _mm_setcsr(csr | 0x8040u);              /* FTZ | DAZ */
        st = ptxemu_launch(&dev, m, "saxpy", &cfg, &fault, NULL);
        unsigned after = _mm_getcsr();
        _mm_setcsr(csr);
        ptxemu_memcpy_dtoh(&dev, r, ty, sizeof r);
        int same = st == VM_OK && expect != 0.0f;
        for (int i = 0; i < 256; i++) same &= memcmp(&r[i], &expect, 4) == 0;
        if (same) { printf("PASS subnormal results under a host's flush-to-zero mode\n"); pass++; }
        else { printf("FAIL subnormal results under a host's flush-to-zero mode: got %g, want %g\n", (double)r[0], (double)expect); fail++; }
        if (after == (csr | 0x8040u)) { printf("PASS the host's control register is given back\n"); pass++; }
        else { printf("FAIL the host's control register is %#x after the launch, was %#x\n", after, csr | 0x8040u); fail++; }
    }
#endif
    free(got); free(x); free(y); free(want); free(fault.report);
    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
