#!/usr/bin/env bash
# tests/exec/run.sh — `ptxemu exec` on real programs: each tests/exec/src
# program built by nvcc (static and -cudart shared, build.sh, into
# build/exec-tests) runs under `ptxemu exec`; its stdout and exit status must
# equal what an H100 gave (expected/NAME.out, NAME.rc, recorded with
# record/record.sh), with every core (the default) and with --jobs 1.  Also: the fat-binary variants, a SASS-only program
# (exit 2), fault messages, exec's options, and the Python tests (cuda.bindings
# with NVRTC; Numba) in a venv under build/ when pip can install them.
# Skips, with the reason, what the machine cannot build.  Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
ptxemu=$root/build/ptxemu
exp=$root/tests/exec/expected
bin=$root/build/exec-tests
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: runs CMD under ptxemu exec in $bin; stdout, stderr, status in $tmp
run() {
    local name=$1; shift
    (cd "$bin" && timeout 300 "$ptxemu" exec "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; echo $? >"$tmp/$name.rc")
}
same() {   # same LABEL NAME EXPECTED-BASENAME
    if ! cmp -s "$tmp/$2.out" "$exp/$3.out"; then bad "$1" "stdout differs from the GPU's: $(diff "$tmp/$2.out" "$exp/$3.out" | head -4 | tr '\n' ' ')"
    elif [ "$(cat "$tmp/$2.rc")" != "$(cat "$exp/$3.rc")" ]; then bad "$1" "exit status $(cat "$tmp/$2.rc"), the GPU's was $(cat "$exp/$3.rc")"
    else ok "$1"; fi
}

# the libraries export their APIs and nothing else
lib=$root/build/release/lib
extra=$( (nm -D --defined-only "$lib/libcuda.so.1"; nm -D --defined-only "$lib/libnvJitLink.so.13") 2>&1 | awk '$2 != "A" && $3 !~ /^(cu[A-Z]|nvJitLink)/')
n=$(nm -D --defined-only "$lib/libcuda.so.1" 2>/dev/null | grep -cE " [TW] cu[A-Z]")
if [ -z "$extra" ] && [ "$n" -gt 600 ]; then ok "libcuda.so.1 exports the driver API only ($n entry points)"
else bad "exported symbols" "$n cu* entry points; others: $(echo "$extra" | head -3 | tr '\n' ' ')"; fi

# the fat-binary reader, without nvcc (committed nvcc outputs in data/)
if cc -std=gnu11 -Wall -Wextra -Werror -Iparser -Ivm -Iruntime -I. -o "$tmp/fatbin_test" tests/exec/fatbin_test.c \
      "$root/build/release/libptxemu.a" -lffi -lm -ldl 2>"$tmp/fb.log"; then
    "$tmp/fatbin_test" tests/exec/data >"$tmp/fb.out" 2>&1
    while read -r line; do
        case $line in PASS*) ok "${line#PASS }" ;; FAIL*) bad "${line#FAIL }" "see above" ;; *) echo "$line" ;; esac
    done <"$tmp/fb.out"
else
    bad "fatbin_test build" "$(head -5 "$tmp/fb.log")"
fi

if out=$(bash tests/exec/build.sh "$bin" 2>&1); then
    for rc in "$exp"/*.rc; do
        b=$(basename "$rc" .rc)
        case $b in *.py) continue ;; esac
        for m in static shared; do
            args=(); [ "$b" = driver ] && args=(.)
            run "$b.$m" "./$b.$m" "${args[@]}"
            same "$b ($m cudart)" "$b.$m" "$b"
        done
    done
    # the same programs with every launch on one thread (the runs above use every core)
    for rc in "$exp"/*.rc; do
        b=$(basename "$rc" .rc)
        case $b in *.py) continue ;; esac
        args=(); [ "$b" = driver ] && args=(.)
        run "$b.j1" --jobs 1 "./$b.static" "${args[@]}"
        same "$b (--jobs 1)" "$b.j1" "$b"
    done
    for v in sm80 multi default xptxas; do
        run "basic.$v" "./basic.$v"
        same "basic built with $v" "basic.$v" basic
    done
    run sass ./basic.sassonly
    if [ "$(cat "$tmp/sass.rc")" = 2 ] && grep -q -- "-gencode arch=compute_90,code=compute_90" "$tmp/sass.err"; then ok "SASS-only program: exit 2 naming the flag"
    else bad "SASS-only program" "status $(cat "$tmp/sass.rc"): $(head -2 "$tmp/sass.err")"; fi
    grep -qF 'assert.cu:9: void check(const int *, int): block: [0,0,0], thread: [3,0,0] Assertion `v[i] >= 0` failed.' "$tmp/assert.static.err" \
        && ok "assert message on stderr, as the GPU prints it" || bad "assert message" "$(head -2 "$tmp/assert.static.err")"
    grep -q "illegal address: write of 4 bytes in global space at 0x10" "$tmp/illegal.static.err" && grep -q "illegal.cu:5" "$tmp/illegal.static.err" \
        && ok "fault message names the address and the CUDA line" || bad "fault message" "$(head -3 "$tmp/illegal.static.err")"
    run hostptr ./hostptr.static
    if [ "$(cat "$tmp/hostptr.rc")" = 1 ] && grep -q "the address is host memory" "$tmp/hostptr.err" && grep -q "700 cudaErrorIllegalAddress" "$tmp/hostptr.out"; then
        ok "a host pointer faults with a message saying so"
    else bad "host pointer" "status $(cat "$tmp/hostptr.rc"): $(head -3 "$tmp/hostptr.err")"; fi
    run report --report "$tmp/r.json" --jobs 2 --timeout 60 ./illegal.static
    if [ "$(cat "$tmp/report.rc")" = 3 ] && grep -q '"kind":"fault"' "$tmp/r.json" && grep -q '"exit_status":3' "$tmp/r.json"; then ok "--report JSON, --jobs, --timeout; status passes through"
    else bad "--report" "status $(cat "$tmp/report.rc"): $(head -c 300 "$tmp/r.json" 2>/dev/null)"; fi
    run spin --timeout 1 ./spin.static
    if grep -q "702 cudaErrorLaunchTimeout" "$tmp/spin.out" && grep -q "limit" "$tmp/spin.err"; then ok "--timeout stops a spinning kernel: cudaErrorLaunchTimeout"
    else bad "--timeout" "$(cat "$tmp/spin.out") $(head -2 "$tmp/spin.err")"; fi
    run sarif --report "$tmp/r.sarif" ./illegal.shared
    grep -q '"version":"2.1.0"' "$tmp/r.sarif" 2>/dev/null && grep -q '"ruleId":"fault"' "$tmp/r.sarif" && ok "--report SARIF" || bad "--report SARIF" "$(head -c 300 "$tmp/r.sarif" 2>/dev/null)"
    run check --check --report "$tmp/c.json" ./warpsync.static
    if [ "$(cat "$tmp/check.rc")" = 1 ] && cmp -s "$tmp/check.out" "$exp/warpsync.out" && grep -q "^kernel _Z6reducePKiPi (launch 1): " "$tmp/check.err" &&
       grep -q "^race: volatile read of shared memory" "$tmp/check.err" && grep -q "warpsync.cu:15" "$tmp/check.err" && grep -q '"kind":"finding"' "$tmp/c.json"; then
        ok "--check finds the warp-synchronous race (exit 1, program output unchanged)"
    else bad "--check on warpsync" "status $(cat "$tmp/check.rc"): $(grep -m2 -v '^$' "$tmp/check.err" | tr '\n' ' ')"; fi
    run check2 --check ./basic.shared
    [ "$(cat "$tmp/check2.rc")" = 0 ] && cmp -s "$tmp/check2.out" "$exp/basic.out" && ! grep -q "finding" "$tmp/check2.err" \
        && ok "--check on a correct program: no finding, exit 0" || bad "--check on basic" "status $(cat "$tmp/check2.rc"): $(head -3 "$tmp/check2.err")"
    # --profile: basic.cu launches fill twice over n = 1000 ints (4 blocks of 256): each launch
    # stores from 32 warps (the last with 8 lanes), one request each, 4000 bytes = 125 sectors
    run prof --profile "$tmp/prof" ./basic.static
    if [ "$(cat "$tmp/prof.rc")" = 0 ] && cmp -s "$tmp/prof.out" "$exp/basic.out" &&
       grep -q "profile of _Z4fillPiii (2 launches): $tmp/prof/_Z4fillPiii.html" "$tmp/prof.err" &&
       grep -q "profile of _Z5helloi (3 launches)" "$tmp/prof.err" && [ -s "$tmp/prof/_Z7reversePii.html" ] &&
       python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]; sys.exit(not (t["global_requests"]==64 and t["global_sectors"]==250))' "$tmp/prof/_Z4fillPiii.json"; then
        ok "--profile: one profile per kernel over its launches (JSON and HTML), program output unchanged"
    else bad "--profile" "status $(cat "$tmp/prof.rc"): $(head -3 "$tmp/prof.err")"; fi
    run profcheck --profile "$tmp/prof2" --check ./basic.static
    [ "$(cat "$tmp/profcheck.rc")" = 2 ] && grep -q "use one at a time" "$tmp/profcheck.err" && ok "--profile with --check: a usage error" || bad "--profile --check" "$(head -2 "$tmp/profcheck.err")"
    run trace --trace ./warpsync.static
    grep -q "cuGetExportTable(INTEGRITY_CHECK)" "$tmp/trace.err" && cmp -s "$tmp/trace.out" "$exp/warpsync.out" && ok "--trace prints the driver calls" || bad "--trace" "$(tail -2 "$tmp/trace.err")"
    run trace2 --trace --jobs 2 ./basic.static
    grep -q "_Z4fillPiii: ok, .* on 2 host threads$" "$tmp/trace2.err" && cmp -s "$tmp/trace2.out" "$exp/basic.out" \
        && ok "--jobs 2: a launch of several blocks runs on 2 host threads (--trace says so)" || bad "--jobs 2" "$(grep -m2 'host thread' "$tmp/trace2.err")"
    grep -qE "launch #1 threads: in blocks [0-9]+% of 2 x [0-9.]+ ms, the last began at [0-9.]+ ms, the first found none left at [0-9.]+ ms$" "$tmp/trace2.err" \
        && ok "--trace says where a launch's 2 host threads spent it" || bad "--trace threads line" "$(grep -m2 'threads:' "$tmp/trace2.err")"
    # varies.cu (small, large, small, large, large, large): its second launch is guessed small
    # from its first (one thread), wrongly; its fourth, no longer guessed, runs on both; the
    # fifth is timed on both, the sixth on one (which then wins depends on the timings)
    run varies2 --trace --jobs 2 ./varies.static
    grep -q "launch #2 _Z6strideiPj: ok, .* on 1 host thread: a small launch" "$tmp/varies2.err" &&
        grep -q "launch #4 _Z6strideiPj: ok, .* on 2 host threads$" "$tmp/varies2.err" &&
        grep -q "launch #6 _Z6strideiPj: ok, .* on 1 host thread: timing this kernel on one thread" "$tmp/varies2.err" &&
        cmp -s "$tmp/varies2.out" "$exp/varies.out" \
        && ok "--jobs 2: after a launch wrongly guessed small, the kernel's launches are no longer guessed; the third large one is timed on one thread" \
        || bad "guessed small launches" "$(grep 'strideiPj: ok' "$tmp/varies2.err" | tr '\n' ' ')"
    # fill's second launch is as small as its first (17 K lane-instructions): one thread
    grep -q "launch #2 _Z4fillPiii: ok, .* on 1 host thread: a small launch (about 17312 lane-instructions" "$tmp/trace2.err" \
        && ok "--jobs 2: a small launch after a small one of the same kernel runs on one thread" || bad "small launch" "$(grep -m3 'fillPiii: ok' "$tmp/trace2.err")"
    (cd "$bin" && "$ptxemu" exec ./no-such-program >/dev/null 2>"$tmp/nx.err"; echo $? >"$tmp/nx.rc")
    [ "$(cat "$tmp/nx.rc")" = 127 ] && grep -q "cannot run ./no-such-program" "$tmp/nx.err" && ok "a missing program: status 127 and a message" || bad "missing program" "$(cat "$tmp/nx.rc") $(cat "$tmp/nx.err")"
else
    echo "skip: nvcc builds ($(echo "$out" | tail -1)); the nvcc-built programs are not run"
fi

# Python: cuda.bindings + NVRTC, and Numba-CUDA, in build/pyenv
py=${PTXEMU_TEST_PYTHON:-$root/build/pyenv/bin/python3}
if [ ! -x "$py" ] && command -v python3 >/dev/null; then
    if ! python3 -m venv "$root/build/pyenv" >"$tmp/pip.log" 2>&1; then
        echo "skip: python3 cannot make a venv (install python3-venv): $(tail -1 "$tmp/pip.log")"
        rm -rf "$root/build/pyenv"
    elif timeout 300 "$root/build/pyenv/bin/pip" install -q --timeout 20 --retries 1 "cuda-bindings>=13" nvidia-cuda-nvrtc "numba-cuda[cu13]" "numpy<2.5" >"$tmp/pip.log" 2>&1; then
        :
    else
        echo "skip: cannot install cuda-bindings/numba-cuda with pip ($(tail -1 "$tmp/pip.log" 2>/dev/null))"
        rm -rf "$root/build/pyenv"
    fi
fi
if [ -x "$py" ] && "$py" -c "import cuda.bindings.driver, cuda.bindings.nvrtc, numba.cuda, numpy" 2>/dev/null; then
    for t in "$exp"/*.py.out; do
        b=$(basename "$t" .out)
        (timeout 300 "$ptxemu" exec "$py" "$root/tests/exec/py/$b" >"$tmp/$b.out" 2>"$tmp/$b.err"; echo $? >"$tmp/$b.rc")
        same "python $b" "$b" "$b"
    done
else
    echo "skip: no Python with cuda.bindings (set PTXEMU_TEST_PYTHON, or let this script pip-install it into build/pyenv)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
