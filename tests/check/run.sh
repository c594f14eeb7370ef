#!/bin/bash
# tests/check/run.sh — runs `ptxemu check` over every case file of the
# conformance suite, tests/cases, kernels, tests/check/cases and tests/check/cub, and checks:
#   - a case with `expect-check KIND|KIND...` gets a finding of one of those kinds,
#   - `expect-check clean` and a case without expect-check get no finding at all.
# Then the rule tests of tests/check (seed replay, json and sarif output) and the
# schedule-free shortcut (tests/check/schedfree).
# Prints PASS/FAIL lines and "N passed, N failed"; exit 1 on any failure.
# usage: tests/check/run.sh [-j JOBS] [CASE-DIRS...]
cd "$(dirname "$0")/../.." || exit 2
JOBS=2
if [ "$1" = "-j" ]; then JOBS=$2; shift 2; fi
PTXEMU=${PTXEMU:-build/ptxemu}
CONF=${CONFORMANCE:-../shared/conformance/cases}
DIRS=("$@")
[ ${#DIRS[@]} -eq 0 ] && DIRS=("$CONF" tests/cases kernels tests/check/cases tests/check/cub tests/check/precision tests/check/large)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

one() {   # one case: prints PASS/FAIL line
    local c=$1 out="$TMP/$(echo "$1" | tr '/' '_').json"   # table.py reads these names
    local want
    want=$(sed -n 's/^expect-check[ \t]*//p' "$c" | head -1)
    "$PTXEMU" check "$c" --format json --output "$out" 2>/dev/null
    local rc=$?
    local res
    res=$(python3 - "$c" "$want" "$rc" "$out" <<'PY'
import json, sys
case, want, rc, out = sys.argv[1], sys.argv[2].strip(), int(sys.argv[3]), sys.argv[4]
try:
    kinds = [f["kind"] for f in json.load(open(out))["findings"]]
except Exception as e:
    print(f"FAIL {case}: no json report (exit {rc}): {e}"); sys.exit(0)
got = ",".join(sorted(set(kinds))) or "none"
if rc not in (0, 1, 4, 5, 6) or (kinds and rc != 1) or (not kinds and rc == 1):
    print(f"FAIL {case}: exit status {rc} with findings {got}")
elif want in ("", "clean"):
    print(("PASS" if not kinds else "FAIL") + f" {case}: want no finding, got {got}")
else:
    ok = set(want.split("|")) & set(kinds)
    print(("PASS" if ok else "FAIL") + f" {case}: want {want}, got {got}")
PY
)
    echo "${res:-FAIL $c: no result (exit $rc)}"
}
export -f one
export PTXEMU TMP
find "${DIRS[@]}" -name case.txt 2>/dev/null | sort | xargs -P "$JOBS" -I{} bash -c 'one "$@"' _ {} > "$TMP/results"
if [ $# -eq 0 ] && [ -x tests/check/rules.sh ]; then bash tests/check/rules.sh >> "$TMP/results"; fi
if [ $# -eq 0 ]; then bash tests/check/schedfree/run.sh >> "$TMP/results"; fi
# the precision table in docs/CHECKING.md must be the one these reports give
if [ $# -eq 0 ]; then python3 tests/check/precision/table.py --json-dir "$TMP" >> "$TMP/results"; fi
# the CUB cases must also compute what gen.py computed on the host
if [ $# -eq 0 ]; then "$PTXEMU" test tests/check/cub 2>&1 | grep -E '^(PASS|FAIL)' | sed 's/^\(PASS\|FAIL\) /\1 cub results: /' >> "$TMP/results"; fi
sort -k2 "$TMP/results"
P=$(grep -c '^PASS' "$TMP/results"); F=$(grep -c '^FAIL' "$TMP/results")
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
