// Traps: __trap() in one thread (the CUDA intrinsic) and an explicit PTX `trap;` taken by
// one thread after a data-dependent branch. Either must end the launch with the trap status.

// grid 2, block 64. mode 0: __trap() in block 1, thread 40; mode 1: asm trap in block 0, thread 3.
extern "C" __global__ void trap_kernel(int *out, int mode) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    out[gid] = gid;
    if (mode == 0 && blockIdx.x == 1 && threadIdx.x == 40) __trap();
    if (mode == 1 && gid == 3) asm volatile("trap;");
    out[gid] = gid + 1000;
}

// brkpt is not a trap; an illegal address is a fault (kept for the fault status).
extern "C" __global__ void fault_kernel(int *out, long long bad) {
    if (threadIdx.x == 0) *(volatile int *)(bad) = 1;
    out[threadIdx.x] = 1;
}
