#!/usr/bin/env bash
# tests/vm/avx2_same.sh — the AVX2 copies (the dispatch loop's vm_exec_avx2 and
# the scheduler's AVX2 passes) and the base ones (PTXEMU_NO_AVX2=1, as on a
# CPU without AVX2) decide and compute the same: every own, VM, par and
# conformance case gives the same digest (status, instruction count, every
# buffer, stdout, message) both ways, on one host thread.  One line per case
# that differs, then "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
P=build/ptxemu
CASES="tests/cases kernels tests/vm/cases tests/par/cases"
[ -d ../shared/conformance/cases ] && CASES="$CASES ../shared/conformance/cases"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
digests() { $P test --digest --jobs 1 $CASES 2>&1 | grep -E '^(PASS|FAIL|RAN) ' | sed -E 's/^(PASS|FAIL|RAN) +([^: ]+).*(\[[^]]*\])$/\2 \3/'; }
digests >"$TMP/avx2"
PTXEMU_NO_AVX2=1 digests >"$TMP/base"
pass=0 fail=0
n=$(wc -l <"$TMP/avx2")
if [ "$n" -lt 100 ]; then echo "FAIL only $n cases ran"; fail=$((fail + 1)); fi
paste -d'|' "$TMP/avx2" "$TMP/base" >"$TMP/both"
while IFS='|' read -r a b; do
    if [ "$a" = "$b" ]; then pass=$((pass + 1)); else echo "FAIL AVX2: $a, base: ${b:-nothing}"; fail=$((fail + 1)); fi
done <"$TMP/both"
echo "$n cases, each the same with and without the AVX2 copies unless listed above"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
