// Kernels for the schedule-free shortcut of `ptxemu check` (docs/CHECKING.md,
// "Schedule-free kernels"): the adversarial schedules are skipped only when
// schedule 0 shows a run race-free, its blocks independent and no plain read
// unordered with an atomic.  tests/check/schedfree/run.sh.

// Clean: a tile through shared memory, ordered by __syncthreads; blocks
// write disjoint words.  The other schedules are not needed.
extern "C" __global__ void sf_clean(const int *in, int *out) {
    __shared__ int tile[64];
    int t = threadIdx.x, base = blockIdx.x * 64;
    tile[t] = in[base + t] * 3;
    __syncthreads();
    out[base + t] = tile[63 - t] + tile[t];
}

// Clean, with one commutative atomic whose result is unused: per-block counts
// in shared memory, read after the barrier, merged into global counts.
extern "C" __global__ void sf_counts(const int *in, unsigned *counts) {
    __shared__ unsigned bins[8];
    int t = threadIdx.x;
    if (t < 8) bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[in[blockIdx.x * 64 + t] & 7], 1u);
    __syncthreads();
    if (t < 8) atomicAdd(&counts[t], bins[t]);
}

// Bug: each block reads what the block before it wrote, with nothing
// ordering the blocks.  Schedule 0 reports no race (a read of another
// block's write shows only when the order of the blocks changes the result),
// so its footprint must send the launch to the other schedules.
extern "C" __global__ void sf_block_chain(int *out) {
    if (threadIdx.x == 0) out[blockIdx.x + 1] = out[blockIdx.x] + 1;
}

// Bug: a plain read of a counter that other threads are still incrementing
// atomically.  Not a race (an atomic next to a plain load is synchronisation's
// business), but what the read sees depends on the schedule.
extern "C" __global__ void sf_atomic_peek(int *out) {
    __shared__ unsigned count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1u);
    out[threadIdx.x] = count;
}
