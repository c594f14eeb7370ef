#!/usr/bin/env bash
# tests/memory/run.sh — guest memory stays the guest's: every access outside
# what the kernel may reach ends the launch with a fault (exit 4) and a
# message naming the space, the offset and the bound, never a host crash.
#   shared bounds  smem_dyn.ptx, smem_static.ptx: the block's shared window is
#                  its static bytes (16-aligned) plus the dynamic ones, rounded
#                  up to 128 (conformance README "hardware facts"; static +
#                  dynamic edges recorded on an H100: gpu/smem_both.*), at the
#                  exact edges, for every width, atomics, generic addresses,
#                  under run, check (a memory finding) and debug (stops at it)
#   guest.ptx      global accesses running past an allocation's end, generic
#                  addresses in and around every window, bogus indirect calls
#   extern*.ptx    .extern calls not matching their declaration, under --load
# Runs with build/ptxemu, then the same faults under build/asan/ptxemu when
# MEMTEST_ASAN=1.  Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
P=${PTXEMU:-build/ptxemu}
D=tests/memory
pass=0 fail=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# expect NAME STATUS PATTERN -- COMMAND...: exit STATUS and output matching PATTERN, within 20 s
expect() {
    local name=$1 want=$2 pat=$3; shift 4
    timeout 20 "$@" >"$TMP/out" 2>&1; local rc=$?
    if [ $rc != "$want" ]; then echo "FAIL $name: exit $rc, want $want: $(head -c 400 "$TMP/out")"; fail=$((fail + 1))
    elif [ -n "$pat" ] && ! grep -qE -- "$pat" "$TMP/out"; then echo "FAIL $name: output lacks /$pat/: $(head -c 400 "$TMP/out")"; fail=$((fail + 1))
    else echo "PASS $name"; pass=$((pass + 1)); fi
}
ok() { expect "$1" 0 '' -- "${@:3}"; }   # ok NAME -- COMMAND...
win() { echo "beyond the block's $1-byte shared window"; }

# ---- shared memory: exact edges --------------------------------------------------------
S="$P run $D/smem_dyn.ptx"
# dynamic only (README facts: 256 -> 252 ok, 256 faults; 1000 -> 1020 ok, 1024 faults)
ok   "dyn 256: last 4 bytes (252)" -- $S --kernel st_u32 --shared 256 u32:252
expect "dyn 256: first byte past (256)" 4 "write of 4 bytes in shared space at offset 0x100 \($(win 256): 0 static \+ 256 dynamic" -- $S --kernel st_u32 --shared 256 u32:256
expect "dyn 256: far past (4096)" 4 "offset 0x1000 \($(win 256)" -- $S --kernel st_u32 --shared 256 u32:4096
ok   "dyn 1000: rounded up, 1020 ok" -- $S --kernel st_u32 --shared 1000 u32:1020
expect "dyn 1000: 1024 faults" 4 "offset 0x400 \($(win 1024): 0 static \+ 1000 dynamic" -- $S --kernel st_u32 --shared 1000 u32:1024
ok   "dyn 100 (not a multiple of 128): 124 ok" -- $S --kernel st_u32 --shared 100 u32:124
expect "dyn 100: 128 faults" 4 "$(win 128)" -- $S --kernel st_u32 --shared 100 u32:128
ok   "dyn 128: 127 (1 byte) ok" -- $S --kernel st_u8 --shared 128 u32:127
expect "dyn 128: 128 (1 byte) faults" 4 "write of 1 bytes in shared space at offset 0x80" -- $S --kernel st_u8 --shared 128 u32:128
expect "no shared memory: offset 0 faults" 4 "offset 0x0 \($(win 0)" -- $S --kernel st_u32 u32:0
expect "negative offset (-4) faults" 4 "write of 4 bytes in shared space at offset 0xfffffffc" -- $S --kernel st_u32 --shared 256 s32:-4
ok   ".shared addresses wrap at 32 bits: [reg + imm] with reg = -4, imm 8" -- $S --kernel wrap32 --shared 256 s32:-4
ok   "reads: 252 ok" -- $S --kernel ld_u32 --shared 256 u32:252 o=zero:4
expect "reads: 256 faults" 4 "read of 4 bytes in shared space at offset 0x100 \($(win 256)" -- $S --kernel ld_u32 --shared 256 u32:256 o=zero:4
# widths: aligned accesses end exactly at the window's end; one past faults; a straddle is misaligned
ok   "u64: 248 ok" -- $S --kernel st_u64 --shared 256 u32:248
expect "u64: 256 faults" 4 "write of 8 bytes in shared space at offset 0x100" -- $S --kernel st_u64 --shared 256 u32:256
expect "u64 straddling the end (252) faults" 4 "write of 8 bytes in shared space at offset 0xfc" -- $S --kernel st_u64 --shared 256 u32:252
ok   "v4.u32: 240 ok" -- $S --kernel st_v4 --shared 256 u32:240
expect "v4.u32: 256 faults" 4 "write of 16 bytes in shared space at offset 0x100" -- $S --kernel st_v4 --shared 256 u32:256
expect "v4.u32 straddling the end (248) faults" 4 "write of 16 bytes in shared space at offset 0xf8" -- $S --kernel st_v4 --shared 256 u32:248
ok   "ld.v2.u64: 240 ok" -- $S --kernel ld_v2_u64 --shared 256 u32:240 o=zero:8
expect "ld.v2.u64: 256 faults" 4 "read of 16 bytes in shared space at offset 0x100" -- $S --kernel ld_v2_u64 --shared 256 u32:256 o=zero:8
ok   "atom.add: 252 ok" -- $S --kernel atom_add --shared 256 u32:252
expect "atom.add: 256 faults" 4 "write of 4 bytes in shared space at offset 0x100 \($(win 256)" -- $S --kernel atom_add --shared 256 u32:256
ok   "atom.cas.b64: 248 ok" -- $S --kernel atom_cas_b64 --shared 256 u32:248
expect "atom.cas.b64: 256 faults" 4 "write of 8 bytes in shared space at offset 0x100" -- $S --kernel atom_cas_b64 --shared 256 u32:256
expect "red.add: 256 faults" 4 "write of 4 bytes in shared space at offset 0x100" -- $S --kernel red_add --shared 256 u32:256
ok   "generic st: 252 ok" -- $S --kernel gen_st_u32 --shared 256 u32:252
expect "generic st: 256 faults" 4 "shared space at offset 0x100 \(generic address 0x7e0000000100, beyond" -- $S --kernel gen_st_u32 --shared 256 u32:256
ok   "generic atom: 252 ok" -- $S --kernel gen_atom_add --shared 256 u32:252
expect "generic atom: 256 faults" 4 "shared space at offset 0x100 \(generic address" -- $S --kernel gen_atom_add --shared 256 u32:256
ok   "full warp inside the window" -- $S --kernel warp_st_u32 --block 32 --shared 256 u32:124
expect "one lane of a full warp past the end" 4 "in warp_st_u32, block \(0,0,0\) thread \(31,0,0\)" -- $S --kernel warp_st_u32 --block 32 --shared 256 u32:256
expect "two blocks in flight (--resident 2)" 4 "in warp_st_u32, block \(0,0,0\) thread \(31,0,0\)" -- $S --kernel warp_st_u32 --grid 2 --block 32 --shared 256 u32:256 --resident 2
# the system's reserved 1 KB is not reachable past the user's window ...
for off in 256 512 1024 1276; do
    expect "reserved area not reachable at user offset $off" 4 "$(win 256)" -- $S --kernel st_u32 --shared 256 u32:$off
done
# ... but through %reserved_smem_offset_*: 77 + 88 and its size
expect "reserved area through its own offsets" 0 '' -- $S --kernel reserved o=zero:8 --dump o=$TMP/res.bin
[ "$(od -An -tu4 "$TMP/res.bin" 2>/dev/null | tr -s ' ')" = " 165 1024" ] && { echo "PASS reserved area values"; pass=$((pass + 1)); } ||
    { echo "FAIL reserved area values: $(od -An -tu4 "$TMP/res.bin" 2>&1)"; fail=$((fail + 1)); }
# static only: a 100-byte array gives a 128-byte window (README facts: 104 ok, 128 faults)
T="$P run $D/smem_static.ptx"
ok   "static 100: 104 ok" -- $T --kernel st_static u32:104
ok   "static 100: 124 ok" -- $T --kernel st_static u32:124
expect "static 100: 128 faults" 4 "offset 0x80 \($(win 128): 100 static \+ 0 dynamic" -- $T --kernel st_static u32:128
expect "static 100: read at 128 faults" 4 "read of 4 bytes in shared space at offset 0x80" -- $T --kernel ld_static u32:128 o=zero:4
# static and dynamic (H100: the dynamic array starts at 112; window = 112 + dynamic, rounded up)
ok   "static 100 + dyn 20: dyn+20 (132) ok" -- $T --kernel st_both_dyn --shared 20 u32:20
expect "static 100 + dyn 16: dyn+16 (128) faults" 4 "offset 0x80 \($(win 128): 100 static \+ 16 dynamic bytes from offset 112" -- $T --kernel st_both_dyn --shared 16 u32:16
ok   "static 100 + dyn 100: dyn+140 (252) ok" -- $T --kernel st_both_dyn --shared 100 u32:140
expect "static 100 + dyn 100: dyn+144 (256) faults" 4 "$(win 256)" -- $T --kernel st_both_dyn --shared 100 u32:144
expect "a kernel's window holds only the static variables it uses" 4 "$(win 128): 0 static \+ 100 dynamic bytes from offset 0" -- $T --kernel dyn_only --shared 100 u32:128
ok   "... so its dynamic array starts at 0" -- $T --kernel dyn_only --shared 100 u32:124
expect "more shared memory than a block may have" 2 "at most 232448" -- $T --kernel st_both_dyn --shared 232337 u32:0
ok   "the most shared memory a block may have" -- $T --kernel st_both_dyn --shared 232336 u32:232332
# check reports it as a memory finding; debug stops at it
C="$P check $D/smem_dyn.ptx"
expect "check: memory finding past the window" 1 "^memory: illegal address: write of 4 bytes in shared space at offset 0x100 \($(win 256)" -- $C --kernel st_u32 --shared 256 u32:256
expect "check: generic address past the window" 1 "^memory: .*generic address 0x7e0000000100" -- $C --kernel gen_st_u32 --shared 256 u32:256
expect "check: atomic past the window" 1 "^memory: .*offset 0x100" -- $C --kernel atom_add --shared 256 u32:256
expect "check: last valid byte is clean" 0 "no findings" -- $C --kernel st_u32 --shared 256 u32:252
printf 'run\nquit\n' > "$TMP/run.dbg"
expect "debug: stops at the fault" 0 "Program stopped \(fault\): illegal address: write of 4 bytes in shared space at offset 0x100 \($(win 256)" -- \
    $P debug $D/smem_dyn.ptx --kernel st_u32 --shared 256 u32:256 -x "$TMP/run.dbg"

# ---- global memory: accesses running past an allocation's end ----------------------------
G="$P run $D/guest.ptx"
ok   "ld.u32 at the last 4 bytes" -- $G --kernel g_ld_u32 b=zero:68 u64:64
expect "ld.u32 straddling the end" 4 "read of 4 bytes in global space at 0x[0-9a-f]+ \(offset 64 of 'b', 66 bytes" -- $G --kernel g_ld_u32 b=zero:66 u64:64
expect "st.v4.u32 straddling the end" 4 "write of 16 bytes in global space .*offset 64 of 'b', 72 bytes" -- $G --kernel g_st_v4 b=zero:72 u64:64
expect "ld.v2.u64 straddling the end" 4 "read of 16 bytes in global space .*offset 64 of 'b', 72 bytes" -- $G --kernel g_ld_v2_u64 b=zero:72 u64:64
expect "atom.add.u64 straddling the end" 4 "write of 8 bytes in global space .*offset 64 of 'b', 68 bytes" -- $G --kernel g_atom_u64 b=zero:68 u64:64
expect "red.add.u32 straddling the end" 4 "write of 4 bytes in global space .*offset 64 of 'b', 66 bytes" -- $G --kernel g_red_u32 b=zero:66 u64:64
expect "ld.u32 one allocation-guard past the end" 4 "read of 4 bytes in global space" -- $G --kernel g_ld_u32 b=zero:64 u64:1024
# ---- generic addresses in and around every window ---------------------------------------
for a in 0 0x1000 0x7a0000000000 0x7effffffffff0 0x7f0000000000 0xffffffffffffff00 0xfffffffffffffffc; do
    expect "generic read at $a (unmapped)" 4 "read of 4 bytes in generic space at $a" -- $G --kernel gen_ld u64:$a
done
ok   "generic read of the parameters" -- $G --kernel gen_ld u64:0x7b0000000000
expect "generic read past the parameters" 4 "param space at offset 0x1000 \(generic address 0x7b0000001000, the kernel's parameters are 8 bytes" -- $G --kernel gen_ld u64:0x7b0000001000
expect "generic write to the parameters" 4 "write of 4 bytes in param space .*read-only" -- $G --kernel gen_st u64:0x7b0000000000
expect "generic atom on the parameters" 4 "write of 4 bytes in param space .*read-only" -- $G --kernel gen_atom u64:0x7b0000000000
expect "generic read past the const bank" 4 "const space at offset 0x100000 \(generic address 0x7c0000100000" -- $G --kernel gen_ld u64:0x7c0000100000
expect "generic write to the const bank" 4 "write of 4 bytes in const space .*read-only" -- $G --kernel gen_st u64:0x7c0000000000
ok   "generic read of local memory" -- $G --kernel gen_ld u64:0x7d0000000000
expect "generic read past local memory" 4 "local space at offset 0x40000000 \(generic address 0x7d0040000000, the thread's local memory is" -- $G --kernel gen_ld u64:0x7d0040000000
ok   "generic st.v2.u64 at local memory's end" -- $G --kernel gen_st_v2_u64 u64:0x7d0000003ff0
expect "generic st.v2.u64 straddling local memory's end" 4 "write of 16 bytes in local space at offset 0x3ff8" -- $G --kernel gen_st_v2_u64 u64:0x7d0000003ff8
expect "local array + far offset" 4 "write of 4 bytes in local space" -- $G --kernel gen_local u64:100000
expect "generic read in the shared window without shared memory" 4 "shared space at offset 0x0 \(generic address 0x7e0000000000, $(win 0)" -- $G --kernel gen_ld u64:0x7e0000000000
expect "generic read at the shared window's top" 4 "shared space at offset 0xfffffffffc" -- $G --kernel gen_ld u64:0x7efffffffffc
expect "generic atom in the shared window" 4 "write of 4 bytes in shared space at offset 0x0" -- $G --kernel gen_atom u64:0x7e0000000000
# ---- indirect calls through bogus function pointers ---------------------------------------
expect "indirect call through a valid pointer" 0 '' -- $G --kernel icall_ok o=zero:4 --dump o=$TMP/icall.bin
[ "$(od -An -tu4 "$TMP/icall.bin" 2>/dev/null | tr -d ' ')" = 42 ] && { echo "PASS indirect call result"; pass=$((pass + 1)); } ||
    { echo "FAIL indirect call result: $(od -An -tu4 "$TMP/icall.bin" 2>&1)"; fail=$((fail + 1)); }
for fp in 0x0 0x1 0x3039 0x7f0000000000 0x100000000 0xffffffffffffffff; do
    expect "indirect call through $fp" 4 "indirect call through $fp, which is not a defined function" -- $G --kernel icall u64:$fp o=zero:4
done
expect "indirect call with a prototype the function does not have" 4 "indirect call to 'wide' with 1 arguments and 1 results; it takes 2 and 1" -- $G --kernel icall_mismatch o=zero:4
# ---- .extern calls that do not match their declaration, under --load ---------------------
L=$TMP/libffitest.so
if cc -shared -fPIC tests/vm/ffi/ffilib.c -o "$L" 2>"$TMP/cc.log"; then
    expect ".extern call with too few arguments (a PTX error)" 3 "call to 'add_ints' passes 1 arguments and 1 results; it takes 2 and 1" -- $P run $D/extern.ptx --kernel too_few o=zero:4 --load "$L"
    expect ".extern called through a function pointer" 4 "indirect call through 0x[0-9a-f]+, which is not a defined function" -- $P run $D/extern3.ptx --kernel icall_extern o=zero:4 --load "$L"
    expect ".extern argument wider than declared: passed as declared (b32)" 0 '' -- $P run $D/extern2.ptx --kernel wrong_size o=zero:4 --load "$L" --dump o=$TMP/ext.bin
    [ "$(od -An -tu4 "$TMP/ext.bin" 2>/dev/null | tr -d ' ')" = 11 ] && { echo "PASS .extern argument truncated to its declared size"; pass=$((pass + 1)); } ||
        { echo "FAIL .extern argument truncated to its declared size: $(od -An -tu4 "$TMP/ext.bin" 2>&1)"; fail=$((fail + 1)); }
else
    echo "FAIL build the ffi test library: $(head -c 300 "$TMP/cc.log")"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
