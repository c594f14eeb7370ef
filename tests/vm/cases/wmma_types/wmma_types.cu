// nvcuda::wmma beyond f16: bf16 (m16n16k16 -> f32), tf32 (m16n16k8 -> f32, the fragments
// converted element by element with __float_to_tf32), s8/u8 (m16n16k16 -> s32) and f64
// (m8n8k4), each in two layouts (row x col, col x row; tf32 row x row, col x col), with a
// row- or column-major accumulator.  Warp w of 8 builds its operands by hash in `tiles`
// (A, B, then C; per warp 4096 bytes), loads, multiplies twice (D = A B + (A B + C)) and
// stores D into out (per warp 1024 bytes).  grid 1, block 256.
#include <stdint.h>
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}

template <typename AL, typename BL, typename T, typename TC, int M, int N, int K>
__device__ void run(const T *A, const T *B, const TC *C, TC *D, int lda, int ldb, wmma::layout_t lc, bool tf32) {
    wmma::fragment<wmma::matrix_a, M, N, K, typename std::conditional<sizeof(T) == 4 && !std::is_same<T, int>::value, wmma::precision::tf32, T>::type, AL> a;
    wmma::fragment<wmma::matrix_b, M, N, K, typename std::conditional<sizeof(T) == 4 && !std::is_same<T, int>::value, wmma::precision::tf32, T>::type, BL> b;
    wmma::fragment<wmma::accumulator, M, N, K, TC> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    if (tf32) {
        for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
        for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    }
    wmma::load_matrix_sync(c, C, lc == wmma::mem_row_major ? N : M, lc);
    wmma::mma_sync(c, a, b, c);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, lc == wmma::mem_row_major ? N : M, lc);
}

extern "C" __global__ void wmma_types(uint8_t *out, uint8_t *tiles) {
    uint32_t lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    uint8_t *T = tiles + w * 4096, *O = out + w * 1024;
    for (uint32_t i = lane; i < 1024; i += 32) {       /* 4096 bytes of operands, by kind */
        uint32_t h = hsh(w * 100003u + i), v;
        if (w < 2) v = (h & 0x80008000u) | ((120 + (h >> 8) % 14) << 7) | ((120 + (h >> 3) % 14) << 23) | (h & 0x007f0000u) | (h >> 25);  /* bf16 pairs */
        else if (w < 4) v = (h & 0x80000000u) | ((118 + (h >> 23) % 18) << 23) | (h & 0x7fffff);    /* f32 */
        else if (w < 6) v = h;                                                               /* bytes */
        else { uint32_t e = 1015 + (h >> 20) % 16; v = (i & 1) ? ((h & 0x80000000u) | e << 20 | (h & 0xfffff)) : hsh(h); }  /* f64 halves */
        ((uint32_t *)T)[i] = v;
    }
    __syncwarp();
    switch (w) {
    case 0: run<wmma::row_major, wmma::col_major, __nv_bfloat16, float, 16, 16, 16>((__nv_bfloat16 *)T, (__nv_bfloat16 *)(T + 1024), (float *)(T + 2048), (float *)O, 16, 16, wmma::mem_row_major, false); break;
    case 1: run<wmma::col_major, wmma::row_major, __nv_bfloat16, float, 16, 16, 16>((__nv_bfloat16 *)T, (__nv_bfloat16 *)(T + 1024), (float *)(T + 2048), (float *)O, 24, 16, wmma::mem_col_major, false); break;
    case 2: run<wmma::row_major, wmma::row_major, float, float, 16, 16, 8>((float *)T, (float *)(T + 1024), (float *)(T + 2048), (float *)O, 8, 16, wmma::mem_row_major, true); break;
    case 3: run<wmma::col_major, wmma::col_major, float, float, 16, 16, 8>((float *)T, (float *)(T + 1024), (float *)(T + 2048), (float *)O, 16, 8, wmma::mem_col_major, true); break;
    case 4: run<wmma::row_major, wmma::col_major, signed char, int, 16, 16, 16>((signed char *)T, (signed char *)(T + 1024), (int *)(T + 2048), (int *)O, 32, 16, wmma::mem_row_major, false); break;
    case 5: run<wmma::col_major, wmma::row_major, unsigned char, int, 16, 16, 16>((unsigned char *)T, (unsigned char *)(T + 1024), (int *)(T + 2048), (int *)O, 16, 48, wmma::mem_col_major, false); break;
    case 6: run<wmma::row_major, wmma::col_major, double, double, 8, 8, 4>((double *)T, (double *)(T + 1024), (double *)(T + 2048), (double *)O, 4, 4, wmma::mem_row_major, false); break;
    default: run<wmma::col_major, wmma::row_major, double, double, 8, 8, 4>((double *)T, (double *)(T + 1024), (double *)(T + 2048), (double *)O, 8, 12, wmma::mem_col_major, false); break;
    }
}
