#!/usr/bin/env python3
"""vm_replay.py — the H200's recorded results (gpu_results.txt.gz) through the
whole VM, not only vm/fp.c: for every exact f32/f64 arithmetic form in the
table and every cvt between f32, f64 and 32/64-bit integers, one launch of an elementwise kernel (`ld.global` the sources, the
instruction, `st.global` the result), 32 threads a block, so all but the last
warp run the full-warp paths (the packed AVX2 rows of vm/exec.c) and the last
one, partial, the per-lane or dense paths.  Each form is a case file under
build/vmreplay/ compared by `ptxemu run`.

usage: vm_replay.py PTXEMU [TABLE]    prints PASS/FAIL per form, then "N passed, N failed"
"""
import gzip
import os
import re
import struct
import subprocess
import sys

# exact forms only (the other .approx forms are left to test_fp.c and mufu_check.c), div.full and
# div.approx .f32 included (bit-exact: MUFU.RCP times the dividend)
FORM = re.compile(r'^(add|sub|mul|fma|mad|div|sqrt|rcp|min|max|abs|neg|copysign)(\.(?!approx|full)[A-Za-z0-9]+)*\.(f32|f64)$'
                  r'|^div\.(approx|full)(\.ftz)?\.f32$'
                  r'|^cvt(\.[a-z]+)*\.(f32|f64|s32|u32|s64|u64)\.(f32|f64|s32|u32|s64|u64)$')
WIDTH = {'f32': 4, 'f64': 8, 's32': 4, 'u32': 4, 's64': 8, 'u64': 8}

PTX = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 n)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<16>;
    .reg .{t} %v<4>;
    .reg .{dt} %o;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %tid.x;
    mad.lo.s32 %r1, %r1, 32, %r2;
    ld.param.u32 %r3, [n];
    setp.ge.u32 %p1, %r1, %r3;
    @%p1 bra DONE;
    mul.wide.u32 %rd1, %r1, {w};
    mul.wide.u32 %rd9, %r1, {dw};
{loads}
    {op} %o, {srcs};
    ld.param.u64 %rd8, [pd];
    add.s64 %rd8, %rd8, %rd9;
    st.global.{dt} [%rd8], %o;
DONE:
    ret;
}}
"""


def forms(table):
    """Yields (form, rows) for the exact arithmetic forms; a row is a list of ints."""
    form, rows = None, []
    with gzip.open(table, 'rt') as f:
        for line in f:
            line = line.strip()
            if line.startswith('#'):
                if form and FORM.match(form):
                    yield form, rows
                form, rows = line[1:], []
            elif line:
                rows.append([int(x, 16) for x in line.split()])
    if form and FORM.match(form):
        yield form, rows


def write_case(d, form, rows):
    parts = form.split('.')
    t = parts[-1]                                   # the sources' type
    dt = parts[-2] if parts[0] == 'cvt' else t      # the result's
    w, dw = WIDTH[t], WIDTH[dt]
    pack, dpack = ('<I' if w == 4 else '<Q'), ('<I' if dw == 4 else '<Q')
    nsrc = len(rows[0]) - 1
    names = ['a', 'b', 'c']
    loads = []
    for i in range(nsrc):
        r = 2 + 2 * i
        loads.append(f"    ld.param.u64 %rd{r}, [p{names[i]}];\n    add.s64 %rd{r}, %rd{r}, %rd1;\n"
                     f"    ld.global.{t} %v{i + 1}, [%rd{r}];")
    srcs = ', '.join(f'%v{i + 1}' for i in range(nsrc))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'k.ptx'), 'w') as f:
        f.write(PTX.format(t=t, w=w, dt=dt, dw=dw, loads='\n'.join(loads), op=form, srcs=srcs))
    n = len(rows)
    for i in range(3):
        with open(os.path.join(d, names[i] + '.bin'), 'wb') as f:
            for row in rows:
                f.write(struct.pack(pack, row[i] if i < nsrc else 0))
    with open(os.path.join(d, 'expect.bin'), 'wb') as f:
        for row in rows:
            f.write(struct.pack(dpack, row[-1]))
    with open(os.path.join(d, 'case.txt'), 'w') as f:
        f.write(f"# {form}: {n} results recorded on an H200 (tests/fp/gpu_results.txt.gz)\n"
                f"ptx k.ptx\nkernel k\ngrid {(n + 31) // 32}\nblock 32\n"
                "buffer A file a.bin\nbuffer B file b.bin\nbuffer C file c.bin\n"
                f"buffer D zero {n * dw}\n"
                f"param ptr A\nparam ptr B\nparam ptr C\nparam ptr D\nparam u32 {n}\n"
                "expect D expect.bin\n")


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    ptxemu = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    table = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, 'gpu_results.txt.gz')
    out = os.path.join(here, '..', '..', 'build', 'vmreplay')
    passed = failed = 0
    for form, rows in forms(table):
        d = os.path.join(out, form)
        write_case(d, form, rows)
        r = subprocess.run([ptxemu, 'run', os.path.join(d, 'case.txt'), '--jobs', '1'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            passed += 1
            print(f"PASS {form} ({len(rows)} results)")
        else:
            failed += 1
            print(f"FAIL {form}: exit {r.returncode}\n{r.stdout.strip()[:2000]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
