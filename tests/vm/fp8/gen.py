#!/usr/bin/env python3
"""gen.py -- writes in.bin and case.txt for tests/vm/fp8 (fixed seed); fp8.ptx is written by hand.

f32 operand pairs for cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32: every finite FP8 value of both
kinds and its neighbours one f32 ulp away, the midpoints between neighbouring FP8 values and one
ulp around them, values around the largest finite ones and the saturation thresholds, subnormals
of all three formats, +-0, +-inf, NaNs, and random values over the whole f32 range.

usage: python3 tests/vm/fp8/gen.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
NPAIRS = 8192


def f32(x): return struct.unpack('<I', struct.pack('<f', x))[0]


def fp8_values(mbits, bias, e4m3):
    """every finite value of the format (both signs)"""
    out = []
    for b in range(256):
        s, e, m = b >> 7, (b >> mbits) & ((1 << (7 - mbits)) - 1), b & ((1 << mbits) - 1)
        emax = (1 << (7 - mbits)) - 1
        if e4m3 and e == emax and m == (1 << mbits) - 1: continue      # NaN
        if not e4m3 and e == emax: continue                             # inf, NaN
        v = (m / (1 << mbits)) * 2.0 ** (1 - bias) if e == 0 else (1 + m / (1 << mbits)) * 2.0 ** (e - bias)
        out.append(-v if s else v)
    return sorted(set(out))


def main():
    rnd = random.Random(1130)
    vals = set()
    for mb, bias, e4 in ((3, 7, True), (2, 15, False)):
        fv = fp8_values(mb, bias, e4)
        for x in fv:
            b = f32(x)
            vals.update([b, (b + 1) & 0xffffffff, (b - 1) & 0xffffffff])
        for x, y in zip(fv, fv[1:]):
            b = f32((x + y) / 2)
            vals.update([b, (b + 1) & 0xffffffff, (b - 1) & 0xffffffff])
    for x in (448.0, 464.0, 480.0, 57344.0, 61440.0, 65536.0, 2.0 ** -9, 2.0 ** -10, 2.0 ** -16, 2.0 ** -17, 1e-30, 3e38):
        for s in (1, -1):
            b = f32(s * x)
            vals.update([b, b + 1, b - 1])
    vals.update([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, 0x00000001,
                 0x807fffff, 0x00800000])
    vals = sorted(v & 0xffffffff for v in vals)
    while len(vals) < 2 * NPAIRS:
        vals.append(rnd.getrandbits(32))
    vals = vals[:2 * NPAIRS]
    rnd.shuffle(vals)
    with open(os.path.join(HERE, 'in.bin'), 'wb') as f:
        f.write(struct.pack(f'<{2 * NPAIRS}I', *vals))


if __name__ == '__main__':
    main()
