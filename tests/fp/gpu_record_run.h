// gpu_record_run.h -- the part the GPU recorders share (gpu_approx_record.cu,
// gpu_tanh_record.cu): op(k, x) of a range of 32-bit inputs, one thread each,
// the results copied back.  Included after the recorder defines
// `__device__ uint32_t op(int k, uint32_t a)`; dbuf is the recorder's device buffer.
__global__ void kern(int k, uint32_t base, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(k, base + i);
}

static uint32_t *dbuf;
static std::vector<uint32_t> run(int k, uint32_t base, uint32_t n) {
  kern<<<(n + 255) / 256, 256>>>(k, base, n, dbuf);
  std::vector<uint32_t> h(n);
  cudaMemcpy(h.data(), dbuf, n * 4ull, cudaMemcpyDeviceToHost);
  return h;
}
