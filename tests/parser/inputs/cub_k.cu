#include <cub/cub.cuh>
__global__ void ksort(int *d, int *scan_out) {
    typedef cub::BlockRadixSort<int, 128, 4> Sort;
    typedef cub::BlockScan<int, 128> Scan;
    __shared__ union { typename Sort::TempStorage s; typename Scan::TempStorage c; } tmp;
    int keys[4];
    for (int i = 0; i < 4; i++) keys[i] = d[threadIdx.x * 4 + i];
    Sort(tmp.s).Sort(keys);
    __syncthreads();
    int agg;
    Scan(tmp.c).ExclusiveSum(keys, keys, agg);
    for (int i = 0; i < 4; i++) d[threadIdx.x * 4 + i] = keys[i];
    if (threadIdx.x == 0) scan_out[blockIdx.x] = agg;
}
