#!/bin/sh
# Build and run the fp module test against the recorded sm_90 results, then
# the exhaustive (hashed) check of the bit-exact MUFU .approx ops, then the
# whole-warp f16/bf16 rows (vm/fp_rows.c) against the scalar functions, then
# the host's rounding and flush modes (vm/exec.c's .ftz and directed-rounding
# arithmetic) against vm/fp.c.
# Each program prints a PASS or FAIL line per check; the last line sums them
# over the four ("N passed, N failed"; a program that exits nonzero without
# a FAIL line counts as one failure).
cd "$(dirname "$0")/../.." || exit 2
mkdir -p build/fptest
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -O1 -g -Ivm -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
pass=0 fail=0
check() {   # check PROGRAM ARGS...: run it, count its PASS and FAIL lines
    out=$("$@" 2>&1); st=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | grep -c '^PASS') f=$(printf '%s\n' "$out" | grep -c '^FAIL')
    if [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then echo "FAIL $1 exited with status $st"; f=1; fi
    pass=$((pass + p)) fail=$((fail + f))
}
build() {   # build OUT SOURCES...: compile or count a failure
    o=$1; shift
    cc "$@" -o "build/fptest/$o" -lm || { echo "FAIL building $o"; fail=$((fail + 1)); return 1; }
}
build test_fp $CFLAGS vm/fp.c vm/fp_approx.c tests/fp/test_fp.c && check build/fptest/test_fp tests/fp/gpu_results.txt.gz
build mufu_check -std=gnu11 -Wall -Wextra -Werror -O2 -Ivm vm/fp.c vm/fp_approx.c tests/fp/mufu_check.c && check build/fptest/mufu_check
build rows_check -std=gnu11 -Wall -Wextra -Werror -O2 -Ivm vm/fp.c vm/fp_approx.c vm/fp_rows.c tests/fp/rows_check.c && check build/fptest/rows_check
build host_modes -std=gnu11 -Wall -Wextra -Werror -O2 -Ivm vm/fp.c vm/fp_approx.c tests/fp/host_modes.c && check build/fptest/host_modes
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
