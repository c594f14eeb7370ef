#!/usr/bin/env python3
"""tests/check/precision/table.py — the precision table of docs/CHECKING.md from the checker's
reports on tests/check/precision/cases: for every class, whether the defect was found (with
which kinds) and whether the correct twin was silent.  Compares the table with the one between
the markers in docs/CHECKING.md and prints PASS/FAIL (tests/check/run.sh calls it), or with
--write replaces it.
usage: table.py [--json-dir DIR] [--write]   (DIR: JSON reports named as run.sh names them;
       without it the checker runs here)"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from gen_cases import CLASSES  # noqa: E402

DOC = os.path.join(ROOT, "docs", "CHECKING.md")
BEGIN, END = "<!-- precision-table begin -->", "<!-- precision-table end -->"

def report(case, json_dir):
    rel = os.path.relpath(case, ROOT)
    if json_dir:
        p = os.path.join(json_dir, rel.replace("/", "_") + ".json")
        if os.path.exists(p):
            return json.load(open(p))
    out = subprocess.run([os.path.join(ROOT, "build", "ptxemu"), "check", rel, "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True).stdout
    return json.loads(out)

def kinds(r):
    return sorted({f["kind"] for f in r["findings"]})

def table(json_dir):
    rows = ["| class | what | defect | correct twin |", "| --- | --- | --- | --- |"]
    found = silent = nbug = nok = 0
    for name, what, want, _, _ in CLASSES:
        ok = kinds(report(os.path.join(HERE, "cases", "ok_" + name, "case.txt"), json_dir))
        nok += 1
        silent += not ok
        twin = "silent" if not ok else "FALSE ALARM (" + ", ".join(ok) + ")"
        if want is None:
            bug = "— (no defect: a legitimate use)"
        else:
            got = kinds(report(os.path.join(HERE, "cases", "bug_" + name, "case.txt"), json_dir))
            nbug += 1
            hit = set(got) & set(want.split("|"))
            found += bool(hit)
            bug = ("found: " + ", ".join(got)) if hit else ("MISSED (" + (", ".join(got) or "nothing") + ")")
        rows.append(f"| `{name}` | {what} | {bug} | {twin} |")
    rows.append("")
    rows.append(f"{found} of {nbug} defects found; {silent} of {nok} correct kernels silent.")
    return "\n".join(rows)

def main():
    args = sys.argv[1:]
    json_dir = args[args.index("--json-dir") + 1] if "--json-dir" in args else None
    t = table(json_dir)
    doc = open(DOC).read()
    if BEGIN not in doc or END not in doc:
        print(f"FAIL precision table: the markers are missing from {os.path.relpath(DOC, ROOT)}")
        return 1
    head, rest = doc.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if "--write" in args:
        open(DOC, "w").write(head + BEGIN + "\n" + t + "\n" + END + tail)
        print(t)
        return 0
    if old.strip() == t.strip():
        print("PASS precision table in docs/CHECKING.md matches the checker")
        return 0
    print("FAIL precision table in docs/CHECKING.md differs from the checker's results "
          "(python3 tests/check/precision/table.py --write regenerates it):")
    for line in t.splitlines():
        if line not in old: print("    now: " + line)
    return 1

if __name__ == "__main__":
    sys.exit(main())
