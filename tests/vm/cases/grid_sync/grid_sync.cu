// grid_sync: cooperative_groups::this_grid().sync() twice, and a volatile flag
// that one block waits on while a later block sets it.
//
// grid_sync (8 blocks x 64 threads, a cooperative launch: ptxemu keeps the
// whole grid resident):
//   phase 1: a[i] = i + 1 for every thread i = b*64 + t;  ids[b] = b + 1
//   grid.sync()
//   phase 2: col[i] = sum over blocks b' of a[b'*64 + t]  = 64*8*7/2 + 8*(t+1) = 1792 + 8(t+1)
//            thread 0: sums[b] = sum of ids = 36
//   grid.sync()
//   phase 3: nb[i] = col[((b+1) % 8)*64 + t] (the next block's phase-2 value: the same 1792 + 8(t+1))
//
// flag_wait (N blocks x 32 threads, N even): block 2k waits (thread 0 spins on a
// volatile flag) until block 2k+1 has set flag[k] = 100 + k, then every
// thread of block 2k writes out[i] = flag[k] + t; odd blocks write out[i] = i.
// With one block resident at a time block 0 spins forever; with 2 or more it ends.
//
// stuck (below): a deliberate deadlock in the even blocks.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sync(unsigned *a, unsigned *col, unsigned *nb, unsigned *ids, unsigned *sums)
{
    cg::grid_group g = cg::this_grid();
    unsigned b = blockIdx.x, t = threadIdx.x, n = blockDim.x, i = b * n + t;
    a[i] = i + 1;
    if (t == 0) ids[b] = b + 1;
    g.sync();
    unsigned s = 0;
    for (unsigned k = 0; k < gridDim.x; k++) s += a[k * n + t];
    col[i] = s;
    if (t == 0) {
        unsigned z = 0;
        for (unsigned k = 0; k < gridDim.x; k++) z += ids[k];
        sums[b] = z;
    }
    g.sync();
    nb[i] = col[((b + 1) % gridDim.x) * n + t];
}

extern "C" __global__ void flag_wait(volatile unsigned *flag, unsigned *out)
{
    unsigned b = blockIdx.x, t = threadIdx.x, i = b * blockDim.x + t;
    if (b % 2 == 0) {
        if (t == 0)
            while (flag[b / 2] == 0) { }
        __syncthreads();
        out[i] = flag[b / 2] + t;
    } else {
        out[i] = i;
        __syncthreads();
        if (t == 0) {
            __threadfence();
            atomicExch((unsigned *)&flag[b / 2], 100 + b / 2);
        }
    }
}

// stuck: in even blocks thread 0 waits at barrier 0 and the others at barrier 1,
// so those blocks can never proceed (a deadlock reported for every blocked block in flight).
extern "C" __global__ void stuck(unsigned *out)
{
    if (blockIdx.x % 2 == 0) {
        if (threadIdx.x == 0) asm volatile("bar.sync 0;");
        else asm volatile("bar.sync 1;");
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
