#!/usr/bin/env python3
# gen.py -- writes div_imm.ptx and in.bin: div/rem of 32 and 64 bits by immediate divisors, each
# next to the same divisor from a register that ptxas cannot fold (the immediate xor'ed with a 0
# loaded from memory).  ptxas lowers division by an immediate itself (multiply and shift, or a
# fold for 0); the expected output, recorded on an H100, shows it agrees with the register form.
import struct
body = []; k = 0
D32 = (0, 1, 2, 3, 7, 16, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 12345)
D64 = (0, 1, 2, 3, 7, 16, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0xfffffffffffffffe, 0x100000000, 12345)
for op in ('div.u32', 'div.s32', 'rem.u32', 'rem.s32'):
    for d in D32:
        imm = d if op.endswith('u32') else (d - (1 << 32) if d & 0x80000000 else d)
        for reg in (0, 1):
            if reg:
                body.append(f"  mov.b32 %r5, {imm};\n  xor.b32 %r5, %r5, %r6;")   # %r6 = 0 from memory: not foldable
                body.append(f"  {op} %r2, %r1, %r5;")
            else:
                body.append(f"  {op} %r2, %r1, {imm};")
            body.append(f"  st.global.u32 [%rd9+{k*8}], %r2;"); k += 1
for op in ('div.u64', 'div.s64', 'rem.u64', 'rem.s64'):
    for d in D64:
        imm = d if op.endswith('u64') else (d - (1 << 64) if d >> 63 else d)
        for reg in (0, 1):
            if reg:
                body.append(f"  mov.b64 %rd5, {imm};\n  xor.b64 %rd5, %rd5, %rd6;")
                body.append(f"  {op} %rd2, %rd1, %rd5;")
            else:
                body.append(f"  {op} %rd2, %rd1, {imm};")
            body.append(f"  st.global.u64 [%rd9+{k*8}], %rd2;"); k += 1
ptx = f""".version 8.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 in, .param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  mov.u32 %r4, %tid.x;
  ld.param.u64 %rd4, [in];
  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd4, %rd4;
  cvta.to.global.u64 %rd3, %rd5;
  mul.wide.u32 %rd7, %r4, 16;
  add.s64 %rd7, %rd4, %rd7;
  ld.global.v2.u64 {{%rd1, %rd6}}, [%rd7];
  cvt.u32.u64 %r1, %rd1;
  cvt.u32.u64 %r6, %rd6;
  mul.wide.u32 %rd7, %r4, {k*8};
  add.s64 %rd9, %rd3, %rd7;
""" + "\n".join(body) + "\n  ret;\n}\n"
open('div_imm.ptx', 'w').write(ptx)
vals = [0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0x8000000000000000, 0xffffffffffffffff, 0x7fffffffffffffff,
        123456789, 0xfffffffffffffff9, 0x123456789abcdef]
open('in.bin', 'wb').write(b''.join(struct.pack('<QQ', v, 0) for v in vals))
