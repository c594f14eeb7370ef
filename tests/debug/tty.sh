#!/bin/bash
# tests/debug/tty.sh — the interactive mode through a real terminal (tmux):
# the prompt, readline editing (Ctrl-A, Ctrl-E, backspace), history (Up)
# and the output of commands.
cd "$(dirname "$0")" || exit 2
PTXEMU=$(realpath "${PTXEMU:-../../build/ptxemu}")
S=ptxemu-dbg-tty-$$
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 160 -y 50 "$PTXEMU debug diverge.txt; sleep 5"
trap 'tmux kill-session -t "$S" 2>/dev/null' EXIT
wait_for() {    # pattern: polls the pane for up to 5 s
    for _ in $(seq 50); do
        tmux capture-pane -p -t "$S" | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    echo "tty: did not see: $1"; tmux capture-pane -p -t "$S"; return 1
}
wait_for "(ptxemu)" || exit 1
tmux send-keys -t "$S" "break dbgtest.cu:21" Enter
wait_for "Breakpoint 1 at dbgtest.ptx:77" || exit 1
tmux send-keys -t "$S" "run" Enter
wait_for "thread (1,0,0) warp 0 lanes 0xaaaaaaaa" || exit 1
# line editing: type "rint %r2", go to the start (C-a), insert "p", go to
# the end (C-e), rub out "2" and type "1"
tmux send-keys -t "$S" "rint %r2" C-a "p" C-e BSpace "1" Enter
wait_for "%r1 = 1 (0x00000001)" || exit 1
# history: Up recalls "print %r1"; edit it into "print %r2"
tmux send-keys -t "$S" Up BSpace "2" Enter
wait_for "%r2 = 4 (0x00000004)" || exit 1
# an empty line repeats the last command (step)
tmux send-keys -t "$S" "step" Enter
wait_for "=> 78" || exit 1
tmux send-keys -t "$S" Enter
wait_for "=> 79" || exit 1
tmux send-keys -t "$S" "quit" Enter
sleep 0.3
tmux capture-pane -p -t "$S" | grep -c "^(ptxemu)" | grep -qx 7 || { echo "tty: expected 7 prompts"; tmux capture-pane -p -t "$S"; exit 1; }
exit 0
