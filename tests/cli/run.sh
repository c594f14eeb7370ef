#!/usr/bin/env bash
# tests/cli/run.sh — command-line manners: `ptxemu help` lists the commands;
# for every command it lists, `ptxemu CMD --help`, `-h` and `ptxemu help CMD`
# print the same usage and exit 0; unknown options name themselves and print
# the command's usage (exit 2); a missing value names its option; unknown
# commands are refused (exit 2); `--version` prints the VERSION file's
# version; the bash completion script completes commands, options and
# values.  Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
P=${PTXEMU:-build/ptxemu}
pass=0 fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
CASE=kernels/saxpy/case.txt

# run NAME -- COMMAND...: stdout in $TMP/out, stderr in $TMP/err, status in rc
run() { shift 2; "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?; }

# ---- ptxemu help: the command list -------------------------------------------
run help -- "$P" help
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$TMP/out")
if [ $rc = 0 ] && grep -q '^usage: ptxemu COMMAND' "$TMP/out"; then ok "help: exit 0 with a usage line"
else bad "help: exit $rc: $(head -c 300 "$TMP/out" "$TMP/err")"; fi
for want in run test dis check debug; do
    if grep -qx "$want" <<<"$cmds"; then ok "help lists $want"; else bad "help does not list $want: $cmds"; fi
done
run --help -- "$P" --help
if [ $rc = 0 ] && cmp -s <("$P" help) "$TMP/out"; then ok "--help prints what help prints"; else bad "--help: exit $rc or different text"; fi
run none -- "$P"
if [ $rc = 2 ] && grep -q 'missing COMMAND' "$TMP/err" && grep -q '^commands:' "$TMP/err"; then ok "no command: exit 2, the list on stderr"
else bad "no command: exit $rc: $(head -c 300 "$TMP/err")"; fi

# ---- per command: --help, -h, help CMD; unknown options ----------------------
for c in $cmds; do
    run "$c --help" -- "$P" "$c" --help
    if [ $rc = 0 ] && head -n 1 "$TMP/out" | grep -q "^usage: ptxemu $c\\b" && [ ! -s "$TMP/err" ]; then ok "$c --help: exit 0, usage on stdout"
    else bad "$c --help: exit $rc: $(head -c 300 "$TMP/out" "$TMP/err")"; fi
    cp "$TMP/out" "$TMP/usage"
    grep -q -- '--help' "$TMP/usage" && ok "$c usage lists --help" || bad "$c usage does not list --help"
    run "help $c" -- "$P" help "$c"
    if [ $rc = 0 ] && cmp -s "$TMP/out" "$TMP/usage"; then ok "help $c = $c --help"; else bad "help $c: exit $rc or different text"; fi
    run "$c -h" -- "$P" "$c" -h
    if [ $rc = 0 ] && cmp -s "$TMP/out" "$TMP/usage"; then ok "$c -h = $c --help"; else bad "$c -h: exit $rc or different text"; fi
    run "$c --no-such-option" -- "$P" "$c" --no-such-option
    if [ $rc = 2 ] && head -n 1 "$TMP/err" | grep -qx "ptxemu $c: unknown option '--no-such-option'" &&
       grep -q "^usage: ptxemu $c\\b" "$TMP/err"; then ok "$c: an unknown option names itself, then the usage (exit 2)"
    else bad "$c --no-such-option: exit $rc: $(head -c 300 "$TMP/err")"; fi
done

# ---- the man page names every option each command's usage lists ---------------------
man=$(sed 's/\\//g' docs/ptxemu.1)
for c in $cmds; do
    missing=""
    for o in $("$P" help "$c" | grep -oE -- '(^|[[ ])--?[a-zA-Z][a-z-]*' | tr -d ' [' | sort -u); do
        grep -qF -- "$o" <<<"$man" || missing="$missing $o"
    done
    [ -z "$missing" ] && ok "docs/ptxemu.1 names every option of $c" || bad "docs/ptxemu.1 lacks options of $c:$missing"
done

# ---- --help after the case file too (not for a command that runs a program: there
# it belongs to the program)
for c in run test dis check debug; do
    run "$c ARG --help" -- "$P" "$c" "$CASE" --help
    if [ $rc = 0 ] && cmp -s "$TMP/out" <("$P" help "$c"); then ok "$c CASE --help prints the usage"; else bad "$c CASE --help: exit $rc"; fi
done

# ---- unknown options and missing values after the file ---------------------------
for c in run check debug; do
    run "$c CASE --bogus 1" -- "$P" "$c" "$CASE" --bogus 1
    if [ $rc = 2 ] && head -n 1 "$TMP/err" | grep -qx "ptxemu $c: unknown option '--bogus'" && grep -q "^usage: ptxemu $c" "$TMP/err"
    then ok "$c CASE --bogus: named, usage, exit 2"; else bad "$c CASE --bogus: exit $rc: $(head -c 300 "$TMP/err")"; fi
    run "$c CASE --timeout" -- "$P" "$c" "$CASE" --resident
    if [ $rc = 2 ] && head -n 1 "$TMP/err" | grep -qx "ptxemu $c: option '--resident' needs a value"
    then ok "$c CASE --resident: the option that needs a value is named"; else bad "$c CASE --resident: exit $rc: $(head -c 300 "$TMP/err")"; fi
done
run "run --timeout 5 CASE" -- "$P" run --timeout 5 "$CASE"
if [ $rc = 2 ] && grep -q "option '--timeout' comes before CASE.txt or FILE.ptx; put the file first" "$TMP/err"
then ok "an option before the case file says to put the file first"; else bad "run --timeout 5 CASE: exit $rc: $(head -c 300 "$TMP/err")"; fi
run "run missing" -- "$P" run
if [ $rc = 2 ] && head -n 1 "$TMP/err" | grep -qx "ptxemu run: missing CASE.txt or FILE.ptx"; then ok "run without a file: what is missing, exit 2"
else bad "run without a file: exit $rc: $(head -c 300 "$TMP/err")"; fi
run "check --format xml" -- "$P" check "$CASE" --format xml
if [ $rc = 2 ] && grep -q "unknown format 'xml'; use --format text, json or sarif" "$TMP/err"; then ok "check --format xml names the choices"
else bad "check --format xml: exit $rc: $(head -c 300 "$TMP/err")"; fi

# ---- unknown commands ------------------------------------------------------------------
run frob -- "$P" frobnicate
if [ $rc = 2 ] && head -n 1 "$TMP/err" | grep -q "^ptxemu: unknown command 'frobnicate'" && grep -q '^commands:' "$TMP/err"
then ok "unknown command: named, the list, exit 2"; else bad "unknown command: exit $rc: $(head -c 300 "$TMP/err")"; fi
run "help frob" -- "$P" help frobnicate
if [ $rc = 2 ] && grep -q "unknown command 'frobnicate'" "$TMP/err"; then ok "help of an unknown command: exit 2"
else bad "help frobnicate: exit $rc"; fi

# ---- --version ------------------------------------------------------------------------
run version -- "$P" --version
if [ $rc = 0 ] && [ "$(cat "$TMP/out")" = "ptxemu $(tr -d ' \n' < VERSION)" ]; then ok "--version prints the VERSION file's version"
else bad "--version: exit $rc: $(cat "$TMP/out")"; fi

# ---- bash completion -------------------------------------------------------------------
if command -v bash >/dev/null; then
    comp() {   # comp WORDS...: the completions of the last word
        bash -c 'source tools/ptxemu.bash-completion; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _ptxemu; echo "${COMPREPLY[*]}"' _ "$@"
    }
    got=$(comp "$P" "")
    for c in $cmds; do
        [[ " $got " == *" $c "* ]] || { bad "completion of commands lacks $c: $got"; continue 2; }
    done
    ok "completion offers every command"
    got=$(comp "$P" check "$CASE" --fo)
    [ "$got" = "--format" ] && ok "completion of check --fo is --format" || bad "completion of check --fo: '$got'"
    got=$(comp "$P" check "$CASE" --format "")
    [ "$got" = "text json sarif" ] && ok "completion of --format values" || bad "completion of --format values: '$got'"
    got=$(comp "$P" run tests/limits/limits.ptx --kernel spi)
    [ "$got" = "spin" ] && ok "completion of --kernel reads the .ptx file" || bad "completion of --kernel: '$got'"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
