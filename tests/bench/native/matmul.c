/* matmul.c — native version of kernels/matmul/matmul.cu at 512x512x512: the
 * same 16x16 shared-memory tiling (As[16][16], Bs[16][17]), blocks one after
 * another, the threads of a block as loops, on one core. */
#include <stdlib.h>
#include <string.h>
#include "bench_native.h"

#define TILE 16
#define SIZE 512

static void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    static float As[TILE][TILE], Bs[TILE][TILE + 1], acc[TILE][TILE];
    for (int by = 0; by < (M + TILE - 1) / TILE; by++)
        for (int bx = 0; bx < (N + TILE - 1) / TILE; bx++) {
            memset(acc, 0, sizeof acc);
            for (int k0 = 0; k0 < K; k0 += TILE) {
                for (int ty = 0; ty < TILE; ty++)
                    for (int tx = 0; tx < TILE; tx++) {
                        int row = by * TILE + ty, col = bx * TILE + tx, ka = k0 + tx, kb = k0 + ty;
                        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
                        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
                    }
                for (int ty = 0; ty < TILE; ty++)
                    for (int tx = 0; tx < TILE; tx++)
                        for (int k = 0; k < TILE; k++) acc[ty][tx] += As[ty][k] * Bs[k][tx];
            }
            for (int ty = 0; ty < TILE; ty++)
                for (int tx = 0; tx < TILE; tx++) {
                    int row = by * TILE + ty, col = bx * TILE + tx;
                    if (row < M && col < N) C[row * N + col] = acc[ty][tx];
                }
        }
}

int main(void)
{
    float *A = malloc(sizeof(float) * SIZE * SIZE), *B = malloc(sizeof(float) * SIZE * SIZE);
    float *C = calloc(SIZE * SIZE, sizeof(float));
    if (!A || !B || !C) return 1;
    memset(A, 63, sizeof(float) * SIZE * SIZE);
    memset(B, 62, sizeof(float) * SIZE * SIZE);
    BENCH_RUN(matmul(A, B, C, SIZE, SIZE, SIZE), C, sizeof(float) * SIZE * SIZE);
    free(A); free(B); free(C);
    return 0;
}
