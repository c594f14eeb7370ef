#!/usr/bin/env python3
# gen.py -- writes bfi_imm.ptx, in.bin and case.txt: bfi.b32 with every immediate position 0..40
# and length 0..70, on four (a, b) pairs.  ptxas builds the mask of an immediate bfi.b32 itself:
# for a position that is not a multiple of 8 and a length of 32 or more it inserts (length mod
# 32) bits (vm/compile_insn.c folds the same).  Expected output recorded on an H100 (twice,
# identical).
import struct
body, k = [], 0
for p in range(0, 41):
    for l in range(0, 71):
        body.append(f"  bfi.b32 %r2, %r1, %r3, {p}, {l};\n  st.global.u32 [%rd9+{k * 4}], %r2;")
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
  mul.wide.u32 %rd6, %r4, 8;
  add.s64 %rd6, %rd4, %rd6;
  ld.global.v2.u32 {{%r1, %r3}}, [%rd6];
  mul.wide.u32 %rd7, %r4, {k * 4};
  add.s64 %rd9, %rd5, %rd7;
""" + "\n".join(body) + "\n  ret;\n}\n"
open('bfi_imm.ptx', 'w').write(ptx)
vals = [(0, 0xffffffff), (0xffffffff, 0), (0x12345678, 0x9abcdef0), (0xdeadbeef, 0x0f0f0f0f)]
open('in.bin', 'wb').write(b''.join(struct.pack('<II', a, b) for a, b in vals))
open('case.txt', 'w').write(f"""# bfi.b32 with every immediate position 0..40 and length 0..70 (gen.py): ptxas's own mask for
# lengths of 32 or more at positions that are not whole bytes
ptx bfi_imm.ptx
kernel probe
grid 1
block 4
buffer in file in.bin
buffer out zero {4 * k * 4}
param ptr in
param ptr out
expect out expect/out.bin
""")
