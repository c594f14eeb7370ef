// dkern: kernels the driver-API test loads as PTX text and as a fat binary.
extern "C" __device__ int bias = 5;

extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + bias;
}

struct Pair { char c; double d; int i; };

extern "C" __global__ void mixed(int *out, char c, double d, Pair p, short s)
{
    if (threadIdx.x == 0) {
        out[0] = c;
        out[1] = (int)(d * 10);
        out[2] = p.c + (int)p.d + p.i;
        out[3] = s;
    }
}
