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

# large launches: schedule 0 checks its blocks on two threads (check_run.c, run_split0);
# CASE SKIPPED KIND CTA: every block counted as checked by schedule 0, and the one
# finding of the bad block (in the first part of the split or the second) reported by
# schedule 0 itself; the same on one thread
expect_split() {
    local c=$1 skipped=$2 kind=$3 cta=$4 j
    for j in 2 1; do
        "$PTXEMU" check $D/$c.txt --format json --jobs $j > "$T/s.json" 2>/dev/null
        if python3 - "$T/s.json" "$skipped" "$kind" "$cta" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
skipped, kind, cta = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
assert r["skipped_schedules"] == skipped, r["skipped_schedules"]
assert r["checked_blocks"]["schedule0"] == r["blocks"] == 100, r["checked_blocks"]
s0 = [f for f in r["findings"] if f["schedule"] == 0]
if kind == "none":
    assert not r["findings"], r["findings"]
else:
    assert len(s0) == 1 and s0[0]["kind"] == kind and s0[0]["cta"][0] == cta, s0
PY
        then echo "PASS schedule-free, split schedule 0: $c --jobs $j ($kind in block $cta)"
        else echo "FAIL schedule-free, split schedule 0: $c --jobs $j (want $kind in block $cta, skipped $skipped)"; fi
    done
}
expect_split sf_split_clean 11 none -1
expect_split sf_split_first 0 race 3
expect_split sf_split_last 0 race 99
expect_split sf_split_uninit_first 0 uninit 1
expect_split sf_split_uninit_last 0 uninit 90
# blocks that depend on one another: the split is undone, and the other schedules run
"$PTXEMU" check $D/sf_split_chain.txt --format json > "$T/s.json" 2>/dev/null
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["skipped_schedules"] == 0 and r["independent_blocks"] is False and r["checked_blocks"]["schedule0"] == 80, r
assert {f["kind"] for f in r["findings"]} == {"schedule"}, r["findings"]' "$T/s.json"
then echo "PASS schedule-free, split schedule 0: dependent blocks undo the split"
else echo "FAIL schedule-free, split schedule 0: dependent blocks undo the split"; fi

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
