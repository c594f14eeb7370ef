/* launches.c — `make bench`'s launch overhead: many launches of one small
 * kernel (kernels/saxpy) from one host process, as a CUDA program makes them
 * under `exec`, through libptxemu.  Prints, per grid size and thread count,
 * the wall time per launch (best of 3 rounds).  Usage: launches NCPU */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptxemu.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int ncpu = argc > 1 ? atoi(argv[1]) : 1;
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load("kernels/saxpy/saxpy.ptx", &d, &text, &len);
    if (!m) { diag_render(&d, text, len, stderr); return 1; }
    ptxemu_device dev;
    ptxemu_device_init(&dev);
    const int sizes[] = { 1000, 100000 }, reps[] = { 2000, 200 };
    printf("%-34s %12s %12s\n", "launch of saxpy (256 threads/block)", "1 thread us", "all cores us");
    for (int k = 0; k < 2; k++) {
        int n = sizes[k];
        uint64_t dx = ptxemu_malloc(&dev, (size_t)n * 4), dy = ptxemu_malloc(&dev, (size_t)n * 4);
        struct { int32_t n; float a; uint64_t x, y; } params = { n, 2.5f, dx, dy };
        double us[2];
        for (int j = 0; j < 2; j++) {
            vm_config cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.grid[0] = (uint32_t)((n + 255) / 256);
            cfg.block[0] = 256;
            cfg.params = &params;
            cfg.params_size = sizeof params;
            cfg.jobs = j ? ncpu : 1;
            double best = 1e30;
            for (int round = 0; round < 3; round++) {
                vm_fault f;
                double t0 = now();
                for (int i = 0; i < reps[k]; i++)
                    if (ptxemu_launch(&dev, m, "saxpy", &cfg, &f, NULL)) { fprintf(stderr, "launch: %s\n", f.msg); return 1; }
                double t = (now() - t0) / reps[k];
                if (t < best) best = t;
            }
            us[j] = best * 1e6;
        }
        char name[64];
        snprintf(name, sizeof name, "%d elements, %d blocks", n, (n + 255) / 256);
        printf("%-34s %12.1f %12.1f\n", name, us[0], us[1]);
    }
    ptxemu_device_destroy(&dev);
    ptxemu_module_free(m);
    free(text);
    diag_list_free(&d);
    return 0;
}
