// Warp-level algorithms: shuffles inside divergent branches with sub-masks, ballot / any /
// all under partial masks, match.any / match.all on data, __reduce_*_sync, cooperative-groups
// tiled_partition<8> / <4> reductions and shuffles, __syncwarp with disjoint masks, and an
// intra-warp spin lock (atomicCAS + __threadfence + atomicExch) taken by every lane of every
// warp in turn, protecting a non-atomic shared counter (needs independent thread scheduling).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define K 24

// grid 2, block 128. data: 256 ints. out: K words per thread. warpres: 8 words per warp.
extern "C" __global__ void warp_algos(const int *data, int *out, int *warpres) {
    __shared__ int sx[128];
    __shared__ int lock[4];
    __shared__ int counter[4];
    __shared__ int order[4][32];
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int gid = blockIdx.x * blockDim.x + tid;
    int x = data[gid];
    int *o = out + gid * K;
    int n = 0;
    if (tid < 4) { lock[tid] = 0; counter[tid] = 0; }
    __syncthreads();

    // 1. shuffles in divergent branches, each side with its own mask
    int v;
    if (lane & 1) {
        v = __shfl_xor_sync(0xaaaaaaaau, x, 2);                 // odd lanes among themselves
        v += __shfl_sync(0xaaaaaaaau, x, 31);
    } else {
        v = __shfl_sync(0x55555555u, x, (lane + 2) & 31);       // even lanes, rotate by 2
        v -= __shfl_down_sync(0x55555555u, x, 4);               // out of range: keeps own value
    }
    o[n++] = v;
    if (lane < 20) o[n++] = __shfl_up_sync(0x000fffffu, x * 3, 3, 8);   // width 8 segments
    else           o[n++] = __shfl_sync(0xfff00000u, x, lane ^ 1, 4);
    // 2. votes under partial masks
    if (lane < 20) {
        unsigned b = __ballot_sync(0x000fffffu, x > 0);
        o[n++] = (int)b;
        o[n++] = __any_sync(0x000fffffu, x > 45) | (__all_sync(0x000fffffu, x > -51) << 1) |
                 (__all_sync(0x000fffffu, x > 0) << 2);
    } else {
        unsigned b = __ballot_sync(0xfff00000u, x & 1);
        o[n++] = (int)b;
        o[n++] = __any_sync(0xfff00000u, x == 1000) | (__all_sync(0xfff00000u, x < 100) << 1);
    }
    o[n++] = __popc(__ballot_sync(0xffffffffu, x >= 0));
    // 3. match
    o[n++] = (int)__match_any_sync(0xffffffffu, ((x % 5) + 5) % 5);
    {
        int pred;
        unsigned m = __match_all_sync(0xffffffffu, x > 1000 ? 1 : 7, &pred);
        o[n++] = (int)m + pred;
        m = __match_all_sync(0xffffffffu, x, &pred);
        o[n++] = (int)m + pred * 2;
        unsigned long long key = (unsigned long long)(x & 3) << 40 | 5;
        o[n++] = (int)__match_any_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, key);
    }
    // 4. __reduce_*_sync
    o[n++] = __reduce_add_sync(0xffffffffu, (unsigned)x);
    o[n++] = __reduce_min_sync(0xffffffffu, x);
    o[n++] = __reduce_max_sync(0xffffffffu, x);
    o[n++] = (int)__reduce_min_sync(0xffffffffu, (unsigned)x);
    o[n++] = (int)(__reduce_and_sync(0xffffffffu, (unsigned)x | 0x100) ^ __reduce_or_sync(0xffffffffu, (unsigned)x & 0xff));
    o[n++] = (int)__reduce_xor_sync(0xffffffffu, (unsigned)x);
    if (lane >= 8) o[n++] = __reduce_add_sync(0xffffff00u, lane);
    else o[n++] = -1;
    // 5. cooperative groups tiles
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t8);
    o[n++] = cg::reduce(t8, x, cg::plus<int>());
    o[n++] = cg::reduce(t4, x, cg::greater<int>());
    {
        int s = x;
        for (int d = 2; d > 0; d >>= 1) s += t4.shfl_down(s, d);
        o[n++] = t4.shfl(s, 0) * 100 + (int)t4.thread_rank() * 10 + (int)t8.meta_group_rank();
        o[n++] = (int)t8.ballot(x > 0) + ((int)t4.any(x < -40) << 8) + (int)t8.num_threads() * 1000;
    }
    // 6. __syncwarp with disjoint masks exchanging through shared memory
    if (lane < 16) {
        sx[tid] = x * 2;
        __syncwarp(0x0000ffffu);
        v = sx[(tid & ~15) + ((lane + 1) & 15)];
        __syncwarp(0x0000ffffu);
    } else {
        sx[tid] = x * 5;
        __syncwarp(0xffff0000u);
        v = sx[(tid & ~15) + ((lane + 3) & 15)];
        __syncwarp(0xffff0000u);
    }
    o[n++] = v;
    // 7. intra-warp lock (ITS): every lane adds lane+1 to its warp's counter and records the
    //    counter value it saw in a per-warp slot array; the sum and the set of values seen are
    //    order-independent checks (sum of prefix sums is not, so only the final counter and the
    //    number of distinct values are recorded).
    while (atomicCAS(&lock[w], 0, 1) != 0) { }
    {
        volatile int *c = &counter[w];
        int seen = *c;
        *c = seen + lane + 1;
        order[w][lane] = seen;
        __threadfence();
        atomicExch(&lock[w], 0);
    }
    __syncthreads();
    if (lane == 0) {
        int *wr = warpres + (blockIdx.x * 4 + w) * 8;
        wr[0] = counter[w];
        unsigned long long mask = 0;   // each seen value is distinct: count them
        int distinct = 0;
        for (int i = 0; i < 32; i++) {
            int cnt = 0;
            for (int j = 0; j < 32; j++) cnt += order[w][j] == order[w][i];
            distinct += cnt == 1;
            mask |= 1ull << (i & 63);
        }
        wr[1] = distinct;
        wr[2] = lock[w];
        wr[3] = (int)(mask >> 16);
    }
    o[K - 1] = n;
}
