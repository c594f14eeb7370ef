#!/usr/bin/env python3
"""Checks `ptxemu profile`'s outputs and errors (no GPU numbers here: those
are compare.py's).  usage: check_formats.py PTXEMU   (from the repo root)"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

EMU = sys.argv[1]
CASES = "tests/profile/cases"
COUNTERS = ["warp_instructions", "thread_instructions", "divergent_branches", "shared_wavefronts",
            "shared_wavefronts_ideal", "shared_bank_conflicts", "global_instructions", "global_requests",
            "global_sectors", "global_sectors_ideal", "barrier_waits", "collective_waits"]
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    print("%s format %s" % ("PASS" if ok else "FAIL", what))
    if ok:
        npass += 1
    else:
        nfail += 1


def run(*args):
    p = subprocess.run([EMU, "profile"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


tmp = tempfile.mkdtemp()

# JSON: the shape the issue fixes, exactly these counter names, lines add up
rc, out, err = run(CASES + "/smem_column/case.txt", "--format", "json")
try:
    j = json.loads(out)
except ValueError as e:
    j = None
    check(False, "json parses (%s)" % e)
if j:
    check(rc == 0 and set(j) >= {"kernel", "totals", "lines", "ptx_lines"} and j["kernel"] == "smem_column",
          "json has kernel, totals, lines, ptx_lines")
    check(set(j["totals"]) == set(COUNTERS) | {"active_lanes"}, "json totals name exactly the counters")
    check(all({"file", "line"} <= set(l) and set(COUNTERS) <= set(l) for l in j["lines"]), "json lines: file, line, counters")
    check(all("line" in p and set(COUNTERS) <= set(p) for p in j["ptx_lines"]), "json ptx_lines: line, counters")
    for c in COUNTERS:
        if sum(p[c] for p in j["ptx_lines"]) != j["totals"][c] or sum(l[c] for l in j["lines"]) != j["totals"][c]:
            check(False, "json %s: PTX lines and CUDA lines add up to the totals" % c)
            break
    else:
        check(True, "json: PTX lines and CUDA lines add up to the totals")
    l15 = [l for l in j["lines"] if l["line"] == 15][0]
    check(l15["shared_bank_conflicts"] == 1984 and "tile[x][j]" in l15.get("source", ""), "json line 15 with its source")
    check(abs(j["totals"]["active_lanes"] - 32.0) < 1e-9, "json active_lanes of a full-warp kernel is 32")

# CSV
rc, out, err = run(CASES + "/smem_column/case.txt", "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check(rc == 0 and rows and list(rows[0])[:3] == ["kind", "file", "line"] and all(c in rows[0] for c in COUNTERS),
      "csv header: kind, file, line, counters")
check(j and len([r for r in rows if r["kind"] == "cuda"]) == len(j["lines"]) and
      len([r for r in rows if r["kind"] == "ptx"]) == len(j["ptx_lines"]), "csv: one row per CUDA and per PTX line")

# text: costliest first, with the source beside it
rc, out, err = run(CASES + "/smem_column/case.txt", "--top", "3")
body = out.split("costliest lines")[1].splitlines()[2:] if "costliest lines" in out else []
check(rc == 0 and len(body) == 3 and body[0].startswith("profk.cu:15") and "tile[x][j]" in body[0], "text: costliest line first, with source")
rc, out, err = run(CASES + "/smem_column/case.txt", "--sort", "global_sectors", "--top", "1")
check(rc == 0 and "profk.cu:12 " in out, "text --sort global_sectors")
# SIMT efficiency of a half-populated warp (blocks of 48 threads)
rc, out, err = run(CASES + "/copy_partial/case.txt", "--format", "json")
jp = json.loads(out) if rc == 0 else None
check(jp and 16 < jp["totals"]["active_lanes"] < 32 and jp["totals"]["thread_instructions"] < 32 * jp["totals"]["warp_instructions"],
      "partial warps lower the active lanes")
# divergent branches and collective waits (the data-dependent loop; the conformance shuffle kernel)
rc, out, err = run(CASES + "/collatz_steps/case.txt", "--format", "json")
jc = json.loads(out) if rc == 0 else None
check(jc and jc["totals"]["divergent_branches"] > 0, "divergent branches counted in the data-dependent loop")

# an inline .ptx launch, and --output
outp = os.path.join(tmp, "p.json")
rc, out, err = run("tests/profile/kernels/profk.ptx", "--kernel", "copy_coalesced", "--grid", "4", "--block", "128",
                   "in=file:tests/profile/kernels/f32_4k.bin", "out=zero:2048", "s32:512", "--format", "json", "--output", outp)
ji = json.load(open(outp)) if rc == 0 and os.path.exists(outp) else None
check(ji and ji["totals"]["global_sectors"] == 128 and out == "", "FILE.ptx launch arguments, --output")

# HTML: self-contained, the data embedded safely
rc, out, err = run(CASES + "/transpose_tile/case.txt", "--format", "html")
check(rc == 0 and out.startswith("<!DOCTYPE html>") and '<script id="data" type="application/json">' in out,
      "html: one page with its data")
data = out.split('<script id="data" type="application/json">')[1].split("</script>")[0] if rc == 0 else ""
check(data and json.loads(data)["files"][0]["found"] and "http" not in out.replace("http-equiv", ""),
      "html: sources embedded, nothing fetched")

# --diff: the padded transpose removes the bank conflicts on the read line
a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
run(CASES + "/transpose_tile/case.txt", "--format", "json", "--output", a)
run(CASES + "/transpose_tile_padded/case.txt", "--format", "json", "--output", b)
rc, out, err = run("--diff", a, b)
lines = out.splitlines()
hit = [i for i, l in enumerate(lines) if l.startswith("profk.cu:83->95") and "tile[threadIdx.x][threadIdx.y + j]" in l]
block = []
for l in lines[hit[0] + 1:] if hit else []:
    if not l.startswith(" "):
        break
    block.append(l.split())
check(rc == 0 and ["shared_bank_conflicts", "3968", "->", "0", "(-3968,", "-100%)"] in block,
      "diff pairs the moved line by its text: bank conflicts 3968 -> 0")
check("profk.cu:80->92" not in out and "4 lines changed" in out, "diff: unchanged lines (the barrier) stay quiet")
rc, out2, err = run("--diff", a, a)
check(rc == 0 and "0 lines changed" in out2 and "(unchanged)" in out2, "diff of a profile with itself")

# errors: clear, exit 2, no crash
bad = os.path.join(tmp, "bad.json")
open(bad, "w").write('{"kernel": "k",\n "totals": {}, "lines": [1,]}')
rc, out, err = run("--diff", a, bad)
check(rc == 2 and "bad.json:2: not valid JSON" in err, "diff of broken JSON names the file and line")
open(bad, "w").write('[1, 2]')
rc, out, err = run("--diff", bad, a)
check(rc == 2 and "not a ptxemu profile" in err, "diff of other JSON says what it needs")
rc, out, err = run("--diff", a)
check(rc == 2 and "two JSON profiles" in err, "diff needs two files")
rc, out, err = run("--diff", a, os.path.join(tmp, "missing.json"))
check(rc == 2 and "missing.json" in err, "diff of a missing file")
rc, out, err = run(CASES + "/smem_column/case.txt", "--format", "xml")
check(rc == 2 and "text, json, csv or html" in err, "unknown format")
rc, out, err = run(CASES + "/smem_column/case.txt", "--sort", "speed")
check(rc == 2 and "counter name" in err, "unknown sort counter")
rc, out, err = run("tests/profile/kernels/profk.ptx", "--kernel", "nope", "--grid", "1", "--block", "32")
check(rc == 2 and "no kernel named 'nope'" in err, "unknown kernel")

print("%d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
