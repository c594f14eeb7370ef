// par.cu — kernels whose blocks share global memory in the ways `--jobs N` must
// keep one thread's results for (tests/par/run.sh compares every output of
// --jobs 1, 2 and 4).  Each block first spins through some arithmetic so that
// blocks really run at the same time on several host threads.
#include <cstdio>

#define WORK 200

/* not affine (the xor-shift): the steps of x * a + c alone composed into one mad */
__device__ unsigned spin(unsigned x) {
    for (int i = 0; i < WORK; i++) x = (x ^ (x >> 7)) * 1664525u + 1013904223u;
    return x;
}

// every block's thread 0 increments a counter without an atomic (a race: with
// one thread, blocks run in order and the count is exact)
extern "C" __global__ void racy_counter(int *counter, unsigned *sink) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) { int c = *counter; *counter = c + 1; }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// tickets: the value atomicAdd returns orders the blocks
extern "C" __global__ void tickets(unsigned *next, unsigned *order, unsigned *sink) {
    unsigned x = spin(threadIdx.x + blockIdx.x);
    if (threadIdx.x == 0) order[atomicAdd(next, 1u)] = blockIdx.x;
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// a float sum by atomicAdd over every thread: the result depends on the order
extern "C" __global__ void float_sum(float *sum, unsigned *sink) {
    unsigned x = spin(threadIdx.x);
    atomicAdd(sum, 1.0f / (float)(1 + blockIdx.x * blockDim.x + threadIdx.x));
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// integer reductions whose results nothing reads: they commute
extern "C" __global__ void int_reductions(unsigned *r, unsigned long long *r64, int *s) {
    unsigned x = spin(threadIdx.x * 977u + blockIdx.x);
    atomicAdd(&r[0], x);
    atomicMin(&r[1], x);
    atomicMax(&r[2], x);
    atomicAnd(&r[3], x | 0xfff0ffffu);
    atomicOr(&r[4], x & 0x0f00000fu);
    atomicXor(&r[5], x);
    atomicAdd(&r64[0], (unsigned long long)x);
    atomicMax(&r64[1], (unsigned long long)x * x);
    atomicMin(&s[0], (int)x);
    atomicMax(&s[1], (int)x);
}

// block 0 publishes a value behind a flag; every other block waits for it
extern "C" __global__ void flag_wait(volatile int *flag, int *out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        spin(1);
        out[0] = 42;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) {}
        out[blockIdx.x] = out[0] + blockIdx.x;
    }
}

// each block reads what the block before it wrote
extern "C" __global__ void neighbour(int *out, int *seen) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = blockIdx.x + 1 + (int)(x & 0);
        seen[blockIdx.x] = blockIdx.x ? out[blockIdx.x - 1] : -1;
    }
}

// every block adds to its own word and to the next block's, without atomics
// (read-modify-write: neighbouring blocks on two host threads conflict, and the
// launch runs again on one from memory as it was before; with `out` filled
// beforehand, that memory is not zeros)
extern "C" __global__ void bump(int *out, unsigned *sink) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) { out[blockIdx.x] += (int)blockIdx.x; out[blockIdx.x + 1] += 1; }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// block b writes byte b: neighbouring blocks write bytes of one 4-byte word
extern "C" __global__ void bytes(unsigned char *out, unsigned *sink) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) out[blockIdx.x] = (unsigned char)(blockIdx.x * 7);
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// device printf from every block: the output comes in block order
extern "C" __global__ void hello(unsigned *sink) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) printf("block %d says %u\n", blockIdx.x, x);
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// block 37 (and every block after 200) writes far out of bounds: the first of them faults
extern "C" __global__ void late_fault(int *out, int n) {
    unsigned x = spin(threadIdx.x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 37 || blockIdx.x > 200) i += n + 100000;
    out[i] = (int)x;
}

// the "last block" pattern: each block stores its partial sum, and the block
// that finishes last (by an atomic counter) adds them all up
extern "C" __global__ void last_block(const int *in, int *partial, unsigned *count, int *total) {
    __shared__ int s[64];
    __shared__ bool last;
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + (int)(spin(threadIdx.x) & 7);
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int k = 0; k < blockDim.x; k++) sum += s[k];
        partial[blockIdx.x] = sum;
        __threadfence();
        last = atomicInc(count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (int b = 0; b < gridDim.x; b++) sum += partial[b];
        *total = sum;
    }
}

// independent blocks: each writes its own outputs (these run on every thread)
extern "C" __global__ void independent(const unsigned *in, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = spin(in[i] + (unsigned)i);
}

// hidden_write: out + k (k an integer: the distance from out to in in the
// case file's layout) lands in `in`, which the analysis of store addresses
// takes for read-only (no pointer a store uses points into it).  Block b
// reads in[b - 1], which block b - 1 wrote: the write must stop the parallel
// run, and one thread's result is seen[b] = b.
extern "C" __global__ void hidden_write(int *out, long long k, const int *in, int *seen) {
    unsigned x = spin(threadIdx.x);
    if (threadIdx.x == 0) {
        seen[blockIdx.x] = blockIdx.x ? in[blockIdx.x - 1] : -1;
        out[k + blockIdx.x] = blockIdx.x + 1 + (int)(x & 0);
    }
}

// each block reads, as one whole-warp row, the 32 words the block before it
// writes as a row after its spin (so that on several threads the read
// usually comes first): the shadow's row path, 8 and 4 words at a time,
// must see the two blocks meet.  One host thread gives data[b * 32 + t] = b + t
extern "C" __global__ void rows(int *data, unsigned *sink) {
    int b = blockIdx.x, t = threadIdx.x;
    /* from block 64 on: a worker's first global access goes lane by lane
     * (its cache of allocations is empty), and blocks that early meet there */
    int prev = b >= 64 ? data[(b - 1) * 32 + t] : t + b - 1;
    unsigned x = spin(threadIdx.x + (unsigned)prev);
    data[b * 32 + t] = prev + 1;
    sink[b * 32 + t] = x;
}
