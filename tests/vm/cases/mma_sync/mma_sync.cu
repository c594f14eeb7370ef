// mma.sync.aligned on every shape/type CUDA code uses: m16n8k16 and m16n8k8 with f16/bf16
// inputs (f32 and f16 accumulators), m16n8k8 tf32, m8n8k4 f64, m16n8k32 s8/u8 (+ .satfinite).
// Each warp runs one trial: every lane builds its fragment registers from a hash of
// (trial, variant, lane, register) -- so the case checks the fragment layouts and the
// arithmetic together -- and writes its raw D registers. The trial number picks how the
// operands are drawn (mode = trial % 6): 0 small exponents, 1 the full exponent range,
// 2 wide range with large accumulators, 3 tiny/subnormal products and big C, 4 specials
// (inf, NaN, +-0, subnormals) mixed in, 5 large values (f16 overflow). out: per (trial,
// variant, lane) 4 words of D; ins: the 10 operand words each lane used (a, b, c).
#include <stdint.h>

#define NV 11
__device__ __forceinline__ uint32_t hsh(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__device__ __forceinline__ uint32_t rnd(uint32_t t, uint32_t v, uint32_t l, uint32_t r) {
    return hsh(hsh(hsh(t * 0x9e3779b9u + v) + l * 0x85ebca6bu) + r * 0xc2b2ae35u);
}
// an f16 (kind 0) or bf16 (kind 1) operand drawn for mode
__device__ uint32_t half_bits(uint32_t h, int mode, int kind) {
    uint32_t s = (h >> 31) << 15, m = h & 0x3ff, e;
    uint32_t sel = (h >> 24) & 15;
    int ebits = kind ? 8 : 5, bias = kind ? 127 : 15;
    switch (mode) {
    case 0: e = bias - 3 + ((h >> 10) % 7); break;
    case 1: case 2: e = 1 + ((h >> 10) % ((1 << ebits) - 2)); break;
    case 3: e = (h >> 10) % 6; break;
    case 5: e = ((1 << ebits) - 7) + ((h >> 10) % 6); break;
    default: e = bias - 8 + ((h >> 10) % 16);
        if (sel == 0) { e = (1 << ebits) - 1; m = 0; }            // inf
        else if (sel == 1) { e = (1 << ebits) - 1; m |= 1; }      // NaN
        else if (sel == 2) { e = 0; m = 0; }                       // +-0
        else if (sel == 3) e = 0;                                  // subnormal
        break;
    }
    if (kind) { m = (h >> 3) & 0x7f; return s | e << 7 | m; }
    return s | e << 10 | m;
}
__device__ uint32_t f32_bits(uint32_t h, int mode) {
    uint32_t s = h & 0x80000000u, m = h & 0x7fffff, e, sel = (h >> 27) & 15;
    switch (mode) {
    case 0: e = 124 + ((h >> 23) % 8); break;
    case 1: e = 90 + ((h >> 23) % 80); break;
    case 2: case 3: e = 135 + ((h >> 23) % 20); break;
    case 5: e = 200 + ((h >> 23) % 50); break;
    default: e = 110 + ((h >> 23) % 30);
        if (sel == 0) { e = 255; m = 0; } else if (sel == 1) { e = 255; m |= 1; } else if (sel == 2) { e = 0; m = 0; }
        else if (sel == 3) e = 0;
        break;
    }
    return s | e << 23 | m;
}
__device__ uint64_t f64_bits(uint32_t h, uint32_t h2, int mode) {
    uint64_t s = (uint64_t)(h >> 31) << 63, m = ((uint64_t)(h & 0xfffff) << 32) | h2, e, sel = (h >> 20) & 15;
    switch (mode) {
    case 0: e = 1020 + ((h >> 24) % 8); break;
    case 1: case 2: e = 900 + ((h >> 24) % 250); break;
    case 3: e = (h >> 24) % 4; break;
    case 5: e = 2040 + ((h >> 24) % 7); break;
    default: e = 1010 + ((h >> 24) % 30);
        if (sel == 0) { e = 2047; m = 0; } else if (sel == 1) { e = 2047; m |= 1; } else if (sel == 2) { e = 0; m = 0; }
        break;
    }
    return s | e << 52 | m;
}

extern "C" __global__ void mma_sync(uint32_t *out, uint32_t *ins) {
    uint32_t lane = threadIdx.x & 31;
    uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int mode = t % 6;
    for (uint32_t v = 0; v < NV; v++) {
        uint32_t a[4], b[2], c[4], d[4] = {0, 0, 0, 0};
        uint32_t *io = ins + ((t * NV + v) * 32 + lane) * 10, *o = out + ((t * NV + v) * 32 + lane) * 4;
        for (int r = 0; r < 10; r++) {
            uint32_t h = rnd(t, v, lane, r), w;
            uint32_t h2 = hsh(h + 0x1234567u);
            if (v == 7) {                       // f64: a = r0:1 (lo, hi), b = r2:3, c = r4..7
                uint64_t x = f64_bits(h, h2, mode);
                if (r & 1) w = 0; else w = 0;
                io[r] = 0;
                (void)x;
            }
            if (r < 6) {                        // a0..3, b0..1 (16-bit pairs, tf32, bytes)
                if (v == 6) w = mode == 0 ? (f32_bits(h, 0) & ~0x1fffu) : f32_bits(h, mode == 5 ? 0 : mode);
                else if (v >= 8) w = h;
                else { int k = v == 1 || v == 4; w = half_bits(h, mode, k) | half_bits(h2, mode, k) << 16; }
            } else {                            // c0..3
                if (v == 2 || v == 5) w = half_bits(h, mode, 0) | half_bits(h2, mode, 0) << 16;
                else if (v >= 8) w = mode == 5 ? 0x7fffff00u + (h & 0x1ff) * (h2 & 1 ? 1u : 0xffffffffu) : (int32_t)h >> (h2 & 15);
                else w = f32_bits(h, mode);
            }
            io[r] = w;
        }
        if (v == 7) {
            for (int r = 0; r < 8; r += 2) {
                uint64_t x = f64_bits(rnd(t, v, lane, r), rnd(t, v, lane, r + 1), mode);
                io[r] = (uint32_t)x; io[r + 1] = (uint32_t)(x >> 32);
            }
            io[8] = io[9] = 0;
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
        case 7: {
            double da = __hiloint2double(a[1], a[0]), db = __hiloint2double(a[3], a[2]);
            double dc0 = __hiloint2double(b[1], b[0]), dc1 = __hiloint2double(c[1], c[0]), dd0, dd1;
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                         : "=d"(dd0), "=d"(dd1) : "d"(da), "d"(db), "d"(dc0), "d"(dc1));
            d[0] = __double2loint(dd0); d[1] = __double2hiint(dd0); d[2] = __double2loint(dd1); d[3] = __double2hiint(dd1);
            break;
        }
        case 8: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        case 9: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        default: asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                              : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
        }
        for (int r = 0; r < 4; r++) o[r] = d[r];
    }
}
