#!/bin/bash
# run.sh — builds and runs the runtime module tests (casefile, printf, ffi)
# with the sanitizers.  Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
OUT=$(mktemp -d /tmp/rt_tests.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
CC=${CC:-cc}
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -g -O1 \
 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
 -Iparser -Iruntime -Itests/runtime"
DIAG=parser/diag.c

log=$OUT/log
: > "$log"
build() {   # name sources...
    local name=$1; shift
    if ! $CC $CFLAGS -o "$OUT/$name" "$@" -lffi -ldl -lm 2> "$OUT/$name.err"; then
        echo "FAIL build $name: $(head -c 2000 "$OUT/$name.err")" | tee -a "$log"
        return 1
    fi
}
run() {     # name args...
    local name=$1; shift
    ASAN_OPTIONS=detect_leaks=1 "$OUT/$name" "$@" > "$OUT/$name.out" 2>&1
    local rc=$?
    cat "$OUT/$name.out" | tee -a "$log"
    if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$OUT/$name.out"; then
        echo "FAIL $name: exited with status $rc" | tee -a "$log"
    fi
}

if build test_casefile tests/runtime/test_casefile.c runtime/casefile.c "$DIAG"; then
    run test_casefile
fi
if [ -f tests/runtime/test_printf.c ] &&
   build test_printf tests/runtime/test_printf.c runtime/printf.c; then
    run test_printf
fi
if [ -f tests/runtime/test_ffi.c ]; then
    if $CC -shared -fPIC -o "$OUT/libffitest.so" tests/runtime/ffi_testlib.c 2> "$OUT/lib.err"; then
        if build test_ffi tests/runtime/test_ffi.c runtime/hostcall.c; then
            run test_ffi "$OUT/libffitest.so" "$OUT"
        fi
    else
        echo "FAIL build libffitest.so: $(cat "$OUT/lib.err")" | tee -a "$log"
    fi
fi

pass=$(grep -c '^PASS' "$log")
fail=$(grep -c '^FAIL' "$log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
