/* histogram.c — native version of kernels/histogram/histogram.cu as
 * benchmarked (tests/bench/histogram.txt: 4 MB, 256 blocks of 128, a
 * grid-stride loop): per block a private 256-bin histogram, merged into
 * the global one. */
#include <stdlib.h>
#include <string.h>
#include "bench_native.h"

#define N (4 * 1024 * 1024)
#define BLOCK 128
#define GRID 256

static void histogram(const unsigned char *data, int n, unsigned *hist)
{
    unsigned local[256];
    for (int b = 0; b < GRID; b++) {
        memset(local, 0, sizeof local);
        for (int t = 0; t < BLOCK; t++)
            for (int i = b * BLOCK + t; i < n; i += BLOCK * GRID) local[data[i]]++;
        for (int i = 0; i < 256; i++)
            if (local[i]) hist[i] += local[i];
    }
}

int main(void)
{
    unsigned char *data = malloc(N);
    static unsigned hist[256];
    if (!data) return 1;
    memset(data, 7, N);
    BENCH_RUN((memset(hist, 0, sizeof hist), histogram(data, N, hist)), hist, sizeof hist);
    free(data);
    return 0;
}
