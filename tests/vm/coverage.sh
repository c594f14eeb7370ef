#!/usr/bin/env bash
# tests/vm/coverage.sh — every opcode of vm/ops.def must be used by at least
# one test: disassembles every .ptx under tests/ and kernels/ with
# `ptxemu dis`, collects the opcode names and compares them with the table.
# Prints one PASS line when all are covered, else one FAIL line per opcode
# that no test uses; then "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
EMU=${PTXEMU:-build/ptxemu}
[ -x "$EMU" ] || make -s >/dev/null 2>&1
all=$(mktemp); used=$(mktemp); trap 'rm -f "$all" "$used"' EXIT
# every "disassembly name" in the table (several OP(...) per line)
grep -o 'OP([A-Z0-9_]*, *"[^"]*"' vm/ops.def | grep -v "^OP(NAME," | sed 's/.*"\(.*\)"/\1/' | sort -u >"$all"
# the dis lines: "  PC  [@[!]guard ]NAME[<m1,m2,m3>][.ftz][.sat] operands ; ptx:...[  [fused: NAME xN]]"
# (a superinstruction, vm/fuse.c, shows as the note on the first instruction it runs)
find tests kernels -name '*.ptx' -print0 | sort -z | while IFS= read -r -d '' f; do
    "$EMU" dis "$f" 2>/dev/null
done | awk '$1 ~ /^[0-9]+$/ { w = $2; if (w ~ /^@/) w = $3;
                              sub(/<.*/, "", w); sub(/\.sat$/, "", w); sub(/\.ftz$/, "", w);
                              print w;
                              if (match($0, /\[fused: [^ ]+/)) print substr($0, RSTART + 8, RLENGTH - 8) }' | sort -u >"$used"
total=$(wc -l <"$all")
missing=$(comm -23 "$all" "$used")
nmiss=0
if [ -n "$missing" ]; then
    while IFS= read -r op; do echo "FAIL opcode $op: no test uses it"; nmiss=$((nmiss + 1)); done <<<"$missing"
    echo "# $((total - nmiss)) of $total opcodes covered"
    echo "0 passed, $nmiss failed"
    exit 1
fi
echo "PASS opcode coverage: all $total opcodes used by a test"
echo "1 passed, 0 failed"
