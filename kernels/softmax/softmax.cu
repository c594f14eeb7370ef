// Row-wise softmax: y[r][i] = exp(x[r][i] - max_r) / sum_i exp(x[r][i] - max_r).
// One block per row, any block size that is a multiple of 32 (up to 1024) and any
// row length n: each thread strides over the row, then the block combines its
// threads' maxima and sums by warp shuffles and a shared array of per-warp values.
// expf (no -use_fast_math) is a range reduction around ex2.approx.ftz.f32.
#include <math.h>

__device__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// The block's maximum (is_max) or sum of v, in every thread.
__device__ float block_reduce(float v, bool is_max, float *red)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    v = is_max ? warp_max(v) : warp_sum(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float w = lane < nwarps ? red[lane] : (is_max ? -INFINITY : 0.0f);
        w = is_max ? warp_max(w) : warp_sum(w);
        if (lane == 0) red[32] = w;
    }
    __syncthreads();
    float r = red[32];
    __syncthreads();   // red is reused by the next reduction
    return r;
}

extern "C" __global__ void softmax(const float *x, float *y, int n)
{
    __shared__ float red[33];
    const float *row = x + (size_t)blockIdx.x * n;
    float *out = y + (size_t)blockIdx.x * n;
    float m = -INFINITY;
    for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i]);
    m = block_reduce(m, true, red);
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float e = expf(row[i] - m);
        out[i] = e;
        s += e;
    }
    s = block_reduce(s, false, red);
    const float inv = 1.0f / s;
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] *= inv;
}
