// cvt_edge: conversions, f32/f64 arithmetic, min/max/abs/neg and shifts at their edges, each
// as one PTX instruction (inline asm), in whole warps (the VM's packed full-warp paths) and in a
// partial one (threads 240..255 return at once). Inputs: f.bin (256 floats), d.bin (256 doubles),
// i.bin (256 u32), l.bin (256 u64), s.bin (16 shift counts); outputs: 32 u32 and 16 u64 per thread.
// Warps 1-3 hold in-range values but for one edge each (2^31, just below -2^31, NaN), so a
// whole-warp range check that let that one lane through would show.
#include <stdint.h>

#define U(k, asm_, ...) asm(asm_ : "=r"(o32[k]) : __VA_ARGS__)
#define L(k, asm_, ...) asm(asm_ : "=l"(o64[k]) : __VA_ARGS__)

extern "C" __global__ void cvt_edge(const float *f, const double *d, const uint32_t *i, const uint64_t *l,
                                    const uint32_t *s, uint32_t *out32, uint64_t *out64)
{
    int t = threadIdx.x;
    if (t >= 240) return;
    float x = f[t], y = f[(t * 7 + 3) % 256], z = f[(t * 5 + 11) % 256];
    double a = d[t], b = d[(t * 7 + 3) % 256], c = d[(t * 5 + 11) % 256];
    uint32_t n = i[t], m = i[(t * 7 + 3) % 256], sh = s[t % 16];
    uint64_t q = l[t];
    uint32_t *o32 = out32 + 32 * t;
    uint64_t *o64 = out64 + 16 * t;
    U(0, "cvt.rzi.s32.f32 %0, %1;", "f"(x));
    U(1, "cvt.rzi.u32.f32 %0, %1;", "f"(x));
    U(2, "cvt.rzi.s32.f64 %0, %1;", "d"(a));
    U(3, "cvt.rzi.u32.f64 %0, %1;", "d"(a));
    U(4, "{ .reg .f32 r; cvt.rn.f32.f64 r, %1; mov.b32 %0, r; }", "d"(a));
    U(5, "{ .reg .f32 r; cvt.rn.f32.s32 r, %1; mov.b32 %0, r; }", "r"(n));
    U(6, "{ .reg .f32 r; cvt.rn.f32.u32 r, %1; mov.b32 %0, r; }", "r"(n));
    U(7, "{ .reg .f32 r; cvt.rn.f32.s64 r, %1; mov.b32 %0, r; }", "l"(q));
    U(8, "{ .reg .f32 r; cvt.rn.f32.u64 r, %1; mov.b32 %0, r; }", "l"(q));
    U(9, "{ .reg .f32 r; min.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(10, "{ .reg .f32 r; max.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(11, "{ .reg .f32 r; min.NaN.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(12, "{ .reg .f32 r; max.NaN.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(13, "{ .reg .f32 r; abs.f32 r, %1; mov.b32 %0, r; }", "f"(x));
    U(14, "{ .reg .f32 r; neg.f32 r, %1; mov.b32 %0, r; }", "f"(x));
    U(15, "shl.b32 %0, %1, %2;", "r"(n), "r"(sh));
    U(16, "shr.u32 %0, %1, %2;", "r"(n), "r"(sh));
    U(17, "shr.s32 %0, %1, %2;", "r"(n), "r"(sh));
    U(18, "{ .reg .pred p; .reg .b32 k; and.b32 k, %3, 1; setp.ne.u32 p, k, 0; selp.b32 %0, %1, %2, p; }", "r"(n), "r"(m), "r"(sh));
    U(19, "{ .reg .f32 r; add.rn.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(20, "{ .reg .f32 r; mul.rn.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(21, "{ .reg .f32 r; sub.rn.f32 r, %1, %2; mov.b32 %0, r; }", "f"(x), "f"(y));
    U(22, "{ .reg .f32 r; fma.rn.f32 r, %1, %2, %3; mov.b32 %0, r; }", "f"(x), "f"(y), "f"(z));
    U(23, "min.s32 %0, %1, %2;", "r"(n), "r"(m));
    U(24, "max.s32 %0, %1, %2;", "r"(n), "r"(m));
    U(25, "add.s32 %0, %1, %2;", "r"(n), "r"(m));
    U(26, "sub.s32 %0, %1, %2;", "r"(n), "r"(m));
    U(27, "mad.lo.s32 %0, %1, %2, %3;", "r"(n), "r"(m), "r"(sh));
    U(28, "not.b32 %0, %1;", "r"(n));
    U(29, "neg.s32 %0, %1;", "r"(n));
    U(30, "min.u32 %0, %1, %2;", "r"(n), "r"(m));
    U(31, "max.u32 %0, %1, %2;", "r"(n), "r"(m));
    L(0, "{ .reg .f64 r; cvt.f64.f32 r, %1; mov.b64 %0, r; }", "f"(x));
    L(1, "{ .reg .f64 r; cvt.rn.f64.s32 r, %1; mov.b64 %0, r; }", "r"(n));
    L(2, "{ .reg .f64 r; cvt.rn.f64.u32 r, %1; mov.b64 %0, r; }", "r"(n));
    L(3, "{ .reg .f64 r; cvt.rn.f64.s64 r, %1; mov.b64 %0, r; }", "l"(q));
    L(4, "{ .reg .f64 r; cvt.rn.f64.u64 r, %1; mov.b64 %0, r; }", "l"(q));
    L(5, "{ .reg .f64 r; add.rn.f64 r, %1, %2; mov.b64 %0, r; }", "d"(a), "d"(b));
    L(6, "{ .reg .f64 r; sub.rn.f64 r, %1, %2; mov.b64 %0, r; }", "d"(a), "d"(b));
    L(7, "{ .reg .f64 r; mul.rn.f64 r, %1, %2; mov.b64 %0, r; }", "d"(a), "d"(b));
    L(8, "{ .reg .f64 r; fma.rn.f64 r, %1, %2, %3; mov.b64 %0, r; }", "d"(a), "d"(b), "d"(c));
    L(9, "shl.b64 %0, %1, %2;", "l"(q), "r"(sh));
    L(10, "shr.u64 %0, %1, %2;", "l"(q), "r"(sh));
    L(11, "shr.s64 %0, %1, %2;", "l"(q), "r"(sh));
    L(12, "cvt.rzi.s64.f32 %0, %1;", "f"(x));
    L(13, "cvt.rzi.s64.f64 %0, %1;", "d"(a));
    L(14, "cvt.rzi.u64.f64 %0, %1;", "d"(a));
    L(15, "{ .reg .f64 r; min.f64 r, %1, %2; mov.b64 %0, r; }", "d"(a), "d"(b));
}
