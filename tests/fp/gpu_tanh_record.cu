// Recorder for tanh.approx.f32 and the f16/bf16 ex2/tanh forms (tests/fp/README.md).
// Writes <dir>/tanh_hashes.txt: "<first input> <FNV-1a 64 of the results>" for each of
// the 512 binades of all 2^32 inputs; <dir>/tanh_raw.gz: every result of [2^-31, 8)
// (0x30000000..0x40ffffff) in input order, delta-coded as gpu_approx_record.cu does;
// <dir>/halves.bin: 8 x 65536 uint32 results (ex2.approx.f16, ex2.approx.ftz.bf16,
// tanh.approx.f16, tanh.approx.bf16, and tanh.approx.f32 / ex2.approx.ftz.f32 of the
// widened f16 and bf16 inputs); prints how many .f16x2/.bf16x2 lanes differ from the
// scalar forms.  Build: nvcc -arch=sm_90 -O2 gpu_tanh_record.cu -o rec -lz && ./rec dir
#include <cstdio>
#include <cstdint>
#include <vector>
#include <zlib.h>
enum { EX2H, EX2BF, TANHH, TANHBF, TANHF_H, TANHF_BF, EX2F_H, EX2F_BF, EX2H2, EX2BF2, TANHH2, TANHBF2, TANHF };
__device__ uint32_t op(int k, uint32_t a) {
  unsigned short h = (unsigned short)a, o; uint32_t r2; float x, r;
  switch (k) {
  case EX2H: asm("ex2.approx.f16 %0, %1;" : "=h"(o) : "h"(h)); return o;
  case EX2BF: asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(o) : "h"(h)); return o;
  case TANHH: asm("tanh.approx.f16 %0, %1;" : "=h"(o) : "h"(h)); return o;
  case TANHBF: asm("tanh.approx.bf16 %0, %1;" : "=h"(o) : "h"(h)); return o;
  case EX2H2: asm("ex2.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(a)); return r2;
  case EX2BF2: asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r2) : "r"(a)); return r2;
  case TANHH2: asm("tanh.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(a)); return r2;
  case TANHBF2: asm("tanh.approx.bf16x2 %0, %1;" : "=r"(r2) : "r"(a)); return r2;
  case TANHF_H: asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(h)); asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return __float_as_uint(r);
  case TANHF_BF: x = __uint_as_float(a << 16); asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return __float_as_uint(r);
  case EX2F_H: asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(h)); asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return __float_as_uint(r);
  case EX2F_BF: x = __uint_as_float(a << 16); asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return __float_as_uint(r);
  default: x = __uint_as_float(a); asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return __float_as_uint(r);
  }
}
#include "gpu_record_run.h"
int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char p[512];
  cudaMalloc(&dbuf, (1u << 23) * 4ull);
  snprintf(p, sizeof p, "%s/halves.bin", dir);
  FILE *f = fopen(p, "wb");
  for (int k = EX2H; k <= EX2F_BF; k++) fwrite(run(k, 0, 65536).data(), 4, 65536, f);
  fclose(f);
  for (int k = 0; k < 4; k++) {   // low half every input, high half every 4099th
    auto s = run(k, 0, 65536);
    size_t bad = 0;
    for (uint32_t hi = 0; hi < 65536; hi += 4099) {
      auto r = run(EX2H2 + k, hi << 16, 65536);
      for (uint32_t i = 0; i < 65536; i++) bad += (r[i] & 0xffff) != s[i] || (r[i] >> 16) != s[hi];
    }
    printf("x2 form %d against the scalar: %zu lanes differ\n", k, bad);
  }
  snprintf(p, sizeof p, "%s/tanh_hashes.txt", dir);
  f = fopen(p, "w");
  snprintf(p, sizeof p, "%s/tanh_raw.gz", dir);
  gzFile g = gzopen(p, "wb6");
  for (uint32_t b = 0; b < 512; b++) {
    auto h = run(TANHF, b << 23, 1u << 23);
    uint64_t x = 0xcbf29ce484222325ull;
    for (uint32_t o : h) { x ^= o; x *= 0x100000001b3ull; }
    fprintf(f, "%08x %016llx\n", b << 23, (unsigned long long)x);
    if (b < 0x60 || b >= 0x82) continue;
    uint32_t prev = 0; std::vector<unsigned char> v; v.reserve(h.size() * 2);
    for (uint32_t o : h) {
      int32_t d = (int32_t)(o - prev);
      if (d >= -127 && d <= 127) v.push_back((unsigned char)(int8_t)d);
      else { v.push_back(0x80); for (int j = 0; j < 4; j++) v.push_back((unsigned char)(o >> (8 * j))); }
      prev = o;
    }
    gzwrite(g, v.data(), (unsigned)v.size());
  }
  fclose(f);
  gzclose(g);
  return 0;
}
