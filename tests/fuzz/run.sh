#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS] — builds the libFuzzer harnesses (make fuzzers:
# clang, ASan+UBSan, build/fuzz/fuzz_*), replays every input kept under
# tests/fuzz/regress/HARNESS/ through its harness, then fuzzes each harness for
# SECONDS (default 15) from seed corpora generated here from the conformance
# PTX and cases (../shared/conformance, when present) and the repository's
# own PTX, cases and debugger scripts.  Corpora grow in build/fuzz/corpus/,
# findings land in build/fuzz/artifacts/HARNESS/.  Prints PASS/FAIL per
# harness with libFuzzer's last statistics, and "N passed, N failed".
# Without clang and its libFuzzer runtime it prints why and "0 passed, 0 failed".
#   FUZZ_HARNESSES="front vm ..."  the harnesses to run (default: all six)
#   FUZZ_JOBS=N   run the harnesses N at a time (default 1)
#   FUZZ_NICE=N   nice level for the fuzzers (default 0)
#   FUZZ_FORK=1   libFuzzer's fork mode: keep fuzzing after a finding (long runs)
#   FUZZ_OUT=DIR  seeds, work files, corpora, logs, findings (default build/fuzz)
#   FUZZ_KEEP=1   grow the corpora in FUZZ_OUT/corpus across runs (make fuzz does);
#                 else each run starts from the seeds alone, so that a short run
#                 (make test) spends its time fuzzing, not replaying a grown corpus
set -u
{   # read whole before running: the script may be edited while a long run goes on
cd "$(dirname "$0")/../.." || exit 2
SECONDS_EACH=${1:-15}
FUZZ_CC=${FUZZ_CC:-clang}
ROOT=$PWD
B=build/fuzz
O=${FUZZ_OUT:-$B}
HARNESSES=${FUZZ_HARNESSES:-front vm vmgen case check dbg}

skip() { echo "SKIP fuzzers: $*"; echo "0 passed, 0 failed"; exit 0; }
command -v "$FUZZ_CC" >/dev/null 2>&1 || skip "no $FUZZ_CC (install clang, with its libFuzzer runtime, to run them)"
probe=$(mktemp -d); trap 'rm -rf "$probe"' EXIT
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
"$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1 ||
    skip "$FUZZ_CC cannot link -fsanitize=fuzzer,address,undefined (its libFuzzer runtime is missing: on Debian, package libclang-rt-NN-dev)"
if ! make -s -j"$(nproc)" FUZZ_CC="$FUZZ_CC" fuzzers > "$probe/build.log" 2>&1; then
    cat "$probe/build.log"; echo "FAIL fuzzers: the harnesses did not build"; echo "0 passed, 1 failed"; exit 1
fi

# ---- seed corpora (regenerated each run; small, never committed) ----------------
CONF=../shared/conformance
S=$O/seeds; W=$O/work
rm -rf "$S" "$W" "$O/bin"; mkdir -p "$O/bin"
for h in $HARNESSES; do cp "$B/fuzz_$h" "$O/bin/"; done   # a rebuild during a long run leaves it alone
mkdir -p "$S"/front "$S"/vm "$S"/vmgen "$S"/case "$S"/check "$S"/dbg "$W"/ptx "$W"/cases/x/expect
ptx_files=$(find tests kernels -name '*.ptx' | sort)
[ -d "$CONF/ptx" ] && ptx_files="$ptx_files $(ls "$CONF"/ptx/*.ptx)"
i=0
for f in $ptx_files; do
    i=$((i + 1))
    cp "$f" "$S/front/$i.ptx"; cp "$f" "$S/vm/$i.ptx"
    [ -e "$W/ptx/$(basename "$f")" ] || ln -s "$ROOT/$f" "$W/ptx/$(basename "$f")"
done
# case files: `ptx` lines point into $W/ptx; the files they name sit in $W/cases/x
seed_case() {   # seed_case CASE OUT: CASE rewritten to OUT, its data files linked into $W/cases/x
    local c=$1 d g t; d=$(dirname "$c")
    sed -E 's|^ptx +(.*/)?([^/ ]+)$|ptx ../../ptx/\2|' "$c" > "$2"
    for g in "$d"/* "$d"/expect/*; do
        [ -f "$g" ] || continue
        case "$g" in *.txt|*.ptx|*.cu) continue;; esac
        t="$W/cases/x/${g#"$d"/}"
        [ -e "$t" ] || ln -s "$ROOT/$g" "$t" 2>/dev/null || ln -s "$(cd "$(dirname "$g")" && pwd)/$(basename "$g")" "$t"
    done
}
i=0
for c in $(find tests/cases kernels tests/debug -name '*.txt' -path '*' | sort) $( [ -d "$CONF/cases" ] && ls "$CONF"/cases/*/case.txt); do
    grep -q '^kernel ' "$c" 2>/dev/null || continue
    i=$((i + 1)); seed_case "$c" "$S/case/$i.txt"
done
# the checker's seeds: the same cases, and the checker's own (races, mask and barrier misuse)
cp "$S"/case/* "$S/check/"
for c in $(find tests/check -name case.txt | sort); do
    i=$((i + 1)); seed_case "$c" "$S/check/$i.txt"
done
cp tests/debug/*.dbg "$S/dbg/"
for i in $(seq 1 16); do head -c 256 /dev/urandom > "$S/vmgen/$i.bin"; done   # 64 instructions each

# ---- regressions, then fuzzing ------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
case $W in /*) wdir=$W;; *) wdir=$ROOT/$W;; esac   # FUZZ_OUT may be absolute
export PTXEMU_FUZZ_DIR=$wdir PTXEMU_FUZZ_ROOT=$ROOT
pass=0 fail=0
opts() {   # libFuzzer options per harness
    case $1 in
        front|vm) echo "-dict=tests/fuzz/ptx.dict -max_len=65536";;
        vmgen) echo "-max_len=1024 -len_control=0";;
        dbg) echo "-dict=tests/fuzz/dbg.dict -max_len=8192";;
        *) echo "-max_len=8192";;
    esac
}
fuzz_one() {   # fuzz_one NAME: fuzz for SECONDS_EACH; writes $O/log/NAME.log
    local h=$1 corpus=$O/corpus/$1 art=$O/artifacts/$1/ fork=
    if [ -z "${FUZZ_KEEP:-}" ]; then corpus=$O/corpus-run/$1; rm -rf "$corpus"; fi
    mkdir -p "$corpus" "$art" "$O/log"
    [ -n "${FUZZ_FORK:-}" ] && fork="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
    # shellcheck disable=SC2046,SC2086
    nice -n "${FUZZ_NICE:-0}" "$O/bin/fuzz_$h" $(opts "$h") $fork -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2560 \
        -print_final_stats=1 -artifact_prefix="$art" "$corpus" "$S/$h" > "$O/log/$h.log" 2>&1
}
report() {   # report NAME STATUS
    local h=$1 rc=$2 log=$O/log/$1.log
    local last; last=$(grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -n 1)
    local stats; stats=$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | sed 's/stat:://' | tr '\n' ' ')
    # fork mode keeps going after a finding and exits 0: its "oom/timeout/crash: A/B/C" counts tell
    if [ "$rc" = 0 ] && echo "$last" | grep -qE 'oom/timeout/crash: ([1-9]|0/[1-9]|0/0/[1-9])'; then rc=1; fi
    if [ "$rc" = 0 ]; then echo "PASS fuzz_$h ${SECONDS_EACH}s: $last | $stats"; pass=$((pass + 1))
    else
        echo "FAIL fuzz_$h (exit $rc): finding in $(ls -t "$O/artifacts/$h/" 2>/dev/null | head -n 1 | sed "s|^|$O/artifacts/$h/|")"
        grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$log" | head -n 25
        fail=$((fail + 1))
    fi
}
for h in $HARNESSES; do
    r=tests/fuzz/regress/$h
    if [ -d "$r" ] && [ -n "$(ls "$r")" ]; then
        if "$O/bin/fuzz_$h" $(opts "$h") -runs=1 "$r"/* > "$O/regress-$h.log" 2>&1; then
            echo "PASS fuzz_$h replays $(ls "$r" | wc -l) regression inputs"; pass=$((pass + 1))
        else
            echo "FAIL fuzz_$h on a regression input:"; grep -E 'Running|ERROR|SUMMARY|runtime error' "$O/regress-$h.log" | head -n 20
            fail=$((fail + 1))
        fi
    fi
done
jobs_max=${FUZZ_JOBS:-1}
declare -A pid_of
for h in $HARNESSES; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    fuzz_one "$h" & pid_of[$h]=$!
done
for h in $HARNESSES; do wait "${pid_of[$h]}"; report "$h" $?; done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]; exit
}
