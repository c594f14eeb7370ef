// tests/check/rules.cu — one minimal kernel per checker rule, each with a clean twin
// (`ok_*`).  Build: nvcc -ptx -arch=sm_90 -lineinfo rules.cu -o rules.ptx
// Cases: tests/check/cases/<kernel>/case.txt (expect-check says what ptxemu check must find).
#define FULL 0xffffffffu

// race: lanes of one warp exchange through shared memory without __syncwarp.
extern "C" __global__ void race_shared_warp(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    out[lane] = s[(lane + 1) & 31];
}
extern "C" __global__ void ok_race_shared_warp(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    __syncwarp();
    out[lane] = s[(lane + 1) & 31];
}

// race: two blocks write different values to one word.
extern "C" __global__ void race_global_blocks(int *out) {
    if (threadIdx.x == 0) out[0] = blockIdx.x + 1;
}
extern "C" __global__ void ok_race_global_blocks(int *out) {
    if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x + 1;
}

// race: a volatile flag without a fence does not publish the data written before it.
extern "C" __global__ void race_flag_nofence(volatile int *flag, int *data, int *out) {
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        while (flag[0] == 0) { }
        out[0] = data[0] + 1;
    } else if (lane == 31) {
        data[0] = 1000;
        flag[0] = 1;
    }
}
extern "C" __global__ void ok_race_flag_nofence(volatile int *flag, int *data, int *out) {
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        while (flag[0] == 0) { }
        __threadfence();
        out[0] = data[0] + 1;
    } else if (lane == 31) {
        data[0] = 1000;
        __threadfence();
        flag[0] = 1;
    }
}

// deadlock: a counted barrier that the second warp never reaches (it exits).
extern "C" __global__ void deadlock_counted(int *out) {
    if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}
extern "C" __global__ void ok_deadlock_counted(int *out) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}

// mask: the calling lane is not in its membermask.
extern "C" __global__ void mask_self(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    out[lane] = __shfl_sync(FULL & ~1u, in[lane], 1);
}
extern "C" __global__ void ok_mask_self(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    out[lane] = __shfl_sync(FULL, in[lane], 1);
}

// mask: a shuffle reads lanes of its mask that have exited.
extern "C" __global__ void mask_exited_source(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    if (lane >= 16) return;
    out[lane] = __shfl_sync(FULL, in[lane], lane + 16);
}
extern "C" __global__ void ok_mask_exited_source(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    if (lane >= 16) return;
    out[lane] = __shfl_sync(0x0000ffffu, in[lane], lane ^ 1);
}

// mask (and deadlock): lanes of one mask wait in different collectives.
extern "C" __global__ void mask_mismatch(const int *in, int *out) {
    int lane = threadIdx.x & 31, v = in[lane];
    if (lane < 16) v = __shfl_sync(FULL, v, 0);
    else v = __ballot_sync(FULL, v > 3);
    out[lane] = v;
}
extern "C" __global__ void ok_mask_mismatch(const int *in, int *out) {
    int lane = threadIdx.x & 31, v = in[lane];
    if (lane < 16) v = __shfl_sync(FULL, v, 0) + 1;
    else v = __shfl_sync(FULL, v, 0) - 1;
    out[lane] = v;
}

// barrier: __syncthreads in both arms of a branch that splits a warp.
extern "C" __global__ void barrier_divergent(int *out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    if ((tid & 31) < 16) { __syncthreads(); out[tid] = s[63 - tid]; }
    else { __syncthreads(); out[tid] = s[63 - tid] + 100; }
}
extern "C" __global__ void ok_barrier_divergent(int *out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    __syncthreads();
    if ((tid & 31) < 16) out[tid] = s[63 - tid];
    else out[tid] = s[63 - tid] + 100;
}

// memory: a store past the end of the buffer.
extern "C" __global__ void memory_oob(int *out, int n) {
    out[threadIdx.x + n] = threadIdx.x;
}
extern "C" __global__ void ok_memory_oob(int *out, int n) {
    out[threadIdx.x] = threadIdx.x + n;
}

// uninit: shared memory read that no thread wrote.
extern "C" __global__ void uninit_shared(int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    if (lane < 16) s[lane] = lane;
    __syncwarp();
    out[lane] = s[31 - lane];
}
extern "C" __global__ void ok_uninit_shared(int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = lane;
    __syncwarp();
    out[lane] = s[31 - lane];
}

// uninit: local array element never written.
extern "C" __global__ void uninit_local(const int *in, int *out) {
    int a[8];
    for (int i = 0; i < 4; i++) a[i] = in[i];
    out[threadIdx.x] = a[in[threadIdx.x] & 7];
}
extern "C" __global__ void ok_uninit_local(const int *in, int *out) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = in[i];
    out[threadIdx.x] = a[in[threadIdx.x] & 7];
}

// schedule: the last atomicExch wins, so the result depends on the interleaving.
extern "C" __global__ void schedule_last_writer(int *out) {
    atomicExch(&out[0], (int)threadIdx.x);
}
extern "C" __global__ void ok_schedule_last_writer(int *out) {
    atomicMax(&out[0], (int)threadIdx.x);
}

// race: relaxed flag accesses order nothing; st.release / ld.acquire do (a fence each).
__device__ __forceinline__ void st_relaxed(int *p, int v) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_relaxed(int *p) { int v; asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ void st_release(int *p, int v) { asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_acquire(int *p) { int v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
extern "C" __global__ void race_flag_relaxed(int *flag, int *data, int *out) {
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        while (ld_relaxed(flag) == 0) { }
        out[0] = data[0] + 1;
    } else if (lane == 31) {
        data[0] = 1000;
        st_relaxed(flag, 1);
    }
}
extern "C" __global__ void ok_race_flag_relaxed(int *flag, int *data, int *out) {
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        while (ld_acquire(flag) == 0) { }
        out[0] = data[0] + 1;
    } else if (lane == 31) {
        data[0] = 1000;
        st_release(flag, 1);
    }
}

// barrier: a thread count given in a register that is not a multiple of 32
// (an immediate one is a compile error).
extern "C" __global__ void barrier_count_reg(int *out, int n) {
    asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");
    out[threadIdx.x] = 1;
}
extern "C" __global__ void ok_barrier_count_reg(int *out, int n) {
    asm volatile("bar.sync 1, %0;" :: "r"(n & ~31) : "memory");
    out[threadIdx.x] = 1;
}

// barrier: 96 threads at a barrier counted for 64: the first two warps complete a
// phase, the third starts another that never completes.
extern "C" __global__ void barrier_oversubscribed(int *out) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}
extern "C" __global__ void ok_barrier_oversubscribed(int *out) {   // 128 threads: two whole phases
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x] = 1;
}

// barrier: __syncthreads_count (bar.red) in one warp, __syncthreads in the other.
extern "C" __global__ void barrier_red_mixed(const int *in, int *out) {
    int tid = threadIdx.x, n;
    if (tid < 32) n = __syncthreads_count(in[tid] > 3);
    else { __syncthreads(); n = -1; }
    out[tid] = n;
}
extern "C" __global__ void ok_barrier_red_mixed(const int *in, int *out) {
    int tid = threadIdx.x, n;
    if (tid < 32) n = __syncthreads_count(in[tid] > 3);
    else n = __syncthreads_count(0) - 1;
    out[tid] = n;
}

// barrier: warp 0 arrives (bar.arrive) and then waits (bar.sync) in one phase of barrier 1.
extern "C" __global__ void barrier_arrive_twice(int *out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    if (tid < 32) {
        s[tid] = tid;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        asm volatile("bar.sync 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[tid] = s[tid - 32];
    }
}
extern "C" __global__ void ok_barrier_arrive_twice(int *out) {      // producer arrives, consumer waits
    __shared__ int s[64];
    int tid = threadIdx.x;
    if (tid < 32) {
        s[tid] = tid;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[tid] = s[tid - 32];
    }
}

// barrier: the aligned form (bar.sync) in both arms of a branch that splits a warp;
// the non-aligned form (barrier.sync) allows it.
extern "C" __global__ void barrier_aligned_arms(int *out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    if (tid & 1) { asm volatile("bar.sync 0;" ::: "memory"); out[tid] = s[63 - tid]; }
    else { asm volatile("bar.sync 0;" ::: "memory"); out[tid] = s[63 - tid] * 2; }
}
extern "C" __global__ void ok_barrier_aligned_arms(int *out) {
    __shared__ int s[64];
    int tid = threadIdx.x;
    s[tid] = tid;
    if (tid & 1) { asm volatile("barrier.sync 0;" ::: "memory"); out[tid] = s[63 - tid]; }
    else { asm volatile("barrier.sync 0;" ::: "memory"); out[tid] = s[63 - tid] * 2; }
}

// mask: every lane executes __syncwarp with a mask of the low half.
extern "C" __global__ void mask_syncwarp_outside(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    __syncwarp(0x0000ffffu);
    out[lane] = s[lane ^ 1];
}
extern "C" __global__ void ok_mask_syncwarp_outside(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
    out[lane] = s[lane ^ 1];
}

// mask: the full mask names lanes that wait at a (non-aligned) block barrier instead.
extern "C" __global__ void mask_never_arrives(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    if (lane < 16) { __syncwarp(FULL); out[lane] = s[lane ^ 1]; }
    asm volatile("barrier.sync 0;" ::: "memory");
    out[lane + 32] = s[31 - lane];
}
extern "C" __global__ void ok_mask_never_arrives(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    if (lane < 16) { __syncwarp(0x0000ffffu); out[lane] = s[lane ^ 1]; }
    asm volatile("barrier.sync 0;" ::: "memory");
    out[lane + 32] = s[31 - lane];
}

// mask: the full mask names lanes that synchronised with a mask of their own and exited.
extern "C" __global__ void mask_exited_elsewhere(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    if (lane >= 16) { __syncwarp(0xffff0000u); out[lane] = s[lane ^ 1]; return; }
    __syncwarp(FULL);
    out[lane] = s[lane ^ 1];
}
extern "C" __global__ void ok_mask_exited_elsewhere(const int *in, int *out) {
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = in[lane];
    if (lane >= 16) { __syncwarp(0xffff0000u); out[lane] = s[lane ^ 1]; return; }
    __syncwarp(0x0000ffffu);
    out[lane] = s[lane ^ 1];
}

// mask: lanes of one full mask wait in different collectives (__syncwarp and a vote).
extern "C" __global__ void mask_split_collectives(const int *in, int *out) {
    int lane = threadIdx.x & 31, v = in[lane];
    if (lane < 16) { __syncwarp(FULL); v += 1; }
    else v = __any_sync(FULL, v > 3);
    out[lane] = v;
}
extern "C" __global__ void ok_mask_split_collectives(const int *in, int *out) {
    int lane = threadIdx.x & 31, v = in[lane];
    if (lane < 16) v = __any_sync(FULL, v > 5) + 1;
    else v = __any_sync(FULL, v > 3);
    out[lane] = v;
}

// race: the last block (found with a fenced atomic counter) clears the partial sums, but
// thread 1's partial is not ordered before thread 0's fence: no __syncthreads between them.
// Blocks are ordered per thread, so the release carries only what thread 0 has seen.
extern "C" __global__ void race_blocks_last(int *part, unsigned *count, int *out) {
    __shared__ int last;
    int tid = threadIdx.x;
    if (tid == 1) part[blockIdx.x] = blockIdx.x + 10;
    if (tid == 0) {
        __threadfence();
        last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid < gridDim.x) { out[tid] = part[tid]; part[tid] = 0; }
}
extern "C" __global__ void ok_race_blocks_last(int *part, unsigned *count, int *out) {
    __shared__ int last;
    int tid = threadIdx.x;
    if (tid == 1) part[blockIdx.x] = blockIdx.x + 10;
    __syncthreads();
    if (tid == 0) {
        __threadfence();
        last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid < gridDim.x) { out[tid] = part[tid]; part[tid] = 0; }
}
