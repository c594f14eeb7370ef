#!/usr/bin/env python3
"""gen.py -- writes rows.ptx, case.txt and in.bin for tests/vm/rows (fixed seed).

The instructions that take a whole-warp fast path in the dispatch loop (vm/exec.c with
vm/fp_rows.c and vm/fp_approx.c): f16/bf16 arithmetic and conversions, cvt.rXi rounding to an
integer, div/rem .s32/.u32, sqrt.approx.f32, bfind, and the scalar .rn.ftz.f32 path that
partial warps and f32 atomics take.  Each instruction runs twice per thread: once in whole
warps (the fast path) and once under a guard that leaves a few lanes of every warp out (the
lane-by-lane path).  Exact instructions store both results (out32, out64), so both must equal
the H200's bytes.  An instruction of kind 'x' (approximate) would store only whether the two
results differ (flags: all zero on the GPU and here); none is left since div.full, div.approx
and the f16/bf16 ex2.approx forms became bit-exact, and the case then has no flags buffer.

Operands, 32 bytes per thread: a, b, c (32 bits, also read as f16/bf16 in their low halves and
as f16x2/bf16x2), a pad word, and A, B (64 bits).  Threads take turns among kinds of operand:
f32 and f64 specials, f16 and bf16 specials, sums and products that land on or next to a
16-bit rounding midpoint, values near integers, integer edges, random bits.

usage: python3 tests/vm/rows/gen.py  (from anywhere; writes beside itself)
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random(1127)
NTHREADS = 1024                      # 4 blocks of 256

# (instruction, result kind): r = 32-bit result, h = 16-bit, d = 64-bit, p = predicates %p3 and %p2
# (stored as p3 + 2 p2), x = approximate (flag only), l = 64-bit integer (%rd11)
# operands: %ra %rb %rc (b32), %ha %hb %hc (b16: low halves), %fa %fb %fc (f32), %da %db (f64), %rd10 (%da's bits)
OPS = [
    ('add.rn.f16 %h9, %ha, %hb;', 'h'), ('sub.rn.f16 %h9, %ha, %hb;', 'h'), ('mul.rn.f16 %h9, %ha, %hb;', 'h'),
    ('fma.rn.f16 %h9, %ha, %hb, %hc;', 'h'), ('add.rn.ftz.f16 %h9, %ha, %hb;', 'h'), ('mul.rn.sat.f16 %h9, %ha, %hb;', 'h'),
    ('fma.rn.ftz.sat.f16 %h9, %ha, %hb, %hc;', 'h'), ('add.f16 %h9, %ha, %hb;', 'h'),
    ('add.rn.f16x2 %r9, %ra, %rb;', 'r'), ('sub.rn.f16x2 %r9, %ra, %rb;', 'r'), ('mul.rn.f16x2 %r9, %ra, %rb;', 'r'),
    ('fma.rn.f16x2 %r9, %ra, %rb, %rc;', 'r'), ('fma.rn.ftz.f16x2 %r9, %ra, %rb, %rc;', 'r'),
    ('add.rn.sat.f16x2 %r9, %ra, %rb;', 'r'), ('fma.rn.relu.f16x2 %r9, %ra, %rb, %rc;', 'r'),
    ('add.rn.bf16 %h9, %ha, %hb;', 'h'), ('sub.rn.bf16 %h9, %ha, %hb;', 'h'), ('mul.rn.bf16 %h9, %ha, %hb;', 'h'),
    ('fma.rn.bf16 %h9, %ha, %hb, %hc;', 'h'), ('fma.rn.relu.bf16 %h9, %ha, %hb, %hc;', 'h'),
    ('min.f16 %h9, %ha, %hb;', 'h'), ('max.ftz.NaN.f16 %h9, %ha, %hb;', 'h'), ('min.NaN.f16x2 %r9, %ra, %rb;', 'r'),
    ('max.f16x2 %r9, %ra, %rb;', 'r'), ('min.bf16 %h9, %ha, %hb;', 'h'), ('max.NaN.bf16x2 %r9, %ra, %rb;', 'r'),
    ('neg.f16 %h9, %ha;', 'h'), ('abs.ftz.f16x2 %r9, %ra;', 'r'), ('neg.bf16x2 %r9, %ra;', 'r'), ('abs.bf16 %h9, %ha;', 'h'),
    ('setp.lt.f16 %p3, %ha, %hb;', 'p'), ('setp.equ.f16 %p3, %ha, %hb;', 'p'), ('setp.ftz.lt.f16 %p3, %ha, %hb;', 'p'),
    ('setp.ftz.eq.f16 %p3, %ha, %hb;', 'p'), ('setp.gtu.bf16 %p3, %ha, %hb;', 'p'), ('setp.num.f16 %p3, %ha, %hb;', 'p'),
    ('setp.le.f16x2 %p3|%p2, %ra, %rb;', 'p'), ('setp.ftz.ne.f16x2 %p3|%p2, %ra, %rb;', 'p'),
    ('setp.nan.bf16x2 %p3|%p2, %ra, %rb;', 'p'), ('setp.ge.bf16x2 %p3|%p2, %ra, %rb;', 'p'),
    ('ex2.approx.f16 %h9, %ha;', 'h'), ('ex2.approx.f16x2 %r9, %ra;', 'r'), ('ex2.approx.ftz.bf16x2 %r9, %ra;', 'r'),
    ('add.rn.bf16x2 %r9, %ra, %rb;', 'r'), ('mul.rn.bf16x2 %r9, %ra, %rb;', 'r'), ('fma.rn.bf16x2 %r9, %ra, %rb, %rc;', 'r'),
    ('cvt.f32.f16 %f9, %ha;', 'r'), ('cvt.f32.bf16 %f9, %ha;', 'r'), ('cvt.ftz.f32.bf16 %f9, %ha;', 'r'),
    ('cvt.rn.f16.f32 %h9, %fa;', 'h'), ('cvt.rn.ftz.f16.f32 %h9, %fa;', 'h'), ('cvt.rn.sat.f16.f32 %h9, %fa;', 'h'),
    ('cvt.rn.relu.f16.f32 %h9, %fa;', 'h'), ('cvt.rn.bf16.f32 %h9, %fa;', 'h'), ('cvt.rn.relu.bf16.f32 %h9, %fa;', 'h'),
    ('cvt.rn.f16x2.f32 %r9, %fa, %fb;', 'r'), ('cvt.rn.bf16x2.f32 %r9, %fa, %fb;', 'r'),
    ('cvt.rn.relu.f16x2.f32 %r9, %fa, %fb;', 'r'), ('cvt.rn.satfinite.f16x2.f32 %r9, %fa, %fb;', 'r'),
    ('cvt.rni.f32.f32 %f9, %fa;', 'r'), ('cvt.rzi.f32.f32 %f9, %fa;', 'r'), ('cvt.rmi.f32.f32 %f9, %fa;', 'r'),
    ('cvt.rpi.f32.f32 %f9, %fa;', 'r'), ('cvt.rmi.ftz.f32.f32 %f9, %fa;', 'r'), ('cvt.rpi.ftz.f32.f32 %f9, %fa;', 'r'),
    ('cvt.rni.f64.f64 %d9, %da;', 'd'), ('cvt.rzi.f64.f64 %d9, %da;', 'd'), ('cvt.rmi.f64.f64 %d9, %da;', 'd'),
    ('cvt.rpi.f64.f64 %d9, %da;', 'd'),
    ('div.s32 %r9, %ra, %rb;', 'r'), ('div.u32 %r9, %ra, %rb;', 'r'), ('rem.s32 %r9, %ra, %rb;', 'r'),
    ('rem.u32 %r9, %ra, %rb;', 'r'),
    ('sqrt.approx.f32 %f9, %fa;', 'r'), ('sqrt.approx.ftz.f32 %f9, %fa;', 'r'),
    ('bfind.u32 %r9, %ra;', 'r'), ('bfind.s32 %r9, %ra;', 'r'), ('bfind.shiftamt.u32 %r9, %ra;', 'r'),
    ('bfind.u64 %r9, %rd10;', 'r'), ('bfind.s64 %r9, %rd10;', 'r'),
    ('add.rn.ftz.f32 %f9, %fa, %fb;', 'r'), ('sub.rn.ftz.f32 %f9, %fa, %fb;', 'r'), ('mul.rn.ftz.f32 %f9, %fa, %fb;', 'r'),
    ('fma.rn.ftz.f32 %f9, %fa, %fb, %fc;', 'r'),
    ('div.full.f32 %f9, %fa, %fb;', 'r'), ('div.full.ftz.f32 %f9, %fa, %fb;', 'r'), ('div.approx.f32 %f9, %fa, %fb;', 'r'),
    ('div.approx.ftz.f32 %f9, %fa, %fb;', 'r'),
    ('add.rn.sat.f32 %f9, %fa, %fb;', 'r'), ('sub.rn.ftz.sat.f32 %f9, %fa, %fb;', 'r'), ('mul.rn.sat.f32 %f9, %fa, %fb;', 'r'),
    ('fma.rn.sat.f32 %f9, %fa, %fb, %fc;', 'r'), ('fma.rn.ftz.sat.f32 %f9, %fa, %fb, %fc;', 'r'),
    ('cvt.sat.f32.f32 %f9, %fa;', 'r'), ('cvt.ftz.sat.f32.f32 %f9, %fa;', 'r'),
    ('min.f64 %d9, %da, %db;', 'd'), ('max.f64 %d9, %da, %db;', 'd'), ('min.f64 %d9, %da, 0d0000000000000000;', 'd'),
    ('max.f64 %d9, %da, 0d8000000000000000;', 'd'), ('abs.f64 %d9, %da;', 'd'), ('neg.f64 %d9, %da;', 'd'),
    ('copysign.f64 %d9, %db, %da;', 'd'), ('cvt.rzi.s64.f64 %rd11, %da;', 'l'), ('cvt.rzi.u64.f64 %rd11, %da;', 'l'),
    ('testp.normal.f32 %p3, %fa;', 'p'), ('testp.subnormal.f32 %p3, %fa;', 'p'), ('testp.notanumber.f64 %p3, %da;', 'p'),
    ('prmt.b32 %r9, %ra, %rb, %rc;', 'r'), ('tanh.approx.f32 %f9, %fa;', 'r'), ('tanh.approx.f32 %f9, %fc;', 'r'),
]
ATOMIC = 'red.global.add.f32 [%rd8], %fb;'   # onto a, in the thread's own word of `atom` (ftz, as on the GPU)


def f32(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def f64(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def h16(x): return struct.unpack('<H', struct.pack('<e', x))[0]
def fromh(h): return struct.unpack('<e', struct.pack('<H', h))[0]


F32_SPECIAL = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
               0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3f800000, 0xbf800000, 0x3f000000,
               0x477fefff, 0x477ff000, 0x477fe000, 0x38800000, 0x387fc000, 0x33800000, 0x33000000, 0x4b000000,
               0x4b800000, 0xcb000001, 0x3effffff, 0x3fc00000, 0x40200000, 0xbfc00000]
H_SPECIAL = [0, 0x8000, 1, 0x8001, 0x3ff, 0x83ff, 0x400, 0x8400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d01,
             0xfe01, 0x3c00, 0xbc00, 0x3800, 0x3bff, 0x3c01, 0x0200]
BF_SPECIAL = [0, 0x8000, 1, 0x8001, 0x7f, 0x807f, 0x80, 0x8080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
              0x3f80, 0xbf80, 0x3f00, 0x0100, 0x1f80, 0x5f80, 0x7f00, 0x00ff]
I_SPECIAL = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 3, 0xfffffffe, 7, 0x10000, 0xffff, 0xfffffff9]


def pair(lo, hi): return (lo & 0xffff) | (hi & 0xffff) << 16


def half_midpoint():
    """f16 a, b, c whose sum or product lies on or one f32 ulp beside a rounding midpoint"""
    x = rnd.choice([h16(rnd.uniform(-4, 4)), rnd.randrange(1, 0x400)])
    e = rnd.randint(-8, 4)
    y = h16(fromh(x) * 2.0 ** -11 * rnd.choice([1, -1, 3, -3]) + 2.0 ** e) if fromh(x) != 0 else 0x3c00
    c = h16(-fromh(x) * fromh(y) + rnd.choice([2.0 ** -20, -2.0 ** -20, 2.0 ** -25, 0.0]))
    return x, y, c


def operands(t):
    kind = t % 8
    if kind == 0:                    # f32 specials (also f64-ish), integer-like
        a, b, c = rnd.choice(F32_SPECIAL), rnd.choice(F32_SPECIAL), rnd.choice(F32_SPECIAL)
    elif kind == 1:                  # f16 specials in both halves
        a = pair(rnd.choice(H_SPECIAL), rnd.choice(H_SPECIAL))
        b = pair(rnd.choice(H_SPECIAL), rnd.getrandbits(16))
        c = pair(rnd.getrandbits(16), rnd.choice(H_SPECIAL))
    elif kind == 2:                  # bf16 specials
        a = pair(rnd.choice(BF_SPECIAL), rnd.choice(BF_SPECIAL))
        b = pair(rnd.choice(BF_SPECIAL), rnd.getrandbits(16))
        c = pair(rnd.getrandbits(16), rnd.choice(BF_SPECIAL))
    elif kind == 3:                  # f16 midpoints in both halves
        (x0, y0, z0), (x1, y1, z1) = half_midpoint(), half_midpoint()
        a, b, c = pair(x0, x1), pair(y0, y1), pair(z0, z1)
    elif kind == 4:                  # values near integers and halves (cvt.rXi), f32 around f16/bf16 rounding
        v = rnd.randint(-70000, 70000) + rnd.choice([0.5, -0.5, 0.25, 0.0, 1e-3, -1e-3, 0.4999999, 0.5000001])
        a = f32(v * rnd.choice([1, 2.0 ** -20, 2.0 ** 20]))
        b = (f32(rnd.uniform(-3, 3)) & ~0x1fff) | rnd.choice([0x1000, 0x0fff, 0x1001, 0x0000])   # f16 ties
        c = (f32(rnd.uniform(-3, 3)) & ~0xffff) | rnd.choice([0x8000, 0x7fff, 0x8001, 0x18000])  # bf16 ties
    elif kind == 5:                  # integer edges for div/rem and bfind
        a, b, c = rnd.choice(I_SPECIAL), rnd.choice(I_SPECIAL + [rnd.getrandbits(8)]), rnd.getrandbits(32)
        if rnd.random() < 0.5: a = rnd.getrandbits(32) >> rnd.randint(0, 31)
    elif kind == 6:                  # around the f32 and f16 subnormal edges (.ftz)
        a = (0x00800000 + rnd.randint(-64, 64)) ^ (rnd.getrandbits(1) << 31)
        b = (0x00800000 + rnd.randint(-64, 64)) ^ (rnd.getrandbits(1) << 31)
        c = pair(rnd.randint(0x3f0, 0x410), rnd.randint(0x3f0, 0x410) | 0x8000)
    else:                            # random bits
        a, b, c = rnd.getrandbits(32), rnd.getrandbits(32), rnd.getrandbits(32)
    A = rnd.choice([f64(rnd.uniform(-1e6, 1e6)), f64(rnd.randint(-10**6, 10**6) + 0.5), 0x7ff8000000000001,
                    0xfff0000000000000, 1, 0x8000000000000000, rnd.getrandbits(64), f64(-0.5), f64(2.0 ** 52 + 1)])
    B = rnd.getrandbits(64)
    return a & 0xffffffff, b & 0xffffffff, c & 0xffffffff, A, B


PTX_HEAD = """// rows.ptx - generated by tests/vm/rows/gen.py: every instruction with a whole-warp fast path,
// in whole warps and under a guard (lanes with tid %% 5 == 2 left out); see gen.py.
.version 8.1
.target sm_90
.address_size 64

.visible .entry rows(.param .u64 in, .param .u64 out32, .param .u64 out64, .param .u64 flags, .param .u64 atom)
{
    .reg .pred %%p<4>;
    .reg .b16 %%ha, %%hb, %%hc, %%h9;
    .reg .b32 %%r<8>, %%ra, %%rb, %%rc, %%r9;
    .reg .f32 %%fa, %%fb, %%fc, %%f9;
    .reg .f64 %%da, %%db, %%d9;
    .reg .b64 %%rd<12>;

    mov.u32 %%r1, %%ctaid.x;
    mov.u32 %%r2, %%ntid.x;
    mov.u32 %%r3, %%tid.x;
    mad.lo.s32 %%r4, %%r1, %%r2, %%r3;          // thread t
    rem.u32 %%r5, %%r4, 5;
    setp.ne.u32 %%p1, %%r5, 2;                  // the guard
    ld.param.u64 %%rd1, [in];
    mul.wide.u32 %%rd2, %%r4, 32;
    add.s64 %%rd3, %%rd1, %%rd2;
    ld.global.b32 %%ra, [%%rd3];
    ld.global.b32 %%rb, [%%rd3+4];
    ld.global.b32 %%rc, [%%rd3+8];
    ld.global.f64 %%da, [%%rd3+16];
    ld.global.f64 %%db, [%%rd3+24];
    mov.b64 %%rd10, %%da;
    mov.b32 %%fa, %%ra;
    mov.b32 %%fb, %%rb;
    mov.b32 %%fc, %%rc;
    cvt.u16.u32 %%ha, %%ra;
    cvt.u16.u32 %%hb, %%rb;
    cvt.u16.u32 %%hc, %%rc;
    ld.param.u64 %%rd4, [out32];
    mul.wide.u32 %%rd5, %%r4, %d;
    add.s64 %%rd4, %%rd4, %%rd5;                // this thread's results, 32 bits each
    ld.param.u64 %%rd6, [out64];
    mul.wide.u32 %%rd5, %%r4, %d;
    add.s64 %%rd6, %%rd6, %%rd5;                // 64 bits each
    ld.param.u64 %%rd9, [flags];
    mul.wide.u32 %%rd5, %%r4, %d;
    add.s64 %%rd9, %%rd9, %%rd5;
    ld.param.u64 %%rd8, [atom];
    mul.wide.u32 %%rd5, %%r4, 8;
    add.s64 %%rd8, %%rd8, %%rd5;
"""


def emit():
    n32 = sum(1 if i.startswith('testp') else 2 for i, k in OPS if k in 'rhp')
    n64 = sum(2 for _, k in OPS if k in 'dl')
    nx = sum(1 for _, k in OPS if k == 'x')
    body, i32, i64, ix = [], 0, 0, 0
    for insn, k in OPS:
        dst = {'h': '%h9', 'r': '%r9' if '%r9' in insn else '%f9', 'd': '%d9', 'l': '%rd11', 'x': '%f9', 'p': ''}[k]
        body.append(f'    // {insn}')
        if k == 'x':                 # flag = guarded result differs from the whole warp's
            if '%h9' in insn:        # a 16-bit result: compared as 32 bits
                body += [f'    {insn}', '    cvt.u32.u16 %r6, %h9;', f'    @%p1 {insn}', '    cvt.u32.u16 %r7, %h9;']
            else:
                reg = '%r9' if '%r9' in insn else '%f9'
                body += [f'    {insn}', f'    mov.b32 %r6, {reg};', f'    @%p1 {insn}', f'    mov.b32 %r7, {reg};']
            body.append('    setp.ne.b32 %p2, %r6, %r7;')
            body.append('    and.pred %p2, %p2, %p1;')
            body.append('    selp.u32 %r7, 1, 0, %p2;')
            body.append(f'    st.global.u32 [%rd9+{4 * ix}], %r7;')
            ix += 1
            continue
        if k == 'p':                 # both predicates cleared first (the guarded lanes keep that)
            # testp in whole warps only: under a guard the H200 (ptxas 13.0) sets %p3 in the lanes
            # the guard leaves out too (recorded; the PTX says they keep it), which ptxemu does not copy
            for guarded in ((0,) if insn.startswith('testp') else (0, 1)):
                body.append('    setp.ne.u32 %p3, %r4, %r4;')
                body.append('    setp.ne.u32 %p2, %r4, %r4;')
                body.append(('    @%p1 ' if guarded else '    ') + insn)
                body.append('    selp.u32 %r7, 1, 0, %p3;')
                body.append('    selp.u32 %r6, 2, 0, %p2;')
                body.append('    or.b32 %r7, %r7, %r6;')
                body.append(f'    st.global.b32 [%rd4+{4 * i32}], %r7;'); i32 += 1
            continue
        for guarded in (0, 1):
            if guarded:
                zero = {'h': 'mov.b16 %h9, 0x5555;', 'r': f'mov.b32 {dst}, 0x55555555;', 'd': 'mov.b64 %d9, 0x5555555555555555;',
                        'l': 'mov.b64 %rd11, 0x5555555555555555;'}[k]
                body.append('    ' + zero)
            body.append(('    @%p1 ' if guarded else '    ') + insn)
            if k == 'h':
                body.append(f'    st.global.b16 [%rd4+{4 * i32}], %h9;'); i32 += 1
            elif k == 'r':
                body.append(f'    st.global.b32 [%rd4+{4 * i32}], {dst};'); i32 += 1
            else:
                body.append(f'    st.global.b64 [%rd6+{8 * i64}], {"%rd11" if k == "l" else "%d9"};'); i64 += 1
    # the f32 atomic: a stored, then b added, in whole warps (word 0) and guarded (word 1)
    body.append('    st.global.b32 [%rd8], %ra;')
    body.append('    st.global.b32 [%rd8+4], %ra;')
    body.append('    ' + ATOMIC)
    body.append('    add.s64 %rd8, %rd8, 4;')
    body.append('    @%p1 ' + ATOMIC)
    body.append('    ret;\n}')
    return PTX_HEAD % (4 * n32, 8 * n64, 4 * nx) + '\n'.join(body) + '\n', n32, n64, nx


def main():
    ptx, n32, n64, nx = emit()
    with open(os.path.join(HERE, 'rows.ptx'), 'w') as f:
        f.write(ptx)
    with open(os.path.join(HERE, 'in.bin'), 'wb') as f:
        for t in range(NTHREADS):
            a, b, c, A, B = operands(t)
            f.write(struct.pack('<4I2Q', a, b, c, 0, A, B))
    with open(os.path.join(HERE, 'case.txt'), 'w') as f:
        f.write(f"""# every instruction with a whole-warp fast path (f16/bf16 arithmetic, min/max/neg/abs, setp and conversions, cvt.rXi,
# div/rem .32, sqrt.approx, bfind, .rn.ftz.f32, .sat.f32, f64 min/max/abs/neg/copysign, cvt.rzi.{{s,u}}64.f64, testp,
# prmt with a register selector, tanh.approx.f32, div.full/div.approx.f32, ex2.approx f16/bf16, red.add.f32) in whole warps and guarded, on edge
# operands (gen.py); recorded on an H200 (driver 580.159.04), twice, identical
ptx rows.ptx
kernel rows
grid {NTHREADS // 256}
block 256
buffer in file in.bin
buffer out32 zero {4 * n32 * NTHREADS}
buffer out64 zero {8 * n64 * NTHREADS}
{f"buffer flags zero {4 * nx * NTHREADS}" + chr(10) if nx else ""}buffer atom zero {8 * NTHREADS}
param ptr in
param ptr out32
param ptr out64
{"param ptr flags" if nx else "param u64 0"}
param ptr atom
expect out32 expect/out32.bin
expect out64 expect/out64.bin
{"expect flags expect/flags.bin" + chr(10) if nx else ""}expect atom expect/atom.bin
""")


if __name__ == '__main__':
    main()
