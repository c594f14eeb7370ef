#!/usr/bin/env python3
"""rowdiff.py -- the AVX2 copy of the dispatch loop against the base copy (PTXEMU_NO_AVX2=1),
instruction by instruction, on whole warps.

The AVX2 copy computes many instructions a warp at a time (docs/PERFORMANCE.md, steps 18-28);
the base copy goes lane by lane and is the one the goldens check most directly.  Each form below
runs on 64 threads (two whole warps) whose operands come from memory (per-lane values, with
zeros, ones, extremes, NaNs, infinities and subnormals among random ones) or are immediates
(constant slots, which several rows take apart); every result is stored, and the two copies'
outputs must be equal byte for byte.  One PASS/FAIL line per form, then "N passed, N failed".
A form that differs names the first lane.  A 32-bit result is also checked for bits
left above its low word in the register's 64-bit slot (the word after it in the output): they
must agree, and be zero in both copies (narrow values are stored zero-extended).  Without AVX2 on this CPU it says so and passes
nothing (both copies would be the base one).

usage: python3 tests/vm/rowdiff.py PTXEMU
"""
import os, random, struct, subprocess, sys, tempfile

# operand registers: loaded per lane from the input buffer
#   %r1 %r2 %r3 %r4 (b32)  %rd1 %rd2 %rd3 (b64)  %f1 %f2 %f3 (f32)  %fd1 %fd2 %fd3 (f64)  %rs1 %rs2 (b16)
#   %p1 (pred: lane-dependent)
# results: %r9 (b32), %rd9 (b64), %f9 (f32), %fd9 (f64), %p9 (pred), %rs9 (b16)
FORMS = [
    # integer
    ('add.s32 %r9, %r1, %r2;', 'r'), ('sub.s32 %r9, %r1, %r2;', 'r'), ('mul.lo.s32 %r9, %r1, %r2;', 'r'),
    ('mad.lo.s32 %r9, %r1, %r2, %r3;', 'r'), ('mul.hi.s32 %r9, %r1, %r2;', 'r'), ('mul.hi.u32 %r9, %r1, %r2;', 'r'),
    ('mad.hi.s32 %r9, %r1, %r2, %r3;', 'r'), ('mad.hi.u32 %r9, %r1, %r2, %r3;', 'r'), ('mad.hi.u32 %r9, %r1, -1, %r1;', 'r'),
    ('mul.wide.s32 %rd9, %r1, %r2;', 'rd'), ('mul.wide.u32 %rd9, %r1, %r2;', 'rd'), ('mad.wide.u32 %rd9, %r1, %r2, %rd1;', 'rd'),
    ('add.s64 %rd9, %rd1, %rd2;', 'rd'), ('sub.s64 %rd9, %rd1, %rd2;', 'rd'), ('mul.lo.s64 %rd9, %rd1, %rd2;', 'rd'),
    ('neg.s32 %r9, %r1;', 'r'), ('abs.s32 %r9, %r1;', 'r'), ('not.b32 %r9, %r1;', 'r'), ('not.b64 %rd9, %rd1;', 'rd'),
    ('min.s32 %r9, %r1, %r2;', 'r'), ('max.u32 %r9, %r1, %r2;', 'r'), ('min.s64 %rd9, %rd1, %rd2;', 'rd'),
    ('max.s32 %r9, %r1, %r2;', 'r'), ('min.u32 %r9, %r1, %r2;', 'r'), ('max.s32 %r9, %r1, -5;', 'r'),
    ('and.b32 %r9, %r1, %r2;', 'r'), ('or.b32 %r9, %r1, %r2;', 'r'), ('xor.b64 %rd9, %rd1, %rd2;', 'rd'),
    ('shl.b32 %r9, %r1, %r4;', 'r'), ('shr.u32 %r9, %r1, %r4;', 'r'), ('shr.s32 %r9, %r1, %r4;', 'r'),
    ('shl.b64 %rd9, %rd1, %r4;', 'rd'), ('shr.s64 %rd9, %rd1, %r4;', 'rd'),
    ('shl.b32 %r9, %r1, 5;', 'r'), ('shr.s32 %r9, %r1, 31;', 'r'), ('shr.u64 %rd9, %rd1, 40;', 'rd'),
    ('popc.b32 %r9, %r1;', 'r'), ('popc.b64 %r9, %rd1;', 'r'), ('clz.b32 %r9, %r1;', 'r'), ('clz.b64 %r9, %rd1;', 'r'),
    ('brev.b32 %r9, %r1;', 'r'), ('bfind.u32 %r9, %r1;', 'r'), ('bfind.s64 %r9, %rd1;', 'r'),
    ('bfe.u32 %r9, %r1, %r3, %r4;', 'r'), ('bfe.s32 %r9, %r1, %r3, %r4;', 'r'),
    ('bfe.u32 %r9, %r1, 3, 9;', 'r'), ('bfe.s32 %r9, %r1, 20, 12;', 'r'), ('bfe.s32 %r9, %r1, 31, 1;', 'r'),
    ('bfe.u64 %rd9, %rd1, 17, 40;', 'rd'), ('bfe.s64 %rd9, %rd1, 33, 31;', 'rd'),
    ('bfi.b32 %r9, %r1, %r2, %r3, %r4;', 'r'), ('bfi.b32 %r9, %r1, %r2, 7, 10;', 'r'),
    ('prmt.b32 %r9, %r1, %r2, %r3;', 'r'), ('prmt.b32 %r9, %r1, %r2, 0x5410;', 'r'), ('prmt.b32 %r9, %r1, %r2, 0x7632;', 'r'),
    ('prmt.b32 %r9, %r1, %r2, 0x3210;', 'r'), ('prmt.b32 %r9, %r1, %r2, 0x0123;', 'r'), ('prmt.b32 %r9, %r1, %r2, 0x64c2;', 'r'), ('prmt.b32 %r9, %r1, %r2, 0x8fb3;', 'r'),
    ('fns.b32 %r9, %r1, %r4, %r3;', 'r'), ('fns.b32 %r9, %r1, 17, -3;', 'r'), ('dp4a.s32.u32 %r9, %r1, %r2, %r3;', 'r'), ('dp4a.u32.s32 %r9, %r1, %r2, %r3;', 'r'), ('dp4a.s32.s32 %r9, %r1, %r2, %r3;', 'r'), ('dp4a.u32.u32 %r9, %r1, %r2, %r3;', 'r'), ('dp4a.s32.u32 %r9, %r1, -7, %r2;', 'r'),
    ('prmt.b32.f4e %r9, %r1, %r2, %r3;', 'r'), ('prmt.b32.rc16 %r9, %r1, %r2, 2;', 'r'),
    ('lop3.b32 %r9, %r1, %r2, %r3, 0x96;', 'r'), ('lop3.b32 %r9, %r1, %r2, %r3, 0xe8;', 'r'),
    ('lop3.b32 %r9, %r1, %r2, %r3, 0x01;', 'r'), ('lop3.b32 %r9, %r1, %r2, %r3, 0xff;', 'r'), ('lop3.b32 %r9, %r1, 7, %r3, 0x6a;', 'r'),
    ('shf.l.wrap.b32 %r9, %r1, %r2, %r4;', 'r'), ('shf.r.clamp.b32 %r9, %r1, %r2, %r4;', 'r'),
    ('selp.b32 %r9, %r1, %r2, %p1;', 'r'), ('selp.b64 %rd9, %rd1, %rd2, %p1;', 'rd'),
    ('setp.lt.s32 %p9, %r1, %r2;', 'p'), ('setp.lo.u32 %p9, %r1, %r2;', 'p'), ('setp.eq.s64 %p9, %rd1, %rd2;', 'p'),
    ('setp.le.s32 %p9, %r1, %r2;', 'p'), ('setp.gt.s32 %p9, %r1, %r2;', 'p'), ('setp.ge.s32 %p9, %r1, %r2;', 'p'),
    ('setp.le.s32 %p9, %r1, %r1;', 'p'), ('setp.lt.s32 %p9, %r1, -1;', 'p'), ('setp.ge.s32 %p9, %r1, 0;', 'p'),
    ('setp.gt.s32 %p9, 2147483647, %r1;', 'p'),
    ('div.s32 %r9, %r1, %r2;', 'r'), ('rem.u32 %r9, %r1, %r2;', 'r'), ('div.u64 %rd9, %rd1, %rd2;', 'rd'),
    ('div.s32 %r9, %r3, %r4;', 'r'), ('div.u32 %r9, %r3, %r4;', 'r'), ('rem.s32 %r9, %r3, %r4;', 'r'),
    ('rem.u32 %r9, %r3, %r4;', 'r'), ('div.s32 %r9, %r3, -3;', 'r'), ('rem.u32 %r9, %r3, 10;', 'r'),
    ('div.s64 %rd9, %rd1, %rd2;', 'rd'), ('rem.s64 %rd9, %rd1, %rd2;', 'rd'), ('rem.u64 %rd9, %rd1, %rd2;', 'rd'),
    ('div.s64 %rd9, %rd1, 7;', 'rd'), ('rem.s64 %rd9, %rd1, -3;', 'rd'), ('div.s64 %rd9, %rd1, -1;', 'rd'),
    ('div.u64 %rd9, %rd1, 1;', 'rd'),
    ('add.s16 %rs9, %rs1, %rs2;', 'rs'), ('mul.lo.s16 %rs9, %rs1, %rs2;', 'rs'),
    ('mul.wide.s16 %r9, %rs1, %rs2;', 'r'), ('mul.wide.u16 %r9, %rs1, %rs2;', 'r'),
    ('mul.wide.s16 %r9, %rs1, -3;', 'r'), ('mul.wide.u16 %r9, %rs1, 4;', 'r'),
    ('cvt.u64.u32 %rd9, %r1;', 'rd'), ('cvt.s64.s32 %rd9, %r1;', 'rd'), ('cvt.u32.u64 %r9, %rd1;', 'r'),
    ('cvt.s8.s32 %r9, %r1;', 'r'), ('cvt.u16.u32 %rs9, %r1;', 'rs'),
    ('cvt.s32.s16 %r9, %rs1;', 'r'), ('cvt.s64.s16 %rd9, %rs1;', 'rd'),
    ('cvt.rn.f16.f64 %rs9, %fd1;', 'rs'), ('cvt.rn.bf16.f64 %rs9, %fd1;', 'rs'),
    # f32
    ('add.f32 %f9, %f1, %f2;', 'f'), ('sub.f32 %f9, %f1, %f2;', 'f'), ('mul.f32 %f9, %f1, %f2;', 'f'),
    ('fma.rn.f32 %f9, %f1, %f2, %f3;', 'f'), ('add.ftz.f32 %f9, %f1, %f2;', 'f'), ('sub.ftz.f32 %f9, %f1, %f2;', 'f'), ('mul.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('fma.rn.ftz.f32 %f9, %f1, %f2, %f3;', 'f'), ('@%p1 add.ftz.f32 %f9, %f1, %f2;', 'f'), ('@!%p1 mul.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('@%p1 fma.rn.ftz.f32 %f9, %f1, %f2, %f3;', 'f'), ('mul.rz.f32 %f9, %f1, %f2;', 'f'),
    ('add.rz.f32 %f9, %f1, %f2;', 'f'), ('sub.rm.f32 %f9, %f1, %f2;', 'f'), ('fma.rp.f32 %f9, %f1, %f2, %f3;', 'f'),
    ('mul.rm.ftz.f32 %f9, %f1, %f2;', 'f'), ('fma.rz.ftz.f32 %f9, %f1, %f2, %f3;', 'f'), ('@%p1 fma.rm.ftz.f32 %f9, %f1, %f2, %f3;', 'f'),
    ('div.rz.f32 %f9, %f1, %f2;', 'f'), ('div.rn.ftz.f32 %f9, %f1, %f2;', 'f'), ('div.rp.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('@!%p1 div.rm.f32 %f9, %f1, %f2;', 'f'), ('@%p1 fma.rn.f32 %f9, %f1, %f2, %f3;', 'f'), ('@!%p1 fma.rn.ftz.f32 %f9, %f1, %f2, %f3;', 'f'),
    ('@%p1 mul.rz.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('sqrt.rn.ftz.f32 %f9, %f1;', 'f'), ('sqrt.rz.f32 %f9, %f1;', 'f'), ('@%p1 sqrt.rn.f32 %f9, %f1;', 'f'),
    ('rcp.rn.ftz.f32 %f9, %f1;', 'f'), ('rcp.rm.f32 %f9, %f1;', 'f'), ('@%p1 rcp.rp.ftz.f32 %f9, %f1;', 'f'),
    ('add.sat.f32 %f9, %f1, %f2;', 'f'), ('sub.ftz.sat.f32 %f9, %f1, %f2;', 'f'), ('mul.sat.f32 %f9, %f1, %f2;', 'f'),
    ('mul.ftz.sat.f32 %f9, %f1, %f2;', 'f'), ('fma.rn.sat.f32 %f9, %f1, %f2, %f3;', 'f'), ('fma.rn.ftz.sat.f32 %f9, %f1, %f2, %f3;', 'f'), ('add.rz.sat.f32 %f9, %f1, %f2;', 'f'), ('mul.rp.sat.f32 %f9, %f1, %f2;', 'f'),
    ('fma.rm.ftz.sat.f32 %f9, %f1, %f2, %f3;', 'f'), ('sub.rp.ftz.sat.f32 %f9, %f1, %f2;', 'f'), ('min.f32 %f9, %f1, %f2;', 'f'), ('max.f32 %f9, %f1, %f2;', 'f'),
    ('min.NaN.f32 %f9, %f1, %f2;', 'f'), ('max.ftz.f32 %f9, %f1, %f2;', 'f'), ('min.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('max.NaN.f32 %f9, %f1, %f2;', 'f'), ('min.ftz.NaN.f32 %f9, %f1, %f2;', 'f'), ('max.f32 %f9, %f1, 0f00000000;', 'f'),
    ('min.f32 %f9, %f1, 0f80000000;', 'f'), ('min.f32 %f9, %f1, 0f00000000;', 'f'), ('max.f32 %f9, %f1, 0f80000000;', 'f'), ('max.ftz.f32 %f9, %f1, 0f80000001;', 'f'), ('min.f32 %f9, %f1, %f1;', 'f'), ('abs.f32 %f9, %f1;', 'f'), ('neg.f32 %f9, %f1;', 'f'),
    ('div.rn.f32 %f9, %f1, %f2;', 'f'), ('div.approx.f32 %f9, %f1, %f2;', 'f'), ('div.full.f32 %f9, %f1, %f2;', 'f'),
    ('div.approx.ftz.f32 %f9, %f1, %f2;', 'f'), ('div.full.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('sqrt.rn.f32 %f9, %f1;', 'f'), ('rcp.rn.f32 %f9, %f1;', 'f'),
    ('rcp.approx.f32 %f9, %f1;', 'f'), ('rcp.approx.ftz.f32 %f9, %f1;', 'f'), ('rsqrt.approx.f32 %f9, %f1;', 'f'),
    ('rsqrt.approx.ftz.f32 %f9, %f1;', 'f'), ('ex2.approx.f32 %f9, %f1;', 'f'), ('ex2.approx.ftz.f32 %f9, %f1;', 'f'),
    ('lg2.approx.f32 %f9, %f1;', 'f'), ('sin.approx.f32 %f9, %f1;', 'f'), ('sqrt.approx.f32 %f9, %f1;', 'f'),
    ('tanh.approx.f32 %f9, %f1;', 'f'),
    ('tanh.approx.f16 %rs9, %rs1;', 'rs'), ('tanh.approx.bf16 %rs9, %rs1;', 'rs'), ('tanh.approx.f16x2 %r9, %r1;', 'r'),
    ('tanh.approx.bf16x2 %r9, %r1;', 'r'), ('ex2.approx.f16x2 %r9, %r1;', 'r'), ('ex2.approx.ftz.bf16x2 %r9, %r1;', 'r'),
    ('@%p1 add.rn.f16x2 %r9, %r1, %r2;', 'r'), ('@!%p1 fma.rn.bf16x2 %r9, %r1, %r2, %r3;', 'r'),
    ('@%p1 mul.rn.ftz.sat.f16 %rs9, %rs1, %rs2;', 'rs'), ('@!%p1 min.NaN.bf16x2 %r9, %r1, %r2;', 'r'),
    ('@!%p1 setp.lt.ftz.f16 %p9, %rs1, %rs2;', 'p'), ('@%p1 setp.gtu.bf16 %p9, %rs1, %rs2;', 'p'),
    ('@%p1 div.s32 %r9, %r1, %r2;', 'r'), ('@!%p1 rem.u32 %r9, %r1, %r2;', 'r'), ('@%p1 div.u64 %rd9, %rd1, %rd2;', 'rd'),
    ('@!%p1 rem.s64 %rd9, %rd1, %rd2;', 'rd'),
    ('@!%p1 setp.le.f16x2 %p9|%p8, %r1, %r2;', 'p'), ('@%p1 setp.nan.ftz.bf16x2 %p8|%p9, %r1, %r2;', 'p'),
    ('@%p1 cvt.rn.f16x2.e4m3x2 %r9, %rs1;', 'r'), ('@!%p1 cvt.rn.relu.f16x2.e5m2x2 %r9, %rs1;', 'r'),
    ('@%p1 tanh.approx.f16x2 %r9, %r1;', 'r'), ('@!%p1 ex2.approx.f16 %rs9, %rs1;', 'rs'), ('@%p1 add.rz.f16 %rs9, %rs1, %rs2;', 'rs'),
    # partial groups of the MUFU and division rows (mufu_dense, div_dense: the idle lanes keep d)
    ('@%p1 ex2.approx.ftz.f32 %f9, %f1;', 'f'), ('@!%p1 rcp.approx.f32 %f9, %f1;', 'f'), ('@%p1 rsqrt.approx.ftz.f32 %f9, %f1;', 'f'),
    ('@!%p1 sqrt.approx.f32 %f9, %f1;', 'f'), ('@%p1 lg2.approx.f32 %f9, %f1;', 'f'), ('@!%p1 sin.approx.f32 %f9, %f1;', 'f'),
    ('@%p1 cos.approx.ftz.f32 %f9, %f1;', 'f'), ('@!%p1 tanh.approx.f32 %f9, %f1;', 'f'), ('@%p1 div.full.f32 %f9, %f1, %f2;', 'f'),
    ('@!%p1 div.approx.ftz.f32 %f9, %f1, %f2;', 'f'), ('@%p1 div.full.ftz.f32 %f9, %f1, %f2;', 'f'),
    ('setp.lt.f32 %p9, %f1, %f2;', 'p'), ('setp.nan.f32 %p9, %f1, %f2;', 'p'), ('setp.geu.f32 %p9, %f1, %f2;', 'p'),
    ('setp.eq.f32 %p9, %f1, %f2;', 'p'), ('setp.ne.f32 %p9, %f1, %f2;', 'p'), ('setp.le.f32 %p9, %f1, %f2;', 'p'),
    ('setp.gt.f32 %p9, %f1, %f2;', 'p'), ('setp.ge.f32 %p9, %f1, %f2;', 'p'), ('setp.equ.f32 %p9, %f1, %f2;', 'p'),
    ('setp.neu.f32 %p9, %f1, %f2;', 'p'), ('setp.ltu.f32 %p9, %f1, %f2;', 'p'), ('setp.leu.f32 %p9, %f1, %f2;', 'p'),
    ('setp.gtu.f32 %p9, %f1, %f2;', 'p'), ('setp.num.f32 %p9, %f1, %f2;', 'p'), ('setp.le.f32 %p9, %f1, %f1;', 'p'),
    ('setp.lt.ftz.f32 %p9, %f1, %f2;', 'p'), ('setp.eq.ftz.f32 %p9, %f1, %f2;', 'p'), ('setp.geu.ftz.f32 %p9, %f1, %f2;', 'p'),
    ('setp.gt.f32 %p9, %f1, 0f00000001;', 'p'), ('setp.eq.ftz.f32 %p9, %f1, 0f80000000;', 'p'),
    ('cvt.rn.f32.s32 %f9, %r1;', 'f'), ('cvt.rn.f32.u32 %f9, %r1;', 'f'), ('cvt.rzi.s32.f32 %r9, %f1;', 'r'),
    ('cvt.rni.u32.f32 %r9, %f1;', 'r'),
    ('cvt.rni.f32.f32 %f9, %f1;', 'f'), ('cvt.rzi.f32.f32 %f9, %f1;', 'f'), ('cvt.rmi.f32.f32 %f9, %f1;', 'f'),
    ('cvt.rpi.f32.f32 %f9, %f1;', 'f'), ('cvt.rni.ftz.f32.f32 %f9, %f1;', 'f'), ('cvt.rmi.ftz.f32.f32 %f9, %f1;', 'f'), ('cvt.rzi.s64.f32 %rd9, %f1;', 'rd'), ('cvt.f64.f32 %fd9, %f1;', 'fd'),
    ('cvt.rn.f32.f64 %f9, %fd1;', 'f'), ('cvt.rn.f16.f32 %rs9, %f1;', 'rs'), ('cvt.f32.f16 %f9, %rs1;', 'f'),
    ('cvt.rn.f32.s64 %f9, %rd1;', 'f'),
    # f64
    ('add.f64 %fd9, %fd1, %fd2;', 'fd'),
    ('add.rz.f64 %fd9, %fd1, %fd2;', 'fd'), ('sub.rp.f64 %fd9, %fd1, %fd2;', 'fd'), ('mul.rm.f64 %fd9, %fd1, %fd2;', 'fd'),
    ('fma.rp.f64 %fd9, %fd1, %fd2, %fd3;', 'fd'), ('div.rz.f64 %fd9, %fd1, %fd2;', 'fd'), ('@%p1 add.rm.f64 %fd9, %fd1, %fd2;', 'fd'), ('mul.f64 %fd9, %fd1, %fd2;', 'fd'), ('fma.rn.f64 %fd9, %fd1, %fd2, %fd3;', 'fd'),
    ('div.rn.f64 %fd9, %fd1, %fd2;', 'fd'), ('sqrt.rn.f64 %fd9, %fd1;', 'fd'), ('min.f64 %fd9, %fd1, %fd2;', 'fd'),
    # partial groups of operations that call vm/fp.c (LANES_CALL: the idle lanes keep d)
    ('@%p1 fma.rn.f64 %fd9, %fd1, %fd2, %fd3;', 'fd'), ('@!%p1 div.rn.f64 %fd9, %fd1, %fd2;', 'fd'),
    ('@!%p1 sqrt.rn.f64 %fd9, %fd1;', 'fd'), ('@%p1 rcp.rn.f64 %fd9, %fd1;', 'fd'), ('@!%p1 cvt.rn.f16.f32 %rs9, %f1;', 'rs'),
    ('@%p1 cvt.rzi.s64.f64 %rd9, %fd1;', 'rd'), ('@!%p1 cvt.rni.s32.f32 %r9, %f1;', 'r'), ('@!%p1 add.rz.f64 %fd9, %fd1, %fd2;', 'fd'),
    ('max.f64 %fd9, %fd1, %fd2;', 'fd'), ('min.f64 %fd9, %fd1, %fd1;', 'fd'), ('min.f64 %fd9, %fd1, 0d0000000000000000;', 'fd'),
    ('max.f64 %fd9, %fd1, 0d8000000000000000;', 'fd'), ('max.f64 %fd9, %fd2, %fd1;', 'fd'),
    ('abs.f64 %fd9, %fd1;', 'fd'), ('cvt.rzi.s32.f64 %r9, %fd1;', 'r'), ('cvt.rn.f64.s64 %fd9, %rd1;', 'fd'),
    ('setp.le.f64 %p9, %fd1, %fd2;', 'p'),
    ('testp.notanumber.f32 %p9, %f1;', 'p'), ('testp.subnormal.f32 %p9, %f1;', 'p'), ('testp.normal.f64 %p9, %fd1;', 'p'),
    # vector stores and loads of whole warps side by side (the rows of vm/exec.c), through shared
    # memory: each lane reads back what it stored, so a component or lane out of place shows
    ('st.shared.v2.u32 [%r20], {%r1, %r2};\n  ld.shared.v2.u32 {%r10, %r9}, [%r20];', 'r'),
    ('st.shared.v2.u32 [%r20], {%r3, %r1};\n  ld.shared.v2.u32 {%r9, %r10}, [%r20];', 'r'),
    ('st.shared.v4.u32 [%r21], {%r1, %r2, %r3, %r4};\n  ld.shared.v4.u32 {%r9, %r10, %r11, %r12}, [%r21];', 'r'),
    ('st.shared.v4.u32 [%r21], {%r4, %r3, %r2, %r1};\n  ld.shared.v4.u32 {%r10, %r9, %r11, %r12}, [%r21];', 'r'),
    ('st.shared.v4.u32 [%r21], {%r2, %r4, %r1, %r3};\n  ld.shared.v4.u32 {%r10, %r11, %r9, %r12}, [%r21];', 'r'),
    ('st.shared.v4.u32 [%r21], {%r3, %r1, %r4, %r2};\n  ld.shared.v4.u32 {%r10, %r11, %r12, %r9}, [%r21];', 'r'),
    # collectives with constant operands (the whole-warp shortcut) and per-lane ones
    ('shfl.sync.bfly.b32 %r9, %r1, 1, 31, -1;', 'r'), ('shfl.sync.down.b32 %r9, %r1, 5, 31, -1;', 'r'),
    ('shfl.sync.up.b32 %r9, %r1, 3, 0, -1;', 'r'), ('shfl.sync.idx.b32 %r9, %r1, 7, 0x1c1f, -1;', 'r'),
    ('shfl.sync.idx.b32 %r9, %r1, %r4, 31, -1;', 'r'), ('shfl.sync.down.b32 %r9, %r1, 2, %r4, -1;', 'r'),
    ('vote.sync.ballot.b32 %r9, %p1, -1;', 'r'), ('redux.sync.add.u32 %r9, %r1, -1;', 'r'),
]

SPECIAL32 = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001,
             0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000,
             0x80000000, 0x3effffff, 0x42fe0000, 0xc2fe0000, 0x7f7fffff,
             0x20000000, 0x1fffffff, 0xa0000001, 0x00800001, 0x80800000]   # 2^-63 and around: products at the .ftz bound
SPECIAL64 = [0, 1, 2**64 - 1, 2**63, 2**63 - 1, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
             0x7ff0000000000001, 0x0000000000000001, 0x8010000000000000, 0x3ff0000000000000, 0x43e0000000000000,
             0xc3e0000000000000, 0x41dfffffffc00000, 0xc1e0000000200000, 0x4330000000000001]
# around the bounds of the double path of div/rem .s64/.u64 ([-2^50, 2^50), unsigned below 2^50)
SMALL64 = [0, 1, -1, 2, -2, 5, -5, 2**50 - 1, 2**50, 2**50 + 1, -2**50, -2**50 - 1, -2**50 + 1, 2**51, -2**51,
           2**52 - 1, 2**53 + 1, 3**30, -(3**30), 2**49 + 12345]
THREADS = 64


def inputs(rnd):
    """Per lane: 16 words (b32 x4, b64 x3, f32 x3, f64 x3, b16 x2, pred seed)."""
    lanes = []
    for t in range(THREADS):
        def w32():
            return rnd.choice(SPECIAL32) if rnd.random() < 0.4 else rnd.getrandbits(32)
        small = rnd.random() < 0.5         # this lane's b64 words near 0 (64-bit division's double path)
        def w64():
            if small:
                v = rnd.choice(SMALL64) if rnd.random() < 0.5 else rnd.randrange(-2**51, 2**51) >> rnd.randrange(0, 50)
                return v % 2**64
            return rnd.choice(SPECIAL64) if rnd.random() < 0.4 else rnd.getrandbits(64)
        r = [w32(), w32(), rnd.randrange(0, 40) if rnd.random() < 0.8 else w32(), rnd.randrange(0, 70) if rnd.random() < 0.8 else w32()]
        if t >= 32:                    # 8-lane groups of small %r3, %r4 for div/rem's f32 path (|x| < 2^24)
            lim = 2**24
            if t < 40: a, b = (rnd.randrange(0, lim) >> rnd.randrange(0, 24) for _ in range(2))     # unsigned too
            elif t < 48: a, b = (rnd.randrange(-lim + 1, lim) >> rnd.randrange(0, 24) for _ in range(2))   # signed
            elif t < 56: a, b = rnd.choice([lim - 1, 1 - lim, lim - 2]), rnd.choice([1, -1, 3, lim - 1, 1 - lim])   # the bound, inside
            else: a, b = [(lim + 1, 1), (lim + 3, 1), (lim, 3)][t - 56] if t < 59 else (rnd.randrange(0, 99), rnd.randrange(1, 9))
            r[2], r[3] = a % 2**32, b % 2**32  # (the last group, with values at or past the bound, goes the other way)
        f = [w32(), w32(), w32()]
        sub = lambda: rnd.getrandbits(1) << 31 | rnd.getrandbits(23)              # a subnormal
        near = lambda e: rnd.getrandbits(1) << 31 | e << 23 | rnd.getrandbits(23)  # in binade 2^(e-127)
        if t % 8 == 0:                 # .ftz: subnormal operands that matter (times large ones)
            f = [sub(), near(rnd.randrange(147, 254)), near(rnd.randrange(1, 30))]
        elif t % 8 == 1:               # .ftz: products near the tininess bound 2^-126, sums across it
            f = [near(rnd.randrange(62, 65)), near(rnd.randrange(62, 66)), near(rnd.randrange(1, 3))]
        elif t % 8 == 2:               # .ftz compares and min/max: subnormals against each other and zeros
            f = [sub(), sub() if rnd.random() < 0.5 else rnd.getrandbits(1) << 31, sub()]
        lanes.append(r + [w64(), w64(), w64()] + f + [w64(), w64(), w64()] +
                     [rnd.getrandbits(16), rnd.getrandbits(16)] +
                     [rnd.getrandbits(1) if t < 32 else int(t % 4 == 1)])   # %p1: ~16 lanes (dense), then 8 (sparse)
    return lanes


def kernel():
    body = []
    for k, (text, kind) in enumerate(FORMS):
        body.append('  ' + text)
        st = {'r': 'st.global.u32 [%rd20+{o}], %r9;', 'rd': 'st.global.u64 [%rd20+{o}], %rd9;',
              'f': 'st.global.f32 [%rd20+{o}], %f9;', 'fd': 'st.global.f64 [%rd20+{o}], %fd9;',
              'rs': 'st.global.u16 [%rd20+{o}], %rs9;', 'p': 'selp.u32 %r9, 1, 0, %p9;\n  st.global.u32 [%rd20+{o}], %r9;'}[kind]
        body.append('  ' + st.format(o=k * 8))
        if kind in ('r', 'f'):
            # a 32-bit result's slot above its low word: 64-bit compares (setp.eq/ne) read the
            # whole slot, so a row that leaves bits there (a shl not masked) must show here
            x = '%r9' if kind == 'r' else '%f9'
            body.append('  mov.b32 %r8, ' + x + ';\n  and.b32 %r8, %r8, -1;\n  setp.ne.b32 %p8, ' + x + ', %r8;\n  selp.u32 %r8, 1, 0, %p8;')
            body.append('  st.global.u32 [%rd20+{o}], %r8;'.format(o=k * 8 + 4))
    loads = ['ld.global.u32 %r1, [%rd10];', 'ld.global.u32 %r2, [%rd10+8];', 'ld.global.u32 %r3, [%rd10+16];',
             'ld.global.u32 %r4, [%rd10+24];', 'ld.global.u64 %rd1, [%rd10+32];', 'ld.global.u64 %rd2, [%rd10+40];',
             'ld.global.u64 %rd3, [%rd10+48];', 'ld.global.f32 %f1, [%rd10+56];', 'ld.global.f32 %f2, [%rd10+64];',
             'ld.global.f32 %f3, [%rd10+72];', 'ld.global.f64 %fd1, [%rd10+80];', 'ld.global.f64 %fd2, [%rd10+88];',
             'ld.global.f64 %fd3, [%rd10+96];', 'ld.global.u16 %rs1, [%rd10+104];', 'ld.global.u16 %rs2, [%rd10+112];',
             'ld.global.u32 %r5, [%rd10+120];', 'setp.ne.u32 %p1, %r5, 0;']
    return f""".version 8.0
.target sm_90
.address_size 64
.visible .entry rowdiff(.param .u64 in, .param .u64 out)
{{
  .reg .pred %p<10>;
  .reg .b16 %rs<10>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<24>;
  .shared .align 16 .b8 scr[1024];
  .reg .f32 %f<10>;
  .reg .f64 %fd<10>;
  mov.u32 %r6, %tid.x;
  ld.param.u64 %rd11, [in];
  ld.param.u64 %rd12, [out];
  cvta.to.global.u64 %rd11, %rd11;
  cvta.to.global.u64 %rd12, %rd12;
  mul.wide.u32 %rd13, %r6, 128;
  add.s64 %rd10, %rd11, %rd13;
  mov.u32 %r20, scr;
  mad.lo.u32 %r21, %r6, 16, %r20;   // scr + 16 tid: .v4 of 32-bit values side by side
  mad.lo.u32 %r20, %r6, 8, %r20;    // scr + 8 tid: .v2
  mul.wide.u32 %rd14, %r6, {len(FORMS) * 8};
  add.s64 %rd20, %rd12, %rd14;
""" + '\n'.join('  ' + l for l in loads) + '\n' + '\n'.join(body) + '\n  ret;\n}\n'


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1]); return 2
    ptxemu = os.path.abspath(sys.argv[1])
    try:
        flags = open('/proc/cpuinfo').read()
    except OSError:
        flags = ''
    if ' avx2 ' not in flags:
        print('SKIP rowdiff: this CPU has no AVX2, so both copies are the base one')
        print('0 passed, 0 failed'); return 0
    rnd = random.Random(20261125)
    tmp = tempfile.mkdtemp(prefix='rowdiff')
    with open(os.path.join(tmp, 'k.ptx'), 'w') as f:
        f.write(kernel())
    lanes = inputs(rnd)
    # 16 eight-byte fields per lane, as the loads read them
    with open(os.path.join(tmp, 'in.bin'), 'wb') as f:
        for v in lanes:
            f.write(b''.join(struct.pack('<Q', x & (2**64 - 1)) for x in v))
    size = THREADS * len(FORMS) * 8
    with open(os.path.join(tmp, 'case.txt'), 'w') as f:
        f.write(f"ptx k.ptx\nkernel rowdiff\ngrid 1\nblock {THREADS}\nbuffer in file in.bin\nbuffer out zero {size}\n"
                "param ptr in\nparam ptr out\n")
    outs = {}
    for name, env in (('avx2', {}), ('base', {'PTXEMU_NO_AVX2': '1'})):
        path = os.path.join(tmp, name + '.bin')
        r = subprocess.run([ptxemu, 'run', os.path.join(tmp, 'case.txt'), '--jobs', '1', '--dump', 'out=' + path],
                           env=dict(os.environ, **env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print(f'FAIL rowdiff: the {name} copy did not run: {r.stderr.strip()[:300]}')
            print('0 passed, 1 failed'); return 1
        outs[name] = open(path, 'rb').read()
    passed = failed = 0
    n = len(FORMS)
    for k, (text, kind) in enumerate(FORMS):
        text = text.replace('\n  ', ' ')   # a form of two instructions on one line
        bad = [t for t in range(THREADS) if outs['avx2'][(t * n + k) * 8:(t * n + k + 1) * 8] != outs['base'][(t * n + k) * 8:(t * n + k + 1) * 8]]
        # narrow values are stored zero-extended (vm/exec.c's rows rely on it): the base copy too
        high = [t for t in range(THREADS) if kind in ('r', 'f') and outs['base'][(t * n + k) * 8 + 4:(t * n + k + 1) * 8] != bytes(4)]
        if high and not bad:
            t = high[0]
            print(f'FAIL {text} lane {t} of {len(high)}: both copies leave bits above the 32-bit result\'s low word, '
                  f'inputs {[hex(x) for x in lanes[t]]}')
            failed += 1
        elif bad:
            t = bad[0]
            a = outs['avx2'][(t * n + k) * 8:(t * n + k + 1) * 8].hex()
            b = outs['base'][(t * n + k) * 8:(t * n + k + 1) * 8].hex()
            print(f'FAIL {text} lane {t} of {len(bad)}: AVX2 copy {a}, base copy {b}, inputs {[hex(x) for x in lanes[t]]}')
            failed += 1
        else:
            print(f'PASS {text}')
            passed += 1
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
