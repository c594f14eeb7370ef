#include <cuda_fp16.h>
#include <cuda_bf16.h>
// cuda_fp16.h / cuda_bf16.h intrinsics of half2 and bfloat162: the math functions (built from the
// MUFU .approx.ftz.f32 ops, cvt and set.eq.f16x2 fix-ups), comparisons as values and as masks
// (set with half sources: 1.0 or 0xffff per half), bool comparisons.  n threads; b, d, m: 2n each.
extern "C" __global__ void half_math(const __half2 *a, __half2 *b, const __nv_bfloat162 *c, __nv_bfloat162 *d, unsigned *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 x = a[i]; __nv_bfloat162 y = c[i];
    b[i] = __hadd2(h2exp(x), __hadd2(h2log(x), __hadd2(h2sqrt(x), __hadd2(h2rcp(x), __hadd2(h2sin(x), h2cos(x))))));
    b[i + n] = __hadd2(__heq2(x, x), __hgtu2(x, b[i]));
    d[i] = __hadd2(h2exp(y), __hadd2(h2log(y), h2sqrt(y)));
    d[i + n] = __hle2(y, d[i]);
    m[i] = __heq2_mask(x, b[i]) ^ __hltu2_mask(x, b[i]) ^ __hgt2_mask(y, d[i]);
    m[i + n] = __hisnan(x.x) + __hisinf(x.y) + __hbeq2(x, b[i]) + __hble2(y, d[i]);
  }
}
