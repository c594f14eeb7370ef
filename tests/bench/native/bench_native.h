/* bench_native.h — timing for the native C versions of the benchmark kernels
 * (the .c files beside this header, built by tests/bench.sh with gcc -O2): each
 * program runs its algorithm BENCH_REPS times on one core and prints the
 * best time in seconds and a checksum of the result. */
#ifndef BENCH_NATIVE_H
#define BENCH_NATIVE_H
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BENCH_REPS 3

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* FNV-1a over n bytes. */
static uint64_t bench_hash(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

#define BENCH_RUN(body, result, bytes) do { \
        double best_ = 1e30; \
        for (int rep_ = 0; rep_ < BENCH_REPS; rep_++) { \
            double t0_ = bench_now(); \
            body; \
            double t_ = bench_now() - t0_; \
            if (t_ < best_) best_ = t_; \
        } \
        printf("%.6f %016llx\n", best_, (unsigned long long)bench_hash(result, bytes)); \
    } while (0)

#endif
