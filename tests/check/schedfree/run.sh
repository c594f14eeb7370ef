#!/bin/bash
# tests/check/schedfree/run.sh — the schedule-free shortcut of `ptxemu check`
# (docs/CHECKING.md, "Schedule-free kernels"): skipped exactly when schedule 0
# shows that no schedule can differ, and then --all-schedules finds nothing
# either.  Prints PASS/FAIL lines (tests/check/run.sh counts them).
cd "$(dirname "$0")/../../.." || exit 2
PTXEMU=${PTXEMU:-build/ptxemu}
D=tests/check/schedfree
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# CASE WANT-SKIPPED WANT-KINDS: the report with the shortcut, and with --all-schedules
expect() {
    local c=$1 skipped=$2 kinds=$3
    "$PTXEMU" check $D/$c.txt --format json > "$T/a.json" 2>/dev/null
    "$PTXEMU" check $D/$c.txt --format json --all-schedules > "$T/b.json" 2>/dev/null
    if python3 - "$T/a.json" "$T/b.json" "$skipped" "$kinds" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
skipped, kinds = int(sys.argv[3]), sys.argv[4]
ka = ",".join(sorted({f["kind"] for f in a["findings"]})) or "none"
kb = ",".join(sorted({f["kind"] for f in b["findings"]})) or "none"
assert a["schedule_free_code"] is True, a["schedule_free_code"]
assert a["skipped_schedules"] == skipped and a["schedules"] == 12 - skipped, (a["skipped_schedules"], a["schedules"])
assert b["skipped_schedules"] == 0 and b["schedules"] == 12 and b["schedule_free_code"] is None
assert ka == kinds and kb == kinds, (ka, kb)
PY
    then echo "PASS schedule-free: $c (skipped $skipped, findings $kinds)"
    else echo "FAIL schedule-free: $c (want skipped $skipped, findings $kinds)"; fi
}
expect sf_clean 11 none
expect sf_counts 11 none
expect sf_block_chain 0 schedule      # blocks read each other's words: the footprint sends it on
expect sf_atomic_peek 0 schedule      # a plain read unordered with atomics: sent on

# the text report says why the others did not run
if "$PTXEMU" check $D/sf_clean.txt | grep -q '^note: the other 11 schedules were not run: schedule 0 found no race'; then
    echo "PASS schedule-free: text note"; else echo "FAIL schedule-free: text note"; fi

# code that is not schedule-free (a warp shuffle) runs every schedule
"$PTXEMU" check tests/check/cases/ok_mask_mismatch/case.txt --format json > "$T/c.json" 2>/dev/null
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["schedule_free_code"] is False and r["schedules"] == 12' "$T/c.json"
then echo "PASS schedule-free: collectives run every schedule"; else echo "FAIL schedule-free: collectives run every schedule"; fi

# every clean rule and precision case that takes the shortcut is clean under all schedules too
for c in $(find tests/check/cases tests/check/precision/cases -name case.txt | sort); do
    "$PTXEMU" check "$c" --format json > "$T/d.json" 2>/dev/null
    python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["skipped_schedules"] else 1)' "$T/d.json" || continue
    if "$PTXEMU" check "$c" --all-schedules > "$T/e.txt" 2>&1 && grep -q '^no findings in 12 schedules' "$T/e.txt"; then
        echo "PASS schedule-free: $c clean under all schedules"
    else echo "FAIL schedule-free: $c has findings under all schedules"; fi
done
