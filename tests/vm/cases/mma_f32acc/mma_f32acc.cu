// mma.sync f32/f16 accumulation edge cases (the tensor-core adder, vm/mma.c): the same
// layout as mma_sync (per trial, variant and lane: 10 operand words in ins, 4 words of D
// in out; variants 0..6 = f16/bf16 k16, f16 acc k16, f16/bf16 k8, f16 acc k8, tf32 k8),
// with operands drawn to stress the alignment and rounding (mode = trial % 6):
// 0 sparse (most elements zero: one or two products against C, wide exponent gaps),
// 1 cancelling (two-bit significands, nearby exponents: products cancel, C's low bits
// matter), 2 two clusters 12..16 binades apart (terms at the truncation boundary),
// 3 tiny (subnormal inputs, subnormal C, underflowing products), 4 signed zeros with
// a few small values, 5 huge (products beyond the f32 range, C near FLT_MAX).
#include <stdint.h>

#define NV 7
__device__ __forceinline__ uint32_t hsh(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__device__ __forceinline__ uint32_t rnd(uint32_t t, uint32_t v, uint32_t l, uint32_t r) {
    return hsh(hsh(hsh(t * 0x9e3779b9u + v) + l * 0x85ebca6bu) + r * 0xc2b2ae35u);
}
// an f16 (kind 0), bf16 (kind 1) or tf32 (kind 2, in an f32 word) operand drawn for mode
__device__ uint32_t el_bits(uint32_t h, int mode, int kind) {
    int fb = kind == 1 ? 7 : 10, eb = kind == 0 ? 5 : 8, bias = (1 << (eb - 1)) - 1;
    uint32_t s = h >> 31, m = (h >> 3) & ((1u << fb) - 1), sel = (h >> 24) & 7;
    int e;
    switch (mode) {
    case 0: e = bias - 8 + (int)((h >> 12) % 16); if (sel < 5) e = 0, m = 0; break;
    case 1: e = bias - 1 + (int)((h >> 12) % 3); m &= 3u << (fb - 2); break;
    case 2: e = (h >> 12) & 1 ? bias + (int)((h >> 13) % 2) : bias - 6 - (int)((h >> 13) % 3); break;
    case 3: e = (int)((h >> 12) % 3); if (kind) e = sel < 4 ? 0 : (int)((h >> 12) % 70); break;
    case 4: e = bias - 2 + (int)((h >> 12) % 4); if (sel < 6) e = 0, m = 0; break;
    default: e = (1 << eb) - 2 - (int)((h >> 12) % 4); if (kind == 0) e -= (int)((h >> 14) % 8); break;
    }
    if (kind == 2) return s << 31 | (uint32_t)e << 23 | m << 13 | (sel == 7 ? (h & 0x1fff) : 0);
    return s << 15 | (uint32_t)e << fb | m;
}
__device__ uint32_t c_bits(uint32_t h, int mode) {
    uint32_t s = h & 0x80000000u, m = h & 0x7fffff, sel = (h >> 27) & 7;
    int e;
    switch (mode) {
    case 0: e = 127 - 20 + (int)((h >> 23) % 40); if (sel == 0) e = 0, m = 0; break;
    case 1: e = 127 - 6 + (int)((h >> 23) % 8); if (sel == 0) e = 0, m = 0; break;
    case 2: e = 127 - 3 + (int)((h >> 23) % 5); if (sel < 2) e = 127 - 24 - (int)((h >> 23) % 4); break;
    case 3: e = sel < 4 ? 0 : (int)((h >> 23) % 40); break;
    case 4: e = sel < 5 ? 0 : 120 + (int)((h >> 23) % 8); if (e == 0) m = 0; break;
    default: e = 254 - (int)((h >> 23) % 3); if (sel == 0) e = 100; break;
    }
    return s | (uint32_t)e << 23 | m;
}

extern "C" __global__ void mma_f32acc(uint32_t *out, uint32_t *ins) {
    uint32_t lane = threadIdx.x & 31;
    uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int mode = t % 6;
    for (uint32_t v = 0; v < NV; v++) {
        uint32_t a[4], b[2], c[4], d[4] = {0, 0, 0, 0};
        uint32_t *io = ins + ((t * NV + v) * 32 + lane) * 10, *o = out + ((t * NV + v) * 32 + lane) * 4;
        for (int r = 0; r < 10; r++) {
            uint32_t h = rnd(t, v, lane, r), w = 0;
            uint32_t h2 = hsh(h + 0x1234567u);
            if (r < 6) {                        // a0..3, b0..1 (16-bit pairs, tf32)
                if (v == 6) w = el_bits(h, mode, 2);
                else { int k = v == 1 || v == 4; w = el_bits(h, mode, k) | el_bits(h2, mode, k) << 16; }
            } else {                            // c0..3
                if (v == 2 || v == 5) { w = el_bits(h, mode, 0) | el_bits(h2, mode, 0) << 16; if (mode == 5) w &= 0xbfffbfffu; }
                else w = c_bits(h, mode);
            }
            io[r] = w;
        }
        __syncwarp();
        for (int r = 0; r < 4; r++) a[r] = io[r];
        b[0] = io[4]; b[1] = io[5];
        for (int r = 0; r < 4; r++) c[r] = io[6 + r];
        switch (v) {
        case 0: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        case 1: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        case 2: asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                             : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1])); break;
        case 3: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        case 4: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        case 5: asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                             : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
        case 6: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        }
        for (int r = 0; r < 4; r++) o[r] = d[r];
    }
}
