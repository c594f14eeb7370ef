#!/usr/bin/env bash
# tests/vm/ffi.sh — .extern .func calls to host functions through libffi.
# Builds tests/vm/ffi/ffilib.c as a shared library, runs tests/vm/ffi/case.txt with
# --load (results checked against expect/out.bin, which follows from the C definitions:
# per thread t of 64, four 64-bit slots: add_ints(t, 1000t-7) sign-extended,
# mix(t*0.5, t+0.25f) = t + 3(t+0.25), hash64(x = t*0x9E3779B97F4A7C15) =
# x*0xff51afd7ed558ccd ^ x>>33, recorded() = 1000*sum(1..64) + 64 calls), then checks
# that a run without --load, or with a library lacking a function, fails cleanly (exit 4)
# naming the function.  Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
EMU=${PTXEMU:-build/ptxemu}
[ -x "$EMU" ] || make -s >/dev/null 2>&1
D=tests/vm/ffi
W=build/vmtest/ffi
mkdir -p "$W"
pass=0 fail=0
ok()  { echo "PASS ffi $1"; pass=$((pass + 1)); }
bad() { echo "FAIL ffi $1"; fail=$((fail + 1)); }

if cc -shared -fPIC -O2 "$D/ffilib.c" -o "$W/libffitest.so" 2>"$W/cc.log"; then
    ok "build shared library"
else
    bad "build shared library: $(head -c 300 "$W/cc.log")"
fi
# a library that defines only add_ints (mix, hash64, ... missing)
printf 'int add_ints(int a, int b) { return a + b; }\n' >"$W/partial.c"
cc -shared -fPIC "$W/partial.c" -o "$W/libpartial.so" 2>/dev/null

out=$("$EMU" run "$D/case.txt" --load "./$W/libffitest.so" 2>&1); rc=$?
if [ $rc = 0 ]; then ok "calls with --load: results match expect/out.bin"
else bad "calls with --load: exit $rc: $(echo "$out" | head -3)"; fi

out=$("$EMU" run "$D/case.txt" 2>&1); rc=$?
if [ $rc = 4 ] && echo "$out" | grep -q "'add_ints'"; then ok "without --load: exit 4 naming add_ints"
else bad "without --load: want exit 4 and a message naming 'add_ints', got exit $rc: $(echo "$out" | head -3)"; fi

out=$("$EMU" run "$D/case.txt" --load "./$W/libpartial.so" 2>&1); rc=$?
if [ $rc = 4 ] && echo "$out" | grep -q "'mix'"; then ok "library without mix: exit 4 naming mix"
else bad "library without mix: want exit 4 and a message naming 'mix', got exit $rc: $(echo "$out" | head -3)"; fi

out=$("$EMU" run "$D/case.txt" --load "./$W/no-such-lib.so" 2>&1); rc=$?
if [ $rc != 0 ] && [ $rc -lt 128 ] && echo "$out" | grep -q "no-such-lib"; then ok "missing library: exit $rc naming it"
else bad "missing library: want a clean failure naming it, got exit $rc: $(echo "$out" | head -3)"; fi

out=$("$EMU" dis "$D/ffi.ptx" 2>&1)
if echo "$out" | grep -q 'call\.ffi'; then ok "dis shows call.ffi"
else bad "dis shows no call.ffi"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
