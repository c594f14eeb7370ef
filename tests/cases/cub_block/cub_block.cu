// CUB block-wide collectives (heavy template code: many inlined calls, shared-memory
// unions, warp shuffles, bit tricks): BlockRadixSort<int,128,4> (ascending keys, descending
// key-value pairs, blocked-to-striped output), BlockScan<int,128> exclusive / inclusive sums
// and a max scan, BlockReduce sum / max / min, BlockLoad / BlockStore transposes.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

struct MaxOp { __device__ int operator()(int a, int b) const { return a > b ? a : b; } };

// grid 2, block 128. keys: 512 ints per block.
// sorted: ascending keys, per block 512 ints (blocked layout).
// pairs_k / pairs_v: descending sort of (key, original index), striped output.
// scans: per block 4 x 512 ints: exclusive sum, inclusive sum (of the 4-item blocked
//        input), exclusive sum of one item per thread (128), inclusive max (128), and
//        a BLOCK_SCAN_RAKING exclusive sum (128).
// reds: per block 8 ints: sum, max, min (warp-reductions algo), sum with a valid count of 100,
//       raking-algorithm sum, count of keys > 0, and the aggregate of the exclusive scan.
extern "C" __global__ void __launch_bounds__(128) cub_block(const int *keys, int *sorted, int *pairs_k, int *pairs_v,
                                                            int *scans, int *reds) {
    typedef cub::BlockRadixSort<int, 128, 4> Sort;
    typedef cub::BlockRadixSort<int, 128, 4, int> SortKV;
    typedef cub::BlockScan<int, 128> Scan;
    typedef cub::BlockScan<int, 128, cub::BLOCK_SCAN_RAKING> ScanR;
    typedef cub::BlockReduce<int, 128> Reduce;
    typedef cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_RAKING> ReduceR;
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE> Load;
    __shared__ union {
        typename Sort::TempStorage sort;
        typename SortKV::TempStorage sortkv;
        typename Scan::TempStorage scan;
        typename ScanR::TempStorage scanr;
        typename Reduce::TempStorage red;
        typename ReduceR::TempStorage redr;
        typename Load::TempStorage load;
    } tmp;

    const int tid = threadIdx.x, base = blockIdx.x * 512;
    int k[4], v[4];
    Load(tmp.load).Load(keys + base, k);          // striped in global -> blocked in registers
    __syncthreads();
    int orig[4];
    for (int i = 0; i < 4; i++) orig[i] = k[i];

    // reductions
    int *r = reds + blockIdx.x * 8;
    int s = Reduce(tmp.red).Sum(k);
    if (tid == 0) r[0] = s;
    __syncthreads();
    int mx = Reduce(tmp.red).Reduce(k, MaxOp());
    if (tid == 0) r[1] = mx;
    __syncthreads();
    int mn = Reduce(tmp.red).Reduce(-k[0], MaxOp());
    if (tid == 0) r[2] = -mn;
    __syncthreads();
    int sp = Reduce(tmp.red).Sum(k[1], 100);
    if (tid == 0) r[3] = sp;
    __syncthreads();
    int sr = ReduceR(tmp.redr).Sum(k[2] * 3);
    if (tid == 0) r[4] = sr;
    __syncthreads();
    int pos = (k[0] > 0) + (k[1] > 0) + (k[2] > 0) + (k[3] > 0);
    int cnt = Reduce(tmp.red).Sum(pos);
    if (tid == 0) r[5] = cnt;
    __syncthreads();

    // scans
    int *sc = scans + blockIdx.x * 4 * 512;
    int ex[4], in_[4], agg;
    Scan(tmp.scan).ExclusiveSum(k, ex, agg);
    __syncthreads();
    Scan(tmp.scan).InclusiveSum(k, in_);
    __syncthreads();
    for (int i = 0; i < 4; i++) { sc[tid * 4 + i] = ex[i]; sc[512 + tid * 4 + i] = in_[i]; }
    if (tid == 0) r[6] = agg;
    int e1, m1, e2;
    Scan(tmp.scan).ExclusiveSum(k[3], e1);
    __syncthreads();
    Scan(tmp.scan).InclusiveScan(k[3], m1, MaxOp());
    __syncthreads();
    ScanR(tmp.scanr).ExclusiveSum(k[0] - k[1], e2);
    __syncthreads();
    sc[1024 + tid] = e1; sc[1024 + 128 + tid] = m1; sc[1024 + 256 + tid] = e2;
    sc[1024 + 384 + tid] = tid;   // padding words, fixed

    // sorts
    Sort(tmp.sort).Sort(k);
    __syncthreads();
    for (int i = 0; i < 4; i++) sorted[base + tid * 4 + i] = k[i];
    for (int i = 0; i < 4; i++) { k[i] = orig[i]; v[i] = base + tid * 4 + i; }
    SortKV(tmp.sortkv).SortDescendingBlockedToStriped(k, v);
    __syncthreads();
    for (int i = 0; i < 4; i++) { pairs_k[base + i * 128 + tid] = k[i]; pairs_v[base + i * 128 + tid] = v[i]; }
    // radix sort on a bit range only (bits 4..11): a partial, stable sort
    for (int i = 0; i < 4; i++) k[i] = orig[i];
    Sort(tmp.sort).Sort(k, 4, 12);
    __syncthreads();
    for (int i = 0; i < 4; i++) sc[1536 + tid * 4 + i] = k[i];
    if (tid == 0) r[7] = 0x5ca1ab1e;
}
