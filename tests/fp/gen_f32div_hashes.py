#!/usr/bin/env python3
"""gen_f32div_hashes.py DIR > f32div_hashes.inc: the C arrays of mufu_check.c's div.full/div.approx
check from what gpu_f32div_record.cu wrote in DIR (sweeps.bin, pairs.bin, random.txt; layout in
the recorder).  The hashes are folded as f32div_inputs.h's f64_fnv does, from F64_FNV_BASIS."""
import struct
import sys

BASIS, PRIME, MASK = 0xcbf29ce484222325, 0x100000001b3, (1 << 64) - 1
NOPS, NFIX = 4, 16
EDGES = [0x000, 0x001, 0x07f, 0x0fd, 0x0fe, 0x0ff, 0x100, 0x1fe]   # div_edge_binade in mufu_check.c


def fnv(h, r):
    """f64_fnv: the high word, then the low word"""
    h = ((h ^ (r >> 32)) * PRIME) & MASK
    return ((h ^ (r & 0xffffffff)) * PRIME) & MASK


def fold(hs):
    h = BASIS
    for r in hs:
        h = fnv(h, r)
    return h


def u64s(path):
    data = open(path, 'rb').read()
    return struct.unpack('<%dQ' % (len(data) // 8), data)


def carray(name, dims, values):
    """a C array of dims (nested braces), the innermost rows 4 values a line"""
    def body(dims, values, indent):
        if len(dims) == 1:
            return [indent + ' '.join('0x%016xull,' % v for v in values[i:i + 4]) for i in range(0, len(values), 4)]
        step = len(values) // dims[0]
        out = []
        for i in range(dims[0]):
            out.append(indent + '{')
            out.extend(body(dims[1:], values[i * step:(i + 1) * step], indent + '    '))
            out.append(indent + '},')
        return out
    lines = ['static const uint64_t %s%s = {' % (name, ''.join('[%d]' % d for d in dims))]
    return '\n'.join(lines + body(dims, values, '') + ['};'])


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: gen_f32div_hashes.py DIR > f32div_hashes.inc')
    d = sys.argv[1]
    sweeps = u64s(d + '/sweeps.bin')
    assert len(sweeps) == NOPS * 2 * NFIX * 512
    total, edge = [], []
    for s in range(NOPS * 2 * NFIX):
        binades = sweeps[s * 512:(s + 1) * 512]
        total.append(fold(binades))
        edge.extend(binades[b] for b in EDGES)
    pairs = u64s(d + '/pairs.bin')
    assert len(pairs) == NOPS * 65536
    prow = [fold(pairs[r * 256:(r + 1) * 256]) for r in range(NOPS * 256)]
    rnd = {}
    for line in open(d + '/random.txt'):
        op, g, h = line.split()
        rnd[int(op), int(g)] = int(h, 16)
    ngroups = len(rnd) // NOPS
    rand = [rnd[op, g] for op in range(NOPS) for g in range(ngroups)]
    print('''/* f32div_hashes.inc -- generated from gpu_f32div_record.cu's sweeps.bin, pairs.bin and random.txt
 * (H200, driver 580.159.04, CUDA 13.0; recorded twice, identical) by gen_f32div_hashes.py.  Ops in
 * the order of f32div_inputs.h (div.full, div.full.ftz, div.approx, div.approx.ftz .f32).
 * div_sweep_total[op][side][f]: side 0 a = div_fix[f] and every b, side 1 b = div_fix[f] and every
 *   a; the 512 binades of the swept operand (sign and exponent field, 2^23 each) each hashed in
 *   chunks (f32div_inputs.h), and the 512 binade hashes folded with f64_fnv.
 * div_sweep_edge[op][side][f][e]: the hash of binade div_edge_binade[e] of that sweep.
 * div_pair_row[op][ea]: the pair hashes (div_exp_pair, eb = 0 .. 255) folded with f64_fnv.
 * div_random_hash[op][g]: the hash of div_pair(g * DIV_RANDOM_GROUP ..), DIV_RANDOM_GROUP of them. */''')
    print(carray('div_sweep_total', [NOPS, 2, NFIX], total))
    print(carray('div_sweep_edge', [NOPS, 2, NFIX, len(EDGES)], edge))
    print(carray('div_pair_row', [NOPS, 256], prow))
    print(carray('div_random_hash', [NOPS, ngroups], rand))


main()
