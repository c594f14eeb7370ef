#!/usr/bin/env python3
# gen_expect.py — the expected outputs of tests/par/cases, derived by hand from
# par.cu / uninit.ptx (what one host thread, running the blocks in order, gives).
import os, struct
os.chdir(os.path.dirname(os.path.abspath(__file__)))
os.makedirs("expect", exist_ok=True)
M = 0xffffffff
def spin(x):
    for _ in range(200): x = ((x ^ (x >> 7)) * 1664525 + 1013904223) & M
    return x
def put(name, data):
    with open("expect/" + name, "wb") as f: f.write(data)
u32 = lambda v: struct.pack("<%dI" % len(v), *v)
put("u32_256.bin", u32([256]))
put("iota_256.bin", u32(range(256)))
put("flag_out.bin", u32([42] + [42 + b for b in range(1, 64)]))
put("neighbour_seen.bin", struct.pack("<256i", *([-1] + list(range(1, 256)))))
put("rows_data.bin", u32([b + t for b in range(2048) for t in range(32)]))
put("bump_out.bin", u32([0x01010101 + (b if b < 256 else 0) + (1 if b else 0) for b in range(257)]))
put("bytes.bin", bytes((b * 7) & 255 for b in range(256)))
x0 = spin(0)
put("hello.txt", "".join("block %d says %u\n" % (b, x0) for b in range(128)).encode())
put("zero_65536.bin", bytes(65536))
# int_reductions: 256 blocks x 64 threads, r/r64/s start at 0
xs = [spin((t * 977 + b) & M) for b in range(256) for t in range(64)]
s32 = lambda v: v - (1 << 32) if v & 0x80000000 else v
r = [0] * 6
r[0] = sum(xs) & M
r[1] = min([0] + xs)
r[2] = max([0] + xs)
a, o, x = 0, 0, 0
for v in xs: a &= v | 0xfff0ffff; o |= v & 0x0f00000f; x ^= v
r[3], r[4], r[5] = a, o, x
put("reductions_r.bin", u32(r))
put("reductions_r64.bin", struct.pack("<2Q", sum(xs) & (2**64 - 1), max([0] + [v * v for v in xs])))
put("reductions_s.bin", struct.pack("<2i", min([0] + [s32(v) for v in xs]), max([0] + [s32(v) for v in xs])))
# last_block: in = 0x01010101 everywhere, 128 blocks of 64 threads
blk = sum(0x01010101 + (spin(t) & 7) for t in range(64))
put("last_total.bin", struct.pack("<i", s32((blk * 128) & M)))
