// nvcuda::wmma m16n16k16 f16 x f16 -> f32: load_matrix_sync (row/col major, padded strides,
// global and shared), mma_sync, store_matrix_sync (row/col). The fragments never leave
// registers, so only the memory-to-memory result is checked. Each warp builds its own
// 16x16 A, B (f16, drawn by hash: warps 0-3 small exponents, 4-7 the full range) and C
// (f32). grid 2, block 128. out: per warp 256 f32 of D; tiles: per warp A, B, C as built.
#include <stdint.h>
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}

extern "C" __global__ void wmma_f16(float *out, uint32_t *tiles) {
    __shared__ __align__(32) half sa[4][16 * 24];
    uint32_t lane = threadIdx.x & 31, wl = threadIdx.x >> 5, w = blockIdx.x * 4 + wl;
    uint16_t *A = (uint16_t *)(tiles + w * 768), *B = A + 16 * 24;
    float *C = (float *)(tiles + w * 768 + 384);
    for (uint32_t i = lane; i < 384; i += 32) {
        uint32_t h = hsh(w * 100003u + i), h2 = hsh(h ^ 0x5bd1e995u);
        uint32_t e = w < 4 ? 12 + (h >> 10) % 6 : 1 + (h >> 10) % 28, e2 = w < 4 ? 12 + (h2 >> 10) % 6 : 1 + (h2 >> 10) % 28;
        A[i] = (uint16_t)((h >> 31) << 15 | e << 10 | (h & 0x3ff));
        B[i] = (uint16_t)((h2 >> 31) << 15 | e2 << 10 | (h2 & 0x3ff));
        if (i < 256) {
            uint32_t h3 = hsh(h2 + 77);
            uint32_t e3 = w < 4 ? 124 + (h3 >> 23) % 8 : 100 + (h3 >> 23) % 50;
            ((uint32_t *)C)[i] = (h3 & 0x80000000u) | e3 << 23 | (h3 & 0x7fffff);
        }
    }
    for (uint32_t i = lane; i < 16 * 24; i += 32) sa[wl][i] = ((half *)A)[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> ar;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> ac;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bc;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> br;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    float *o = out + w * 256;
    switch (wl) {
    case 0:
        wmma::load_matrix_sync(ar, (half *)A, 16);
        wmma::load_matrix_sync(bc, (half *)B, 16);
        wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
        wmma::mma_sync(c, ar, bc, c);
        wmma::store_matrix_sync(o, c, 16, wmma::mem_row_major);
        break;
    case 1:
        wmma::load_matrix_sync(ac, (half *)A, 16);
        wmma::load_matrix_sync(br, (half *)B, 16);
        wmma::load_matrix_sync(c, C, 16, wmma::mem_col_major);
        wmma::mma_sync(c, ac, br, c);
        wmma::store_matrix_sync(o, c, 16, wmma::mem_col_major);
        break;
    case 2:
        wmma::load_matrix_sync(ar, &sa[wl][0], 24);
        wmma::load_matrix_sync(br, (half *)B, 24);
        wmma::fill_fragment(c, 0.0f);
        wmma::mma_sync(c, ar, br, c);
        wmma::store_matrix_sync(o, c, 16, wmma::mem_row_major);
        break;
    default:
        wmma::load_matrix_sync(ac, &sa[wl][0], 16);
        wmma::load_matrix_sync(bc, (half *)B, 24);
        wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
        wmma::mma_sync(c, ac, bc, c);
        wmma::mma_sync(c, ac, bc, c);
        wmma::store_matrix_sync(o, c, 16, wmma::mem_col_major);
        break;
    }
}
