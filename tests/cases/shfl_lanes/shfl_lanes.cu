// shfl.sync by whole warps whose lane operand (source lane, delta) and clamp (width) differ
// per lane, next to uniform ones: the emulator's whole-warp shortcut (one operand for every
// lane) must not take the per-lane forms.  Deltas and source lanes run past 31.
// grid 1, block 64 (two warps); in: 64 words; out: 16 words per thread.
extern "C" __global__ void shfl_lanes(const unsigned *in, unsigned *out) {
    unsigned lane = threadIdx.x & 31, v = in[threadIdx.x];
    unsigned *o = out + threadIdx.x * 16;
    int w = 1 << ((lane * 7 + 3) % 6);          // per-lane width: 1..32
    unsigned d = (lane * 5 + 1) % 37;           // per-lane delta, up to 36
    o[0] = __shfl_sync(0xffffffffu, v, (lane * 11 + 3) % 40, 32);
    o[1] = __shfl_sync(0xffffffffu, v, lane * 3, w);
    o[2] = __shfl_up_sync(0xffffffffu, v, d, 32);
    o[3] = __shfl_up_sync(0xffffffffu, v, d, w);
    o[4] = __shfl_down_sync(0xffffffffu, v, d, 32);
    o[5] = __shfl_down_sync(0xffffffffu, v, d & 7, w);
    o[6] = __shfl_xor_sync(0xffffffffu, v, d, 32);
    o[7] = __shfl_xor_sync(0xffffffffu, v, lane, w);
    o[8] = __shfl_sync(0xffffffffu, v, 5, 8);
    o[9] = __shfl_up_sync(0xffffffffu, v, 3, 16);
    o[10] = __shfl_down_sync(0xffffffffu, v, 9);
    o[11] = __shfl_xor_sync(0xffffffffu, v, 6, 4);
    o[12] = __shfl_sync(0xffffffffu, v, 33, 32);  // source lane past 31, the same in every lane
    o[13] = __shfl_down_sync(0xffffffffu, v, 32);
    o[14] = __shfl_down_sync(0xffffffffu, v, 3, w);   // one delta, per-lane widths
    o[15] = __shfl_sync(0xffffffffu, v, 5, w);        // one source lane, per-lane widths
}
