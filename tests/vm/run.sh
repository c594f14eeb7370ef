#!/usr/bin/env bash
# tests/vm/run.sh — the VM's own tests, suite by suite:
#   opcode table   tests/vm/test_ops.c (names, formats of vm/ops.def)
#   vm cases       build/ptxemu test tests/vm/cases (instruction-level cases, H200 goldens)
#   coverage       tests/vm/coverage.sh (every opcode of vm/ops.def used by some test)
#   ffi            tests/vm/ffi.sh (.extern functions called on the host through libffi)
#   resident       tests/vm/resident.sh (--resident N, cooperative launches with grid-wide sync)
#   switch         vm/exec.c compiles as a plain switch too (DISPATCH=switch), both copies
#   ftz, rows      tests/vm/ftz: add/sub/mul/fma.rn.ftz.f32 around 2^-126; tests/vm/rows: every
#                  instruction with another whole-warp fast path (f16/bf16, cvt.rXi, div/rem .32,
#                  sqrt.approx, bfind, .ftz.f32 lane by lane, red.add.f32), in whole warps and
#                  guarded; tests/vm/vecmem: .v2/.v4 loads and stores side by side, strided,
#                  guarded, through shared memory; tests/vm/fp8: the FP8 conversions (every f16 value,
#                  every FP8 byte); all against an H200, with and without AVX2
# Each suite prints its own lines and "N passed, N failed"; the last line of this
# script is ONE "N passed, N failed" summing them (tests/run.sh reads only that one).
set -u
cd "$(dirname "$0")/../.." || exit 2
mkdir -p build/vmtest
total_pass=0 total_fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

suite() {   # suite NAME COMMAND...
    local name=$1; shift
    echo "-- $name"
    "$@" >"$log" 2>&1
    # the suite's own total becomes a "# NAME: ..." line, so that only the last line reads as a total
    sed -E 's/^([0-9]+ passed, [0-9]+ failed)$/# '"$name"': \1/' "$log"
    local last; last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$last" ]; then
        echo "FAIL $name: the suite printed no 'N passed, N failed' line"
        total_fail=$((total_fail + 1)); return
    fi
    local p f; p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}

build_test_ops() {
    make -s build/release/libptxemu.a &&
    cc -std=gnu11 -Wall -Wextra -Werror -Ivm -Iparser -Iruntime tests/vm/test_ops.c build/release/libptxemu.a -lffi -lm -ldl -o build/vmtest/test_ops &&
    build/vmtest/test_ops
}
# DISPATCH=switch (no computed goto): both copies of the dispatch loop still compile
# without a warning (a handler falling into the next must say so: vmfallthrough)
build_switch() {
    local gen; gen=$(ls -d build/release/gen 2>/dev/null) || { echo "FAIL no build/release/gen"; echo "0 passed, 1 failed"; return; }
    local pass=0 fail=0 v
    for v in "" "-DVM_EXEC_VARIANT -mavx2 -mpopcnt -mbmi -mbmi2 -mlzcnt"; do
        if cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation -I. -I"$gen" -Iparser -Ivm \
              -Iruntime -Ilexer -O0 -DVM_EXEC_AVX2 -DPTXEMU_NO_COMPUTED_GOTO $v -c vm/exec.c -o build/vmtest/exec_switch.o; then
            echo "PASS switch dispatch compiles ${v:+(AVX2 copy)}"; pass=$((pass + 1))
        else echo "FAIL switch dispatch does not compile ${v:+(AVX2 copy)}"; fail=$((fail + 1)); fi
    done
    echo "$pass passed, $fail failed"
}
[ -x build/ptxemu ] || make -s >/dev/null 2>&1

suite "opcode table" build_test_ops
suite "vm cases" build/ptxemu test tests/vm/cases
suite "opcode coverage" bash tests/vm/coverage.sh
suite "ffi" bash tests/vm/ffi.sh
suite "resident" bash tests/vm/resident.sh
suite "switch dispatch" build_switch
suite "fast paths vs H200 (AVX2)" build/ptxemu test tests/vm/ftz tests/vm/rows tests/vm/vecmem tests/vm/fp8
suite "fast paths vs H200 (base copy)" env PTXEMU_NO_AVX2=1 build/ptxemu test tests/vm/ftz tests/vm/rows tests/vm/vecmem tests/vm/fp8
# one host thread: global atomics then take the group path (group_base) that a parallel launch skips
suite "fast paths vs H200 (one host thread)" build/ptxemu test --jobs 1 tests/vm/ftz tests/vm/rows tests/vm/vecmem tests/vm/fp8 tests/cases/atomics_all
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
