#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern __shared__ float dyn[];
__global__ void __launch_bounds__(256, 2) kdyn(float *o, int n) {
    cg::thread_block b = cg::this_thread_block();
    auto w = cg::tiled_partition<32>(b);
    dyn[threadIdx.x] = threadIdx.x;
    b.sync();
    float v = dyn[(threadIdx.x + 1) % blockDim.x];
    v = cg::reduce(w, v, cg::plus<float>());
    if (w.thread_rank() == 0) o[blockIdx.x * 8 + w.meta_group_rank()] = v + sinf(v) + expf(v);
}
