/* f64_inputs.h -- the f64 operands of the rcp/rsqrt.approx.f64 checks, shared by the GPU
 * recorder (gpu_f64_record.cu) and the check (mufu_check.c), so that both see the same
 * inputs in the same order.
 *   f64_low(h):   the low word paired with high word h in the per-binade hashes
 *   f64_input(i): the i-th pseudo-random operand; i % 8 picks a class (below)
 *   f64_fnv(h, r): FNV-1a 64 of a 64-bit result folded into h, one step per 32-bit word,
 *                  high word first (the basis is F64_FNV_BASIS) */
#ifndef PTXEMU_F64_INPUTS_H
#define PTXEMU_F64_INPUTS_H
#include <stdint.h>

#ifdef __CUDACC__
#define F64_FN __host__ __device__ static inline
#else
#define F64_FN static inline
#endif

#define F64_FNV_BASIS 0xcbf29ce484222325ull
#define F64_FNV_PRIME 0x100000001b3ull
#define F64_N_RANDOM (1u << 24)   /* how many f64_input the hashes of the random set cover */

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective mix of z */
F64_FN uint64_t f64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* word by word: a product carries bits only upward, so a 64-bit xor would leave the hash's
 * low half blind to the result's high word */
F64_FN uint64_t f64_fnv(uint64_t h, uint64_t r)
{
    h = (h ^ (r >> 32)) * F64_FNV_PRIME;
    return (h ^ (uint32_t)r) * F64_FNV_PRIME;
}

F64_FN uint32_t f64_low(uint32_t h) { return (uint32_t)f64_mix(h); }

/* classes: 0 any bits; 1 subnormal or zero; 2 exponent 0x7e0..0x7ff (huge, inf, NaN);
 * 3 special values (+-0, +-inf, NaNs, extreme normals and subnormals, 1 and its
 * neighbours); 4 [1, 4); 5 exponent 0x001..0x040 (tiny normals); 6 low word 0 or ~0;
 * 7 positive, any bits */
F64_FN uint64_t f64_input(uint64_t i)
{
    const uint64_t sign = 0x8000000000000000ull, frac = 0x000fffffffffffffull;
    uint64_t r = f64_mix(i * 0x9e3779b97f4a7c15ull + 1);
    switch (i & 7) {
    case 0: return r;
    case 1: return r & (sign | frac);
    case 2: return (r & (sign | frac)) | (0x7e0 + (r >> 52 & 0x1f)) << 52;
    case 3: {
        const uint64_t sp[16] = {0, sign, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                 0x7ff8000000000000ull, 0xfff8000000000000ull, 0x0010000000000000ull,
                                 0x8010000000000000ull, 0x7fefffffffffffffull, 0x0000000000000001ull,
                                 0x000fffffffffffffull, 0x3ff0000000000000ull, 0x3ff0000000000001ull,
                                 0x3fefffffffffffffull, 0x7fe0000000000000ull, 0x4010000000000000ull};
        uint64_t v = sp[r >> 60];
        if ((r >> 56 & 15) == 0) v = (r | 0x7ff0000000000000ull) & ~(sign >> 12);   /* a NaN, payload */
        return v;
    }
    case 4: return 0x3ff0000000000000ull | (r & 0x001fffffffffffffull);
    case 5: return (r & (sign | frac)) | (0x001 + (r >> 52 & 0x3f)) << 52;
    case 6: return (r & 0xffffffff00000000ull) | (r >> 31 & 1 ? 0xffffffffull : 0);
    default: return r & ~sign;
    }
}
#endif
