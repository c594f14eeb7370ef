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

// Large launches (16,384 threads or more): schedule 0 checks its first 2/5 of
// the blocks while a second thread checks the rest (check_run.c, run_split0).
// Block `bad` alone has a bug: kind 1, a shared-memory race (thread 0 writes
// what thread 33 reads, no barrier between); kind 2, reads of shared words
// nobody wrote.  bad = -1: clean.  The finding must come from either part.
extern "C" __global__ void sf_split(const int *in, int *out, int bad, int kind) {
    __shared__ int tile[256];
    __shared__ int half_written[32];
    int t = threadIdx.x, b = blockIdx.x;
    tile[t] = in[(b * 256 + t) & 255];
    __syncthreads();
    int v = tile[255 - t];
    if (b == bad && kind == 1) {
        __syncthreads();
        if (t == 0) tile[7] = v;
        if (t == 33) v += tile[7];
    }
    if (b == bad && kind == 2) {
        if (t < 16) half_written[t] = t;
        __syncthreads();
        if (t < 32) v += half_written[31 - t];
    }
    out[b * 256 + t] = v;
}

// sf_block_chain on a large grid: the footprint finds the blocks dependent,
// so schedule 0 runs again checking every block, and the others run.
extern "C" __global__ void sf_split_chain(int *out) {
    out[blockIdx.x * 256 + threadIdx.x + 256] = out[blockIdx.x * 256 + threadIdx.x] + 1;
}
