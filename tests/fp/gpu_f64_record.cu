// Recorder for rcp.approx.ftz.f64, rsqrt.approx.ftz.f64 and rsqrt.approx.f64
// (tests/fp/README.md).  Build: nvcc -arch=sm_90 -O2 gpu_f64_record.cu -o rec && ./rec dir
// Writes, in dir:
//   hashes.txt  "<op> <lo> <first high word> <hash>": for each op, each of the 4096 binades
//               of high words (2^20 each, in order) and each low word choice (lo 0: the low
//               word is 0; lo 1: it is f64_low(high word)), the FNV-1a 64 (f64_fnv) of the
//               64-bit results.  Then "<op> random <hash>": over f64_input(0 .. F64_N_RANDOM-1).
//   raw.bin     high words of the results for the ranges of `ranges` below (low word 0),
//               delta-coded as gpu_approx_record.cu does (prev starts at 0 for each range)
//   rand.bin    the 64-bit results of f64_input(0 .. 65535) for each op in turn
// and prints how many results have a nonzero low word, and for the .ftz ops how many
// results of the random set change when the operand's low word is cleared.
#include <cstdio>
#include <cstdint>
#include <vector>
#include "f64_inputs.h"

typedef unsigned long long u64;
enum { RCP, RSQF, RSQ, NOPS };
static const char *const opname[NOPS] = {"rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64"};

__device__ u64 op(int k, u64 a) {
  double x = __longlong_as_double((long long)a), r;
  switch (k) {
  case RCP: asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
  case RSQF: asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
  default: asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
  }
  return (u64)__double_as_longlong(r);
}

// one thread per binade: the hash of its 2^20 results in order
__global__ void binade_hash(int k, int lo, u64 *out) {
  uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= 4096) return;
  u64 h = F64_FNV_BASIS;
  for (uint32_t i = 0; i < (1u << 20); i++) {
    uint32_t hi = b << 20 | i;
    h = f64_fnv(h, op(k, (u64)hi << 32 | (lo ? f64_low(hi) : 0)));
  }
  out[b] = h;
}

// results of op k on f64_input(first + i) (clear: with the low word cleared)
__global__ void on_random(int k, u64 first, uint32_t n, int clear, u64 *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u64 x = f64_input(first + i);
  out[i] = op(k, clear ? x & 0xffffffff00000000ull : x);
}

// results of op k on high words base .. base + n - 1, low word 0
__global__ void on_range(int k, uint32_t base, uint32_t n, u64 *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(k, (u64)(base + i) << 32);
}

static u64 *dbuf;
static std::vector<u64> fetch(size_t n) {
  std::vector<u64> h(n);
  cudaMemcpy(h.data(), dbuf, n * 8, cudaMemcpyDeviceToHost);
  return h;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char p[512];
  const uint32_t N = F64_N_RANDOM;
  cudaMalloc(&dbuf, N * 8ull);
  snprintf(p, sizeof p, "%s/hashes.txt", dir);
  FILE *fh = fopen(p, "w");
  for (int k = 0; k < NOPS; k++)
    for (int lo = 0; lo < 2; lo++) {
      binade_hash<<<4096 / 64, 64>>>(k, lo, dbuf);
      auto h = fetch(4096);
      for (uint32_t b = 0; b < 4096; b++) fprintf(fh, "%d %d %08x %016llx\n", k, lo, b << 20, h[b]);
    }
  snprintf(p, sizeof p, "%s/rand.bin", dir);
  FILE *fr = fopen(p, "wb");
  for (int k = 0; k < NOPS; k++) {
    on_random<<<N / 256, 256>>>(k, 0, N, 0, dbuf);
    auto r = fetch(N);
    u64 h = F64_FNV_BASIS;
    size_t lownz = 0;
    for (uint32_t i = 0; i < N; i++) { h = f64_fnv(h, r[i]); lownz += (r[i] & 0xffffffffull) != 0; }
    fprintf(fh, "%d random %016llx\n", k, h);
    fwrite(r.data(), 8, 65536, fr);
    printf("%s random set: %zu of %u results have a nonzero low word\n", opname[k], lownz, N);
    if (k == RSQ) continue;
    on_random<<<N / 256, 256>>>(k, 0, N, 1, dbuf);
    auto c = fetch(N);
    size_t diff = 0;
    for (uint32_t i = 0; i < N; i++) diff += c[i] != r[i];
    printf("%s random set: %zu of %u results change when the low word is cleared\n", opname[k], diff, N);
  }
  fclose(fr);
  fclose(fh);
  struct { int k; uint32_t base, n; } ranges[] = {
      {RCP, 0x3ff00000u, 1u << 20},  {RCP, 0x00000000u, 2u << 20},  {RCP, 0x7fc00000u, 4u << 20},
      {RCP, 0xbff00000u, 1u << 20},  {RSQF, 0x3ff00000u, 2u << 20}, {RSQF, 0x00000000u, 2u << 20},
      {RSQF, 0x7fc00000u, 4u << 20}, {RSQF, 0x80000000u, 2u << 20}, {RSQF, 0xfff00000u, 1u << 20}};
  snprintf(p, sizeof p, "%s/raw.bin", dir);
  FILE *f = fopen(p, "wb");
  for (auto &g : ranges) {
    on_range<<<g.n / 256, 256>>>(g.k, g.base, g.n, dbuf);
    auto h = fetch(g.n);
    uint32_t prev = 0;
    size_t lownz = 0;
    for (uint32_t i = 0; i < g.n; i++) {
      uint32_t o = (uint32_t)(h[i] >> 32);
      int32_t d = (int32_t)(o - prev);
      lownz += (h[i] & 0xffffffffull) != 0;
      if (d >= -127 && d <= 127) fputc((int8_t)d, f);
      else { fputc(0x80, f); fwrite(&o, 4, 1, f); }
      prev = o;
    }
    printf("raw %s base=%08x n=%u (%zu nonzero low words)\n", opname[g.k], g.base, g.n, lownz);
  }
  fclose(f);
  cudaError_t e = cudaDeviceSynchronize();
  printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
