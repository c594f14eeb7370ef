/* recurrence.c — native version of tests/bench/src/recurrence.cu: 8,192
 * threads' recurrences computed one after another on one core. */
#include <stdlib.h>
#include <string.h>
#include "bench_native.h"

#define NTHREADS 8192
#define ITERS 1144

static void recurrence(const unsigned *seed, unsigned *out, int n, int iters)
{
    for (int i = 0; i < n; i++) {
        unsigned x = seed[i] + (unsigned)i, y = x ^ 0x9e3779b9u;
        for (int k = 0; k < iters; k++) {
            x = x * 1664525u + 1013904223u;
            y ^= x >> 7;
            y = (y << 3) | (y >> 29);
            x += y ^ (unsigned)k;
        }
        out[i] = x ^ y;
    }
}

int main(void)
{
    static unsigned seed[NTHREADS], out[NTHREADS];
    memset(seed, 5, sizeof seed);
    BENCH_RUN(recurrence(seed, out, NTHREADS, ITERS), out, sizeof out);
    return 0;
}
