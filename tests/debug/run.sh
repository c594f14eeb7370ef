#!/bin/bash
# tests/debug/run.sh — the debugger's scripted sessions: each NAME.dbg is run
# with `ptxemu debug ARGS -x NAME.dbg --echo` (ARGS from its "# args:" line,
# paths relative to this directory) and its output compared with NAME.out.
# tty.sh drives the interactive mode through tmux.  UPDATE=1 rewrites the
# expected transcripts.  Prints PASS/FAIL per test and "N passed, N failed".
cd "$(dirname "$0")" || exit 2
PTXEMU=${PTXEMU:-../../build/ptxemu}
pass=0 fail=0
for t in *.dbg; do
    name=${t%.dbg}
    args=$(sed -n '1s/^# args: //p' "$t")
    # shellcheck disable=SC2086
    out=$(timeout 20 "$PTXEMU" debug $args -x "$t" --echo 2>&1)
    if [ -n "$UPDATE" ]; then printf '%s\n' "$out" > "$name.out"; fi
    if diff -u "$name.out" <(printf '%s\n' "$out") > "/tmp/ptxemu-debug-$name.diff" 2>&1; then
        echo "PASS $name"; pass=$((pass + 1)); rm -f "/tmp/ptxemu-debug-$name.diff"
    else
        echo "FAIL $name"; head -40 "/tmp/ptxemu-debug-$name.diff"; fail=$((fail + 1))
    fi
done
# the same session through stdin (not a terminal) gives the same transcript
if [ -f diverge.out ]; then
    out=$(sed -n '2,$p' diverge.dbg | timeout 20 "$PTXEMU" debug diverge.txt --echo 2>&1)
    if [ "$out" == "$(cat diverge.out)" ]; then echo "PASS stdin"; pass=$((pass + 1))
    else echo "FAIL stdin"; fail=$((fail + 1)); fi
fi
if command -v tmux > /dev/null; then
    if PTXEMU="$PTXEMU" bash tty.sh; then echo "PASS tty"; pass=$((pass + 1))
    else echo "FAIL tty"; fail=$((fail + 1)); fi
else
    echo "SKIP tty (no tmux)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
