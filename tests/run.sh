#!/usr/bin/env bash
# tests/run.sh — everything `make test` runs, suite by suite; each suite
# prints its own lines and "N passed, N failed"; this script adds them up and
# ends with the total "N passed, N failed" (exit 1 if anything failed).  A
# suite that exits nonzero while its last line counts no failure counts one.
#
#   layers     tests/layers.sh: no include of or call into a layer above
#   cli        tests/cli/run.sh: --help/help CMD, unknown options, --version, completion
#   unit       parser (ASan), runtime modules (ASan), fp vs GPU-recorded results (vm/fp.c
#              alone, then the exact f32/f64 forms through whole warps: tests/fp/vm_replay.py)
#   own cases  tests/cases and kernels/ (goldens recorded on an H200), also through the
#              dispatch loop's base copy (PTXEMU_NO_AVX2=1), as is the conformance suite;
#              tests/vm/rowdiff.py compares the two copies form by form, and
#              tests/vm/avx2_same.sh every case's digest with and without AVX2
#   checker    tests/check, debugger tests/debug (when present)
#   memory     tests/memory/run.sh: guest memory bounds (shared window, windows, calls)
#   exec       tests/exec: nvcc-built programs and Python under `ptxemu exec`
#   profile    tests/profile: per-line counters vs Nsight Compute, formats, HTML in Chromium
#   fuzzers    tests/fuzz/run.sh 10: each libFuzzer harness for 10 s (skipped without clang)
#   conformance ../shared/conformance/cases (when the directory exists)
#   sanitizer  the own cases and the conformance suite again under MODE=asan; the
#              parallel launch under MODE=tsan (tests/par/tsan.sh)
set -u
cd "$(dirname "$0")/.." || exit 2
total_pass=0 total_fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

suite() {   # suite NAME COMMAND...
    local name=$1; shift
    echo "== $name"
    local t0=$SECONDS
    "$@" 2>&1 | tee "$log"
    local st=${PIPESTATUS[0]}
    echo "-- $name: $((SECONDS - t0)) s"
    local last; last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$last" ]; then
        echo "FAIL $name: the suite printed no 'N passed, N failed' line"
        total_fail=$((total_fail + 1)); return
    fi
    local p f; p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
    if [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: the suite exited with status $st but counted no failure"
        f=1
    fi
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}

suite "layers (dependency rule)" bash tests/layers.sh
suite "parser" bash tests/parser/run.sh
suite "runtime modules" bash tests/runtime/run.sh
suite "floating point vs H200" bash tests/fp/run.sh
suite "vm" bash tests/vm/run.sh
suite "vm arithmetic vs H200 (whole warps)" python3 tests/fp/vm_replay.py build/ptxemu
suite "compiler errors" bash tests/compile/run.sh
suite "limits and bad input" bash tests/limits/run.sh
suite "library API" bash tests/api/run.sh
suite "guest memory bounds" bash tests/memory/run.sh
suite "command line (help, options, version, completion)" bash tests/cli/run.sh
suite "own cases" build/ptxemu test tests/cases kernels
# the same through the base copy of the dispatch loop (what a CPU without AVX2 runs)
suite "own cases, base loop (PTXEMU_NO_AVX2)" env PTXEMU_NO_AVX2=1 build/ptxemu test tests/cases kernels
suite "vm arithmetic vs H200, base loop" env PTXEMU_NO_AVX2=1 python3 tests/fp/vm_replay.py build/ptxemu
# the AVX2 copy's whole-warp rows against the base copy, form by form, on random and edge operands
suite "AVX2 rows vs the base loop" python3 tests/vm/rowdiff.py build/ptxemu
suite "AVX2 copies vs base copies, case by case (digests)" bash tests/vm/avx2_same.sh
suite "parallel launches (--jobs)" bash tests/par/run.sh
suite "parallel launches under ThreadSanitizer (MODE=tsan)" bash tests/par/tsan.sh
suite "ptxemu exec (nvcc-built programs, Python)" bash tests/exec/run.sh
[ -x tests/check/run.sh ] || [ -f tests/check/run.sh ] && suite "checker" bash tests/check/run.sh
[ -f tests/debug/run.sh ] && suite "debugger" bash tests/debug/run.sh
suite "profile vs Nsight Compute's source view (H100)" bash tests/profile/run.sh
CONF=../shared/conformance/cases
if [ -d "$CONF" ]; then
    suite "conformance (H200 goldens)" build/ptxemu test "$CONF"
    suite "conformance, base loop (PTXEMU_NO_AVX2)" env PTXEMU_NO_AVX2=1 build/ptxemu test "$CONF"
    suite "memory statistics vs Nsight Compute (H200)" bash tests/memstats.sh
else
    echo "== conformance: $CONF not found, suite not run (CI has it)"
fi
echo "== sanitizer build (MODE=asan)"
if make -s -j"$(nproc)" MODE=asan build/asan/ptxemu >"$log" 2>&1; then
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    suite "own cases under ASan/UBSan" build/asan/ptxemu test tests/cases kernels tests/par/cases
    [ -d "$CONF" ] && suite "conformance under ASan/UBSan" build/asan/ptxemu test "$CONF"
    suite "guest memory bounds under ASan/UBSan" env PTXEMU=build/asan/ptxemu bash tests/memory/run.sh
else
    cat "$log"; echo "FAIL asan build"; total_fail=$((total_fail + 1))
fi
suite "fuzzers (10 s each, ASan/UBSan)" bash tests/fuzz/run.sh 10
echo "== total"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
