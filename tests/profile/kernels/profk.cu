// profk.cu — kernels whose per-line costs `ptxemu profile` is checked on
// against Nsight Compute's source view (recorded on an H100/H200, sm_90).
// Each pair shows one lesson: the costly form and its fix.
#define TILE 32
#define ROWS 8

// Shared memory read down a column: 32 lanes, one bank (32-way conflict) ...
extern "C" __global__ void smem_column(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = y; j < TILE; j += ROWS) tile[j][x] = in[j * TILE + x];
    __syncthreads();
    float s = 0;
    for (int j = y; j < TILE; j += ROWS) s += tile[x][j];
    out[(blockIdx.x * ROWS + y) * TILE + x] = s;
}

// ... and padded by one word per row: 32 lanes, 32 banks.
extern "C" __global__ void smem_column_padded(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = y; j < TILE; j += ROWS) tile[j][x] = in[j * TILE + x];
    __syncthreads();
    float s = 0;
    for (int j = y; j < TILE; j += ROWS) s += tile[x][j];
    out[(blockIdx.x * ROWS + y) * TILE + x] = s;
}

// 8-byte shared accesses with a stride (phases of 16 lanes).
extern "C" __global__ void smem_double(const double *in, double *out, int stride)
{
    __shared__ double s[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[(t * stride) % 512];
}

// Global: neighbouring lanes, neighbouring words (4 sectors per request) ...
extern "C" __global__ void copy_coalesced(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// ... a stride between lanes (up to 32 sectors per request) ...
extern "C" __global__ void copy_strided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(i * stride) % n];
}

// ... a misaligned start (5 sectors instead of 4) ...
extern "C" __global__ void copy_offset(const float *in, float *out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + off];
}

// ... and 16 bytes per lane (one request, 16 sectors).
extern "C" __global__ void copy_vec4(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        v.x += 1.0f;
        out[i] = v;
    }
}

// Matrix transpose through a shared tile, 32x8 threads per 32x32 tile.
extern "C" __global__ void transpose_tile(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    int width = gridDim.x * TILE;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_tile_padded(float *odata, const float *idata)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    int width = gridDim.x * TILE;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Transpose without shared memory: the writes are uncoalesced.
extern "C" __global__ void transpose_global(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    int width = gridDim.x * TILE;
    for (int j = 0; j < TILE; j += ROWS) odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

// Reduction with interleaved addressing and a strided index: divergent
// warps early on, bank conflicts later.
extern "C" __global__ void reduce_strided_index(const int *in, int *out)
{
    extern __shared__ int sdata[];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * t;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sdata[0];
}

// Sequential addressing: no conflicts, whole warps drop out together.
extern "C" __global__ void reduce_sequential(const int *in, int *out)
{
    extern __shared__ int sdata[];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sdata[0];
}

// A data-dependent loop: lanes leave it at different iterations.
extern "C" __global__ void collatz_steps(const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i], n = 0;
    while (v != 1 && n < 1000) {
        if (v & 1) v = 3 * v + 1;
        else v >>= 1;
        n++;
    }
    out[i] = n;
}

// Loads written in an inlined helper: Nsight Compute shows them on the
// helper's lines.
__device__ __forceinline__ float pair_sum(const float *p, int i)
{
    float a = p[i];
    float b = p[i + 64];
    return a + b;
}

extern "C" __global__ void inline_helper(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = pair_sum(in, i) * 0.5f;
}
