// ldmatrix / stmatrix .m8n8 .x1/.x2/.x4 with and without .trans, and movmatrix.m8n8.trans:
// the fragment layouts of the warp-wide 8x8 b16 matrix moves. Rows come from permuted
// 16-byte rows of a shared tile (each lane gives its own row address); stmatrix writes
// into a zeroed tile that is copied out whole. grid 2, block 64 (two warps per block).
// out: per thread 32 words (ldmatrix results, movmatrix), then per block the stored tiles.
#include <stdint.h>

#define ROWS 64
__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

extern "C" __global__ void ldst_matrix(uint32_t *out) {
    __shared__ __align__(16) uint16_t tile[ROWS * 8];
    __shared__ __align__(16) uint16_t st[6][ROWS * 8];
    uint32_t tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (uint32_t i = tid; i < ROWS * 8; i += blockDim.x) tile[i] = (uint16_t)((i * 2654435761u + blockIdx.x * 977u) >> 13);
    for (uint32_t i = tid; i < 6 * ROWS * 8; i += blockDim.x) (&st[0][0])[i] = 0;
    __syncthreads();
    uint32_t *o = out + (blockIdx.x * blockDim.x + tid) * 32;
    uint32_t row = (lane * 7 + warp * 13 + blockIdx.x * 5) % ROWS;
    uint32_t a = smem(&tile[row * 8]);
    uint32_t r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    o[0] = r0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    o[1] = r0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    o[2] = r0; o[3] = r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    o[4] = r0; o[5] = r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    o[6] = r0; o[7] = r1; o[8] = r2; o[9] = r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    o[10] = r0; o[11] = r1; o[12] = r2; o[13] = r3;
    // ldmatrix from a generic-free .shared::cta form with an offset
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16 {%0,%1,%2,%3}, [%4+16];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem(&tile[((row + 3) % (ROWS - 2)) * 8])));
    o[14] = r0; o[15] = r1; o[16] = r2; o[17] = r3;
    // movmatrix: transpose the fragment of each of the four ldmatrix results
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r1) : "r"(o[6]));
    o[18] = r1;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r1) : "r"(o[11] ^ lane * 0x10001u));
    o[19] = r1;
    // stmatrix: each warp writes its own rows (warp 0 rows 0..31, warp 1 rows 32..63)
    uint32_t v0 = lane * 0x00020001u + 0x01000100u * warp, v1 = v0 ^ 0x11111111u, v2 = v0 + 0x40004000u, v3 = ~v0;
    uint32_t srow = warp * 32 + ((lane * 5 + 3) & 31);
    uint32_t s1row = warp * 32 + (lane & 7) * 4 + (lane >> 3);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(smem(&st[0][s1row * 8])), "r"(v0) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(smem(&st[1][s1row * 8])), "r"(v1) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(smem(&st[2][srow * 8])), "r"(v0), "r"(v1) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(smem(&st[3][srow * 8])), "r"(v2), "r"(v3) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(smem(&st[4][srow * 8])), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1,%2,%3,%4};" :: "r"(smem(&st[5][srow * 8])), "r"(v3), "r"(v2), "r"(v1), "r"(v0) : "memory");
    for (int k = 20; k < 32; k++) o[k] = 0;
    __syncthreads();
    uint32_t *so = out + gridDim.x * blockDim.x * 32 + blockIdx.x * (6 * ROWS * 8 / 2);
    const uint32_t *s32 = (const uint32_t *)&st[0][0];
    for (uint32_t i = tid; i < 6 * ROWS * 8 / 2; i += blockDim.x) so[i] = s32[i];
}
