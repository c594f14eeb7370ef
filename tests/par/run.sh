#!/usr/bin/env bash
# tests/par/run.sh — `--jobs N` (the blocks of a launch on N host threads)
# gives exactly the results of `--jobs 1`:
#   digests    every case of tests/par/cases (blocks that share memory in every
#              way: races, tickets, float atomics, flags, printf, faults),
#              tests/cases, kernels, tests/vm/cases and the conformance suite run
#              with --jobs 1, 2, 4 and 8; status, instruction count, every buffer,
#              stdout and the failure message must be equal, case by case
#   threads    launches that may use several threads do; those that may not
#              (hooks, resident blocks) say why they ran on one
set -u
cd "$(dirname "$0")/../.." || exit 2
P=build/ptxemu
pass=0 fail=0
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
CASES="tests/par/cases tests/cases kernels tests/vm/cases"
[ -d ../shared/conformance/cases ] && CASES="$CASES ../shared/conformance/cases"

# digests: one line per case, "PASS|FAIL|RAN name ... [code status insns buffers stdout message]"
for j in 1 2 4 8; do
    $P test --digest --jobs "$j" $CASES 2>&1 | grep -E '^(PASS|FAIL|RAN) ' | sed -E 's/^(PASS|FAIL|RAN) +([^: ]+).*(\[[^]]*\])$/\2 \1 \3/' >"$TMP/j$j"
done
n1=$(wc -l <"$TMP/j1")
if [ "$n1" -lt 100 ]; then echo "FAIL digests: only $n1 cases ran with --jobs 1"; fail=$((fail + 1)); fi
for j in 2 4 8; do
    # the order of cases is stable: line k of both files is the same case
    paste -d'|' "$TMP/j1" "$TMP/j$j" >"$TMP/both"
    while IFS='|' read -r one other; do
        if [ "$one" = "$other" ]; then pass=$((pass + 1))
        else echo "FAIL --jobs $j: ${other:-nothing}, --jobs 1: $one"; fail=$((fail + 1)); fi
    done <"$TMP/both"
done
echo "digests: $n1 cases, each equal with --jobs 2, 4 and 8 unless listed above"

# threads NAME WANT PATTERN -- COMMAND: the "ran on" line of --time matches
threads() {
    local name=$1 pat=$2; shift 3
    local line; line=$("$@" --time 2>&1 >/dev/null | grep 'ran on')
    if echo "$line" | grep -qE -- "$pat"; then echo "PASS $name"; pass=$((pass + 1))
    else echo "FAIL $name: '$line' does not match /$pat/"; fail=$((fail + 1)); fi
}
threads "independent blocks use every thread" "ran on 2 host threads$" -- $P run tests/par/cases/independent/case.txt --jobs 2
threads "commuting reductions use every thread" "ran on 2 host threads$" -- $P run tests/par/cases/int_reductions/case.txt --jobs 2
threads "--jobs 1 uses one" "ran on 1 host thread$" -- $P run tests/par/cases/independent/case.txt --jobs 1
threads "statistics hooks use one" "1 host thread: hooks" -- $P run tests/par/cases/independent/case.txt --jobs 2 --stats
threads "resident blocks use one" "1 host thread: resident" -- $P run tests/par/cases/independent/case.txt --jobs 2 --resident 2
threads "a write to a buffer taken for read-only runs again on one" "1 host thread: block .* writes byte [0-9]* of 'in', a buffer that no pointer" -- $P run tests/par/cases/hidden_write/case.txt --jobs 2
threads "a fault runs again on one" "1 host thread: fault in a block" -- $P run tests/par/cases/late_fault/case.txt --jobs 2
threads "one block uses one" "1 host thread: one block" -- $P run tests/cases/int_edge/case.txt --jobs 2
# --time's "threads:" line: where the threads' time went; with two threads, the blocks
# each ran (min-max) add up to the grid's 512
line=$($P run tests/par/cases/independent/case.txt --jobs 2 --time 2>&1 >/dev/null | grep 'threads:')
blocks=$(echo "$line" | sed -n -E 's/.*; ([0-9]+)-([0-9]+) blocks each$/\1 \2/p')
if echo "$line" | grep -qE '^ptxemu: threads: set up in [0-9.]+ ms, the last began its first block at [0-9.]+ ms; in blocks [0-9]+% of 2 x [0-9.]+ ms; the first found none left at [0-9.]+ ms; [0-9]+-[0-9]+ blocks each$' &&
   [ -n "$blocks" ] && [ $(( ${blocks% *} + ${blocks#* } )) = 512 ]; then echo "PASS --time says where two threads' time went"; pass=$((pass + 1))
else echo "FAIL --time's threads line: '$line'"; fail=$((fail + 1)); fi
line=$($P run tests/par/cases/independent/case.txt --jobs 1 --time 2>&1 >/dev/null | grep -c 'threads:')
if [ "$line" = 0 ]; then echo "PASS --time on one thread has no threads line"; pass=$((pass + 1))
else echo "FAIL --time on one thread printed a threads line"; fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
