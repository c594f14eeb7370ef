/* launches_api.c — many launches in one process, as a CUDA program makes
 * them under `exec`: the CTA slots' memory (registers, local and shared
 * memory) is kept from one launch to the next (vm/sched.c, the slot memory
 * pool), and every block must still start from zeroed local memory and
 * registers.  tests/par/uninit.ptx reads a register and a local word before
 * writing them and leaves values behind in both: every output word is 0 on
 * every launch, on one thread and on two, also after a launch of another
 * kernel of another module in the same slots; and in a forked child, which
 * has none of the parent's helper threads.  Prints PASS/FAIL lines and
 * "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptxemu.h"

static int all_zero(const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i]) return 0;
    return 1;
}

int main(void)
{
    int pass = 0, fail = 0;
    diag_list d;
    diag_init(&d);
    char *text = NULL, *text2 = NULL;
    size_t len = 0, len2 = 0;
    ptxemu_module *m = ptxemu_load("tests/par/uninit.ptx", &d, &text, &len);
    ptxemu_module *sx = ptxemu_load("kernels/saxpy/saxpy.ptx", &d, &text2, &len2);
    if (!m || !sx) { diag_render(&d, m ? text2 : text, m ? len2 : len, stderr); printf("FAIL load\n0 passed, 1 failed\n"); return 1; }
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    enum { N = 4 * 64 };
    uint32_t host[N];
    uint64_t out = ptxemu_malloc(&dev, sizeof host);
    float xs[N];
    for (int i = 0; i < N; i++) xs[i] = (float)i * 0.5f + 1.0f;
    uint64_t dx = ptxemu_malloc(&dev, sizeof xs), dy = ptxemu_malloc(&dev, sizeof xs);
    ptxemu_memcpy_htod(&dev, dx, xs, sizeof xs);
    ptxemu_memcpy_htod(&dev, dy, xs, sizeof xs);
    vm_fault fault;
    memset(&fault, 0, sizeof fault);
    for (int round = 0; round < 6; round++) {
        vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid[0] = 4;
        cfg.block[0] = 64;
        cfg.jobs = 1 + (round & 1);
        if (round == 3) {
            /* another module's kernel in between: it leaves its values in the slots' memory */
            struct { int32_t n; float a; uint64_t x, y; } sp = { N, 2.5f, dx, dy };
            cfg.params = &sp;
            cfg.params_size = sizeof sp;
            vm_status st = ptxemu_launch(&dev, sx, "saxpy", &cfg, &fault, NULL);
            if (st == VM_OK) { printf("PASS saxpy between the launches\n"); pass++; }
            else { printf("FAIL saxpy between the launches: %s\n", fault.msg); fail++; }
            continue;
        }
        memset(host, 0xa5, sizeof host);
        ptxemu_memcpy_htod(&dev, out, host, sizeof host);
        uint64_t p = out;
        cfg.params = &p;
        cfg.params_size = sizeof p;
        vm_status st = ptxemu_launch(&dev, m, "uninit", &cfg, &fault, NULL);
        ptxemu_memcpy_dtoh(&dev, host, out, sizeof host);
        if (st == VM_OK && all_zero(host, N)) { printf("PASS launch %d (--jobs %d): blocks start from zeroed registers and local memory\n", round, cfg.jobs); pass++; }
        else {
            printf("FAIL launch %d (--jobs %d): %s; out[0] = %u, out[%d] = %u\n", round, cfg.jobs, st == VM_OK ? "ok" : fault.msg,
                   host[0], N - 1, host[N - 1]);
            fail++;
        }
    }
    /* a forked child (Python's multiprocessing) has none of the parent's helper threads:
     * it must start its own, not wait for the parent's */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        enum { BIG = 1 << 20 };        /* long enough for a helper to start and take blocks */
        uint64_t bx = ptxemu_malloc(&dev, (size_t)BIG * 4), by = ptxemu_malloc(&dev, (size_t)BIG * 4);
        struct { int32_t n; float a; uint64_t x, y; } sp = { BIG, 2.5f, bx, by };
        vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid[0] = BIG / 256;
        cfg.block[0] = 256;
        cfg.jobs = 2;
        cfg.params = &sp;
        cfg.params_size = sizeof sp;
        vm_status st = ptxemu_launch(&dev, sx, "saxpy", &cfg, &fault, NULL);
        if (st != VM_OK || fault.threads != 2) {
            printf("  child: %s, ran on %d host threads %s\n", vm_status_name(st), fault.threads, fault.threads_note);
            fflush(stdout);
            _exit(1);
        }
        _exit(0);
    }
    int ws = 0;
    if (pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
        printf("PASS a forked child launches on two threads\n"); pass++;
    } else { printf("FAIL a forked child launching on two threads: status %#x\n", ws); fail++; }
    free(fault.report);
    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    ptxemu_module_free(sx);
    free(text);
    free(text2);
    diag_list_free(&d);
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
