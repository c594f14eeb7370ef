// Recorder for sin/cos/sqrt.approx.ftz.f32 over many binades (see
// gpu_approx_record.cu for the delta-coded file format).  Also prints the
// FNV-1a 64 hash of every recorded / hashed range (for mufu_check.c).
// Build: nvcc -arch=sm_90 -O2 gpu_sincos_record.cu -o rec && ./rec outdir
#include <cstdio>
#include <cstdint>
#include <vector>
enum { SIN, COS, SQRT };
__device__ uint32_t op(int k, uint32_t a) {
  float x = __uint_as_float(a), r = 0;
  switch (k) {
  case SIN: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case COS: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case SQRT: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  }
  return __float_as_uint(r);
}
__global__ void kern(int k, uint32_t base, uint32_t n, uint32_t stride, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(k, base + i * stride);
}
static uint32_t *dbuf;
static std::vector<uint32_t> run(int k, uint32_t base, uint32_t n, uint32_t stride) {
  kern<<<(n + 255) / 256, 256>>>(k, base, n, stride, dbuf);
  std::vector<uint32_t> h(n);
  cudaMemcpy(h.data(), dbuf, n * 4ull, cudaMemcpyDeviceToHost);
  return h;
}
static const char *nm[] = {"sin", "cos", "sqrt"};
static uint64_t fnv(const std::vector<uint32_t> &h) {
  uint64_t x = 0xcbf29ce484222325ull;
  for (uint32_t v : h) { x ^= v; x *= 0x100000001b3ull; }
  return x;
}
// record binades [b0, b1) (b = biased exponent, sign bit sg) with stride; f may be null (hash only)
static void rec(FILE *f, int k, uint32_t sg, int b0, int b1, uint32_t stride) {
  for (int b = b0; b < b1; b++) {
    uint32_t base = sg | (uint32_t)b << 23, n = (1u << 23) / stride;
    auto h = run(k, base, n, stride);
    printf("H %s %08x %u %u 0x%016llxull\n", nm[k], base, n, stride, (unsigned long long)fnv(h));
    if (!f) continue;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < n; i++) {
      int32_t d = (int32_t)(h[i] - prev);
      if (d >= -127 && d <= 127) fputc((int8_t)d, f);
      else { fputc(0x80, f); fwrite(&h[i], 4, 1, f); }
      prev = h[i];
    }
  }
}
static FILE *fo(const char *dir, const char *n) { char p[512]; snprintf(p, sizeof p, "%s/%s.bin", dir, n); return fopen(p, "wb"); }
int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  cudaMalloc(&dbuf, (1u << 23) * 4ull);
  for (int k = SIN; k <= COS; k++) {
    char n1[16], n2[16], n3[16];
    snprintf(n1, 16, "%stiny", nm[k]); snprintf(n2, 16, "%slo", nm[k]); snprintf(n3, 16, "%shi", nm[k]);
    FILE *f = fo(dir, n1); rec(f, k, 0, 1, 103, 64); fclose(f);          // 2^-126..2^-24, stride 64
    f = fo(dir, n2); rec(f, k, 0, 103, 121, 1); fclose(f);               // 2^-24..2^-6 full
    f = fo(dir, n3); rec(f, k, 0, 121, 131, 1); fclose(f);               // 2^-6..2^4 full
    rec(0, k, 0, 131, 160, 1);                                           // 2^4..2^33 hash only
    rec(0, k, 0x80000000u, 121, 131, 1);                                 // negative, hash only
  }
  FILE *f = fo(dir, "sqrt"); rec(f, SQRT, 0, 117, 137, 1); rec(f, SQRT, 0, 1, 2, 1); rec(f, SQRT, 0, 253, 255, 1); fclose(f);
  rec(0, SQRT, 0, 1, 255, 1);
  return 0;
}
