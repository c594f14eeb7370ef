// Every atom/red operation and type on global and shared memory, with results that do not
// depend on the order the threads reach memory: commutative ops over all threads, floating
// sums of exactly representable values, inc/dec whose returned values form a fixed multiset
// (their sum is recorded), per-thread exch/cas on own slots (return values recorded), and
// a ticket counter whose returned values must be a permutation.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef unsigned long long u64;

__device__ __forceinline__ uint32_t hash32(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}
__device__ __forceinline__ u64 hash64(u64 x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return x;
}

// red.* through inline PTX with an explicit state space
#define RED32(NAME, OP)                                                                       \
    template <bool SH> __device__ __forceinline__ void NAME(uint32_t *p, uint32_t v) {        \
        if (SH) asm volatile("red.shared." OP " [%0], %1;" ::"r"((uint32_t)__cvta_generic_to_shared(p)), "r"(v) : "memory"); \
        else    asm volatile("red.global." OP " [%0], %1;" ::"l"(p), "r"(v) : "memory");      \
    }
RED32(red_add_u32, "add.u32")
RED32(red_min_s32, "min.s32")
RED32(red_max_u32, "max.u32")
RED32(red_or_b32, "or.b32")
RED32(red_and_b32, "and.b32")
RED32(red_xor_b32, "xor.b32")
RED32(red_inc_u32, "inc.u32")
RED32(red_dec_u32, "dec.u32")
RED32(red_add_f32, "add.f32")
template <bool SH> __device__ __forceinline__ void red_add_u64(u64 *p, u64 v) {
    if (SH) asm volatile("red.shared.add.u64 [%0], %1;" ::"r"((uint32_t)__cvta_generic_to_shared(p)), "l"(v) : "memory");
    else    asm volatile("red.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
template <bool SH> __device__ __forceinline__ uint32_t atom_scoped(uint32_t *p, uint32_t v, int which) {
    uint32_t r;
    if (SH) {
        uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
        if (which == 0) asm volatile("atom.relaxed.cta.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(v) : "memory");
        else            asm volatile("atom.acq_rel.gpu.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(v) : "memory");
    } else {
        if (which == 0) asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
        else            asm volatile("atom.acq_rel.sys.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    }
    return r;
}

// One thread's share of the work. id: index of the thread among all threads using s32/s64.
template <bool SH>
__device__ __forceinline__ void do_ops(uint32_t *s32, u64 *s64, uint32_t id, uint32_t *tick) {
    uint32_t h = hash32(id * 2654435761u + 12345);
    u64 H = hash64(id + 0x1234567ULL);
    atomicAdd(&s32[0], id + 1);
    red_add_u32<SH>(&s32[1], 3);
    atomicAnd(&s32[2], ~(1u << (id % 29)));
    atomicOr(&s32[3], 1u << ((id * 7) % 31));
    atomicXor(&s32[4], id * 0x9e3779b9u);
    atomicMin((int *)&s32[5], (int)h);
    atomicMax((int *)&s32[6], (int)(h * 3u));
    atomicMin(&s32[7], h ^ 0x5555u);
    atomicMax(&s32[8], h >> 3);
    uint32_t ri = atomicInc(&s32[9], 100u);
    uint32_t rd = atomicDec(&s32[10], 50u);
    atomicAdd(&s32[11], ri);
    atomicAdd(&s32[12], rd);
    uint32_t t = atomicAdd(&s32[13], 1u);
    tick[t] += 1;                                  // t is unique: no race
    red_min_s32<SH>(&s32[14], (uint32_t)((int)(h % 100000u) - 50000));
    red_max_u32<SH>(&s32[15], h * 5u);
    red_or_b32<SH>(&s32[16], 1u << (id % 32));
    red_and_b32<SH>(&s32[17], ~(1u << (id % 23)));
    red_xor_b32<SH>(&s32[18], h);
    atomicAdd((float *)&s32[19], (float)(id % 8) * 0.5f);
    red_add_f32<SH>(&s32[20], __float_as_uint((float)(id % 4) * 0.25f));
    {   // CAS loop adding id % 5
        uint32_t old = s32[21], assumed;
        do { assumed = old; old = atomicCAS(&s32[21], assumed, assumed + id % 5); } while (old != assumed);
    }
    atom_scoped<SH>(&s32[22], 2, 0);
    atom_scoped<SH>(&s32[23], id & 7, 1);
    red_inc_u32<SH>(&s32[24], 9u);                // wraps: final = count mod 10
    red_dec_u32<SH>(&s32[25], 1000u);             // from 0: 0 -> 1000 -> 999 ...
    atomicAdd((__half2 *)&s32[26], __halves2half2(__float2half((float)(id & 1)), __float2half((float)((id >> 1) & 1) * 2.f)));
    if (id % 16 == 0)
        atomicAdd((__nv_bfloat162 *)&s32[27], __floats2bfloat162_rn(1.0f, 2.0f));
    atomicAdd((__half *)&s32[28], __float2half(id % 3 == 0 ? 1.0f : 0.0f));
    atomicMax((unsigned int *)&s32[29], 0u);      // no-op max on zero
    atomicSub(&s32[30], id);
    atomicExch(&s32[31], 0xabcdef01u);            // every thread stores the same value

    atomicAdd(&s64[0], ((u64)id << 33) | 1);
    atomicAnd(&s64[1], ~(1ULL << (id % 61)));
    atomicOr(&s64[2], 1ULL << ((id * 13) % 64));
    atomicXor(&s64[3], (u64)id * 0x9e3779b97f4a7c15ULL);
    atomicMin((long long *)&s64[4], (long long)H);
    atomicMax((long long *)&s64[5], (long long)(H * 7));
    atomicMin(&s64[6], H ^ 0xffff);
    atomicMax(&s64[7], H >> 5);
    atomicAdd((double *)&s64[8], (double)id * 0.25);
    {
        u64 old = s64[9], assumed;
        do { assumed = old; old = atomicCAS(&s64[9], assumed, assumed + id + 1); } while (old != assumed);
    }
    red_add_u64<SH>(&s64[10], 0x100000001ULL);
    atomicAdd((double *)&s64[11], -1.5);
    atomicExch(&s64[12], 0x0123456789abcdefULL);
}

// grid 4, block 256. g32/g64: global slots (initialised from init*.bin); own: one slot per
// thread; rets: 4 return values per thread; gtick: 1024 global ticket flags;
// sres32/sres64: the shared slots of every block after its work; stick: 4 x 256 shared ticket flags.
extern "C" __global__ void atomics_all(uint32_t *g32, u64 *g64, const uint32_t *init32, const u64 *init64,
                                       uint32_t *own, uint32_t *rets, uint32_t *gtick,
                                       uint32_t *sres32, u64 *sres64, uint32_t *stick) {
    __shared__ uint32_t s32[32];
    __shared__ u64 s64[32];
    uint32_t tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
    if (tid < 32) { s32[tid] = init32[tid]; s64[tid] = init64[tid]; }
    __syncthreads();
    do_ops<false>(g32, g64, gid, gtick);
    do_ops<true>(s32, s64, tid, stick + blockIdx.x * 256);

    // per-thread slots: return values are deterministic
    uint32_t *r = rets + gid * 4;
    r[0] = atomicExch(&own[gid], gid * 3);
    r[1] = atomicCAS(&own[gid], (gid & 1) ? gid * 3 : 12345u, 777u);
    r[2] = atomicAdd(&own[gid], 5u);
    r[3] = atomicInc(&own[gid], 780u);
    __syncthreads();
    if (tid < 32) { sres32[blockIdx.x * 32 + tid] = s32[tid]; sres64[blockIdx.x * 32 + tid] = s64[tid]; }
}
