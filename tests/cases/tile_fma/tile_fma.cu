// tile_fma: the inner loop of a tiled matrix product (shared-memory loads feeding a chain
// of fma.rn.f32) in the shapes ptxemu runs as one superinstruction (vm/fuse.c) and in those
// it must leave to the single instructions.  blockIdx.y picks the variant:
//   0  As[ty][k] * Bs[k][tx]        a broadcast per half-warp times 8 words side by side
//   1  As[ty][k] * Bs[k][perm[tx]]  the second load gathered (a permutation of the columns)
//   2  as 0 in the lanes with (tx + ty) % 3 != 0 only: partial lane groups
//   3  As[k][ty] * Bs[tx][k]        a column-wise A tile (17-word stride between lanes)
//   4  as 0 with the accumulator reset to the A value at k = 0 of every other tile
// A holds NaN, infinities, -0, subnormals and values that overflow; C gets each variant's
// 64 x 64 result.  The lane-instruction count and the results must not depend on whether
// (or where, within a turn) the run is fused.
#define T 16
#define N 64
#define VARIANTS 5

extern "C" __global__ void tile_fma(const float *A, const float *B, const int *perm, float *C)
{
    __shared__ float As[T][T + 1], Bs[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y, v = blockIdx.y;
    int row = blockIdx.x / (N / T) * T + ty, col = blockIdx.x % (N / T) * T + tx;
    int c = perm[tx];
    float acc = 0.0f;
    for (int t = 0; t < N; t += T) {
        As[ty][tx] = A[row * N + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
        if (v == 0) {
#pragma unroll
            for (int k = 0; k < T; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        } else if (v == 1) {
#pragma unroll
            for (int k = 0; k < T; k++) acc = fmaf(As[ty][k], Bs[k][c], acc);
        } else if (v == 2) {
            if ((tx + ty) % 3) {
#pragma unroll
                for (int k = 0; k < T; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
            }
        } else if (v == 3) {
#pragma unroll
            for (int k = 0; k < T; k++) acc = fmaf(As[k][ty], Bs[tx][k], acc);
        } else {
            if ((t / T) & 1) acc = As[ty][0];
#pragma unroll
            for (int k = 0; k < T; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        }
        __syncthreads();
    }
    C[(v * N + row) * N + col] = acc;
}
