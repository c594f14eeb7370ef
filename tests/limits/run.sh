#!/usr/bin/env bash
# tests/limits/run.sh — launches and inputs that must end cleanly with the
# documented exit status (never a crash or a hang), and usage errors.
set -u
cd "$(dirname "$0")/../.." || exit 2
P=build/ptxemu; K=tests/limits/limits.ptx
pass=0 fail=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# expect NAME STATUS PATTERN -- COMMAND...: exit STATUS and stderr matching PATTERN, within 20 s
expect() {
    local name=$1 want=$2 pat=$3; shift 4
    timeout 20 "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
    if [ $rc != "$want" ]; then echo "FAIL $name: exit $rc, want $want: $(head -c 300 "$TMP/err")"; fail=$((fail + 1))
    elif ! grep -qE -- "$pat" "$TMP/err"; then echo "FAIL $name: stderr lacks /$pat/: $(head -c 300 "$TMP/err")"; fail=$((fail + 1))
    else echo "PASS $name"; pass=$((pass + 1)); fi
}
expect "huge grid stops at --timeout" 6 "time limit" -- $P run $K --kernel noop --grid 2147483647,65535 --block 1024 --timeout 2
expect "2^31 blocks on every thread stop at --timeout, in little memory" 6 "peak RSS [0-9]{1,2}\.[0-9] MB" -- $P run $K --kernel noop --grid 65536,32768 --block 64 --timeout 1 --jobs 4 --time
expect "endless loop stops at --limit" 6 "instruction limit" -- $P run $K --kernel spin --grid 1 --block 32 --limit 100000
expect "endless loop stops at --timeout" 6 "time limit" -- $P run $K --kernel spin --grid 1 --block 32 --timeout 1
expect "runaway recursion is a fault" 4 "stack overflow" -- $P run $K --kernel recurse --grid 1 --block 32
expect "deadlock is reported per warp" 5 "waiting at barrier 0" -- $P run $K --kernel split_barrier --grid 1 --block 32
expect "unknown kernel" 2 "no kernel named 'nope'" -- $P run $K --kernel nope --grid 1 --block 1
expect "block too large" 2 "at most 1024" -- $P run $K --kernel noop --grid 1 --block 2048
expect ".maxntid is enforced" 2 "at most 64 threads" -- $P run $K --kernel small --grid 1 --block 128
expect "missing ptx file" 2 "No such file" -- $P run /nonexistent.ptx --kernel k
expect "unknown command" 2 "unknown command" -- $P frobnicate
expect "bad parameter syntax" 2 "expected TYPE:VALUE" -- $P run $K --kernel noop --grid 1 --block 1 oops
printf 'ptx %s\nkernel noop\ngrid 1\nblock 1\nbogus 3\nparam u32 x\n' "$PWD/$K" >"$TMP/bad.txt"
expect "malformed case file" 2 "bad.txt:5" -- $P run "$TMP/bad.txt"
printf '\x00\x01garbage\xff' >"$TMP/bin.txt"
expect "binary case file" 2 "error" -- $P run "$TMP/bin.txt"
printf '.version 9.0\n.target sm_90\n.entry k(\n' >"$TMP/trunc.ptx"
expect "truncated ptx" 3 "trunc.ptx:[0-9]+:[0-9]+: error" -- $P dis "$TMP/trunc.ptx"
head -c 100000 /dev/urandom >"$TMP/rand.ptx"
expect "random bytes as ptx" 3 "error" -- $P dis "$TMP/rand.ptx"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
