#!/usr/bin/env python3
"""tests/check/cub/gen.py — inputs for the CUB checker cases and the results they must give,
computed here on the host from the algorithms' documented semantics (CUB, CUDA 13).
usage: python3 tests/check/cub/gen.py   (writes *.bin and expect/*.bin next to this file)"""
import os, random, struct

HERE = os.path.dirname(os.path.abspath(__file__))
T, IPT = 128, 4
TILE = T * IPT
B = 2  # blocks
INT_MAX = 0x7fffffff

def w32(name, vals):
    os.makedirs(os.path.dirname(os.path.join(HERE, name)), exist_ok=True)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(struct.pack("<%di" % len(vals), *vals))

def w8(name, vals):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(bytes(vals))

rng = random.Random(20251124)
keys = [rng.randint(-1000, 1000) for _ in range(B * TILE)]
for i in range(0, len(keys), 37):          # runs of equal keys (ties, discontinuities)
    keys[i + 1 if i + 1 < len(keys) else i] = keys[i]
samples = [min(255, int(rng.expovariate(1 / 40.0))) for _ in range(B * TILE)]
warp_in = [rng.randint(-50, 50) for _ in range(B * T)]
rl_vals = [rng.randint(-100, 100) for _ in range(B * 2 * T)]
rl_lens = [rng.randint(0, 3) if i % (2 * T) < 2 * T - 5 else 0 for i in range(B * 2 * T)]
rl_lens = [l if (i % (2 * T) >= 2 * T - 5) else max(l, 1) for i, l in enumerate(rl_lens)]
w32("keys.bin", keys)
w8("samples.bin", samples)
w32("warp_in.bin", warp_in)
w32("rl_vals.bin", rl_vals)
w32("rl_lens.bin", rl_lens)

# ---- merge sort
out, vals = [], []
for b in range(B):
    k = keys[b * TILE:(b + 1) * TILE]
    out += sorted(k)
    kv = sorted(((x & 15, i) for i, x in enumerate(k)), key=lambda p: p[0])   # stable
    out += [p[0] for p in kv]
    vals += [p[1] for p in kv]
    out += sorted(k[:300]) + [0] * (TILE - 300)
w32("expect/merge_sort_out.bin", out)
w32("expect/merge_sort_vals.bin", vals)

# ---- exchange
out = []
for b in range(B):
    s = keys[b * TILE:(b + 1) * TILE]
    rows = [[0] * TILE for _ in range(5)]
    for t in range(T):
        w, l = divmod(t, 32)
        for i in range(IPT):
            rows[0][t * IPT + i] = s[i * T + t]
            r = t * IPT + i
            rows[1][t * IPT + i] = s[(r % T) * IPT + r // T]
            q = l * IPT + i
            rows[2][t * IPT + i] = s[(32 * w + q % 32) * IPT + q // 32]
            rows[3][t * IPT + i] = s[w * 128 + i * 32 + l]
            rows[4][t * IPT + i] = s[TILE - 1 - i * T - t]
    for r in rows: out += r
w32("expect/exchange_out.bin", out)

# ---- histogram
hist = []
for b in range(B):
    h = [0] * 256
    for x in samples[b * TILE:(b + 1) * TILE]: h[x] += 1
    hist += h + h
w32("expect/histogram_hist.bin", hist)

# ---- run-length decode
out, offs, total = [], [], []
for b in range(B):
    o, f = [], []
    for v, l in zip(rl_vals[b * 2 * T:(b + 1) * 2 * T], rl_lens[b * 2 * T:(b + 1) * 2 * T]):
        o += [v] * l
        f += list(range(l))
    total.append(len(o))
    out += o + [-1] * (3 * TILE - len(o))
    offs += f + [-1] * (3 * TILE - len(f))
w32("expect/rld_out.bin", out)
w32("expect/rld_offs.bin", offs)
w32("expect/rld_total.bin", total)

# ---- warp algorithms
out = []
for b in range(B):
    v = warp_in[b * T:(b + 1) * T]
    rows = [[0] * T for _ in range(12)]
    for w in range(T // 32):
        x = v[w * 32:(w + 1) * 32]
        for l in range(32):
            t = w * 32 + l
            rows[0][t] = sum(x[:l + 1])
            rows[1][t] = sum(x[:l])
            rows[2][t] = sum(x)
            rows[3][t] = max(x[:l + 1])
            g = (l // 16) * 16
            rows[4][t] = sum(x[g:l + 1])
            rows[5][t] = sum(x) if l == 0 else 0
            rows[6][t] = max(x) if l == 0 else 0
            rows[7][t] = sum(x[:20]) if l == 0 else 0
            rows[8][t] = sum(x[l:min(l + 5, 32)]) if l % 5 == 0 else 0
            rows[10][t] = l + (32 + l) * 1000
            rows[11][t] = (64 + l) + (96 + l) * 1000
        ks = sorted(v[((w * 32 + l) * 7 + i * 31) % T] for l in range(32) for i in range(IPT))
        for l in range(32):
            k = ks[l * IPT:(l + 1) * IPT]
            rows[9][w * 32 + l] = k[0] + 3 * k[1] + 5 * k[2] + 7 * k[3]
    for r in rows: out += r
w32("expect/warp_out.bin", out)

# ---- adjacent difference, discontinuity, shuffle, prefix scan, reduce, load/store
out = []
for b in range(B):
    s = keys[b * TILE:(b + 1) * TILE]
    rows = [[-1] * TILE for _ in range(12)]
    for r in range(TILE):
        rows[0][r] = s[r] if r == 0 else s[r] - s[r - 1]
        rows[1][r] = 1 if r == 0 or s[r] != s[r - 1] else 0
        rows[2][r] = 1 if r == TILE - 1 or s[r] != s[r + 1] else 0
        rows[4][r] = 0 if r == 0 else s[r - 1]
        rows[5][r] = 7 + sum(s[:r])
        rows[7][r] = s[r] if r < 300 else -1
        rows[8][r] = s[r]
        rows[9][r] = r if r < 333 else -1
    for t in range(T):
        rows[3][t] = s[(t + 3) * IPT] if t + 3 < T else 0
        rows[3][T + t] = s[((t + 5) % T) * IPT + 1]
    rows[6][0] = sum(s)
    rows[6][1] = sum(s[t * IPT] for t in range(77))
    for r in rows: out += r
w32("expect/misc_out.bin", out)
print("cub inputs and expectations written")
