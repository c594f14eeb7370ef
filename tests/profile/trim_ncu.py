#!/usr/bin/env python3
"""Trims Nsight Compute's source-view CSVs (record_gpu.sh's rec/ folder) to
the per-CUDA-line counters `ptxemu profile` is compared on, checks that the
two recordings of each case agree, and writes tests/profile/ncu/CASE.csv.

usage: python3 tests/profile/trim_ncu.py REC_DIR [OUT_DIR]

Columns (one row per CUDA line with memory traffic or divergent branches):
  file, line                    the CUDA source line (as the .loc names it)
  global_requests               "L1 Tag Requests Global"
  global_sectors                "L2 Theoretical Sectors Global"
  global_sectors_ideal          "L2 Theoretical Sectors Global Ideal"
  shared_wavefronts             "L1 Wavefronts Shared"
  shared_wavefronts_ideal       "L1 Wavefronts Shared Ideal"
  shared_bank_conflicts         "L1 Wavefronts Shared Excessive"
  divergent_branches            "Divergent Branches" (SASS branches: not compared)
  sass                          the line's memory instructions, OPCODE*warp-executions
"""
import csv
import os
import sys

COLS = [
    ("global_requests", "L1 Tag Requests Global"),
    ("global_sectors", "L2 Theoretical Sectors Global"),
    ("global_sectors_ideal", "L2 Theoretical Sectors Global Ideal"),
    ("shared_wavefronts", "L1 Wavefronts Shared"),
    ("shared_wavefronts_ideal", "L1 Wavefronts Shared Ideal"),
    ("shared_bank_conflicts", "L1 Wavefronts Shared Excessive"),
    ("divergent_branches", "Divergent Branches"),
]
MEMORY = [c for c, _ in COLS if c != "divergent_branches"]


def num(s):
    s = s.replace(",", "").strip()
    try:
        return int(float(s))
    except ValueError:
        return 0


def parse(path):
    """{(file, line): {counter: value, 'sass': {opcode: executions}}}, kernel"""
    rows, kernel, fpath, header, cur = {}, None, None, None, None
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if not r:
                continue
            if r[0] == "File Path":
                fpath = r[1]
                continue
            if r[0] == "Function Name":
                kernel = r[1]
                continue
            if r[0] == "Line No":
                header = r
                continue
            if header is None or len(r) < len(header):
                continue
            if r[0]:                                  # a CUDA line
                cur = (fpath, int(r[0]))
                d = rows.setdefault(cur, {"sass": {}})
                for key, name in COLS:     # a column without any event is left out
                    v = num(r[header.index(name)]) if name in header else 0
                    d[key] = d.get(key, 0) + v
            elif r[2].startswith("0x") and cur:       # one of its SASS instructions
                space = r[header.index("Address Space")]
                if space not in ("-", ""):
                    op = r[3].split()
                    op = [w for w in op if not w.startswith("@")][0]
                    ex = num(r[header.index("Instructions Executed")])
                    rows[cur]["sass"][op] = rows[cur]["sass"].get(op, 0) + ex
    return rows, kernel


def trimmed(rows):
    out = []
    for (fpath, line), d in sorted(rows.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        if not any(d[c] for c in MEMORY) and not d["divergent_branches"]:
            continue
        sass = " ".join("%s*%d" % (op, n) for op, n in sorted(d["sass"].items()))
        out.append([fpath, line] + [d[c] for c, _ in COLS] + [sass])
    return out


def main():
    rec = sys.argv[1]
    dest = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ncu")
    os.makedirs(dest, exist_ok=True)
    env = open(os.path.join(rec, "env.txt")).read().splitlines()
    gpu = next((l.split(": ", 1)[1].split(" (UUID")[0] for l in env if l.startswith("GPU 0")), "?")
    ver = next((l for l in env if l.startswith("Version")), "?")
    bad = 0
    cases = sorted({f.rsplit(".", 3)[0] for f in os.listdir(rec) if f.endswith(".1.cuda_sass.csv")} - {"probe"})
    for case in cases:
        t1, kernel = parse(os.path.join(rec, case + ".1.cuda_sass.csv"))
        p2 = os.path.join(rec, case + ".2.cuda_sass.csv")
        if not os.path.exists(p2):
            print("MISSING second recording of", case)
            bad += 1
            continue
        t2, _ = parse(p2)
        a, b = trimmed(t1), trimmed(t2)
        if a != b:
            print("DIFFER", case)
            bad += 1
            continue
        with open(os.path.join(dest, case + ".csv"), "w", newline="") as f:
            f.write("# Nsight Compute source view of kernel %s (case %s): %s, ncu %s,\n"
                    "# --section SourceCounters, recorded twice with identical counters (tests/profile/record_gpu.sh)\n"
                    % (kernel, case, gpu, ver.replace("Version ", "")))
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["file", "line"] + [c for c, _ in COLS] + ["sass"])
            w.writerows(a)
        print("ok", case, len(a), "lines")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
