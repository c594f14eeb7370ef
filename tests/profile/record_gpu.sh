#!/bin/bash
# record_gpu.sh — on a machine with an NVIDIA GPU and Nsight Compute: runs
# every case of the folder prepare_gpu.sh assembled under ncu, twice, and
# exports the source view (CUDA lines with their SASS) as CSV.  Everything
# lands in $OUT/rec.tgz (and $OUT/log.txt).  Usage: bash gpu/prof/record_gpu.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/profout}
R=/tmp/rec
rm -rf "$R"; mkdir -p "$R/out" "$O"
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$R/log.txt"; }
finish() {
    cp "$R/log.txt" "$O/log.txt"; tar czf "$O/rec.tgz" -C /tmp rec
    # the first run's reports too, when they fit what comes back (16 MiB)
    (cd /tmp && ls rep_*.1.ncu-rep >/dev/null 2>&1 && tar czf "$O/reps.tgz" rep_*.1.ncu-rep) &&
        [ "$(stat -c %s "$O/reps.tgz")" -gt 15000000 ] && rm -f "$O/reps.tgz"
    exit "${1:-0}"
}
{ nvidia-smi -L; ncu --version; nvcc --version | tail -n 2; } > "$R/env.txt" 2>&1
ncu --help > "$R/ncu_help.txt" 2>&1
cd "$D" || finish 1
nvcc -O2 runner.c -o runner -lcuda > "$R/build.txt" 2>&1 || { log "runner did not build"; finish 1; }
SECT="--section SourceCounters"
SRCOPT=1
# record NAME CASEDIR SRCDIR K: one ncu run of the case; the report's source view as CSV
record() {
    local name=$1 dir=$2 src=$3 k=$4 rep=/tmp/rep_$1.$4
    mkdir -p "$R/out/$name.$k"
    local opts=$SECT
    [ $SRCOPT = 1 ] && opts="$opts --import-source yes --source-folders $src"
    (cd "$src" && timeout 120 ncu $opts -f -o "$rep" "$D/runner" "$D/$dir" "$R/out/$name.$k") > "$R/$name.$k.ncu.log" 2>&1
    local rc=$?
    (cd "$src" && timeout 60 ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda,sass) > "$R/$name.$k.cuda_sass.csv" 2> "$R/$name.$k.print.err"
    if [ "$k" = 1 ]; then
        (cd "$src" && timeout 60 ncu -i "$rep.ncu-rep" --page source --csv --print-source ptx) > "$R/$name.$k.ptx.csv" 2>> "$R/$name.$k.print.err"
    fi
    log "$name.$k: ncu rc=$rc, $(wc -l < "$R/$name.$k.cuda_sass.csv") csv lines, $(tail -n 1 "$R/$name.$k.ncu.log" | cut -c1-100)"
}
# the first case decides the options: fall back when these are not understood
probe() {
    record probe conf/cases/mem_smem_stride_2 "$D/conf" 1
    if ! grep -q 'Wavefronts' "$R/probe.1.cuda_sass.csv"; then
        log "no Wavefronts column with '$SECT' and source import; trying without source import"
        SRCOPT=0; record probe conf/cases/mem_smem_stride_2 "$D/conf" 1
    fi
    if ! grep -q 'Wavefronts' "$R/probe.1.cuda_sass.csv"; then
        log "still none: --set full"; SECT="--set full"; SRCOPT=1
        record probe conf/cases/mem_smem_stride_2 "$D/conf" 1
    fi
    grep -q 'Wavefronts' "$R/probe.1.cuda_sass.csv" || { log "no source counters at all; giving up"; finish 1; }
}
probe
for c in $(cd conf/cases && ls); do
    for k in 1 2; do
        [ $k = 2 ] && [ $(( $(date +%s) - T0 )) -gt 470 ] && { log "time: $c.2 skipped"; continue; }
        record "$c" "conf/cases/$c" "$D/conf" $k
    done
done
for c in $(cd own/cases && ls); do
    for k in 1 2; do
        [ $k = 2 ] && [ $(( $(date +%s) - T0 )) -gt 470 ] && { log "time: $c.2 skipped"; continue; }
        record "$c" "own/cases/$c" "$D/own/kernels" $k
    done
done
log "done"
finish 0
