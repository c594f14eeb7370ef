#!/usr/bin/env python3
"""Deterministic inputs for tests/cases/* and kernels/* (fixed seeds, no numpy).
Run from anywhere: python3 tests/cases/gen_inputs.py"""
import os, random, struct

HERE = os.path.dirname(os.path.abspath(__file__))
KERN = os.path.normpath(os.path.join(HERE, '..', '..', 'kernels'))


def w(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def u32s(v): return struct.pack('<%dI' % len(v), *[x & 0xffffffff for x in v])
def u64s(v): return struct.pack('<%dQ' % len(v), *[x & 0xffffffffffffffff for x in v])
def i32s(v): return struct.pack('<%di' % len(v), *v)
def f32s(v): return struct.pack('<%df' % len(v), *v)


# ---- int_edge: 16 interesting 32-bit and 64-bit values
V32 = [0, 1, 2, 3, 7, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
       0x12345678, 0xdeadbeef, 0x00ff00f0, 0x80000001]
V64 = [0, 1, 3, 32, 63, 64, 65, 0x7fffffffffffffff, 0x8000000000000000,
       0xffffffffffffffff, 0xfffffffffffffffe, 0x123456789abcdef0,
       0xdeadbeefcafebabe, 0x00000000ffffffff, 0x0000000100000000, 0x8000000000000001]
w(os.path.join(HERE, 'int_edge', 'v32.bin'), u32s(V32))
w(os.path.join(HERE, 'int_edge', 'v64.bin'), u64s(V64))

# ---- fp_rounding: 16 floats and 16 doubles given as bit patterns
F32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x40400000,
       0x3dcccccd, 0x3eaaaaab, 0x7f7fffff, 0x00800000, 0x00000001, 0x007fffff,
       0x7f800000, 0xff800000, 0x7fc00000, 0x4b800001]
F64 = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
       0x3ff8000000000000, 0x4008000000000000, 0x3fb999999999999a, 0x3fd5555555555555,
       0x7fefffffffffffff, 0x0010000000000000, 0x0000000000000001, 0x36a0000000000000,
       0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x4340000000000001]
w(os.path.join(HERE, 'fp_rounding', 'f32.bin'), u32s(F32))
w(os.path.join(HERE, 'fp_rounding', 'f64.bin'), u64s(F64))
# 16 halves then 16 bfloat16 (bit patterns)
H16 = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0x7bff, 0x0400, 0x0001, 0x03ff, 0x7c00,
       0xfc00, 0x7e00, 0x3555, 0x4900, 0xc500, 0x0200]
B16 = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x3fc0, 0x7f7f, 0x0080, 0x0001, 0x007f, 0x7f80,
       0xff80, 0x7fc0, 0x3eab, 0x4b80, 0xc2c8, 0x4049]
w(os.path.join(HERE, 'fp_rounding', 'h16.bin'), struct.pack('<16H', *H16) + struct.pack('<16H', *B16))

# ---- atomics_all: initial values (32 u32 slots, 32 u64 slots) and per-thread own slots
A32 = [0] * 32
A64 = [0] * 32
A32[2] = 0xffffffff          # and
A32[5] = 0x7fffffff          # min s32
A32[6] = 0x80000000          # max s32 (INT_MIN)
A32[7] = 0xffffffff          # min u32
A32[10] = 7                  # dec start
A32[14] = 0x7fffffff         # red.min.s32
A64[1] = 0xffffffffffffffff  # and b64
A64[4] = 0x7fffffffffffffff  # min s64
A64[5] = 0x8000000000000000  # max s64
A64[6] = 0xffffffffffffffff  # min u64
w(os.path.join(HERE, 'atomics_all', 'init32.bin'), u32s(A32))
w(os.path.join(HERE, 'atomics_all', 'init64.bin'), u64s(A64))
rnd = random.Random(1234)
w(os.path.join(HERE, 'atomics_all', 'own.bin'), u32s([rnd.getrandbits(32) for _ in range(1024)]))

# ---- mem_forms: 1 KiB of bytes
rnd = random.Random(42)
w(os.path.join(HERE, 'mem_forms', 'bytes.bin'), bytes(rnd.getrandbits(8) for _ in range(1024)))

# ---- cub_block: 2 blocks x 512 ints with duplicates and negatives
rnd = random.Random(7)
w(os.path.join(HERE, 'cub_block', 'keys.bin'), i32s([rnd.randint(-1000, 1000) for _ in range(1024)]))

# ---- warp_algos / barriers_named: 256 ints
rnd = random.Random(99)
w(os.path.join(HERE, 'warp_algos', 'data.bin'), i32s([rnd.randint(-50, 50) for _ in range(256)]))
rnd = random.Random(5)
w(os.path.join(HERE, 'barriers_named', 'data.bin'), i32s([rnd.randint(0, 9) for _ in range(256)]))

# ---- calls_recursion: 64 ints
rnd = random.Random(11)
w(os.path.join(HERE, 'calls_recursion', 'in.bin'), i32s([rnd.randint(-100, 100) for _ in range(64)]))

# ---- assert_fail: every value < 10 except index 37
v = [i % 10 for i in range(64)]
v[37] = 12
w(os.path.join(HERE, 'assert_fail', 'in.bin'), i32s(v))

# ---- cvt_edge: 256 floats, doubles, u32 and u64, 16 shift counts.  Warp 0 and the partial
# warp 7: edges; warps 1-3: in range but for one edge each (a whole-warp range check must see
# it); warps 4-6: random, some out of range.
def f32bits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def f64bits(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
rnd = random.Random(7)
EF = [0x4f000000, 0xcf000000, 0xcf000001, 0x4effffff, 0x4f800000, 0x4f7fffff, 0xbf800000, 0xbf000000,
      0x80000000, 0x00000000, 0x3f000000, 0x3fc00000, 0x7fc00000, 0x7f812345, 0xffc12345, 0x7f800000,
      0xff800000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x501502f9, 0xd01502f9, 0x477fff80,
      0xbf7fffff, 0x3f7fffff, 0x40490fdb, 0x00800000, 0xcf000000, 0x4effffff, 0x80000001, 0x3effffff]
ED = [2147483647.9, 2147483648.0, -2147483648.9, -2147483649.0, 4294967295.9, 4294967296.0, -0.9, -1.0,
      1e300, -1e300, 1e-40, 1e-46, 3.4028235677973366e38, 3.4028234663852886e38, 1.0000000596046448,
      1.0000000894069672, 9007199254740993.0, -0.0, 0.5, 2.5, -2147483648.0, 2147483647.0, -1e-300, 7.5]
ED = [f64bits(x) for x in ED] + [0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000123, 0x7ff0000000000000,
                                 0xfff0000000000000, 0x0000000000000001, 0x000fffffffffffff, 0x7fefffffffffffff]
def warp_f(edge=None, lane=0, lo=-100.0, hi=100.0):
    v = [f32bits(rnd.uniform(lo, hi)) for _ in range(32)]
    if edge is not None: v[lane] = edge
    return v
def warp_d(edge=None, lane=0, lo=-1e3, hi=1e3):
    v = [f64bits(rnd.uniform(lo, hi)) for _ in range(32)]
    if edge is not None: v[lane] = edge
    return v
CF = EF + warp_f(0x4f000000, 5) + warp_f(0xcf000001, 6) + warp_f(0x7fc00000, 7) + \
     warp_f(lo=-3e9, hi=3e9) + warp_f(lo=-5e9, hi=5e9) + warp_f() + EF[::-1]
CD = ED + warp_d(f64bits(2147483648.0), 5) + warp_d(f64bits(-2147483649.0), 6) + warp_d(0x7ff8000000000000, 7) + \
     warp_d(lo=-5e9, hi=5e9) + warp_d(lo=-1e10, hi=1e10) + warp_d() + ED[::-1]
CI = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0x01000001, 0x01000003, 0xfeffffff, 0x7fffffc0,
      0x7fffffbf, 0x00ffffff, 0x12345678, 0xdeadbeef] + [rnd.getrandbits(32) for _ in range(242)]
CL = [0, 1, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0x0020000000000001, 0x0020000000000003,
      0xffdfffffffffffff, 0x0000000001000001, 0xfffffffffeffffff, 0x7fffff8000000000, 0x7fffffbfffffffff,
      0x123456789abcdef0, 0xdeadbeefcafebabe] + [rnd.getrandbits(64) for _ in range(242)]
CS = [0, 1, 2, 15, 31, 32, 33, 63, 64, 65, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff, 5]
assert len(CF) == len(CD) == len(CI) == len(CL) == 256
w(os.path.join(HERE, 'cvt_edge', 'f.bin'), u32s(CF))
w(os.path.join(HERE, 'cvt_edge', 'd.bin'), u64s(CD))
w(os.path.join(HERE, 'cvt_edge', 'i.bin'), u32s(CI))
w(os.path.join(HERE, 'cvt_edge', 'l.bin'), u64s(CL))
w(os.path.join(HERE, 'cvt_edge', 's.bin'), u32s(CS))

# ---- kernels/
rnd = random.Random(2024)
n = 1000
w(os.path.join(KERN, 'saxpy', 'x.bin'), f32s([rnd.uniform(-10, 10) for _ in range(n)]))
w(os.path.join(KERN, 'saxpy', 'y.bin'), f32s([rnd.uniform(-10, 10) for _ in range(n)]))
rnd = random.Random(3)
w(os.path.join(KERN, 'reduce', 'in.bin'), i32s([rnd.randint(-1000, 1000) for _ in range(2048)]))
rnd = random.Random(4)
w(os.path.join(KERN, 'histogram', 'in.bin'), bytes(int(abs(rnd.gauss(128, 40))) % 256 for _ in range(4096)))
rnd = random.Random(5)
# matmul: A 48x32, B 32x40, small integers (and halves) stored as float: exact sums
w(os.path.join(KERN, 'matmul', 'a.bin'), f32s([float(rnd.randint(-8, 8)) for _ in range(48 * 32)]))
w(os.path.join(KERN, 'matmul', 'b.bin'), f32s([rnd.randint(-8, 8) * 0.5 for _ in range(32 * 40)]))
rnd = random.Random(6)
w(os.path.join(KERN, 'scan', 'in.bin'), i32s([rnd.randint(-20, 100) for _ in range(1024)]))
rnd = random.Random(7)
# softmax: 6 rows of 1000; row 1 spans +-100 (exp underflows to 0), row 2 holds -inf, row 3 is constant
SM = [[rnd.uniform(-10, 10) for _ in range(1000)] for _ in range(6)]
SM[1] = [rnd.uniform(-100, 100) for _ in range(1000)]
SM[2][17] = SM[2][500] = float('-inf')
SM[3] = [2.5] * 1000
w(os.path.join(KERN, 'softmax', 'x.bin'), f32s([v for r in SM for v in r]))
print('inputs written')

# ---- tile_fma: A and B (64 x 64 f32) and a permutation of the 16 columns of a tile.
# A holds NaNs (quiet, signalling, negative), infinities of both signs, -0, subnormals
# and values whose products overflow; B has zeros (inf * 0) and subnormals; row 50 of A
# times columns 60-63 of B sums products around 2^-126 (what .ftz flushes).
def tile_fma_inputs():
    rnd = random.Random(1617)
    n = 64
    a = [f32bits(rnd.uniform(-2.0, 2.0)) for _ in range(n * n)]
    b = [f32bits(rnd.uniform(-2.0, 2.0)) for _ in range(n * n)]
    specials = {(5, 3): 0x7fc00000, (6, 40): 0x7f800001, (7, 17): 0xffc01234,
                (9, 20): 0x7f800000, (9, 21): 0xff800000, (10, 33): 0x7f800000,
                (11, 2): 0x80000000, (12, 0): 0x00000001, (12, 1): 0x807fffff,
                (20, 0): 0x7f7fffff, (20, 1): 0x7f7fffff, (21, 16): 0xff7fffff,
                (30, 15): 0x00400000, (40, 48): 0x7fc00000, (63, 63): 0x7f800000}
    for c in range(n):                               # row 50 times columns 60-63 of B: sums
        a[50 * n + c] = f32bits(rnd.uniform(-3.0, 3.0) * 1e-20)   # around 2^-126 (fast math flushes)
    for k in range(n):
        for c in range(60, 64):
            b[k * n + c] = f32bits(rnd.uniform(-3.0, 3.0) * 1e-19)
    for (r, c), v in specials.items():
        a[r * n + c] = v
    for k in range(0, n, 7):
        b[k * n + (k * 5) % n] = 0x00000000         # inf * 0 where A has an infinity in column k
    b[33 * n + 4] = 0                                # row 10's +inf meets a zero
    b[3 * n + 9] = 0x00000001
    perm = list(range(16))
    rnd.shuffle(perm)
    d = os.path.join(HERE, 'tile_fma')
    w(os.path.join(d, 'a.bin'), u32s(a))
    w(os.path.join(d, 'b.bin'), u32s(b))
    w(os.path.join(d, 'perm.bin'), i32s(perm))


tile_fma_inputs()


# ---- half_math: n half2 (a) and n bfloat162 (c), each half a special value (3 in 10) or a random
# value of a few ranges (small, around zero, large).
def half_math_inputs():
    rnd = random.Random(1129)
    hsp = [0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x3800,
           0x4248, 0xc248, 0x5640, 0x2e66]
    bsp = [0x0000, 0x8000, 0x0001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x3f00,
           0x4049, 0xc049, 0x42c8, 0x3dcc]
    n = 1024

    def h():
        if rnd.random() < 0.3:
            return rnd.choice(hsp)
        v = rnd.choice([rnd.uniform(-8, 8), rnd.uniform(-0.1, 0.1), rnd.uniform(0, 60000)])
        return struct.unpack('<H', struct.pack('<e', v))[0]

    def b():
        if rnd.random() < 0.3:
            return rnd.choice(bsp)
        v = rnd.choice([rnd.uniform(-8, 8), rnd.uniform(-1e-3, 1e-3), rnd.uniform(0, 1e30)])
        return struct.unpack('<I', struct.pack('<f', v))[0] >> 16

    d = os.path.join(HERE, 'half_math')
    w(os.path.join(d, 'a.bin'), b''.join(struct.pack('<HH', h(), h()) for _ in range(n)))
    w(os.path.join(d, 'c.bin'), b''.join(struct.pack('<HH', b(), b()) for _ in range(n)))


half_math_inputs()
