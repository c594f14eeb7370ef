// A device assert that fails in exactly one thread (block 1, thread 5: in[37] == 12), after
// every thread printed nothing: the launch must end with the assert status.
#include <cassert>

// grid 2, block 32. in: 64 ints, all < 10 except in[37].
extern "C" __global__ void assert_fail(const int *in, int *out) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    assert(v < 10);
    out[gid] = v * 2;
}
