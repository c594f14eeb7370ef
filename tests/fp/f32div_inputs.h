/* f32div_inputs.h -- the operands of the div.full/div.approx.f32 checks and the hash of their
 * results, shared by the GPU recorder (gpu_f32div_record.cu) and the check (mufu_check.c), so
 * that both see the same inputs in the same order.
 *   div_pair(i):        the i-th pseudo-random operand pair, a in the high word, b in the low
 *   div_exp_pair(ea, eb, j): the j-th pair with exponent fields ea and eb
 *   div_fix[]:          the fixed operands of the sweeps (a fixed, every b; b fixed, every a)
 *   div_chunk(h, r):    FNV-1a 64 of one 32-bit result folded into h (basis F64_FNV_BASIS)
 *   A run of results is hashed in chunks of DIV_CHUNK (div_chunk over each chunk's results from
 *   the basis), and the chunk hashes are folded in order with f64_fnv (from the basis). */
#ifndef PTXEMU_F32DIV_INPUTS_H
#define PTXEMU_F32DIV_INPUTS_H
#include "f64_inputs.h"

#define DIV_CHUNK (1u << 13)        /* results per chunk hash */
#define DIV_N_RANDOM (1u << 26)     /* random pairs hashed per op */
#define DIV_RANDOM_GROUP (1u << 20) /* the random pairs' hashes are per group of this many */
#define DIV_PAIR_N 4096u            /* pairs per (exponent of a, exponent of b) */
#define DIV_N_RAW (1u << 20)        /* results of div_pair(0 ..) recorded one by one per op */
#define DIV_N_FIX 16

/* the ops, in the order of every recording */
enum { DIV_FULL, DIV_FULL_FTZ, DIV_APPROX, DIV_APPROX_FTZ, DIV_NOPS };

/* fixed operands: 1, sqrt 2, pi, -3, 1 - 2^-24, max, 2^126 and its neighbour, the smallest
 * normal, the smallest subnormal, a subnormal, +0, +inf, a signalling NaN with a payload, 2^63,
 * 2^-63 */
static const uint32_t div_fix[DIV_N_FIX] = {
    0x3f800000u, 0x3fb504f3u, 0x40490fdbu, 0xc0400000u, 0x3f7fffffu, 0x7f7fffffu, 0x7e800000u, 0x7e7fffffu,
    0x00800000u, 0x00000001u, 0x004ccccdu, 0x00000000u, 0x7f800000u, 0x7f812345u, 0x5f000000u, 0x20000000u,
};

F64_FN uint64_t div_chunk(uint64_t h, uint32_t r) { return (h ^ r) * F64_FNV_PRIME; }

/* one operand of class c (0 .. 7) from random bits r, e: an exponent field to be near
 *   0 any bits; 1 subnormal or zero; 2 exponent 0xf8 .. 0xff (huge, inf, NaN); 3 special values;
 *   4 [1, 2); 5 exponent 0x01 .. 0x08 (tiny normals); 6 exponent e - 8 .. e + 7 (wrapped);
 *   7 exponent e +- (120 .. 135), e +- (145 .. 160) (wrapped): quotients near the range's ends */
F64_FN uint32_t div_operand(int c, uint64_t r, uint32_t e)
{
    const uint32_t sign = 0x80000000u, frac = 0x007fffffu, lo = (uint32_t)r;
    uint32_t s = lo & (sign | frac), k = (uint32_t)(r >> 32);
    switch (c) {
    case 0: return lo;
    case 1: return s;
    case 2: return s | (0xf8 + (k & 7)) << 23;
    case 3: {
        const uint32_t sp[16] = {0, sign, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x00800000u,
                                 0x80800000u, 0x7f7fffffu, 0x00000001u, 0x007fffffu, 0x3f800000u,
                                 0x3f800001u, 0x3f7fffffu, 0x7f000000u, 0x7e800000u};
        uint32_t v = sp[k >> 28];
        if ((k >> 24 & 15) == 0) v = (lo | 0x7f800000u) & ~(sign >> 9);   /* a NaN, payload */
        if ((k >> 24 & 15) == 1) v = s | (0xfc + (k & 3)) << 23;           /* 2^125 .. 2^128, inf, NaN */
        return v;
    }
    case 4: return 0x3f800000u | (lo & frac);
    case 5: return s | (0x01 + (k & 7)) << 23;
    case 6: return s | ((e + (k & 15) - 8) & 0xff) << 23;
    default: {
        uint32_t d = 120 + (k & 15) + (k >> 4 & 1) * 25;
        return s | ((k >> 5 & 1 ? e + d : e - d) & 0xff) << 23;
    }
    }
}

/* the j-th pair (j < DIV_PAIR_N) of exponent fields ea of a and eb of b: random signs and
 * fractions */
F64_FN uint64_t div_exp_pair(uint32_t ea, uint32_t eb, uint32_t j)
{
    uint64_t r = f64_mix(((uint64_t)(ea << 8 | eb) << 12 | j) * 0x9e3779b97f4a7c15ull + 7);
    uint32_t a = ((uint32_t)r & 0x807fffffu) | ea << 23, b = ((uint32_t)(r >> 32) & 0x807fffffu) | eb << 23;
    return (uint64_t)a << 32 | b;
}

/* pair i: i % 8 picks a's class, i / 8 % 8 b's (classes 6 and 7 relative to a's exponent) */
F64_FN uint64_t div_pair(uint64_t i)
{
    uint64_t r = f64_mix(i * 0x9e3779b97f4a7c15ull + 1), q = f64_mix(r ^ 0x5851f42d4c957f2dull);
    uint32_t a = div_operand((int)(i & 7), r, 0x7f + (uint32_t)(r >> 40 & 0x3f) - 0x20);
    uint32_t b = div_operand((int)(i >> 3 & 7), q, a >> 23 & 0xff);
    return (uint64_t)a << 32 | b;
}
#endif
