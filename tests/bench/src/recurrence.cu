// recurrence: a per-thread integer recurrence (multiply, add, xor, rotate) with no memory
// traffic inside the loop: straight-line ALU code, 8,192 threads x ~12,000 PTX instructions
// at iters = 1000.  tests/bench/native/recurrence.c is the same loop in C.
extern "C" __global__ void recurrence(const unsigned *seed, unsigned *out, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = seed[i] + (unsigned)i, y = x ^ 0x9e3779b9u;
    for (int k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        y = (y << 3) | (y >> 29);
        x += y ^ (unsigned)k;
    }
    out[i] = x ^ y;
}
