#!/usr/bin/env bash
# tests/bench.sh — `make bench`: wall time and lane-instructions per second
# for the kernels in tests/bench/ (matmul, reduction, histogram, scan, calls,
# warp_divergent), best of 3.  Numbers and method: docs/PERFORMANCE.md.
set -u
cd "$(dirname "$0")/.." || exit 2
for c in tests/bench/*.txt; do
    best=""
    for i in 1 2 3; do
        line=$(build/ptxemu run "$c" --time 2>&1 >/dev/null | grep 'lane-instructions in')
        rate=$(echo "$line" | sed -E 's/.*: ([0-9.]+) M lane.*/\1/')
        if [ -z "$best" ] || awk "BEGIN{exit !($rate > $best)}"; then best=$rate; bline=$line; fi
    done
    printf '%-28s %s\n' "$(basename "$c" .txt)" "${bline#ptxemu: }"
done
