#!/usr/bin/env bash
# tests/compile/run.sh — semantic errors of the bytecode compiler: exit 3 and
# each `// expect error: LINE:COL: text` reported at exactly that place.
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0 fail=0
for f in tests/compile/*.ptx; do
    out=$(build/ptxemu dis "$f" 2>&1 >/dev/null); rc=$?
    n=$(basename "$f" .ptx)
    if [ $rc != 3 ]; then echo "FAIL $n: exit $rc, want 3"; fail=$((fail + 1)); continue; fi
    while IFS= read -r line; do
        want=${line#*expect error: }; loc=${want%%: *}; msg=${want#*: }
        if grep -qF "$f:$loc: error: $msg" <<<"$out"; then echo "PASS $n:$loc"; pass=$((pass + 1))
        else echo "FAIL $n:$loc: no error '$msg' there"; fail=$((fail + 1)); fi
    done < <(grep 'expect error:' "$f")
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
