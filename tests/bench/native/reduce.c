/* reduce.c — native version of kernels/reduce/reduce.cu as benchmarked
 * (tests/bench/reduce.txt: 2M ints, 2048 blocks of 256): per block, two
 * loads per thread into a shared array, the same tree down to 32 values,
 * the warp-shuffle tree, then the block's partial sum and a global total. */
#include <stdlib.h>
#include <string.h>
#include "bench_native.h"

#define N (2 * 1024 * 1024)
#define BLOCK 256
#define GRID 2048

static void reduce(const int *in, int n, int *partial, int *total)
{
    int s[BLOCK], v[BLOCK];
    for (int b = 0; b < GRID; b++) {
        for (unsigned tid = 0; tid < BLOCK; tid++) {
            unsigned i = (unsigned)b * BLOCK * 2 + tid;
            int x = 0;
            if (i < (unsigned)n) x = in[i];
            if (i + BLOCK < (unsigned)n) x += in[i + BLOCK];
            s[tid] = v[tid] = x;
        }
        for (unsigned st = BLOCK / 2; st >= 32; st >>= 1)
            for (unsigned tid = 0; tid < st; tid++) s[tid] = v[tid] = v[tid] + s[tid + st];
        for (int off = 16; off > 0; off >>= 1)
            for (int tid = 0; tid < 32; tid++) v[tid] += tid + off < 32 ? v[tid + off] : v[tid];
        partial[b] = v[0];
        *total += v[0];
    }
}

int main(void)
{
    int *in = malloc(sizeof(int) * N), *partial = calloc(GRID, sizeof(int));
    int total = 0;
    if (!in || !partial) return 1;
    memset(in, 1, sizeof(int) * N);
    BENCH_RUN((total = 0, reduce(in, N, partial, &total)), partial, sizeof(int) * GRID);
    free(in); free(partial);
    return total == 0;
}
