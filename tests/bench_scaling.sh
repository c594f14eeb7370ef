#!/usr/bin/env bash
# tests/bench_scaling.sh — `make bench-scaling`: how one launch scales with host threads.
# For each kernel in tests/bench/*.txt, the launch alone (`ptxemu run CASE --time`'s second
# line) with --jobs 1, 2, 4, ... up to nproc (and nproc itself), best of $BENCH_REPS runs
# (default 3), the thread counts alternating within each repetition; prints the one-thread
# time and each count's speedup over it, and the CPU seconds the widest run spent over the
# one-thread run's (what the parallel mode costs in work: shadow tracking, shared caches).
# `make bench` gives the other columns (rates, RSS, native ratios) for 1 and nproc threads.
#
#   BENCH_REPS=5 make bench-scaling
#   bash tests/bench_scaling.sh matmul         only the benchmarks whose name contains "matmul"
#   BENCH_JOBS="1 3 6" bash tests/bench_scaling.sh   other thread counts (the first is the base)
set -u
cd "$(dirname "$0")/.." || exit 2
P=${PTXEMU:-build/ptxemu}
REPS=${BENCH_REPS:-3}
NCPU=$(nproc 2>/dev/null || echo 1)
FILTER=${1:-}
if [ -n "${BENCH_JOBS:-}" ]; then
    read -r -a JOBS <<< "$BENCH_JOBS"
else
    JOBS=(1); j=2
    while [ "$j" -lt "$NCPU" ]; do JOBS+=("$j"); j=$((j * 2)); done
    [ "$NCPU" -gt 1 ] && JOBS+=("$NCPU")
fi

# launch_time CASE JOBS -> "LAUNCH_SECS CPU_SECS" of one run (CPU: the whole process's, as
# --time's first line gives it; the one-thread part, loading and checking, is the same for all)
launch_time() {
    local out l c
    out=$("$P" run "$1" --time --jobs "$2" 2>&1 >/dev/null)
    l=$(echo "$out" | sed -n -E 's/^ptxemu: the launch itself: ([0-9.]+) s.*/\1/p')
    c=$(echo "$out" | sed -n -E 's/^ptxemu: .* lane-instructions in .*, CPU ([0-9.]+) s$/\1/p')
    echo "${l:--} ${c:--}"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -m), $NCPU cores ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')), load:$(uptime | sed 's/.*load average://')"
printf '%-15s %9s' workload "1 thr s"
for j in "${JOBS[@]:1}"; do printf ' %7s' "x$j"; done
printf ' | %s\n' "cpu ${JOBS[-1]} thr / cpu 1 thr"
for c in tests/bench/*.txt; do
    name=$(basename "$c" .txt)
    case "$name" in *"$FILTER"*) ;; *) continue ;; esac
    declare -A best=() cpu=()
    for _ in $(seq "$REPS"); do
        for j in "${JOBS[@]}"; do
            read -r l u < <(launch_time "$c" "$j")
            [ "$l" = "-" ] && continue
            if [ -z "${best[$j]:-}" ] || awk "BEGIN{exit !($l < ${best[$j]})}"; then best[$j]=$l; cpu[$j]=$u; fi
        done
    done
    b=${best[${JOBS[0]}]:-}
    printf '%-15s %9s' "$name" "${b:--}"
    for j in "${JOBS[@]:1}"; do
        printf ' %7s' "$(awk -v a="$b" -v t="${best[$j]:-}" 'BEGIN { if (a != "" && t > 0) printf "%.2fx", a / t; else print "-" }')"
    done
    printf ' | %s\n' "$(awk -v a="${cpu[${JOBS[0]}]:-}" -v t="${cpu[${JOBS[-1]}]:-}" 'BEGIN { if (a > 0 && t != "") printf "%.2f", t / a; else print "-" }')"
    unset best cpu
done
