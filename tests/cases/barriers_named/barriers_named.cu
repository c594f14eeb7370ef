// CTA barriers: __syncthreads_count / _and / _or (bar.red), named barriers with thread
// counts (bar.sync 1, 64 for warps 0-1 while warps 2-3 use their own ids), and a multi-round
// producer/consumer between two warps with bar.arrive (producer) / bar.sync (consumer) on a
// "full" barrier and the reverse on an "empty" barrier.
#define ROUNDS 5

// grid 2, block 128. data: 256 ints (0..9). out: 8 words per thread.
extern "C" __global__ void barriers_named(const int *data, int *out) {
    __shared__ int sa[128];
    __shared__ int buf[32];
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int gid = blockIdx.x * blockDim.x + tid;
    int x = data[gid];
    int *o = out + gid * 8;

    o[0] = __syncthreads_count(x > 4);
    o[1] = __syncthreads_and(x < 9) | (__syncthreads_and(x >= 0) << 1);
    o[2] = __syncthreads_or(x == 9) | (__syncthreads_or(x > 100) << 1);
    {
        unsigned r;   // raw bar.red.popc with a thread count
        asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.popc.u32 %0, 0, 128, p; }" : "=r"(r) : "r"(x & 1));
        o[3] = (int)r;
    }

    if (w < 2) {
        // warps 0 and 1: exchange through shared memory, synchronised by barrier 1 (64 threads)
        sa[tid] = x * 10 + tid;
        asm volatile("bar.sync 1, 64;" ::: "memory");
        o[4] = sa[63 - tid];
        asm volatile("bar.sync 1, 64;" ::: "memory");
        sa[tid] = o[4] + 1;
        asm volatile("barrier.sync 2, 64;" ::: "memory");
        o[5] = sa[(tid + 32) & 63];
    } else {
        // warp 2 produces ROUNDS batches, warp 3 consumes them
        int acc = 0;
        for (int r = 0; r < ROUNDS; r++) {
            if (w == 2) {
                buf[lane] = x * (r + 1) + r * 1000;
                asm volatile("bar.arrive 3, 64;" ::: "memory");   // buffer full
                asm volatile("bar.sync 4, 64;" ::: "memory");     // wait: buffer empty
            } else {
                asm volatile("bar.sync 3, 64;" ::: "memory");     // wait: buffer full
                acc = acc * 3 + buf[(lane + r) & 31];
                asm volatile("barrier.arrive 4, 64;" ::: "memory"); // buffer empty
            }
        }
        o[4] = acc;
        o[5] = -1;
    }
    __syncthreads();
    o[6] = __syncthreads_count(o[4] & 1);
    o[7] = 0x600d;
}
