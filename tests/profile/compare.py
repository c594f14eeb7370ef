#!/usr/bin/env python3
"""Compares `ptxemu profile --format json` with Nsight Compute's source view
(tests/profile/ncu/CASE.csv, trimmed by trim_ncu.py), line by line.

usage: compare.py CASE PROFILE.json NCU.csv KNOWN.txt
Prints one PASS/FAIL line per CUDA line with memory traffic in either.
A line whose counters differ passes only when KNOWN.txt lists exactly that
difference (case, file:line, counter, emulator value, hardware value) with
the reason; a listed difference that no longer happens fails too, so the
list stays true.
"""
import csv
import json
import sys

COUNTERS = ["global_requests", "global_sectors", "global_sectors_ideal",
            "shared_wavefronts", "shared_wavefronts_ideal", "shared_bank_conflicts"]


def load_known(path, case):
    known = {}
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].split()
            if len(line) == 5 and line[0] == case:
                known[(line[1], line[2])] = (int(line[3]), int(line[4]))
    return known


def main():
    case, prof_path, ncu_path, known_path = sys.argv[1:5]
    prof = json.load(open(prof_path))
    emu = {(l["file"], l["line"]): l for l in prof["lines"]}
    hw = {}
    with open(ncu_path) as f:
        rows = [r for r in f if not r.startswith("#")]
    for r in csv.DictReader(rows):       # lines with divergent branches only are kept for reading
        v = {c: int(r[c]) for c in COUNTERS}
        if any(v.values()):
            hw[(r["file"], int(r["line"]))] = v
    known = load_known(known_path, case)
    used = set()
    npass = nfail = 0
    keys = sorted(set(k for k, v in emu.items() if any(v.get(c, 0) for c in COUNTERS)) | set(hw))
    for key in keys:
        e = emu.get(key, {})
        h = hw.get(key, {c: 0 for c in COUNTERS})
        where = "%s:%d" % key
        bad = []
        for c in COUNTERS:
            ev, hv = e.get(c, 0), h[c]
            k = (where, c)
            if k in known:
                used.add(k)
                if known[k] != (ev, hv):
                    bad.append("%s %d (hardware %d; known difference was %d vs %d)" % (c, ev, hv, *known[k]))
            elif ev != hv:
                bad.append("%s %d, hardware %d" % (c, ev, hv))
        if bad:
            print("FAIL profile %s %s: %s" % (case, where, "; ".join(bad)))
            nfail += 1
        else:
            print("PASS profile %s %s" % (case, where))
            npass += 1
    for k in sorted(set(known) - used):
        print("FAIL profile %s %s: listed known difference in %s not seen" % (case, k[0], k[1]))
        nfail += 1
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
