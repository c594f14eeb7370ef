// Recorder for div.full{.ftz}.f32 and div.approx{.ftz}.f32 (tests/fp/README.md).
// Build: nvcc -arch=sm_90 -O2 gpu_f32div_record.cu -o rec && ./rec dir
// Operands and hashes from f32div_inputs.h.  Writes, in dir (all little-endian u64 or u32):
//   sweeps.bin  for op (DIV_NOPS), then fixed side (0: a = div_fix[f], every b; 1: b fixed, every
//               a), then f (DIV_N_FIX), then the 512 binades of the swept operand (2^23 bit
//               patterns each, in order): the binade's hash (chunks of DIV_CHUNK)
//   pairs.bin   for op, then ea, then eb (0 .. 255 each): FNV-1a 64 (div_chunk from the basis)
//               of the DIV_PAIR_N results of div_exp_pair(ea, eb, 0 ..)
//   random.txt  "<op> <group> <hash>": the hash of div_pair(group * DIV_RANDOM_GROUP ..) (one
//               group each), for the DIV_N_RANDOM pairs
//   raw0.bin, raw1.bin  the u32 results of div_pair(0 .. DIV_N_RAW - 1) for ops 0, 1 and 2, 3
#include <cstdio>
#include <cstdint>
#include <vector>
#include "f32div_inputs.h"

typedef unsigned long long u64;

template <int K> __device__ __forceinline__ uint32_t dv(uint32_t a, uint32_t b) {
  float x = __uint_as_float(a), y = __uint_as_float(b), r;
  if (K == DIV_FULL) asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  if (K == DIV_FULL_FTZ) asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  if (K == DIV_APPROX) asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  if (K == DIV_APPROX_FTZ) asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  return __float_as_uint(r);
}

// chunk t of the 2^32 sweep with one operand fixed
template <int K> __global__ void sweep(uint32_t fix, int bfixed, u64 *out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (1u << 19)) return;
  u64 h = F64_FNV_BASIS;
  for (uint32_t i = 0; i < DIV_CHUNK; i++) {
    uint32_t v = t * DIV_CHUNK + i;
    h = div_chunk(h, bfixed ? dv<K>(v, fix) : dv<K>(fix, v));
  }
  out[t] = h;
}

template <int K> __global__ void pairs(u64 *out) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 65536) return;
  u64 h = F64_FNV_BASIS;
  for (uint32_t j = 0; j < DIV_PAIR_N; j++) {
    u64 p = div_exp_pair(t >> 8, t & 255, j);
    h = div_chunk(h, dv<K>((uint32_t)(p >> 32), (uint32_t)p));
  }
  out[t] = h;
}

template <int K> __global__ void randc(u64 *out) {   // chunk hashes of the random pairs
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= DIV_N_RANDOM / DIV_CHUNK) return;
  u64 h = F64_FNV_BASIS;
  for (uint32_t i = 0; i < DIV_CHUNK; i++) {
    u64 p = div_pair((u64)t * DIV_CHUNK + i);
    h = div_chunk(h, dv<K>((uint32_t)(p >> 32), (uint32_t)p));
  }
  out[t] = h;
}

template <int K> __global__ void raw(uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= DIV_N_RAW) return;
  u64 p = div_pair(i);
  out[i] = dv<K>((uint32_t)(p >> 32), (uint32_t)p);
}

template <int K> static void launch(int what, uint32_t fix, int bfixed, void *buf) {
  switch (what) {
  case 0: sweep<K><<<(1 << 19) / 256, 256>>>(fix, bfixed, (u64 *)buf); break;
  case 1: pairs<K><<<65536 / 256, 256>>>((u64 *)buf); break;
  case 2: randc<K><<<DIV_N_RANDOM / DIV_CHUNK / 256, 256>>>((u64 *)buf); break;
  default: raw<K><<<DIV_N_RAW / 256, 256>>>((uint32_t *)buf); break;
  }
}
static void launch_op(int k, int what, uint32_t fix, int bfixed, void *buf) {
  switch (k) {
  case DIV_FULL: launch<DIV_FULL>(what, fix, bfixed, buf); break;
  case DIV_FULL_FTZ: launch<DIV_FULL_FTZ>(what, fix, bfixed, buf); break;
  case DIV_APPROX: launch<DIV_APPROX>(what, fix, bfixed, buf); break;
  default: launch<DIV_APPROX_FTZ>(what, fix, bfixed, buf); break;
  }
}

static void *dbuf;
template <class T> static std::vector<T> fetch(size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), dbuf, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}
static u64 fold(const u64 *c, size_t n) {
  u64 h = F64_FNV_BASIS;
  for (size_t i = 0; i < n; i++) h = f64_fnv(h, c[i]);
  return h;
}
static FILE *open_in(const char *dir, const char *name, const char *mode) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return fopen(p, mode);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  cudaMalloc(&dbuf, (1u << 19) * 8ull);
  FILE *fs = open_in(dir, "sweeps.bin", "wb"), *fp = open_in(dir, "pairs.bin", "wb");
  FILE *fr = open_in(dir, "random.txt", "w");
  for (int k = 0; k < DIV_NOPS; k++) {
    for (int side = 0; side < 2; side++)
      for (int f = 0; f < DIV_N_FIX; f++) {
        launch_op(k, 0, div_fix[f], side, dbuf);
        auto c = fetch<u64>(1u << 19);
        for (int b = 0; b < 512; b++) {
          u64 h = fold(c.data() + b * 1024, 1024);
          fwrite(&h, 8, 1, fs);
        }
      }
    launch_op(k, 1, 0, 0, dbuf);
    auto p = fetch<u64>(65536);
    fwrite(p.data(), 8, 65536, fp);
    launch_op(k, 2, 0, 0, dbuf);
    const uint32_t per = DIV_RANDOM_GROUP / DIV_CHUNK;
    auto r = fetch<u64>(DIV_N_RANDOM / DIV_CHUNK);
    for (uint32_t g = 0; g < DIV_N_RANDOM / DIV_RANDOM_GROUP; g++)
      fprintf(fr, "%d %u %016llx\n", k, g, fold(r.data() + g * per, per));
  }
  fclose(fs);
  fclose(fp);
  fclose(fr);
  for (int half = 0; half < 2; half++) {
    FILE *f = open_in(dir, half ? "raw1.bin" : "raw0.bin", "wb");
    for (int k = 2 * half; k < 2 * half + 2; k++) {
      launch_op(k, 3, 0, 0, dbuf);
      auto v = fetch<uint32_t>(DIV_N_RAW);
      fwrite(v.data(), 4, DIV_N_RAW, f);
    }
    fclose(f);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
