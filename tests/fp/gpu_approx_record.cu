// Exhaustive recorder for the PTX .approx instructions (MUFU) over whole
// binades.  Writes <dir>/<name>.bin: for each recorded range, the result bit
// patterns (uint32; f64 ops: high word; f16/bf16: 16 bits) delta-coded as
// bytes: int8 d = out - prev when |d| <= 127, else 0x80 + 4 bytes LE of out
// (prev starts at 0 for every range).  A range = (first input bits, count).
// Build: nvcc -arch=sm_90 -O2 gpu_approx_record.cu -o rec && ./rec outdir
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef unsigned long long u64;
enum { RCP, RCPN, RSQ, RSQN, SQRT, SQRTN, EX2, EX2N, LG2, LG2N, SIN, SINN, COS, COSN, TANH,
       RCP64, RSQ64, EX2H, EX2BF, TANHH, TANHBF };

__device__ uint32_t op(int k, uint32_t a) {
  float x = __uint_as_float(a), r = 0;
  switch (k) {
  case RCP: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case RCPN: asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case RSQ: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case RSQN: asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case SQRT: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case SQRTN: asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case EX2: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case EX2N: asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case LG2: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case LG2N: asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case SIN: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case SINN: asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case COS: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case COSN: asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case TANH: asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case RCP64: { double d = __hiloint2double((int)a, 0), o;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(o) : "d"(d)); return (uint32_t)__double2hiint(o); }
  case RSQ64: { double d = __hiloint2double((int)a, 0), o;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(o) : "d"(d)); return (uint32_t)__double2hiint(o); }
  case EX2H: { unsigned short h = (unsigned short)a, o;
    asm("ex2.approx.f16 %0, %1;" : "=h"(o) : "h"(h)); return o; }
  case EX2BF: { unsigned short h = (unsigned short)a, o;
    asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(o) : "h"(h)); return o; }
  case TANHH: { unsigned short h = (unsigned short)a, o;
    asm("tanh.approx.f16 %0, %1;" : "=h"(o) : "h"(h)); return o; }
  case TANHBF: { unsigned short h = (unsigned short)a, o;
    asm("tanh.approx.bf16 %0, %1;" : "=h"(o) : "h"(h)); return o; }
  }
  return __float_as_uint(r);
}

#include "gpu_record_run.h"

struct Rng { int k; uint32_t base, n; };
static void rec(const char *dir, const char *name, std::vector<Rng> rs, int cmpk = -1) {
  char p[512]; snprintf(p, sizeof p, "%s/%s.bin", dir, name);
  FILE *f = fopen(p, "wb");
  for (auto &r : rs) {
    auto h = run(r.k, r.base, r.n);
    if (cmpk >= 0 || r.k % 2 == 0) { /* f32 ftz variants: compare with non-ftz */ }
    uint32_t prev = 0;
    for (uint32_t i = 0; i < r.n; i++) {
      int32_t d = (int32_t)(h[i] - prev);
      if (d >= -127 && d <= 127) fputc((int8_t)d, f);
      else { fputc(0x80, f); fwrite(&h[i], 4, 1, f); }
      prev = h[i];
    }
    printf("%s k=%d base=%08x n=%u\n", name, r.k, r.base, r.n);
  }
  fclose(f);
}

// count differences between ftz and non-ftz forms on a range
static void cmp(int k1, int k2, uint32_t base, uint32_t n) {
  auto a = run(k1, base, n), b = run(k2, base, n);
  size_t c = 0;
  for (uint32_t i = 0; i < n; i++) c += a[i] != b[i];
  printf("cmp k%d vs k%d base=%08x n=%u: %zu differ\n", k1, k2, base, n, c);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  cudaMalloc(&dbuf, (1u << 24) * 4ull);
  const uint32_t M = 1u << 23;
  rec(dir, "rcp", {{RCP, 0x3f800000, M}});
  rec(dir, "rsqrt", {{RSQ, 0x3f800000, 2 * M}});
  rec(dir, "sqrt", {{SQRT, 0x3f800000, 2 * M}});
  rec(dir, "ex2", {{EX2, 0x3f000000, M}, {EX2, 0x3f800000, M}, {EX2, 0xbf000000, M}, {EX2, 0xbf800000, M}});
  rec(dir, "lg2", {{LG2, 0x3f800000, 2 * M}, {LG2, 0x3f000000, M}});
  rec(dir, "sincos", {{SIN, 0x3f000000, 2 * M}, {COS, 0x3f000000, 2 * M}});
  rec(dir, "tanh", {{TANH, 0x3f000000, 2 * M}, {TANH, 0x3d800000, M}});
  rec(dir, "misc", {{RCP64, 0x3ff00000, 1u << 20}, {RSQ64, 0x3ff00000, 1u << 21}, {EX2H, 0, 65536},
                    {EX2BF, 0, 65536}, {TANHH, 0, 65536}, {TANHBF, 0, 65536},
                    {EX2, 0x3e800000, M}, {LG2, 0x40000000, M}});
  cmp(RCP, RCPN, 0x3f800000, M); cmp(RCP, RCPN, 0x00800000, M); cmp(RCP, RCPN, 0x7e800000, 2 * M);
  cmp(RSQ, RSQN, 0x3f800000, 2 * M); cmp(SQRT, SQRTN, 0x3f800000, 2 * M);
  cmp(EX2, EX2N, 0x3f800000, M); cmp(EX2, EX2N, 0xc2f00000, M); cmp(LG2, LG2N, 0x3f800000, M);
  cmp(SIN, SINN, 0x3f000000, 2 * M); cmp(COS, COSN, 0x3f000000, 2 * M);
  return 0;
}
