#!/usr/bin/env python3
"""Operands for tests/vm/ftz/ftz_ops.ptx (fixed seed): 16,384 triples (a, b, c) of f32 bit
patterns, mostly near where .ftz decides: subnormals, values around 2^-126 = 0x00800000,
products and sums whose exact result is within a few ulps of 2^-126 (where the host's
rounding cannot tell what sm_90 flushes), and NaN, infinities, zeros of both signs."""
import random, struct, sys
rnd = random.Random(2026)
def bits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def f(b): return struct.unpack('<f', struct.pack('<I', b & 0xffffffff))[0]
SPECIAL = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001,
           0x7f800000, 0xff800000, 0x7fc00000, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x00400000]
def pick():
    k = rnd.random()
    if k < 0.15: return rnd.choice(SPECIAL)
    if k < 0.40: return rnd.getrandbits(23) | (rnd.getrandbits(1) << 31)              # subnormal
    if k < 0.65: return (0x00800000 + rnd.randint(-64, 64)) ^ (rnd.getrandbits(1) << 31)  # around 2^-126
    return bits(rnd.uniform(-4, 4) * 2.0 ** rnd.randint(-70, 10))
out = []
for i in range(16384):
    a, b, c = pick(), pick(), pick()
    k = i % 4
    if k == 1:          # a * b within a few ulps of +-2^-126
        x = rnd.uniform(1, 2) * 2.0 ** rnd.randint(-60, -1)
        a = bits(x)
        b = bits((2.0 ** -126 / x) * (1 + rnd.uniform(-3, 3) * 2.0 ** -24)) ^ (rnd.getrandbits(1) << 31)
    elif k == 2:        # a * b + c close to 2^-126, c of the other sign
        x = rnd.uniform(1, 2) * 2.0 ** rnd.randint(-50, -20)
        a = bits(x); b = bits(2.0 ** -100 / x)
        c = bits(-(f(a) * f(b)) + 2.0 ** -126 * (1 + rnd.uniform(-4, 4) * 2.0 ** -22))
    elif k == 3:        # a - b cancelling into the subnormal range
        a = 0x00800000 + rnd.randint(0, 1 << 20); b = 0x00800000 + rnd.randint(0, 1 << 20)
    out.append(struct.pack('<3I', a & 0xffffffff, b & 0xffffffff, c & 0xffffffff))
sys.stdout.buffer.write(b''.join(out))
