// saxpy: y[i] = a * x[i] + y[i] with a grid-stride loop (one launch, more threads than work
// on the last block). The simplest complete kernel: parameters, global loads/stores, fma.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
