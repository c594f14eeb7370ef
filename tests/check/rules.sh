#!/bin/bash
# tests/check/rules.sh — checks of `ptxemu check` beyond finding kinds: seed
# replay, determinism, JSON and SARIF structure, exit statuses, the inline
# FILE.ptx form.  Prints PASS/FAIL lines (run.sh counts them).
cd "$(dirname "$0")/../.." || exit 2
PTXEMU=${PTXEMU:-build/ptxemu}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS rules: $1"; }
bad() { echo "FAIL rules: $1"; }
CASES=tests/check/cases

# seed replay: every finding's seed, run alone, shows the same finding again
for c in race_shared_warp race_flag_nofence mask_mismatch barrier_divergent uninit_local mask_exited_source \
         race_flag_relaxed barrier_count_reg barrier_oversubscribed barrier_red_mixed barrier_arrive_twice \
         barrier_aligned_arms mask_syncwarp_outside mask_never_arrives mask_exited_elsewhere mask_split_collectives; do
    "$PTXEMU" check $CASES/$c/case.txt --format json --output "$T/$c.json" >/dev/null 2>&1
    if python3 - "$PTXEMU" "$CASES/$c/case.txt" "$T/$c.json" <<'PY'
import json, subprocess, sys
exe, case, path = sys.argv[1:]
fs = [f for f in json.load(open(path))["findings"] if f["kind"] != "schedule"]
assert fs, "no findings"
for f in fs:
    out = subprocess.run([exe, "check", case, "--seed", str(f["seed"]), "--schedules", "1", "--format", "json"],
                         capture_output=True, text=True).stdout
    again = json.loads(out)
    assert again["schedules"] == 1
    assert any(g["kind"] == f["kind"] and g["ptx"]["line"] == f["ptx"]["line"] and g["seed"] == f["seed"]
               for g in again["findings"]), f"seed {f['seed']} does not reproduce {f['kind']} at ptx line {f['ptx']['line']}"
PY
    then ok "seed replay $c"; else bad "seed replay $c"; fi
done

# determinism: the same options give the same report
"$PTXEMU" check $CASES/race_shared_warp/case.txt --format json > "$T/a.json" 2>/dev/null
"$PTXEMU" check $CASES/race_shared_warp/case.txt --format json > "$T/b.json" 2>/dev/null
if cmp -s "$T/a.json" "$T/b.json"; then ok "deterministic report"; else bad "deterministic report"; fi

# a different base seed explores different schedules but finds the race too
"$PTXEMU" check $CASES/race_shared_warp/case.txt --seed 12345 --schedules 4 --format json > "$T/s.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schedules"]==4 and d["seed"]==12345; assert any(f["kind"]=="race" for f in d["findings"])' "$T/s.json"; then
    ok "--seed 12345 --schedules 4"; else bad "--seed 12345 --schedules 4"; fi

# JSON structure
"$PTXEMU" check $CASES/race_shared_warp/case.txt --format json > "$T/j.json" 2>/dev/null
if python3 - "$T/j.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["schedules"], int) and d["schedules"] > 1
kinds = {"race", "deadlock", "mask", "barrier", "memory", "uninit", "schedule"}
race = None
for f in d["findings"]:
    assert f["kind"] in kinds and isinstance(f["message"], str) and f["message"]
    assert f["ptx"]["file"].endswith("rules.ptx") and f["ptx"]["line"] > 0
    assert isinstance(f["seed"], int) and f["count"] >= 1
    if f["kind"] == "race": race = f
assert race, "no race"
assert race["source"]["file"] == "tests/check/rules.cu" and race["source"]["line"] in (10, 11)
assert race["cta"] == [0, 0, 0] and len(race["thread"]) == 3
o = race["other"]
assert o and o["ptx"]["line"] > 0 and len(o["thread"]) == 3 and o["thread"] != race["thread"]
PY
then ok "json report"; else bad "json report"; fi

# SARIF 2.1.0 as GitHub code scanning reads it
"$PTXEMU" check $CASES/mask_mismatch/case.txt --format sarif --output "$T/r.sarif" >/dev/null 2>&1
rc=$?
if [ $rc -eq 1 ] && python3 - "$T/r.sarif" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0" and "sarif-2.1.0" in d["$schema"]
run = d["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert rules == ["race", "deadlock", "mask", "barrier", "memory", "uninit", "schedule"]
assert run["results"]
for r in run["results"]:
    assert r["ruleId"] in rules and rules[r["ruleIndex"]] == r["ruleId"]
    assert r["level"] in ("error", "warning") and r["message"]["text"]
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "tests/check/rules.cu", loc
    assert loc["region"]["startLine"] >= 1
    for rl in r.get("relatedLocations", []):
        assert rl["physicalLocation"]["region"]["startLine"] >= 1
    assert r["partialFingerprints"]
PY
then ok "sarif report"; else bad "sarif report (exit $rc)"; fi

# exit statuses and the inline launch form
"$PTXEMU" check $CASES/ok_race_shared_warp/case.txt >/dev/null 2>&1; r0=$?
"$PTXEMU" check $CASES/race_shared_warp/case.txt >/dev/null 2>&1; r1=$?
"$PTXEMU" check $CASES/race_shared_warp/case.txt --format xml >/dev/null 2>&1; r2=$?
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus.u32 %%r1; }\n' > "$T/bad.ptx"
"$PTXEMU" check "$T/bad.ptx" --kernel k >/dev/null 2>&1; r3=$?
if [ "$r0$r1$r2$r3" = "0123" ]; then ok "exit statuses 0 1 2 3"; else bad "exit statuses: got $r0 $r1 $r2 $r3"; fi
"$PTXEMU" check tests/check/rules.ptx --kernel race_shared_warp --grid 1 --block 32 in=file:tests/check/cases/in.bin out=zero:128 --format json > "$T/i.json" 2>/dev/null
if python3 -c 'import json,sys; assert any(f["kind"]=="race" for f in json.load(open(sys.argv[1]))["findings"])' "$T/i.json"; then
    ok "inline FILE.ptx launch"; else bad "inline FILE.ptx launch"; fi
"$PTXEMU" check /work/shared/conformance/cases/bug_syncwarp_race/case.txt --max-findings 1 --format json > "$T/m.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["findings"])==1 and d["dropped"]>=0' "$T/m.json"; then
    ok "--max-findings"; else bad "--max-findings"; fi

# the same report for any number of threads (schedules merged in schedule order)
P=tests/check/precision/cases
for c in $P/bug_shared_in_warp $P/bug_assert_lockstep /work/shared/conformance/cases/bug_activemask_in_branch; do
    [ -f "$c/case.txt" ] || continue
    "$PTXEMU" check "$c/case.txt" --jobs 1 --format json > "$T/j1.json" 2>/dev/null
    "$PTXEMU" check "$c/case.txt" --jobs 3 --format json > "$T/j3.json" 2>/dev/null
    if cmp -s "$T/j1.json" "$T/j3.json"; then ok "--jobs 1 and --jobs 3 agree: $(basename "$c")"
    else bad "--jobs 1 and --jobs 3 differ: $(basename "$c")"; fi
done

# a kernel that asserts: exit 4, and the report says how and where the launch ended
"$PTXEMU" check tests/cases/assert_fail/case.txt > "$T/a.txt" 2>/dev/null; ra=$?
"$PTXEMU" check tests/cases/assert_fail/case.txt --format json > "$T/a.json" 2>/dev/null
"$PTXEMU" check tests/cases/trap_kernel/case.txt --format sarif > "$T/t.sarif" 2>/dev/null; rt=$?
if [ $ra -eq 4 ] && [ $rt -eq 4 ] && grep -q 'the launch ended with assert' "$T/a.txt" && python3 - "$T/a.json" "$T/t.sarif" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "assert" and not a["findings"]
assert "Assertion" in a["end"]["message"] and a["end"]["cta"] == [1, 0, 0] and a["end"]["thread"] == [5, 0, 0]
s = json.load(open(sys.argv[2]))["runs"][0]
n = s["invocations"][0]["toolExecutionNotifications"][0]
assert n["level"] == "error" and n["descriptor"]["id"] == "trap" and n["locations"]
assert s["properties"]["status"] == "trap"
PY
then ok "assert and trap: exit 4, end of the launch in text, json and sarif"; else bad "assert and trap report (exit $ra $rt)"; fi

# an assert only an adversarial schedule fails is a schedule finding
"$PTXEMU" check $P/bug_assert_lockstep/case.txt --format json > "$T/al.json" 2>/dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok"
assert any(f["kind"] == "schedule" and "ends with assert" in f["message"] for f in d["findings"])' "$T/al.json"; then
    ok "schedule-dependent assert"; else bad "schedule-dependent assert"; fi

# sampled launches: independent blocks run alone, dependent ones all; progress only on a terminal
L=tests/check/large
"$PTXEMU" check $L/ok/case.txt --format json > "$T/lo.json" 2>/dev/null
"$PTXEMU" check $L/chain/case.txt --format json > "$T/lc.json" 2>/dev/null
if python3 -c '
import json, sys
o, c = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert o["independent_blocks"] is True and o["checked_blocks"]["adversarial"] == 8 and o["blocks"] == 64
assert c["independent_blocks"] is False' "$T/lo.json" "$T/lc.json"; then
    ok "independent and dependent blocks"; else bad "independent and dependent blocks"; fi
"$PTXEMU" check $L/race_warp_sampled/case.txt > /dev/null 2> "$T/np.txt"
if command -v script >/dev/null; then
    script -qc "$PTXEMU check $L/race_warp_sampled/case.txt" /dev/null > "$T/p.txt" 2>&1
    if grep -q '12 of 12 schedules done' "$T/p.txt" && ! grep -q 'schedules done' "$T/np.txt"; then
        ok "progress on a terminal only"; else bad "progress on a terminal only"; fi
else
    echo "SKIP rules: progress on a terminal not tested: no script command to give it a terminal"
fi
