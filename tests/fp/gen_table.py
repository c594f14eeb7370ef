#!/usr/bin/env python3
"""Generates gpu_table.cu: one inline-PTX case per instruction form.
Usage: gen_table.py [--ptxcheck out.ptx] [--skip skipfile] > gpu_table.cu"""
import sys

RND = ['rn', 'rz', 'rm', 'rp']
IRND = ['rni', 'rzi', 'rmi', 'rpi']
INTS = ['s8', 'u8', 's16', 'u16', 's32', 'u32', 's64', 'u64']
FLTS = ['f16', 'bf16', 'f32', 'f64']
ops = []  # (name, dtype, [srctypes])

def op(name, d, *s):
    ops.append((name, d, list(s)))

# ---- f32 arithmetic
for o in ['add', 'sub', 'mul']:
    for r in RND:
        for ftz in ['', '.ftz']:
            for sat in ['', '.sat']:
                op(f'{o}.{r}{ftz}{sat}.f32', 'f32', 'f32', 'f32')
for r in RND:
    for ftz in ['', '.ftz']:
        for sat in ['', '.sat']:
            op(f'fma.{r}{ftz}{sat}.f32', 'f32', 'f32', 'f32', 'f32')
for r in RND:
    for ftz in ['', '.ftz']:
        op(f'div.{r}{ftz}.f32', 'f32', 'f32', 'f32')
        op(f'sqrt.{r}{ftz}.f32', 'f32', 'f32')
        op(f'rcp.{r}{ftz}.f32', 'f32', 'f32')
for ftz in ['', '.ftz']:
    op(f'div.approx{ftz}.f32', 'f32', 'f32', 'f32')
    op(f'div.full{ftz}.f32', 'f32', 'f32', 'f32')
    for f in ['sqrt', 'rcp', 'rsqrt', 'ex2', 'lg2', 'sin', 'cos']:
        op(f'{f}.approx{ftz}.f32', 'f32', 'f32')
    for f in ['min', 'max']:
        for nan in ['', '.NaN']:
            op(f'{f}{ftz}{nan}.f32', 'f32', 'f32', 'f32')
    op(f'abs{ftz}.f32', 'f32', 'f32')
    op(f'neg{ftz}.f32', 'f32', 'f32')
op('tanh.approx.f32', 'f32', 'f32')
op('copysign.f32', 'f32', 'f32', 'f32')
# ---- f64
for o in ['add', 'sub', 'mul']:
    for r in RND:
        op(f'{o}.{r}.f64', 'f64', 'f64', 'f64')
for r in RND:
    op(f'fma.{r}.f64', 'f64', 'f64', 'f64', 'f64')
    op(f'div.{r}.f64', 'f64', 'f64', 'f64')
    op(f'sqrt.{r}.f64', 'f64', 'f64')
    op(f'rcp.{r}.f64', 'f64', 'f64')
op('rcp.approx.ftz.f64', 'f64', 'f64')
op('rsqrt.approx.f64', 'f64', 'f64')
op('rsqrt.approx.ftz.f64', 'f64', 'f64')
op('min.f64', 'f64', 'f64', 'f64')
op('max.f64', 'f64', 'f64', 'f64')
op('abs.f64', 'f64', 'f64')
op('neg.f64', 'f64', 'f64')
op('copysign.f64', 'f64', 'f64', 'f64')
# ---- f16 / bf16
for o in ['add', 'sub', 'mul']:
    for ftz in ['', '.ftz']:
        for sat in ['', '.sat']:
            op(f'{o}.rn{ftz}{sat}.f16', 'f16', 'f16', 'f16')
    op(f'{o}.rn.bf16', 'bf16', 'bf16', 'bf16')
    op(f'{o}.rn.f16x2', 'f16x2', 'f16x2', 'f16x2')
    op(f'{o}.rn.bf16x2', 'bf16x2', 'bf16x2', 'bf16x2')
op('add.rn.ftz.sat.f16x2', 'f16x2', 'f16x2', 'f16x2')
for ftz in ['', '.ftz']:
    for sat in ['', '.sat']:
        op(f'fma.rn{ftz}{sat}.f16', 'f16', 'f16', 'f16', 'f16')
    op(f'fma.rn{ftz}.relu.f16', 'f16', 'f16', 'f16', 'f16')
op('fma.rn.bf16', 'bf16', 'bf16', 'bf16', 'bf16')
op('fma.rn.relu.bf16', 'bf16', 'bf16', 'bf16', 'bf16')
op('fma.rn.f16x2', 'f16x2', 'f16x2', 'f16x2', 'f16x2')
op('fma.rn.bf16x2', 'bf16x2', 'bf16x2', 'bf16x2', 'bf16x2')
for f in ['min', 'max']:
    for ftz in ['', '.ftz']:
        for nan in ['', '.NaN']:
            op(f'{f}{ftz}{nan}.f16', 'f16', 'f16', 'f16')
    for nan in ['', '.NaN']:
        op(f'{f}{nan}.bf16', 'bf16', 'bf16', 'bf16')
    op(f'{f}.f16x2', 'f16x2', 'f16x2', 'f16x2')
    op(f'{f}.NaN.bf16x2', 'bf16x2', 'bf16x2', 'bf16x2')
for f in ['neg', 'abs']:
    op(f'{f}.f16', 'f16', 'f16')
    op(f'{f}.ftz.f16', 'f16', 'f16')
    op(f'{f}.bf16', 'bf16', 'bf16')
    op(f'{f}.f16x2', 'f16x2', 'f16x2')
    op(f'{f}.bf16x2', 'bf16x2', 'bf16x2')
op('ex2.approx.f16', 'f16', 'f16')
op('ex2.approx.f16x2', 'f16x2', 'f16x2')
op('ex2.approx.ftz.bf16', 'bf16', 'bf16')
op('ex2.approx.ftz.bf16x2', 'bf16x2', 'bf16x2')
op('tanh.approx.f16', 'f16', 'f16')
op('tanh.approx.bf16', 'bf16', 'bf16')
# ---- cvt float->float
def ftzs(a, b):
    return ['', '.ftz'] if 'f32' in (a, b) else ['']
order = {'f16': 1, 'bf16': 1, 'f32': 2, 'f64': 3}
for s in FLTS:
    for d in FLTS:
        if s == d:
            for r in IRND:
                for ftz in ftzs(s, d):
                    for sat in ['', '.sat']:
                        op(f'cvt.{r}{ftz}{sat}.{d}.{s}', d, s)
            if s in ('f32',):
                op('cvt.ftz.f32.f32', d, s)
                op('cvt.sat.f32.f32', d, s)
                op('cvt.ftz.sat.f32.f32', d, s)
            continue
        if order[d] < order[s] or (order[d] == order[s]):
            for r in RND:
                for ftz in ftzs(s, d):
                    for sat in ['', '.sat']:
                        op(f'cvt.{r}{ftz}{sat}.{d}.{s}', d, s)
            op(f'cvt.rn.satfinite.{d}.{s}', d, s)
            op(f'cvt.rn.relu.{d}.{s}', d, s)
        else:
            for ftz in ftzs(s, d):
                for sat in ['', '.sat']:
                    op(f'cvt{ftz}{sat}.{d}.{s}', d, s)
        for r in IRND:
            op(f'cvt.{r}.{d}.{s}', d, s)
# ---- cvt float<->int
for s in FLTS:
    for d in INTS:
        for r in IRND:
            for ftz in ftzs(s, 'x'):
                op(f'cvt.{r}{ftz}.{d}.{s}', d, s)
for s in INTS:
    for d in FLTS:
        for r in RND:
            op(f'cvt.{r}.{d}.{s}', d, s)
        op(f'cvt.rn.sat.{d}.{s}', d, s)

CONS = {'f32': 'f', 'f64': 'd', 'f16': 'h', 'bf16': 'h', 'f16x2': 'r', 'bf16x2': 'r',
        's8': 'h', 'u8': 'h', 's16': 'h', 'u16': 'h', 's32': 'r', 'u32': 'r', 's64': 'l', 'u64': 'l'}
CTYPE = {'f': 'float', 'd': 'double', 'h': 'unsigned short', 'r': 'unsigned', 'l': 'unsigned long long'}
PTXREG = {'f': '.f32', 'd': '.f64', 'h': '.b16', 'r': '.b32', 'l': '.b64'}
TCODE = {t: i for i, t in enumerate(['f16', 'bf16', 'f32', 'f64', 'f16x2', 'bf16x2'] + INTS)}

args = sys.argv[1:]
skip = set()
if '--skip' in args:
    skip = set(l.strip() for l in open(args[args.index('--skip') + 1]) if l.strip())
ops = [o for o in ops if o[0] not in skip]

if '--ptxcheck' in args:
    f = open(args[args.index('--ptxcheck') + 1], 'w')
    f.write('.version 8.8\n.target sm_90\n.address_size 64\n.visible .entry k() {\n')
    for c in 'fdhrl':
        f.write(f'.reg {PTXREG[c]} %{c}<4>;\n')
    lines = {}
    ln = 10
    for name, d, s in ops:
        regs = [f'%{CONS[d]}0'] + [f'%{CONS[t]}{i+1}' for i, t in enumerate(s)]
        f.write(f'{name} {",".join(regs)};\n')
        lines[ln] = name
        ln += 1
    f.write('ret;\n}\n')
    f.close()
    with open(args[args.index('--ptxcheck') + 1] + '.map', 'w') as m:
        for k, v in lines.items():
            m.write(f'{k} {v}\n')
    sys.exit(0)

out = sys.stdout
out.write('// GENERATED by gen_table.py -- do not edit\n#define NOPS %d\n' % len(ops))
out.write('struct OpInfo { const char *name; int nsrc; int dt; int st[3]; };\n')
out.write('static const OpInfo g_ops[NOPS] = {\n')
for name, d, s in ops:
    st = [TCODE[t] for t in s] + [-1] * (3 - len(s))
    out.write(f'  {{"{name}", {len(s)}, {TCODE[d]}, {{{st[0]}, {st[1]}, {st[2]}}}}},\n')
out.write('};\n')
out.write('__device__ unsigned long long run_op(int op, unsigned long long a, unsigned long long b, unsigned long long c) {\n')
out.write('  unsigned long long in[3] = {a, b, c}; (void)in; unsigned long long r = 0;\n  switch (op) {\n')
def conv_in(c, v):
    return {'f': f'__uint_as_float((unsigned){v})', 'd': f'__longlong_as_double((long long){v})',
            'h': f'(unsigned short){v}', 'r': f'(unsigned){v}', 'l': v}[c]
def conv_out(c):
    return {'f': '(unsigned long long)__float_as_uint(d)', 'd': '(unsigned long long)__double_as_longlong(d)',
            'h': '(unsigned long long)d', 'r': '(unsigned long long)d', 'l': 'd'}[c]
for i, (name, d, s) in enumerate(ops):
    dc = CONS[d]
    ph = ','.join(f'%{k}' for k in range(len(s) + 1))
    ins = ','.join(f'"{CONS[t]}"({conv_in(CONS[t], "in[%d]" % k)})' for k, t in enumerate(s))
    out.write(f'  case {i}: {{ {CTYPE[dc]} d; asm volatile("{name} {ph};" : "={dc}"(d) : {ins}); r = {conv_out(dc)}; }} break;\n')
out.write('  }\n  return r;\n}\n')
