// cp.async.{ca,cg} of 4/8/16 bytes with src-size (zero fill), commit_group / wait_group /
// wait_all (raw asm and __pipeline_memcpy_async), and mbarrier: init, arrive (returning a
// state, with a count, .noComplete), arrive_drop, expect_tx / complete_tx /
// arrive.expect_tx, test_wait on a state, try_wait.parity, pending_count of states taken by
// one thread, cp.async.mbarrier.arrive (.noinc and plain), inval; fence.proxy.async and
// griddepcontrol (no-ops here). grid 2, block 128. out: 4 copied tiles per block, then
// per thread 16 result words.
#include <stdint.h>
#include <cuda_pipeline.h>

__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ uint64_t arrive(uint64_t *b) {
    uint64_t s; asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem(b)) : "memory"); return s;
}
__device__ __forceinline__ uint32_t test_wait(uint64_t *b, uint64_t s) {
    uint32_t r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(smem(b)), "l"(s) : "memory");
    return r;
}
__device__ __forceinline__ uint32_t try_parity(uint64_t *b, uint32_t par) {
    uint32_t r;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(smem(b)), "r"(par) : "memory");
    return r;
}
__device__ __forceinline__ uint32_t test_parity(uint64_t *b, uint32_t par) {
    uint32_t r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(smem(b)), "r"(par) : "memory");
    return r;
}
__device__ __forceinline__ uint32_t pending(uint64_t s) {
    uint32_t r; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(s)); return r;
}

extern "C" __global__ void async_copy(uint32_t *out, const uint32_t *src) {
    __shared__ __align__(16) uint32_t buf[4][256];
    __shared__ __align__(16) uint32_t nb[128];
    __shared__ uint64_t bar[4];
    uint32_t tid = threadIdx.x;
    const uint32_t *g = src + blockIdx.x * 1024;
    uint32_t *res = out + gridDim.x * 1024 + (blockIdx.x * blockDim.x + tid) * 16;
    for (uint32_t i = tid; i < 1024; i += blockDim.x) (&buf[0][0])[i] = 0xdeadbeefu;
    if (tid == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bar[0])), "r"(128) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(&bar[1])), "r"(1) : "memory");
        asm volatile("mbarrier.init.shared.b64 [%0], 5;" :: "r"(smem(&bar[2])) : "memory");
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bar[3])), "r"(128) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("griddepcontrol.wait;" ::: "memory");
    __syncthreads();
    // group 0: 4-byte copies, the second with src-size tid % 5 (bytes past it are zero)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem(&buf[0][tid])), "l"(g + tid) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(smem(&buf[0][tid + 128])), "l"(g + tid + 128), "r"(tid % 5) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    // group 1: 8-byte copies with src-size tid % 9
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(smem(&buf[1][2 * tid])), "l"(g + 256 + 2 * tid), "r"(tid % 9) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    // group 2: 16-byte .cg (src-size tid % 17) and .ca (full), through __pipeline too
    if (tid < 64) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(smem(&buf[2][4 * tid])), "l"(g + 512 + 4 * tid), "r"(tid % 17) : "memory");
    else __pipeline_memcpy_async(&buf[3][4 * (tid - 64)], g + 768 + 4 * (tid - 64), 16, (tid % 3) * 4);
    __pipeline_commit();
    asm volatile("cp.async.wait_group 2;" ::: "memory");
    uint32_t own0 = buf[0][tid];
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    uint32_t own1 = buf[1][2 * tid];
    __pipeline_wait_prior(0);
    asm volatile("cp.async.wait_all;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    res[0] = own0; res[1] = own1;
    // mbarrier phase 0 of bar0: everyone arrives, waits on its state
    uint64_t s = arrive(&bar[0]);
    uint32_t spins = 0;
    while (!test_wait(&bar[0], s)) spins++;
    res[2] = 1;
    // phase 1: cp.async.mbarrier.arrive (net no change) then a plain arrive with count 1
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(smem(&bar[0])) : "memory");
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0], 1;" :: "r"(smem(&bar[0])) : "memory");
    while (!try_parity(&bar[0], 1)) spins++;
    res[3] = test_parity(&bar[0], 0) | test_parity(&bar[0], 1) << 1;
    // tx-count on bar1 (count 1): thread 0 arrives expecting 64 bytes, threads 32 and 64 complete 32 each
    __syncthreads();
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;" :: "r"(smem(&bar[1])) : "memory");
        res[4] = test_parity(&bar[1], 0);
    }
    __syncthreads();
    if (tid == 32) asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 32;" :: "r"(smem(&bar[1])) : "memory");
    __syncthreads();
    if (tid == 0) res[5] = test_parity(&bar[1], 0);
    __syncthreads();
    if (tid == 64) asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 32;" :: "r"(smem(&bar[1])) : "memory");
    while (!try_parity(&bar[1], 0)) spins++;
    res[6] = test_parity(&bar[1], 0);
    __syncthreads();
    // phase 1 of bar1: expect_tx alone, then the arrival, then the bytes
    if (tid == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 16;" :: "r"(smem(&bar[1])) : "memory");
        arrive(&bar[1]);
        res[7] = test_parity(&bar[1], 1);
        asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 16;" :: "r"(smem(&bar[1])) : "memory");
        res[8] = test_parity(&bar[1], 1);
    }
    // pending counts of states one thread takes on bar2 (count 5)
    if (tid == 0) {
        uint64_t s1 = arrive(&bar[2]), s2, s3, s4;
        asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 1;" : "=l"(s2) : "r"(smem(&bar[2])) : "memory");
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 2;" : "=l"(s3) : "r"(smem(&bar[2])) : "memory");
        res[9] = pending(s1) | pending(s2) << 8 | pending(s3) << 16 | test_wait(&bar[2], s1) << 24;
        asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s4) : "r"(smem(&bar[2])) : "memory");
        res[10] = pending(s4) | test_wait(&bar[2], s1) << 8 | test_parity(&bar[2], 0) << 9;
        // the next phase expects 4 arrivals
        s1 = arrive(&bar[2]); s2 = arrive(&bar[2]); s3 = arrive(&bar[2]);
        res[11] = pending(s1) | pending(s2) << 8 | pending(s3) << 16 | test_parity(&bar[2], 1) << 24;
        s4 = arrive(&bar[2]);
        res[12] = pending(s4) | test_parity(&bar[2], 1) << 8 | test_wait(&bar[2], s3) << 9;
        asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(smem(&bar[2])) : "memory");
    }
    // cp.async completion tracked by bar3 (count 128) through .noinc arrivals
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem(&nb[tid])), "l"(g + (tid * 37) % 1024) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(smem(&bar[3])) : "memory");
    while (!try_parity(&bar[3], 0)) spins++;
    res[13] = nb[tid ^ 1] + nb[(tid + 5) & 127];
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    res[14] = 0; res[15] = 0;
    (void)spins;
    __syncthreads();
    for (uint32_t i = tid; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = (&buf[0][0])[i];
}
