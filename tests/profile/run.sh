#!/usr/bin/env bash
# tests/profile/run.sh — `ptxemu profile` against Nsight Compute's source
# view recorded on an H100 (tests/profile/ncu/, see README.md there): every
# CUDA line with memory traffic of the own cases (tests/profile/cases) and of
# the conformance mem_*, matmul_tiled, reduce_* and its_diverge_reconverge
# cases (when ../shared/conformance exists); then the output formats, the
# library API (ASan) and the HTML page in headless Chromium (when installed).
set -u
cd "$(dirname "$0")/../.." || exit 2
EMU=build/ptxemu
CONF=../shared/conformance/cases
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
count() {   # count LOGFILE NAME: shows the log (its closing line as "# NAME: ..."), adds the counts up
    local last; last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    grep -vE '^[0-9]+ passed, [0-9]+ failed' "$1"
    if [ -z "$last" ]; then echo "FAIL $2: no 'N passed, N failed' line"; fail=$((fail + 1)); return; fi
    echo "# $2: $last"
    local p=${last%% passed*} f=${last#*, }; f=${f%% failed*}
    pass=$((pass + p)); fail=$((fail + f))
}
"$EMU" test tests/profile/cases > "$T/own.log" 2>&1; count "$T/own.log" "own cases' outputs"
[ -d "$CONF" ] || echo "profile: $CONF not found, the conformance kernels' lines are not compared (CI has it)"
for f in tests/profile/ncu/*.csv; do
    c=$(basename "$f" .csv)
    if [ -d "tests/profile/cases/$c" ]; then case=tests/profile/cases/$c/case.txt
    elif [ -d "$CONF/$c" ]; then case=$CONF/$c/case.txt
    else continue; fi
    if ! "$EMU" profile "$case" --format json --output "$T/$c.json" > "$T/$c.err" 2>&1; then
        echo "FAIL profile $c: ptxemu profile failed: $(head -c 300 "$T/$c.err")"; fail=$((fail + 1)); continue
    fi
    python3 tests/profile/compare.py "$c" "$T/$c.json" "$f" tests/profile/known_differences.txt > "$T/$c.log" 2>&1
    count "$T/$c.log" "lines of $c"
done
python3 tests/profile/check_formats.py "$EMU" > "$T/formats.log" 2>&1; count "$T/formats.log" "output formats"
if make -s -j"$(nproc)" MODE=asan build/asan/libptxemu.a > "$T/asan.log" 2>&1 && mkdir -p build/apitest &&
   cc -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -Iruntime -Ivm -Iparser \
      tests/profile/api_profile.c build/asan/libptxemu.a -lffi -lm -ldl -lreadline -o build/apitest/api_profile >> "$T/asan.log" 2>&1; then
    ASAN_OPTIONS=detect_leaks=1 build/apitest/api_profile > "$T/api.log" 2>&1; count "$T/api.log" "library API"
else cat "$T/asan.log"; echo "FAIL profile API test did not build"; fail=$((fail + 1)); fi
python3 tests/profile/browser.py "$EMU" > "$T/browser.log" 2>&1; count "$T/browser.log" "HTML in Chromium"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
