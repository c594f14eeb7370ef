// Probe: does .ftz flush results that are tiny BEFORE rounding but round up to
// the minimum normal?  Prints "op a b c -> result".
#include <cstdio>
__global__ void k(unsigned *o) {
  float a = __uint_as_float(0x3f7fffff), b = __uint_as_float(0x00800000), c = __uint_as_float(0x80000001u);
  float x = __uint_as_float(0x00800001), y = __uint_as_float(0x80000002u);
  float d; int i = 0;
#define M(s) asm volatile(s " %0,%1,%2;" : "=f"(d) : "f"(a), "f"(b)); o[i++] = __float_as_uint(d);
  M("mul.rn.ftz.f32") M("mul.rz.ftz.f32") M("mul.rm.ftz.f32") M("mul.rp.ftz.f32")
#define A(s) asm volatile(s " %0,%1,%2;" : "=f"(d) : "f"(x), "f"(y)); o[i++] = __float_as_uint(d);
  A("add.rn.ftz.f32") A("add.rz.ftz.f32") A("add.rm.ftz.f32") A("add.rp.ftz.f32")
#define F(s) asm volatile(s " %0,%1,%2,%3;" : "=f"(d) : "f"(a), "f"(b), "f"(c)); o[i++] = __float_as_uint(d);
  F("fma.rn.ftz.f32") F("fma.rz.ftz.f32") F("fma.rm.ftz.f32") F("fma.rp.ftz.f32")
  double dd = 1.1754942e-38; // just below 2^-126
  asm volatile("cvt.rp.ftz.f32.f64 %0,%1;" : "=f"(d) : "d"(dd)); o[i++] = __float_as_uint(d);
  asm volatile("cvt.rn.ftz.f32.f64 %0,%1;" : "=f"(d) : "d"(dd)); o[i++] = __float_as_uint(d);
  o[31] = i;
}
int main() {
  unsigned *d, h[32];
  cudaMalloc(&d, 128); k<<<1, 1>>>(d); cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  const char *n[] = {"mul.rn", "mul.rz", "mul.rm", "mul.rp", "add.rn", "add.rz", "add.rm", "add.rp",
                     "fma.rn", "fma.rz", "fma.rm", "fma.rp", "cvt.rp.f32.f64", "cvt.rn.f32.f64"};
  for (unsigned i = 0; i < h[31]; i++) printf("%s.ftz -> %08x\n", n[i], h[i]);
  return 0;
}
