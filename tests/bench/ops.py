#!/usr/bin/env python3
"""ops.py — `make bench-ops`: the rate of single PTX instructions in whole warps.

For each instruction below, a kernel repeats it 60 times in a loop of 100
iterations (256 blocks of 256 threads, no divergence unless the entry says
so) and `ptxemu run --time --jobs 1` gives M lane-instructions/s, best of
BENCH_REPS runs (default 3).  The loop's own 3 instructions are 5% of each
count.  A handler far below its neighbours is one whose lane loop does not
vectorise (docs/PERFORMANCE.md, step 19, has how they were found and fixed).

usage: python3 tests/bench/ops.py [PTXEMU] [FILTER]
"""
import os
import re
import subprocess
import sys

HEADER = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .f32 %f<10>;
  .reg .f64 %fd<10>;
  .reg .b32 %r<14>;
  .reg .b64 %rd<12>;
  .reg .b16 %h<4>;
  .shared .align 16 .b8 sh[4096];
  .local .align 4 .b8 loc[16];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sh;
  add.s32 %r4, %r3, %r2;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f5, %f1, 0f3fc00000;     // 1.5 + tid: different significands per lane
  fma.rn.f32 %f6, %f1, 0f3c800000, 0fc0000000;   // tid / 64 - 2: in [-2, 2)
  cvt.rn.f64.u32 %fd1, %r1;
  cvt.u64.u32 %rd4, %r1;
  mov.f32 %f2, 0f3f800000;
  mov.f32 %f3, 0f3f000000;
  mov.f64 %fd2, 0d3ff0000000000000;
  mov.f64 %fd3, 0d3fe0000000000000;
  mov.u32 %r7, 7;
  mov.u32 %r8, 3;
  mov.u64 %rd5, 5;
  and.b32 %r9, %r1, 16;
  setp.eq.u32 %p2, %r9, 0;          // lanes 0-15 of every warp
  mov.b16 %h1, 0x3c00;              // f16 1.0
  cvt.rn.f16.f32 %h2, %f5;          // f16 1.5 + tid
  mov.b32 %r10, {%h1, %h2};         // f16x2 pairs
  mov.b32 %r11, {%h2, %h1};
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd6, %rd2, %rd3;
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd2, %rd8;         // out + 16 tid: float4 side by side
  mul.wide.u32 %rd10, %r1, 8;
  add.s64 %rd10, %rd2, %rd10;       // out + 8 tid: 64-bit values side by side
  shl.b32 %r12, %r1, 4;
  add.s32 %r12, %r3, %r12;          // sh + 16 tid
  mov.u32 %r5, 0;
L1:
BODY
  add.s32 %r5, %r5, 1;
  setp.lt.s32 %p1, %r5, 100;
  @%p1 bra L1;
  st.global.f32 [%rd6], %f2;
  ret;
}
"""

# name -> one instruction (operands set up by HEADER)
OPS = [
    ('mov.u32', 'mov.u32 %r6, %r7;'),
    ('add.s32', 'add.s32 %r6, %r7, %r8;'),
    ('add.s64', 'add.s64 %rd7, %rd4, %rd5;'),
    ('mul.lo.s32', 'mul.lo.s32 %r6, %r7, %r8;'),
    ('div.s32', 'div.s32 %r6, %r1, %r7;'),
    ('rem.u32', 'rem.u32 %r6, %r1, %r7;'),
    ('div.u64', 'div.u64 %rd7, %rd4, %rd5;'),
    ('rem.s64', 'rem.s64 %rd7, %rd4, %rd5;'),
    ('bfind.u32', 'bfind.u32 %r6, %r1;'),
    ('mad.lo.s32', 'mad.lo.s32 %r6, %r7, %r8, %r1;'),
    ('mul.wide.u32', 'mul.wide.u32 %rd7, %r7, %r8;'),
    ('mad.wide.u32', 'mad.wide.u32 %rd7, %r7, %r8, %rd5;'),
    ('and.b32', 'and.b32 %r6, %r7, %r8;'),
    ('shl.b32 imm', 'shl.b32 %r6, %r7, 3;'),
    ('shr.u32 imm', 'shr.u32 %r6, %r7, 3;'),
    ('shr.s32 imm', 'shr.s32 %r6, %r7, 3;'),
    ('setp.lt.s32', 'setp.lt.s32 %p3, %r7, %r8;'),
    ('setp.lt.u32', 'setp.lt.u32 %p3, %r7, %r8;'),
    ('setp.eq.s32', 'setp.eq.s32 %p3, %r7, %r8;'),
    ('setp.lt.f32', 'setp.lt.f32 %p3, %f2, %f3;'),
    ('setp.gtu.ftz.f32', 'setp.gtu.ftz.f32 %p3, %f5, %f6;'),
    ('selp.b32', 'selp.b32 %r6, %r7, %r8, %p2;'),
    ('not.pred', 'not.pred %p3, %p2;'),
    ('min.s32', 'min.s32 %r6, %r7, %r8;'),
    ('max.u32', 'max.u32 %r6, %r7, %r8;'),
    ('abs.s32', 'abs.s32 %r6, %r7;'),
    ('popc.b32', 'popc.b32 %r6, %r7;'),
    ('clz.b32', 'clz.b32 %r6, %r7;'),
    ('bfe.u32', 'bfe.u32 %r6, %r7, 2, 5;'),
    ('prmt.b32', 'prmt.b32 %r6, %r7, %r8, 0x3210;'),
    ('prmt.b32 reg', 'prmt.b32 %r6, %r7, %r8, %r1;'),
    ('lop3.b32', 'lop3.b32 %r6, %r7, %r8, %r1, 0x96;'),
    ('mad.hi.u32', 'mad.hi.u32 %r6, %r7, %r8, %r1;'),
    ('addc.u32', 'addc.u32 %r6, %r7, %r8;'),
    ('sad.s32', 'sad.s32 %r6, %r7, %r8, %r1;'),
    ('add.u16', 'add.u16 %h3, %h1, %h2;'),
    ('min.s16', 'min.s16 %h3, %h1, %h2;'),
    ('cvt.u64.u32', 'cvt.u64.u32 %rd7, %r7;'),
    ('cvt.s64.s32', 'cvt.s64.s32 %rd7, %r7;'),
    ('cvt.u32.u64', 'cvt.u32.u64 %r6, %rd5;'),
    ('cvt.rn.f32.s32', 'cvt.rn.f32.s32 %f4, %r7;'),
    ('cvt.rzi.s32.f32', 'cvt.rzi.s32.f32 %r6, %f2;'),
    ('cvt.f64.f32', 'cvt.f64.f32 %fd4, %f2;'),
    ('cvt.rn.f32.f64', 'cvt.rn.f32.f64 %f4, %fd2;'),
    ('add.f32', 'add.f32 %f4, %f2, %f3;'),
    ('mul.rn.f32', 'mul.rn.f32 %f4, %f2, %f3;'),
    ('fma.rn.f32', 'fma.rn.f32 %f4, %f2, %f3, %f1;'),
    ('add.ftz.f32', 'add.rn.ftz.f32 %f4, %f2, %f3;'),
    ('mul.ftz.f32', 'mul.rn.ftz.f32 %f4, %f2, %f3;'),
    ('fma.rn.ftz.f32', 'fma.rn.ftz.f32 %f4, %f2, %f3, %f1;'),
    ('min.f32', 'min.f32 %f4, %f2, %f3;'),
    ('max.ftz.f32', 'max.ftz.f32 %f4, %f6, %f3;'),
    ('mul.rz.f32', 'mul.rz.f32 %f4, %f2, %f3;'),
    ('fma.rm.f32', 'fma.rm.f32 %f4, %f2, %f3, %f1;'),
    ('add.rp.f64', 'add.rp.f64 %fd4, %fd2, %fd3;'),
    ('div.rn.ftz.f32', 'div.rn.ftz.f32 %f4, %f2, %f3;'),
    ('sqrt.rn.ftz.f32', 'sqrt.rn.ftz.f32 %f4, %f5;'),
    ('mul.f16', 'mul.rn.f16 %h3, %h1, %h2;'),
    ('add.f16x2', 'add.rn.f16x2 %r6, %r10, %r11;'),
    ('fma.rn.f16x2', 'fma.rn.f16x2 %r6, %r10, %r11, %r10;'),
    ('fma.rn.bf16x2', 'fma.rn.bf16x2 %r6, %r10, %r11, %r10;'),
    ('min.f16x2', 'min.f16x2 %r6, %r10, %r11;'),
    ('ex2.approx.f16x2', 'ex2.approx.f16x2 %r6, %r10;'),
    ('tanh.approx.f16x2', 'tanh.approx.f16x2 %r6, %r10;'),
    ('tanh.approx.bf16x2', 'tanh.approx.bf16x2 %r6, %r10;'),
    ('setp.lt.f16x2', 'setp.lt.f16x2 %p3|%p1, %r10, %r11;'),
    ('cvt.rn.f16.f32', 'cvt.rn.f16.f32 %h3, %f5;'),
    ('cvt.f32.f16', 'cvt.f32.f16 %f4, %h2;'),
    ('cvt.rn.bf16.f32', 'cvt.rn.bf16.f32 %h3, %f5;'),
    ('cvt.rn.f16x2.f32', 'cvt.rn.f16x2.f32 %r6, %f5, %f6;'),
    ('cvt.rni.f32.f32', 'cvt.rni.f32.f32 %f4, %f6;'),
    ('div.full.f32', 'div.full.f32 %f4, %f2, %f5;'),
    ('abs.f32', 'abs.f32 %f4, %f2;'),
    ('testp.normal.f32', 'testp.normal.f32 %p3, %f6;'),
    ('fma.rn.sat.f32', 'fma.rn.sat.f32 %f4, %f2, %f3, %f6;'),
    ('fma.rm.sat.f32', 'fma.rm.sat.f32 %f4, %f2, %f3, %f6;'),
    ('cvt.sat.f32.f32', 'cvt.sat.f32.f32 %f4, %f6;'),
    ('max.f64', 'max.f64 %fd4, %fd1, %fd2;'),
    ('cvt.rzi.s64.f64', 'cvt.rzi.s64.f64 %rd7, %fd1;'),
    ('fma.rn.relu.f16x2', 'fma.rn.relu.f16x2 %r6, %r10, %r11, %r10;'),
    ('dp4a.u32.u32', 'dp4a.u32.u32 %r6, %r1, %r7, %r8;'),
    ('cvt.rn.f16.f64', 'cvt.rn.f16.f64 %h3, %fd1;'),
    ('fns.b32', 'fns.b32 %r6, %r1, 0, 1;'),
    ('neg.f32', 'neg.f32 %f4, %f2;'),
    ('div.rn.f32', 'div.rn.f32 %f4, %f2, %f3;'),
    ('sqrt.approx.f32', 'sqrt.approx.ftz.f32 %f4, %f5;'),
    ('sqrt.rn.f32', 'sqrt.rn.f32 %f4, %f2;'),
    ('rcp.rn.f32', 'rcp.rn.f32 %f4, %f2;'),
    ('sqrt.rn.f64', 'sqrt.rn.f64 %fd4, %fd2;'),
    ('div.rn.f64', 'div.rn.f64 %fd4, %fd2, %fd3;'),
    ('rcp.rn.f64', 'rcp.rn.f64 %fd4, %fd2;'),
    ('rsqrt.approx.f32', 'rsqrt.approx.f32 %f4, %f5;'),
    ('rcp.approx.f32', 'rcp.approx.ftz.f32 %f4, %f5;'),
    ('ex2.approx.f32', 'ex2.approx.ftz.f32 %f4, %f6;'),
    ('lg2.approx.f32', 'lg2.approx.ftz.f32 %f4, %f5;'),
    ('sin.approx.f32', 'sin.approx.ftz.f32 %f4, %f6;'),
    ('cos.approx.f32', 'cos.approx.ftz.f32 %f4, %f6;'),
    ('tanh.approx.f32', 'tanh.approx.f32 %f4, %f6;'),
    ('add.f64', 'add.f64 %fd4, %fd2, %fd3;'),
    ('fma.rn.f64', 'fma.rn.f64 %fd4, %fd2, %fd3, %fd1;'),
    ('ld.shared.u32', 'ld.shared.u32 %r6, [%r4];'),
    ('st.shared.u32', 'st.shared.u32 [%r4], %r7;'),
    ('ld.global.u32', 'ld.global.u32 %r6, [%rd6];'),
    ('st.global.u32', 'st.global.u32 [%rd6], %r7;'),
    ('ld.global.u64', 'ld.global.u64 %rd7, [%rd10];'),
    ('st.global.u64', 'st.global.u64 [%rd10], %rd5;'),
    ('ld.global.v4.f32', 'ld.global.v4.f32 {%f4, %f7, %f8, %f9}, [%rd9];'),
    ('st.global.v4.f32', 'st.global.v4.f32 [%rd9], {%f2, %f3, %f5, %f6};'),
    ('ld.shared.v4.f32', 'ld.shared.v4.f32 {%f4, %f7, %f8, %f9}, [%r12];'),
    ('ld.local.u32', 'ld.local.u32 %r6, [loc];'),
    ('st.local.u32', 'st.local.u32 [loc], %r7;'),
    ('atom.global.add.u32', 'atom.global.add.u32 %r6, [%rd6], 1;'),
    ('red.global.add.f32', 'red.global.add.f32 [%rd6], %f2;'),
    ('atom.global.max.s32', 'atom.global.max.s32 %r6, [%rd6], %r1;'),
    ('ld.param.u64', 'ld.param.u64 %rd7, [out];'),
    ('cvta.to.global', 'cvta.to.global.u64 %rd7, %rd1;'),
    ('mov %tid.x', 'mov.u32 %r6, %tid.x;'),
    ('mov %ctaid.x', 'mov.u32 %r6, %ctaid.x;'),
    ('shfl.sync.bfly', 'shfl.sync.bfly.b32 %r6, %r7, 1, 31, -1;'),
    ('vote.sync.ballot', 'vote.sync.ballot.b32 %r6, %p2, -1;'),
    ('shfl.sync.idx lane', 'shfl.sync.idx.b32 %r6, %r7, %r2, 31, -1;'),
    ('@p shfl (16 lanes)', '@%p2 shfl.sync.bfly.b32 %r6, %r7, 1, 31, 0xffff;'),
    ('match.any.sync', 'match.any.sync.b32 %r6, %r7, -1;'),
    ('cp.async.ca 4', 'cp.async.ca.shared.global [%r4], [%rd6], 4;'),
    ('@p add (16 lanes)', '@%p2 add.s32 %r6, %r7, %r8;'),
    ('@p fma.ftz (16 lanes)', '@%p2 fma.rn.ftz.f32 %f4, %f2, %f3, %f1;'),
    ('@p fma (16 lanes)', '@%p2 fma.rn.f32 %f4, %f2, %f3, %f1;'),
    ('@p ex2.approx (16 lanes)', '@%p2 ex2.approx.ftz.f32 %f4, %f6;'),
    ('@p div.full (16 lanes)', '@%p2 div.full.f32 %f4, %f2, %f5;'),
    ('@p add.f16x2 (16 lanes)', '@%p2 add.rn.f16x2 %r6, %r10, %r11;'),
    ('@p fma.rn.bf16x2 (16 lanes)', '@%p2 fma.rn.bf16x2 %r6, %r10, %r11, %r10;'),
    ('@p min.f16x2 (16 lanes)', '@%p2 min.f16x2 %r6, %r10, %r11;'),
    ('@p neg.bf16 (16 lanes)', '@%p2 neg.bf16 %h3, %h2;'),
    ('@p setp.lt.f16 (16 lanes)', '@%p2 setp.lt.f16 %p3, %h1, %h2;'),
    ('@p div.s32 (16 lanes)', '@%p2 div.s32 %r6, %r1, %r7;'),
    ('@p rem.u64 (16 lanes)', '@%p2 rem.u64 %rd7, %rd4, %rd5;'),
    ('bar.sync (8 warps)', 'bar.sync 0;'),
    ('mov+shfl.sync.up', 'mov.u32 %r13, 1; shfl.sync.up.b32 %r6|%p3, %r7, %r13, 0, -1;'),
]


def rate(ptxemu, case, reps):
    best = 0.0
    for _ in range(reps):
        r = subprocess.run([ptxemu, 'run', case, '--time', '--jobs', '1'], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        m = re.search(r's: ([0-9.]+) M lane-instructions/s', r.stderr)
        if r.returncode != 0 or not m:
            return None
        best = max(best, float(m.group(1)))
    return best


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, '..', '..'))
    ptxemu = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'build', 'ptxemu')
    filt = sys.argv[2] if len(sys.argv) > 2 else ''
    reps = int(os.environ.get('BENCH_REPS', '3'))
    out = os.path.join(root, 'build', 'bench', 'ops')
    os.makedirs(out, exist_ok=True)
    print(f"{'instruction':<20} {'M lane-insns/s':>15}   (one thread, whole warps, best of {reps})")
    for i, (name, insn) in enumerate(OPS):
        if filt not in name:
            continue
        ptx, case = os.path.join(out, f'op{i}.ptx'), os.path.join(out, f'op{i}.txt')
        with open(ptx, 'w') as f:
            f.write(HEADER.replace('BODY', '\n'.join('  ' + insn for _ in range(60))))
        with open(case, 'w') as f:
            f.write(f"# {name}\nptx op{i}.ptx\nkernel k\ngrid 256\nblock 256\nbuffer out zero 4096\nparam ptr out\n")
        r = rate(ptxemu, case, reps)
        print(f"{name:<20} {('%.0f' % r) if r is not None else 'FAILED':>15}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
