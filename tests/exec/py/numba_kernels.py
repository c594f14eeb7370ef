# numba_kernels: Numba-CUDA kernels (@cuda.jit, compiled through NVVM to
# PTX and linked by the driver); prints the numpy results.
import hashlib
import math
import numpy as np
from numba import cuda

@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

@cuda.jit
def stencil(src, dst):
    i, j = cuda.grid(2)
    if 0 < i < src.shape[0] - 1 and 0 < j < src.shape[1] - 1:
        dst[i, j] = 0.25 * (src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1]) + math.sqrt(src[i, j])

@cuda.jit
def histogram(data, bins):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i] % bins.size, 1)

n = 4096
x = np.arange(n, dtype=np.float32) / 7
y = np.cos(np.arange(n, dtype=np.float32))
out = np.zeros_like(x)
axpy[(n + 255) // 256, 256](np.float32(1.5), x, y, out)
print("axpy:", out[:3].tolist(), "sha256", hashlib.sha256(out.tobytes()).hexdigest())

g = np.fromfunction(lambda i, j: (i * 31 + j * 17) % 101, (64, 48), dtype=np.float64)
d_src = cuda.to_device(g)
d_dst = cuda.device_array_like(g)
stencil[(8, 6), (8, 8)](d_src, d_dst)
r = d_dst.copy_to_host()
print("stencil:", float(r[1, 1]).hex(), float(r[62, 46]).hex(), "sha256", hashlib.sha256(r[1:-1, 1:-1].tobytes()).hexdigest())

data = (np.arange(10000, dtype=np.int64) * 7919) % 1000
bins = cuda.to_device(np.zeros(16, dtype=np.int32))
histogram[40, 256](cuda.to_device(data), bins)
print("histogram:", bins.copy_to_host().tolist())
cuda.synchronize()
print("device:", cuda.get_current_device().compute_capability)
