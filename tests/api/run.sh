#!/usr/bin/env bash
# tests/api/run.sh — host programs built against libptxemu (MODE=asan):
# saxpy_api (load, copy, launch), check_launch (the checker on a launch
# that no case file describes) and launches_api (many launches in one
# process: blocks still start from zeroed memory) and fused_api (the
# superinstructions of vm/fuse.c give what the single instructions give)
# and sched_api (the default schedule's ageing rule: reconvergence, spin locks).
set -u
cd "$(dirname "$0")/../.." || exit 2
make -s -j"$(nproc)" MODE=asan build/asan/libptxemu.a >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p build/apitest
pass=0 fail=0
for t in saxpy_api check_launch launches_api fused_api sched_api; do
    if ! cc -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -Iruntime -Ivm -Iparser \
           tests/api/$t.c build/asan/libptxemu.a -lffi -lm -ldl -lreadline -pthread -o build/apitest/$t; then
        echo "FAIL build $t"; fail=$((fail + 1)); continue
    fi
    out=$(timeout 600 build/apitest/$t 2>&1); rc=$?     # a hang is a failure, not a stuck CI job
    [ $rc -eq 124 ] && { echo "$out" | tail -n 5; echo "FAIL $t: still running after 600 s"; fail=$((fail + 1)); continue; }
    echo "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
    last=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ -z "$last" ]; then echo "FAIL $t: exited with status $rc"; fail=$((fail + 1)); continue; fi
    p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
    pass=$((pass + p)); fail=$((fail + f))
    [ $rc -ne 0 ] && [ "$f" = 0 ] && { echo "FAIL $t: exited with status $rc"; fail=$((fail + 1)); }
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
