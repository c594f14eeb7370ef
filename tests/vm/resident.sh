#!/usr/bin/env bash
# tests/vm/resident.sh — concurrently resident CTAs (--resident N) and cooperative launches.
# Cases in tests/vm/cases/grid_sync (expected values derived by hand in grid_sync.cu):
#   case.txt       this_grid().sync() twice over 8 blocks: a cooperative launch, the whole
#                  grid resident without a flag; --resident 1 is refused (exit 2), as is a grid of
#                  100 blocks without --resident 100 (and with it every block sums 1..100 = 5050)
#   flag_wait.txt  block 2k spins on a flag block 2k+1 sets: passes with --resident 2, 3, 8;
#                  with the default (one block at a time) it spins until --timeout (exit 6)
#   stuck          even blocks deadlock at barriers: with --resident 2 the deadlock (exit 5)
#                  names each blocked block in flight
# plus `check` (no findings) and `debug` (info warps lists the CTAs in flight, focus cta switches).
# Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
EMU=${PTXEMU:-build/ptxemu}
[ -x "$EMU" ] || make -s >/dev/null 2>&1
D=tests/vm/cases/grid_sync
W=build/vmtest/resident
mkdir -p "$W"
pass=0 fail=0
ok()  { echo "PASS resident $1"; pass=$((pass + 1)); }
bad() { echo "FAIL resident $1"; fail=$((fail + 1)); }
# expect NAME RC GREP-PATTERN COMMAND...: exit status RC and (if the pattern is not empty) output matching it
expect() {
    local name=$1 want=$2 pat=$3; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" = "$want" ] && { [ -z "$pat" ] || echo "$out" | grep -Eq -- "$pat"; }; then ok "$name"
    else bad "$name: want exit $want${pat:+ and /$pat/}, got exit $rc: $(echo "$out" | head -4)"; fi
}

expect "grid sync: cooperative launch, whole grid resident by default" 0 "" "$EMU" run "$D/case.txt"
expect "grid sync: --resident 8" 0 "" "$EMU" run "$D/case.txt" --resident 8
expect "grid sync: --resident 1 refused" 2 "grid-wide sync.*--resident 1 is too few" "$EMU" run "$D/case.txt" --resident 1
big=(--kernel grid_sync --grid 100 --block 64 a=zero:25600 col=zero:25600 nb=zero:25600 ids=zero:400 sums=zero:400)
expect "grid sync: 100 blocks ask for --resident" 2 "pass --resident 100" "$EMU" run "$D/grid_sync.ptx" "${big[@]}"
rm -f "$W/sums.bin"
"$EMU" run "$D/grid_sync.ptx" "${big[@]}" --resident 100 --dump "sums=$W/sums.bin" >"$W/big.log" 2>&1; rc=$?
sums=$(od -An -v -tu4 "$W/sums.bin" 2>/dev/null | tr -s ' \n' '\n' | grep -v '^$' | sort -u | tr '\n' ' ')
if [ $rc = 0 ] && [ "$sums" = "5050 " ]; then ok "grid sync: 100 blocks with --resident 100 (sums 5050)"
else bad "grid sync: 100 blocks with --resident 100: exit $rc, sums '$sums'"; fi

for r in 2 3 8; do
    expect "flag wait: --resident $r" 0 "" "$EMU" run "$D/flag_wait.txt" --resident $r
done
expect "flag wait: one block at a time spins until --timeout" 6 "time limit" "$EMU" run "$D/flag_wait.txt" --timeout 1
expect "flag wait: test --resident 2" 0 "^1 passed, 0 failed" "$EMU" test "$D/flag_wait.txt" --resident 2

expect "deadlock names every blocked block in flight" 5 "no thread of blocks \(0,0,0\), \(2,0,0\) can proceed \(2 resident\)" \
    "$EMU" run "$D/grid_sync.ptx" --kernel stuck --grid 6 --block 64 out=zero:1536 --resident 2

expect "check: grid sync, no findings" 0 "no findings" "$EMU" check "$D/case.txt"
expect "check: flag wait --resident 8, no findings" 0 "no findings" "$EMU" check "$D/flag_wait.txt" --resident 8

printf 'break grid_sync.cu:46\nrun\ninfo warps\nfocus cta 1\ninfo warps\ndelete\ncontinue\n' >"$W/dbg.txt"
out=$("$EMU" debug "$D/flag_wait.txt" --resident 2 -x "$W/dbg.txt" 2>&1); rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q 'CTAs in flight (2 resident): \*(0,0,0) (1,0,0)' &&
   echo "$out" | grep -q 'CTAs in flight (2 resident): (0,0,0) \*(1,0,0)' && echo "$out" | grep -q 'Kernel flag_wait finished'; then
    ok "debug: info warps per CTA in flight, focus cta switches"
else bad "debug: exit $rc: $(echo "$out" | head -12)"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
