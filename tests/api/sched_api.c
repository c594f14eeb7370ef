/* sched_api.c — the default schedule's ageing rule (vm.h: VM_AGE_LIMIT, VM_AGE_SLICE), seen
 * through the warp instructions a launch issues (sched.cu reads %clock64, which ptxemu counts as
 * 4 per warp instruction).  Lanes that wait for others to reconverge with them are not let run
 * ahead after a few short turns (recursion: sched_fib issued 33,044 warp instructions when every
 * turn aged them, 19,008 with the rule); a spin lock's holder still runs after a few turns of
 * the spinners that used their whole slice (sched_lock: about 32,000 warp instructions; without
 * the slice's weight each hand-off waits 4096 turns, some 33 M).  Prints PASS/FAIL lines and
 * "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptxemu.h"

/* Launches kernel k (one warp; out, clk) and returns its warp instructions, or -1. */
static long long issued(ptxemu_device *dev, const ptxemu_module *m, const char *k, uint64_t out, uint64_t clk)
{
    struct { uint64_t out, clk; } params = { out, clk };
    vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = 1; cfg.block[0] = 32;
    cfg.params = &params;
    cfg.params_size = sizeof params;
    cfg.jobs = 1;
    vm_fault fault;
    memset(&fault, 0, sizeof fault);
    vm_status st = ptxemu_launch(dev, m, k, &cfg, &fault, NULL);
    free(fault.report);
    if (st != VM_OK) { printf("  %s: %s\n", k, fault.msg); return -1; }
    long long c = 0;
    ptxemu_memcpy_dtoh(dev, &c, clk, sizeof c);
    return c / 4;
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void)
{
    int pass = 0, fail = 0;
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load("tests/api/sched.ptx", &d, &text, &len);
    if (!m) { diag_render(&d, text, len, stderr); printf("FAIL load\n0 passed, 1 failed\n"); return 1; }
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    uint64_t out = ptxemu_malloc(&dev, 32 * sizeof(int)), clk = ptxemu_malloc(&dev, sizeof(long long));
    int got[32];

    long long n = issued(&dev, m, "sched_fib", out, clk);
    ptxemu_memcpy_dtoh(&dev, got, out, sizeof got);
    int ok = n > 0;
    for (int l = 0; l < 32; l++) ok &= got[l] == fib(l % 16) + (l & 1 ? fib(l % 7) : 0);
    if (ok) { printf("PASS sched_fib computes fib\n"); pass++; } else { printf("FAIL sched_fib's results\n"); fail++; }
    if (n > 0 && n <= 20000) { printf("PASS sched_fib: %lld warp instructions (waiting lanes reconverge)\n", n); pass++; }
    else { printf("FAIL sched_fib: %lld warp instructions, more than 20000: lanes ran ahead alone\n", n); fail++; }

    n = issued(&dev, m, "sched_lock", out, clk);
    ptxemu_memcpy_dtoh(&dev, got, out, sizeof(int));
    if (n > 0 && got[0] == 32 * 33 / 2) { printf("PASS sched_lock: every lane took the lock\n"); pass++; }
    else { printf("FAIL sched_lock: count %d, want %d\n", got[0], 32 * 33 / 2); fail++; }
    if (n > 0 && n <= 48000) { printf("PASS sched_lock: %lld warp instructions (the holder is not starved)\n", n); pass++; }
    else { printf("FAIL sched_lock: %lld warp instructions, more than 48000: the holder waited too long\n", n); fail++; }

    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    free(text);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
