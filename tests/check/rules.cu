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
