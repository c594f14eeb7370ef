// tests/check/precision/precision.cu — the checker's precision set: one small kernel per class of
// defect the checker judges, each with a correct twin (ok_*) that differs only in what makes it
// correct.  precision.sh runs `ptxemu check` on every pair and writes the table of docs/CHECKING.md
// ("Precision"): a bug must be found with the kind its case names, its twin must be silent.
// Build: see README.md.  Buffers: in (256 ints, in[i] = i % 7 - 2), out (1024 ints, zero).
#include <cassert>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL 0xffffffffu

// ---- races on shared memory within a warp: lanes exchange without __syncwarp
extern "C" __global__ void bug_shared_in_warp(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = in[l] * 3;
    out[l] = s[31 - l];
}
extern "C" __global__ void ok_shared_in_warp(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = in[l] * 3;
    __syncwarp();
    out[l] = s[31 - l];
}

// ---- races on shared memory between warps: warp 1 reads what warp 0 wrote without __syncthreads
extern "C" __global__ void bug_shared_between_warps(const int *in, int *out) {
    __shared__ int s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = in[threadIdx.x] + 1;
    __syncwarp();
    if (threadIdx.x >= 32) out[threadIdx.x] = s[threadIdx.x - 32];
}
extern "C" __global__ void ok_shared_between_warps(const int *in, int *out) {
    __shared__ int s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = in[threadIdx.x] + 1;
    __syncthreads();
    if (threadIdx.x >= 32) out[threadIdx.x] = s[threadIdx.x - 32];
}

// ---- races on global memory within a block: a neighbour's element read before it is written
extern "C" __global__ void bug_global_in_block(const int *in, int *out) {
    int t = threadIdx.x;
    out[t] = in[t] * 2;
    out[64 + t] = out[(t + 1) & 63];
}
extern "C" __global__ void ok_global_in_block(const int *in, int *out) {
    int t = threadIdx.x;
    out[t] = in[t] * 2;
    __syncthreads();
    out[64 + t] = out[(t + 1) & 63];
}

// ---- races on global memory between blocks: two blocks write one word
extern "C" __global__ void bug_global_between_blocks(const int *in, int *out) {
    if (threadIdx.x == 0) out[7] = in[blockIdx.x] + 10 * blockIdx.x;
}
extern "C" __global__ void ok_global_between_blocks(const int *in, int *out) {
    if (threadIdx.x == 0) out[7 + blockIdx.x] = in[blockIdx.x] + 10 * blockIdx.x;
}

// ---- barrier divergence: __syncthreads in both arms of a branch that splits warps (two barriers)
extern "C" __global__ void bug_barrier_divergent(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (in[t] >= 0) { s[t] = in[t]; __syncthreads(); }
    else { s[t] = -in[t]; __syncthreads(); }
    out[t] = s[63 - t];
}
extern "C" __global__ void ok_barrier_divergent(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (in[t] >= 0) s[t] = in[t];
    else s[t] = -in[t];
    __syncthreads();
    out[t] = s[63 - t];
}

// ---- lock-step assumption: the pre-Volta warp-synchronous reduction tail (no __syncwarp)
extern "C" __global__ void bug_lockstep_reduce(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8];
        v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
    }
    if (t == 0) out[0] = s[0];
}
extern "C" __global__ void ok_lockstep_reduce(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        int v = s[t] + s[t + 32];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);
        if (t == 0) out[0] = v;
    }
}

// ---- fence and flag protocol between warps: data published by a volatile flag without a fence
extern "C" __global__ void bug_flag_no_fence(const int *in, int *out) {
    volatile int *flag = out + 512;
    if (threadIdx.x == 0) {
        out[1] = in[3] * 5;
        flag[0] = 1;
    } else if (threadIdx.x == 32) {
        while (flag[0] == 0) { }
        out[2] = out[1] + 1;
    }
}
extern "C" __global__ void ok_flag_no_fence(const int *in, int *out) {
    volatile int *flag = out + 512;
    if (threadIdx.x == 0) {
        out[1] = in[3] * 5;
        __threadfence();
        flag[0] = 1;
    } else if (threadIdx.x == 32) {
        while (flag[0] == 0) { }
        __threadfence();
        out[2] = out[1] + 1;
    }
}

// ---- atomics: a non-atomic read-modify-write of a shared counter
extern "C" __global__ void bug_counter_rmw(const int *in, int *out) {
    if (in[threadIdx.x] > 0) out[0] += 1;
}
extern "C" __global__ void ok_counter_rmw(const int *in, int *out) {
    if (in[threadIdx.x] > 0) atomicAdd(&out[0], 1);
}

// ---- atomics whose order decides the result: the last exchange wins
extern "C" __global__ void bug_atomic_order(const int *in, int *out) {
    atomicExch(&out[0], in[threadIdx.x] * 100 + (int)threadIdx.x);
}
extern "C" __global__ void ok_atomic_order(const int *in, int *out) {
    atomicMax(&out[0], in[threadIdx.x] * 100 + (int)threadIdx.x);
}

// ---- a lock built from atomics: the protected data is released without a fence
extern "C" __global__ void bug_lock_no_fence(const int *in, int *out) {
    int *lock = out + 512;
    if ((threadIdx.x & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        out[0] = out[0] + in[threadIdx.x >> 5] + 1;
        atomicExch(lock, 0);
    }
}
extern "C" __global__ void ok_lock_no_fence(const int *in, int *out) {
    int *lock = out + 512;
    if ((threadIdx.x & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        out[0] = out[0] + in[threadIdx.x >> 5] + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

// ---- __syncwarp with a partial mask: lanes 16..31 read what lanes 0..15 synchronised among themselves
extern "C" __global__ void bug_syncwarp_partial(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    if (l < 16) { s[l] = in[l] + 7; __syncwarp(0x0000ffffu); out[l] = s[15 - l]; }
    else out[l] = s[l - 16];
}
extern "C" __global__ void ok_syncwarp_partial(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    if (l < 16) { s[l] = in[l] + 7; __syncwarp(0x0000ffffu); out[l] = s[15 - l]; }
    __syncwarp();
    if (l >= 16) out[l] = s[l - 16];
}

// ---- __syncwarp with a partial mask that names lanes that never execute it
extern "C" __global__ void bug_syncwarp_mask_absent(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = in[l];
    if (l < 8) __syncwarp(0x0000ffffu);
    out[l] = s[l ^ 1];
}
extern "C" __global__ void ok_syncwarp_mask_absent(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = in[l];
    if (l < 16) __syncwarp(0x0000ffffu);
    else __syncwarp(0xffff0000u);
    out[l] = s[l ^ 1];
}

// ---- a loop with an early exit around a full-mask shuffle: lanes that left do not take part
extern "C" __global__ void bug_loop_early_exit(const int *in, int *out) {
    int l = threadIdx.x & 31, v = in[l], n = 2 + (l & 3);
    for (int i = 0; i < n; i++) v += __shfl_xor_sync(FULL, v, 1);
    out[l] = v;
}
extern "C" __global__ void ok_loop_early_exit(const int *in, int *out) {
    int l = threadIdx.x & 31, v = in[l], n = 2 + (l & 3);
    for (int i = 0; i < 5; i++) {
        int t = __shfl_xor_sync(FULL, v, 1);
        if (i < n) v += t;
    }
    out[l] = v;
}

// ---- __activemask() used to pack bits (the warp-primitives article's wrong way) vs a ballot
extern "C" __global__ void bug_activemask_bitpack(const int *in, int *out) {
    int l = threadIdx.x & 31;
    for (int i = l; i < 70; i += 32) {
        unsigned active = __activemask();
        unsigned bits = __ballot_sync(active, in[i] > 0);
        if (l == 0) out[i / 32] = (int)bits;
    }
}
extern "C" __global__ void ok_activemask_bitpack(const int *in, int *out) {
    int l = threadIdx.x & 31;
    for (int i = l; i - l < 70; i += 32) {
        unsigned active = __ballot_sync(FULL, i < 70);
        if (i < 70) {
            unsigned bits = __ballot_sync(active, in[i] > 0);
            if (l == 0) out[i / 32] = (int)bits;
        }
    }
}

// ---- legitimate uses of the active lanes: coalesced groups and warp-aggregated atomics (no bug twin)
extern "C" __global__ void ok_coalesced_group(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int rank = g.thread_rank();
        atomicAdd(&out[0], g.size() == 0 ? 0 : 1);
        out[1 + threadIdx.x] = rank < (int)g.size() ? 1 : 0;
    }
}
extern "C" __global__ void ok_aggregated_atomic(const int *in, int *out) {
    if (in[threadIdx.x] >= 0) {
        unsigned m = __match_any_sync(__activemask(), in[threadIdx.x]);
        int leader = __ffs(m) - 1, r = 0;
        if ((int)(threadIdx.x & 31) == leader) r = atomicAdd(&out[in[threadIdx.x] + 2], __popc(m));
        r = __shfl_sync(m, r, leader) + __popc(m & ((1u << (threadIdx.x & 31)) - 1));
        atomicAdd(&out[16 + in[threadIdx.x] * 64 + r], 1);
    }
}

// ---- uninitialised shared memory: used (stored) vs loaded and thrown away (library code does this)
extern "C" __global__ void bug_uninit_used(const int *in, int *out) {
    __shared__ int s[33];
    int l = threadIdx.x & 31;
    s[l] = in[l];
    __syncwarp();
    out[l] = s[l + 1];
}
extern "C" __global__ void ok_uninit_used(const int *in, int *out) {
    __shared__ int s[33];
    int l = threadIdx.x & 31;
    s[l] = in[l];
    __syncwarp();
    int next = s[l + 1];                 /* read past the data, kept only where it is valid */
    out[l] = l < 31 ? next : 0;
}

// ---- uninitialised local memory deciding a branch vs a fully initialised array
extern "C" __global__ void bug_uninit_branch(const int *in, int *out) {
    int a[8];
    for (int i = 0; i < 6; i++) a[i] = in[i];
    if (a[(in[threadIdx.x] + 5) & 7] > 0) out[threadIdx.x] = 1;
}
extern "C" __global__ void ok_uninit_branch(const int *in, int *out) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = in[i];
    if (a[(in[threadIdx.x] + 5) & 7] > 0) out[threadIdx.x] = 1;
}

// ---- out of bounds: a store past the end of a buffer (out holds 1024 ints)
extern "C" __global__ void bug_out_of_bounds(const int *in, int *out) {
    out[1000 + threadIdx.x] = in[threadIdx.x];
}
extern "C" __global__ void ok_out_of_bounds(const int *in, int *out) {
    out[900 + threadIdx.x] = in[threadIdx.x];
}

// ---- an assert that only a schedule breaking the lock-step assumption fails
extern "C" __global__ void bug_assert_lockstep(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = l * 2;
    int v = s[l ^ 1];
    assert(v == (l ^ 1) * 2);
    out[l] = v;
}
extern "C" __global__ void ok_assert_lockstep(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    s[l] = l * 2;
    __syncwarp();
    int v = s[l ^ 1];
    assert(v == (l ^ 1) * 2);
    out[l] = v;
}

// ---- named barriers: a producer warp signals with bar.arrive, the consumer waits (correct);
// the bug consumes before waiting
extern "C" __global__ void bug_named_barrier(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    if (threadIdx.x < 32) { s[l] = in[l] * 9; asm volatile("bar.arrive 1, 64;" ::: "memory"); }
    else { out[l] = s[l]; asm volatile("bar.sync 1, 64;" ::: "memory"); }
}
extern "C" __global__ void ok_named_barrier(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x & 31;
    if (threadIdx.x < 32) { s[l] = in[l] * 9; asm volatile("bar.arrive 1, 64;" ::: "memory"); }
    else { asm volatile("bar.sync 1, 64;" ::: "memory"); out[l] = s[l]; }
}
