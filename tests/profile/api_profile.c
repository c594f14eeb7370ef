/* api_profile.c — the profiler through the library, as a host program (the
 * libcuda stand-in) would use it: load, allocate, prof_launch, report.  The
 * counters must be those the Nsight Compute source view shows for the same
 * launch (tests/profile/ncu/transpose_tile.csv).  Prints PASS/FAIL lines and
 * "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"

static int pass, fail;

static void check(int ok, const char *what)
{
    printf("%s api %s\n", ok ? "PASS" : "FAIL", what);
    if (ok) pass++; else fail++;
}

static const prof_line *find_line(const prof_report *r, int line)
{
    for (int i = 0; i < r->nlines; i++) if (r->lines[i].line == line) return &r->lines[i];
    return NULL;
}

int main(void)
{
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load("tests/profile/kernels/profk.ptx", &d, &text, &len);
    if (!m) { diag_render(&d, text, len, stderr); printf("FAIL api load\n0 passed, 1 failed\n"); return 1; }
    enum { N = 64 };
    static float in[N * N];
    for (int i = 0; i < N * N; i++) in[i] = (float)i;
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    uint64_t dout = ptxemu_malloc(&dev, sizeof in), din = ptxemu_malloc(&dev, sizeof in);
    ptxemu_memcpy_htod(&dev, din, in, sizeof in);
    struct { uint64_t out, in; } params = { dout, din };
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = cfg.grid[1] = 2; cfg.grid[2] = 1;
    cfg.block[0] = 32; cfg.block[1] = 8; cfg.block[2] = 1;
    cfg.params = &params;
    cfg.params_size = sizeof params;
    vm_fault fault;
    uint64_t insns = 0;
    prof_profile *p = NULL;
    vm_status st = prof_launch(&dev, m, "transpose_tile", &cfg, &fault, &insns, &p);
    check(st == VM_OK && p != NULL, "prof_launch runs transpose_tile");
    static float out[N * N];
    ptxemu_memcpy_dtoh(&dev, out, dout, sizeof out);
    int ok = 1;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) ok &= out[y * N + x] == in[x * N + y];
    check(ok, "the launch transposed the matrix");
    prof_report r;
    if (p && !prof_report_build(p, m, NULL, &r)) {
        const prof_line *ld = find_line(&r, 79), *st2 = find_line(&r, 83);
        /* Nsight Compute, H100: line 79 128 requests, 512 sectors, 128 wavefronts;
         * line 83 4096 shared wavefronts (3968 beyond the ideal), 512 sectors */
        check(ld && ld->c.global_requests == 128 && ld->c.global_sectors == 512 && ld->c.shared_wavefronts == 128,
              "line 79 as Nsight Compute counts it");
        check(st2 && st2->c.shared_wavefronts == 4096 && st2->c.shared_bank_conflicts == 3968 && st2->c.global_sectors == 512,
              "line 83 as Nsight Compute counts it");
        check(r.totals.barrier_waits == 4 * 7, "barrier waits: 7 of 8 warps wait, in each of 4 blocks");
        check(!strcmp(r.kernel, "transpose_tile") && r.nfiles == 1 && r.files[0].found, "report names the kernel and finds profk.cu");
        prof_report_free(&r);
    } else check(0, "prof_report_build");
    prof_free(p);
    p = NULL;
    st = prof_launch(&dev, m, "no_such_kernel", &cfg, &fault, &insns, &p);
    check(st != VM_OK && p == NULL, "an unknown kernel gives no profile and a launch error");
    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
