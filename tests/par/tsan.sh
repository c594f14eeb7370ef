#!/usr/bin/env bash
# tests/par/tsan.sh — the parallel launch (vm/par.c: workers, helper threads,
# shadow words, undo copies) and the slot memory pool under ThreadSanitizer
# (make MODE=tsan): the cases whose blocks share memory in every way
# (tests/par/cases) and the example kernels, with --jobs 4, three times over
# (timing decides which worker meets which block first).  Any ThreadSanitizer
# report fails; so does the race of a counter added to worker_main.
# tests/api/launches_api.c, built here against the ThreadSanitizer library,
# covers the helper threads kept from one launch to the next in one process
# (a helper watching the queue takes the next launch's worker without being
# woken, and the launch watches for the helpers' end).  Also `check --jobs 2`
# (schedules on two threads) on three cases.
set -u
cd "$(dirname "$0")/../.." || exit 2
if ! make -s -j"$(nproc)" MODE=tsan build/tsan/ptxemu >/dev/null 2>&1; then
    echo "FAIL the ThreadSanitizer build (make MODE=tsan)"; echo "0 passed, 1 failed"; exit 1
fi
if ! build/tsan/ptxemu --version >/dev/null 2>&1; then
    # some kernels' address-space layouts are not supported by ThreadSanitizer's runtime
    echo "SKIP ThreadSanitizer's runtime does not start on this machine (build/tsan/ptxemu --version fails)"
    echo "0 passed, 0 failed"; exit 0
fi
pass=0 fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
for round in 1 2 3; do
    TSAN_OPTIONS="halt_on_error=0 exitcode=66 atexit_sleep_ms=0" build/tsan/ptxemu test --jobs 4 -j 1 tests/par/cases kernels >"$log" 2>&1
    rc=$?
    reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ "$reports" = 0 ] && [ "$rc" = 0 ] && [ -n "$summary" ] && [ "${summary#*, }" = "0 failed" ]; then
        echo "PASS round $round: $summary, no ThreadSanitizer report"; pass=$((pass + 1))
    else
        grep -A30 'WARNING: ThreadSanitizer' "$log" | head -60
        echo "FAIL round $round: exit $rc, $reports ThreadSanitizer report(s), cases: ${summary:-none}"; fail=$((fail + 1))
    fi
done
# the checker's schedules on two threads, sharing the pool of shadow pages (runtime/check.c),
# and schedule 0 of a large schedule-free launch split over two threads (check_run.c)
for c in tests/bench/reduce.txt tests/check/cases/race_global_blocks/case.txt tests/check/cases/race_shared_warp/case.txt \
         tests/check/schedfree/sf_split_uninit_last.txt; do
    [ -f "$c" ] || continue
    TSAN_OPTIONS="halt_on_error=0 exitcode=66 atexit_sleep_ms=0" build/tsan/ptxemu check "$c" --jobs 2 >"$log" 2>&1
    reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
    if [ "$reports" = 0 ]; then echo "PASS check --jobs 2 $c: no ThreadSanitizer report"; pass=$((pass + 1))
    else grep -A30 'WARNING: ThreadSanitizer' "$log" | head -40; echo "FAIL check --jobs 2 $c: $reports report(s)"; fail=$((fail + 1)); fi
done
# back-to-back launches in one process, on one thread and on two
if make -s -j"$(nproc)" MODE=tsan build/tsan/libptxemu.a >/dev/null 2>&1 &&
   cc -std=gnu11 -g -fsanitize=thread -Iruntime -Ivm -Iparser tests/api/launches_api.c build/tsan/libptxemu.a \
      -lffi -lm -ldl -lreadline -pthread -o build/tsan/launches_api 2>"$log"; then
    # (its last check forks a child that launches: ThreadSanitizer allows that only when told)
    TSAN_OPTIONS="halt_on_error=0 exitcode=66 atexit_sleep_ms=0 die_after_fork=0" build/tsan/launches_api >"$log" 2>&1
    rc=$?
    reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ "$reports" = 0 ] && [ "$rc" = 0 ] && [ "${summary#*, }" = "0 failed" ]; then
        echo "PASS launches_api: $summary, no ThreadSanitizer report"; pass=$((pass + 1))
    else
        grep -A30 'WARNING: ThreadSanitizer' "$log" | head -60
        echo "FAIL launches_api: exit $rc, $reports ThreadSanitizer report(s), ${summary:-no summary}"; fail=$((fail + 1))
    fi
else
    cat "$log"; echo "FAIL launches_api did not build with ThreadSanitizer"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
