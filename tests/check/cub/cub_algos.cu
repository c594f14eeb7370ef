// tests/check/cub/cub_algos.cu — CUB block and warp algorithms (the CUB of CUDA 13) for the checker's
// precision tests: `ptxemu check` must find nothing in them, and `ptxemu test` must produce the
// results gen.py computes on the host.  Library code like this reads past the data it owns (merge
// sort's SerialMerge loads one key past its segment) and keeps shared memory in unions; the checker
// must judge values by their use, not their load.
// Build: see tests/check/cub/README.md.  Every kernel: grid 2, block 128, 512 items per block.
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_run_length_decode.cuh>
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_exchange.cuh>

#define T 128
#define IPT 4
#define TILE (T * IPT)

struct Less { __device__ bool operator()(int a, int b) const { return a < b; } };
struct Max { __device__ int operator()(int a, int b) const { return a > b ? a : b; } };
struct Sub { __device__ int operator()(int a, int b) const { return a - b; } };
struct Neq { __device__ bool operator()(int a, int b) const { return a != b; } };

// Merge sort: keys ascending (blocked), stable key-value sort of (key % 16, index), and a partial
// tile of 300 valid keys (only those are sorted and stored).  out: 3 x 512 ints per block, vals: 512.
extern "C" __global__ void __launch_bounds__(T) cub_merge_sort(const int *keys, int *out, int *vals) {
    typedef cub::BlockMergeSort<int, T, IPT> Sort;
    typedef cub::BlockMergeSort<int, T, IPT, int> SortKV;
    __shared__ union { typename Sort::TempStorage s; typename SortKV::TempStorage kv; } tmp;
    const int *in = keys + blockIdx.x * TILE;
    int *o = out + blockIdx.x * 3 * TILE;
    int k[IPT], v[IPT];
    for (int i = 0; i < IPT; i++) k[i] = in[threadIdx.x * IPT + i];
    Sort(tmp.s).Sort(k, Less());
    for (int i = 0; i < IPT; i++) o[threadIdx.x * IPT + i] = k[i];
    __syncthreads();
    for (int i = 0; i < IPT; i++) { k[i] = in[threadIdx.x * IPT + i] & 15; v[i] = threadIdx.x * IPT + i; }
    SortKV(tmp.kv).StableSort(k, v, Less());
    for (int i = 0; i < IPT; i++) { o[TILE + threadIdx.x * IPT + i] = k[i]; vals[blockIdx.x * TILE + threadIdx.x * IPT + i] = v[i]; }
    __syncthreads();
    for (int i = 0; i < IPT; i++) {
        int idx = threadIdx.x * IPT + i;
        k[i] = idx < 300 ? in[idx] : 0;
    }
    Sort(tmp.s).Sort(k, Less(), 300, 0x7fffffff);
    for (int i = 0; i < IPT; i++)                   /* only the valid items are defined */
        if (threadIdx.x * IPT + i < 300) o[2 * TILE + threadIdx.x * IPT + i] = k[i];
}

// Exchange: blocked -> striped, striped -> blocked, warp-striped -> blocked, blocked ->
// warp-striped, scatter to striped by reversed rank.  out: 5 x 512 per block.
extern "C" __global__ void __launch_bounds__(T) cub_exchange(const int *in, int *out) {
    typedef cub::BlockExchange<int, T, IPT> Ex;
    __shared__ typename Ex::TempStorage tmp;
    const int *src = in + blockIdx.x * TILE;
    int *o = out + blockIdx.x * 5 * TILE;
    int x[IPT], r[IPT];
    for (int f = 0; f < 5; f++) {
        for (int i = 0; i < IPT; i++) x[i] = src[threadIdx.x * IPT + i];
        switch (f) {
        case 0: Ex(tmp).BlockedToStriped(x, x); break;
        case 1: Ex(tmp).StripedToBlocked(x, x); break;
        case 2: Ex(tmp).WarpStripedToBlocked(x, x); break;
        case 3: Ex(tmp).BlockedToWarpStriped(x, x); break;
        default:
            for (int i = 0; i < IPT; i++) r[i] = TILE - 1 - (threadIdx.x * IPT + i);
            Ex(tmp).ScatterToStriped(x, x, r);
            break;
        }
        for (int i = 0; i < IPT; i++) o[f * TILE + threadIdx.x * IPT + i] = x[i];
        __syncthreads();
    }
}

// Histogram of 512 bytes per block into 256 bins, by sorting and by atomics.  hist: 2 x 256 per block.
extern "C" __global__ void __launch_bounds__(T) cub_histogram(const unsigned char *samples, unsigned *hist) {
    typedef cub::BlockHistogram<unsigned char, T, IPT, 256, cub::BLOCK_HISTO_SORT> HS;
    typedef cub::BlockHistogram<unsigned char, T, IPT, 256, cub::BLOCK_HISTO_ATOMIC> HA;
    __shared__ union { typename HS::TempStorage s; typename HA::TempStorage a; } tmp;
    __shared__ unsigned bins[256];
    unsigned char x[IPT];
    for (int i = 0; i < IPT; i++) x[i] = samples[blockIdx.x * TILE + threadIdx.x * IPT + i];
    HS(tmp.s).Histogram(x, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += T) hist[blockIdx.x * 512 + b] = bins[b];
    __syncthreads();
    HA(tmp.a).Histogram(x, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += T) hist[blockIdx.x * 512 + 256 + b] = bins[b];
}

// Run-length decode: 2 runs per thread (values v, lengths 0..3, trailing zeros allowed), decoded in
// windows of 512.  out: up to 1536 decoded items per block (rest -1), offs: relative offsets.
extern "C" __global__ void __launch_bounds__(T) cub_rld(const int *vals, const int *lens, int *out, int *offs, int *total) {
    typedef cub::BlockRunLengthDecode<int, T, 2, IPT> RLD;
    __shared__ typename RLD::TempStorage tmp;
    int rv[2], rl[2];
    for (int i = 0; i < 2; i++) {
        rv[i] = vals[blockIdx.x * 2 * T + threadIdx.x * 2 + i];
        rl[i] = lens[blockIdx.x * 2 * T + threadIdx.x * 2 + i];
    }
    unsigned size = 0;
    RLD rld(tmp, rv, rl, size);
    for (unsigned w = 0; w < size; w += TILE) {
        int items[IPT];
        unsigned rel[IPT];
        rld.RunLengthDecode(items, rel, w);
        for (int i = 0; i < IPT; i++) {
            unsigned idx = w + threadIdx.x * IPT + i;
            if (idx < size) { out[blockIdx.x * 3 * TILE + idx] = items[i]; offs[blockIdx.x * 3 * TILE + idx] = (int)rel[i]; }
        }
    }
    if (threadIdx.x == 0) total[blockIdx.x] = (int)size;
}

// Warp algorithms on 32-thread warps (and 16-thread logical warps).  out: 12 x 128 per block.
extern "C" __global__ void __launch_bounds__(T) cub_warp(const int *in, int *out) {
    typedef cub::WarpScan<int> WS;
    typedef cub::WarpScan<int, 16> WS16;
    typedef cub::WarpReduce<int> WR;
    typedef cub::WarpMergeSort<int, IPT, 32> WM;
    typedef cub::WarpExchange<int, IPT, 32> WX;
    __shared__ union {
        typename WS::TempStorage s[T / 32];
        typename WS16::TempStorage s16[T / 16];
        typename WR::TempStorage r[T / 32];
        typename WM::TempStorage m[T / 32];
        typename WX::TempStorage x[T / 32];
    } tmp;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int v = in[blockIdx.x * T + threadIdx.x];
    int *o = out + blockIdx.x * 12 * T;
    int r, agg;
    WS(tmp.s[warp]).InclusiveSum(v, r); o[0 * T + threadIdx.x] = r;
    __syncwarp();
    WS(tmp.s[warp]).ExclusiveSum(v, r, agg); o[1 * T + threadIdx.x] = r; o[2 * T + threadIdx.x] = agg;
    __syncwarp();
    WS(tmp.s[warp]).InclusiveScan(v, r, Max()); o[3 * T + threadIdx.x] = r;
    __syncthreads();
    WS16(tmp.s16[threadIdx.x / 16]).InclusiveSum(v, r); o[4 * T + threadIdx.x] = r;
    __syncthreads();
    r = WR(tmp.r[warp]).Sum(v); o[5 * T + threadIdx.x] = lane == 0 ? r : 0;
    __syncwarp();
    r = WR(tmp.r[warp]).Reduce(v, Max()); o[6 * T + threadIdx.x] = lane == 0 ? r : 0;
    __syncwarp();
    r = WR(tmp.r[warp]).Sum(v, 20); o[7 * T + threadIdx.x] = lane == 0 ? r : 0;
    __syncwarp();
    int head = (lane % 5) == 0;
    r = WR(tmp.r[warp]).HeadSegmentedSum(v, head); o[8 * T + threadIdx.x] = head ? r : 0;
    __syncthreads();
    int k[IPT];
    for (int i = 0; i < IPT; i++) k[i] = in[blockIdx.x * T + (threadIdx.x * 7 + i * 31) % T];
    WM(tmp.m[warp]).Sort(k, Less());
    o[9 * T + threadIdx.x] = k[0] + k[1] * 3 + k[2] * 5 + k[3] * 7;
    __syncthreads();
    for (int i = 0; i < IPT; i++) k[i] = lane * IPT + i;
    WX(tmp.x[warp]).BlockedToStriped(k, k);
    o[10 * T + threadIdx.x] = k[0] + k[1] * 1000;
    o[11 * T + threadIdx.x] = k[2] + k[3] * 1000;
}

// Adjacent difference, discontinuity flags, shuffles, a scan with a running prefix over 4 tiles,
// a partial reduction, and loads/stores of a partial tile (vectorized / warp-transposed).
// out: 12 x 512 per block.
struct Prefix {
    int total;
    __device__ int operator()(int block_aggregate) { int old = total; total += block_aggregate; return old; }
};
extern "C" __global__ void __launch_bounds__(T) cub_misc(const int *in, int *out) {
    typedef cub::BlockAdjacentDifference<int, T> AD;
    typedef cub::BlockDiscontinuity<int, T> DI;
    typedef cub::BlockShuffle<int, T> SH;
    typedef cub::BlockScan<int, T> SC;
    typedef cub::BlockReduce<int, T> RE;
    typedef cub::BlockLoad<int, T, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LW;
    typedef cub::BlockLoad<int, T, IPT, cub::BLOCK_LOAD_VECTORIZE> LV;
    typedef cub::BlockStore<int, T, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> SW;
    __shared__ union {
        typename AD::TempStorage ad; typename DI::TempStorage di; typename SH::TempStorage sh;
        typename SC::TempStorage sc; typename RE::TempStorage re; typename LW::TempStorage lw;
        typename SW::TempStorage sw;
    } tmp;
    const int *src = in + blockIdx.x * TILE;
    int *o = out + blockIdx.x * 12 * TILE;
    int x[IPT], y[IPT], f[IPT];
    for (int i = 0; i < IPT; i++) x[i] = src[threadIdx.x * IPT + i];
    AD(tmp.ad).SubtractLeft(x, y, Sub());
    for (int i = 0; i < IPT; i++) o[0 * TILE + threadIdx.x * IPT + i] = y[i];
    __syncthreads();
    DI(tmp.di).FlagHeads(f, x, Neq());
    for (int i = 0; i < IPT; i++) o[1 * TILE + threadIdx.x * IPT + i] = f[i];
    __syncthreads();
    DI(tmp.di).FlagTails(f, x, Neq());
    for (int i = 0; i < IPT; i++) o[2 * TILE + threadIdx.x * IPT + i] = f[i];
    __syncthreads();
    int s;
    SH(tmp.sh).Offset(x[0], s, 3); o[3 * TILE + threadIdx.x] = threadIdx.x + 3 < T ? s : 0;
    __syncthreads();
    SH(tmp.sh).Rotate(x[1], s, 5); o[3 * TILE + T + threadIdx.x] = s;
    __syncthreads();
    SH(tmp.sh).Up(x, y);
    for (int i = 0; i < IPT; i++) o[4 * TILE + threadIdx.x * IPT + i] = (threadIdx.x == 0 && i == 0) ? 0 : y[i];
    __syncthreads();
    Prefix p = { 7 };
    for (int t = 0; t < 4; t++) {
        int v = src[t * T + threadIdx.x], r;
        SC(tmp.sc).ExclusiveSum(v, r, p);
        o[5 * TILE + t * T + threadIdx.x] = r;
        __syncthreads();
    }
    int red = RE(tmp.re).Sum(x);
    __syncthreads();
    int red2 = RE(tmp.re).Sum(x[0], 77);      /* partial: the items of threads 0..76 */
    if (threadIdx.x == 0) { o[6 * TILE] = red; o[6 * TILE + 1] = red2; }
    __syncthreads();
    LW(tmp.lw).Load(src, x, 300, -1);
    for (int i = 0; i < IPT; i++) o[7 * TILE + threadIdx.x * IPT + i] = x[i];
    __syncthreads();
    LV().Load(src, x);
    for (int i = 0; i < IPT; i++) o[8 * TILE + threadIdx.x * IPT + i] = x[i];
    __syncthreads();
    for (int i = 0; i < IPT; i++) x[i] = threadIdx.x * IPT + i;
    SW(tmp.sw).Store(o + 9 * TILE, x, 333);
}
