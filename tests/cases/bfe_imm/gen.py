#!/usr/bin/env python3
# gen.py -- writes bfe_imm.ptx, in.bin and case.txt: bfe.u32 and bfe.s32 with every immediate
# position 0..40 and length 0..70, on four inputs (ptxas lowers immediate forms itself:
# tests/cases/bfe_edge, bfi_imm).  Expected output recorded on an H100 (twice, identical).
import struct
body, k = [], 0
for t in ('u32', 's32'):
    for p in range(0, 41):
        for l in range(0, 71):
            body.append(f"  bfe.{t} %r2, %r1, {p}, {l};\n  st.global.u32 [%rd9+{k * 4}], %r2;")
            k += 1
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
  cvta.to.global.u64 %rd5, %rd5;
  mul.wide.u32 %rd6, %r4, 4;
  add.s64 %rd6, %rd4, %rd6;
  ld.global.u32 %r1, [%rd6];
  mul.wide.u32 %rd7, %r4, {k * 4};
  add.s64 %rd9, %rd5, %rd7;
""" + "\n".join(body) + "\n  ret;\n}\n"
open('bfe_imm.ptx', 'w').write(ptx)
vals = [0, 0xffffffff, 0x80000000, 0x7fffffff, 0x12345678, 0x9abcdef0]
open('in.bin', 'wb').write(struct.pack('<%dI' % len(vals), *vals))
open('case.txt', 'w').write(f"""# bfe.u32/s32 with every immediate position 0..40 and length 0..70 on six inputs (gen.py)
ptx bfe_imm.ptx
kernel probe
grid 1
block {len(vals)}
buffer in file in.bin
buffer out zero {len(vals) * k * 4}
param ptr in
param ptr out
expect out expect/out.bin
""")
