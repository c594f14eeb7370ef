// shfl_forward.cu — collectives whose lane, clamp or membermask operand is a register that a
// mov of a constant set, as CUDA's __shfl_*_sync and __ballot_sync issue them (inline assembly
// with register operands).  ptxemu's runs without observers read such an operand as the
// constant when the mov is earlier in the same basic block with nothing in between that may
// set the register again (vm/flow.c, bc_flow_forward_consts).  Each slot below sets it again
// in another way, or not; 2 warps, 14 results per thread.
#include <cstdint>

#define K 14

extern "C" __global__ void shfl_forward(const unsigned *in, unsigned *out) {
    __shared__ unsigned sh[64 * 2];
    unsigned t = threadIdx.x, lane = t & 31, v = lane * 100 + 1, r, r2;
    unsigned *o = out + t * K;
    sh[2 * t] = in[0];          // 5
    sh[2 * t + 1] = in[1];      // 0
    unsigned *my = &sh[2 * t];
    unsigned long long pair = ((unsigned long long)in[3] << 32) | in[2];   // {9, 1}
    __syncwarp();
    // 0: the constant reaches the shuffle: lane 3's value
    asm volatile("{ .reg .b32 q; mov.u32 q, 3; shfl.sync.idx.b32 %0, %1, q, 31, -1; }" : "=r"(r) : "r"(v));
    o[0] = r;
    // 1: a vector load sets q again (5)
    asm volatile("{ .reg .b32 q, q2; mov.u32 q, 3; ld.v2.u32 {q, q2}, [%2]; shfl.sync.idx.b32 %0, %1, q, 31, -1; }"
                 : "=r"(r) : "r"(v), "l"(my));
    o[1] = r;
    // 2: a guarded mov taken in every lane (7)
    asm volatile("{ .reg .b32 q; .reg .pred p; mov.u32 q, 3; setp.ne.u32 p, %2, 1000; @p mov.u32 q, 7;"
                 " shfl.sync.idx.b32 %0, %1, q, 31, -1; }" : "=r"(r) : "r"(v), "r"(lane));
    o[2] = r;
    // 3: a guarded mov taken in the odd lanes: 7 there, 3 in the others
    asm volatile("{ .reg .b32 q, b; .reg .pred p; mov.u32 q, 3; and.b32 b, %2, 1; setp.ne.u32 p, b, 0; @p mov.u32 q, 7;"
                 " shfl.sync.idx.b32 %0, %1, q, 31, -1; }" : "=r"(r) : "r"(v), "r"(lane));
    o[3] = r;
    // 4: an unpacking mov sets q again (9)
    asm volatile("{ .reg .b32 q, q2; mov.u32 q, 3; mov.b64 {q, q2}, %2; shfl.sync.idx.b32 %0, %1, q, 31, -1; }"
                 : "=r"(r) : "r"(v), "l"(pair));
    o[4] = r;
    // 5: an atomic's result sets q again (the old value 5 of this thread's own word)
    asm volatile("{ .reg .b32 q; mov.u32 q, 3; atom.exch.b32 q, [%2], 11; shfl.sync.idx.b32 %0, %1, q, 31, -1; }"
                 : "=r"(r) : "r"(v), "l"(my) : "memory");
    o[5] = r;
    // 6: a label between: the lanes branch past the second mov (12)
    asm volatile("{ .reg .b32 q; .reg .pred p; mov.u32 q, 12; setp.ne.u32 p, %2, 1000; @p bra L%=; mov.u32 q, 3;"
                 " L%=: shfl.sync.idx.b32 %0, %1, q, 31, -1; }" : "=r"(r) : "r"(v), "r"(lane));
    o[6] = r;
    // 7: shfl.up with lane and clamp constants in registers (the scan's form)
    asm volatile("{ .reg .b32 d, c, m; .reg .pred p; mov.u32 d, 1; mov.u32 c, 0; mov.u32 m, -1;"
                 " shfl.sync.up.b32 %0|p, %1, d, c, m; selp.b32 %0, %0, 77, p; }" : "=r"(r) : "r"(v));
    o[7] = r;
    // 8: a membermask constant set twice: the later one counts (every lane)
    asm volatile("{ .reg .b32 m, b; .reg .pred p; mov.u32 m, 0xffff; mov.u32 m, -1; and.b32 b, %1, 1;"
                 " setp.ne.u32 p, b, 0; vote.sync.ballot.b32 %0, p, m; }" : "=r"(r) : "r"(lane));
    o[8] = r;
    // 9: the shuffle's own result sets q again: the second shuffle reads lane 3's value 301 (lane 13)
    asm volatile("{ .reg .b32 q; mov.u32 q, 3; shfl.sync.idx.b32 q, %2, q, 31, -1; shfl.sync.idx.b32 %0, %2, q, 31, -1;"
                 " mov.u32 %1, q; }" : "=r"(r), "=r"(r2) : "r"(v));
    o[9] = r;
    o[10] = r2;
    // 10: shfl.down by a constant 16 with a clamp of 15 (segments of 16 lanes)
    asm volatile("{ .reg .b32 d, c; mov.u32 d, 16; mov.u32 c, 0x0f0f; shfl.sync.down.b32 %0, %1, d, c, -1; }"
                 : "=r"(r) : "r"(v));
    o[11] = r;
    // 12: lane and membermask constants set once, before a loop of shuffles (the function-wide
    // case: every lane is at 1 and -1 there whatever path it took): a running sum over 3 steps
    asm volatile("{ .reg .b32 d, m, s, x, i; .reg .pred p; mov.u32 d, 1; mov.u32 m, -1; mov.u32 s, %1; mov.u32 i, 0;"
                 " L%=: shfl.sync.up.b32 x|p, s, d, 0, m; @p add.u32 s, s, x; add.u32 i, i, 1; setp.lt.u32 p, i, 3;"
                 " @p bra L%=; mov.u32 %0, s; }" : "=r"(r) : "r"(v));
    o[12] = r;
    // 13: set by a mov of 3 in the odd lanes and by an add (5) in the others, then shuffled
    asm volatile("{ .reg .b32 q, b; .reg .pred p; and.b32 b, %2, 1; setp.ne.u32 p, b, 0; @p bra A%=;"
                 " add.u32 q, b, 5; bra.uni B%=; A%=: mov.u32 q, 3; B%=: shfl.sync.idx.b32 %0, %1, q, 31, -1; }"
                 : "=r"(r) : "r"(v), "r"(lane));
    o[13] = r;
}
