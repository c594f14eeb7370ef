// Real (non-inlined) calls: struct arguments and return values passed by value through the
// .param space, a large struct (array member), recursion (fib, Ackermann, recursive sum over a
// local array), indirect calls through a table of function pointers, and a function-pointer
// parameter. The same source compiled with -G is the calls_debug case.
#include <stdint.h>

struct Vec3 { float x, y, z; };
struct Pair { int a; long long b; };
struct Big { int v[12]; short s; char c; double d; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
    Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}
__device__ __noinline__ Pair mkpair(int a, long long b) { Pair p; p.a = a * 3; p.b = b - a; return p; }
__device__ __noinline__ Pair addpair(Pair x, Pair y) { Pair p = {x.a + y.a, x.b * 2 + y.b}; return p; }
__device__ __noinline__ Big fillbig(int seed) {
    Big b;
    for (int i = 0; i < 12; i++) b.v[i] = seed * (i + 1) - i * i;
    b.s = (short)(seed * 1000); b.c = (char)(seed + 'A'); b.d = seed * 0.125;
    return b;
}
__device__ __noinline__ long long sumbig(Big b, int k) {
    long long s = b.s + b.c + (long long)(b.d * 8.0);
    for (int i = 0; i < 12; i++) s += (long long)b.v[(i + k) % 12] * (i + 1);
    return s;
}
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
__device__ __noinline__ int rsum(const int *p, int n) {   // recursion over a local array
    return n == 0 ? 0 : p[n - 1] * n + rsum(p, n - 1);
}
__device__ __noinline__ int f_add(int a, int b) { return a + b; }
__device__ __noinline__ int f_sub(int a, int b) { return a - b; }
__device__ __noinline__ int f_mul(int a, int b) { return a * b; }
__device__ __noinline__ int f_mix(int a, int b) { return (a ^ b) + (a >> 2); }
typedef int (*binop)(int, int);
__device__ binop optab[4] = {f_add, f_sub, f_mul, f_mix};

__device__ __noinline__ int apply_n(binop f, int x, int y, int n) {   // function pointer argument
    int r = x;
    for (int i = 0; i < n; i++) r = f(r, y + i);
    return r;
}
__device__ __noinline__ float vararg_like(int n, float a, double b, char c, unsigned short d, long long e) {
    return (float)(n * a + b) + c - d + (float)e;
}

// grid 2, block 32. in: 64 ints. out: 16 words per thread (as 32-bit), out64: 4 per thread.
extern "C" __global__ void calls_recursion(const int *in, uint32_t *out, long long *out64) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[gid];
    uint32_t *o = out + gid * 16;
    long long *O = out64 + gid * 4;
    Vec3 a = {(float)x, 1.5f, -2.0f}, b = {0.25f, (float)(gid % 7), 3.0f};
    Vec3 c = cross(a, b);
    o[0] = __float_as_uint(c.x); o[1] = __float_as_uint(c.y); o[2] = __float_as_uint(c.z);
    Pair p = addpair(mkpair(x, 1LL << 40), mkpair(gid, -5));
    o[3] = (uint32_t)p.a; O[0] = p.b;
    Big big = fillbig(x);
    O[1] = sumbig(big, gid);
    o[4] = (uint32_t)fib(gid % 16);
    o[5] = (uint32_t)ack(gid % 3, gid % 4);
    int loc[20];
    for (int i = 0; i < 20; i++) loc[i] = in[(gid + i * 3) % 64];
    o[6] = (uint32_t)rsum(loc, 1 + gid % 20);
    binop f = optab[gid % 4];
    o[7] = (uint32_t)f(x, gid);                           // indirect call
    o[8] = (uint32_t)apply_n(optab[(gid + 1) % 4], x, 3, 1 + gid % 5);
    o[9] = (uint32_t)apply_n(gid & 1 ? f_mix : f_sub, gid, x, 4);
    o[10] = __float_as_uint(vararg_like(gid, 0.5f, x * 0.25, (char)x, (unsigned short)(gid * 1000), -(long long)x << 20));
    int acc = 0;
    for (int i = 0; i < 4; i++) acc = optab[(x + i) & 3](acc, x + i);   // data-dependent targets
    o[11] = (uint32_t)acc;
    O[2] = (long long)ack(2, gid % 3) * 1000000007LL + fib(10 + gid % 6);
    O[3] = sumbig(fillbig(gid - 40), 5);
    o[12] = 0xc0ffee00u + gid;
}
