# bindings_nvrtc: cuda.bindings (driver API) with NVRTC compiling CUDA C++ to
# PTX at run time; prints the numpy results so they can be compared with the
# GPU's byte for byte.
import hashlib
import numpy as np
from cuda.bindings import driver as cu, nvrtc

def ok(r):
    err = r[0]
    if isinstance(err, nvrtc.nvrtcResult):
        assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS, err
    else:
        assert err == cu.CUresult.CUDA_SUCCESS, err
    return r[1] if len(r) == 2 else r[1:]

SRC = r'''
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void blocksum(const double *x, double *out)
{
    __shared__ double s[256];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sqrt(s[0]);
}
'''

prog = ok(nvrtc.nvrtcCreateProgram(SRC.encode(), b"kernels.cu", 0, [], []))
opts = [b"--gpu-architecture=compute_90"]
r = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
assert r[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS, r
size = ok(nvrtc.nvrtcGetPTXSize(prog))
ptx = b" " * size
ok((nvrtc.nvrtcGetPTX(prog, ptx)[0], None))
print("ptx targets sm_90:", b".target sm_90" in ptx)

ok((cu.cuInit(0)[0], None))
dev = ok(cu.cuDeviceGet(0))
ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
ok((cu.cuCtxSetCurrent(ctx)[0], None))
major = ok(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
print("compute capability major:", major)
mod = ok(cu.cuModuleLoadData(ptx))
saxpy = ok(cu.cuModuleGetFunction(mod, b"saxpy"))
blocksum = ok(cu.cuModuleGetFunction(mod, b"blocksum"))

n = 1000
x = (np.arange(n, dtype=np.float32) * np.float32(0.37)).astype(np.float32)
y = np.linspace(-1, 1, n, dtype=np.float32)
dx = ok(cu.cuMemAlloc(x.nbytes))
dy = ok(cu.cuMemAlloc(y.nbytes))
ok((cu.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes)[0], None))
ok((cu.cuMemcpyHtoD(dy, y.ctypes.data, y.nbytes)[0], None))
a = np.array([2.5], dtype=np.float32)
pdx = np.array([int(dx)], dtype=np.uint64)
pdy = np.array([int(dy)], dtype=np.uint64)
nn = np.array([n], dtype=np.int32)
args = np.array([a.ctypes.data, pdx.ctypes.data, pdy.ctypes.data, nn.ctypes.data], dtype=np.uint64)
stream = ok(cu.cuStreamCreate(0))
ok((cu.cuLaunchKernel(saxpy, (n + 127) // 128, 1, 1, 128, 1, 1, 0, stream, args.ctypes.data, 0)[0], None))
ok((cu.cuStreamSynchronize(stream)[0], None))
out = np.empty_like(y)
ok((cu.cuMemcpyDtoH(out.ctypes.data, dy, out.nbytes)[0], None))
print("saxpy:", out[:4].tolist(), out[-1].item())
print("saxpy sha256:", hashlib.sha256(out.tobytes()).hexdigest())

m = 8 * 256
v = np.sin(np.arange(m, dtype=np.float64)) ** 2
dv = ok(cu.cuMemAlloc(v.nbytes))
do = ok(cu.cuMemAlloc(8 * 8))
ok((cu.cuMemcpyHtoD(dv, v.ctypes.data, v.nbytes)[0], None))
pv = np.array([int(dv)], dtype=np.uint64)
po = np.array([int(do)], dtype=np.uint64)
args2 = np.array([pv.ctypes.data, po.ctypes.data], dtype=np.uint64)
ok((cu.cuLaunchKernel(blocksum, 8, 1, 1, 256, 1, 1, 0, stream, args2.ctypes.data, 0)[0], None))
ok((cu.cuCtxSynchronize()[0], None))
res = np.empty(8, dtype=np.float64)
ok((cu.cuMemcpyDtoH(res.ctypes.data, do, res.nbytes)[0], None))
print("blocksum:", [float(t).hex() for t in res[:3]])
print("blocksum sha256:", hashlib.sha256(res.tobytes()).hexdigest())
for p in (dx, dy, dv, do):
    ok((cu.cuMemFree(p)[0], None))
ok((cu.cuModuleUnload(mod)[0], None))
err, name = cu.cuGetErrorName(cu.CUresult.CUDA_ERROR_INVALID_VALUE)
print("error name:", name.decode())
