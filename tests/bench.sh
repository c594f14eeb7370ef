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

# The checker: the default `ptxemu check` (12 schedules, every core) against a plain run of the
# same case, best of 3 wall-clock runs each (cpu: user+sys time of those runs); the issue-9 target
# is a check/run ratio of 20x or less summed over matmul, reduce, scan and histogram.
best() {   # best WALL CPU of 3 runs of "$@" (seconds)
    local bw="" bc=""
    for i in 1 2 3; do
        local t tf; tf=$(mktemp)
        /usr/bin/time -o "$tf" -f '%e %U %S' "$@" >/dev/null 2>&1
        t=$(tail -1 "$tf"); rm -f "$tf"
        local w c; w=$(echo "$t" | awk '{print $1}'); c=$(echo "$t" | awk '{print $2 + $3}')
        if [ -z "$bw" ] || awk "BEGIN{exit !($w < $bw)}"; then bw=$w; bc=$c; fi
    done
    echo "$bw $bc"
}
echo
echo "checker (ptxemu check, default 12 schedules) against ptxemu run, best of 3:"
sr=0 sc=0 scr=0 scc=0
for k in matmul reduce scan histogram; do
    c=tests/bench/$k.txt
    read rw rc < <(best build/ptxemu run "$c")
    read cw cc < <(best build/ptxemu check "$c")
    printf '%-12s run %6.2f s  check %6.2f s  check/run %6.1fx  (cpu %6.1fx)\n' "$k" "$rw" "$cw" \
        "$(awk "BEGIN{print $cw / ($rw > 0 ? $rw : 0.01)}")" "$(awk "BEGIN{print $cc / ($rc > 0 ? $rc : 0.01)}")"
    sr=$(awk "BEGIN{print $sr + $rw}"); sc=$(awk "BEGIN{print $sc + $cw}")
    scr=$(awk "BEGIN{print $scr + $rc}"); scc=$(awk "BEGIN{print $scc + $cc}")
done
printf '%-12s run %6.2f s  check %6.2f s  check/run %6.1fx  (cpu %6.1fx; target 20x)\n' "sum" "$sr" "$sc" \
    "$(awk "BEGIN{print $sc / $sr}")" "$(awk "BEGIN{print $scc / ($scr > 0 ? $scr : 0.01)}")"
