#!/usr/bin/env bash
# tests/layers.sh — the dependency rule of docs/ARCHITECTURE.md: arrows only
# point down.  Layers, lowest first:
#   lexer/, parser/   the front end (may include vm/mnemonics.def, the one
#                     instruction-name table, and nothing else above it)
#   vm/               the SM and its guest memory; builtins reach the layer
#                     above only through vm_config's callbacks
#   runtime/          the library: case files, launches, checker, debugger
#                     (dbg.c commands -> dbg_expr.c expressions -> dbg_engine.c)
#   tools/            the command line: ptxemu.c dispatches to one file per
#                     command, which may use common.c but no other command
# A file may include headers of its own layer and of the layers below it, and
# may not name another layer's symbols above it (rt_, chk_, dbg_, ptxemu_,
# tool_ prefixes).  Includes are resolved as the compiler does: the including
# file's own directory first, then the Makefile's -I list (. parser vm runtime
# lexer).
#
# The script checks the tree, then checks a small tree with one violation of
# each kind planted, which must be caught (so the test cannot pass by
# checking nothing).  Prints PASS/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# rank LAYERDIR -> number (lower is further down); empty for files outside the layers
rank() {
    case $1 in
        lexer|parser) echo 0 ;;
        vm) echo 1 ;;
        runtime) echo 2 ;;
        tools) echo 3 ;;
    esac
}

# resolve ROOT FILE NAME -> the layer directory holding the included file, or nothing
# (system and generated headers)
resolve() {
    local root=$1 file=$2 name=$3 dir cand
    dir=$(dirname "$file")
    for cand in "$dir/$name" "$name" "parser/$name" "vm/$name" "runtime/$name" "lexer/$name"; do
        if [ -f "$root/$cand" ]; then
            cand=$(realpath -m --relative-to="$root" "$root/$cand")
            echo "${cand%%/*}"
            return
        fi
    done
}

# violations ROOT: prints one line per violation under ROOT
violations() {
    local root=$1 f layer r name inc ir sym
    while IFS= read -r f; do
        layer=${f%%/*}
        r=$(rank "$layer")
        while IFS= read -r name; do
            inc=$(resolve "$root" "$f" "$name")
            [ -n "$inc" ] || continue
            ir=$(rank "$inc")
            [ -n "$ir" ] || continue
            if [ "$ir" -gt "$r" ] && ! { [ "$r" = 0 ] && [ "$name" = vm/mnemonics.def ]; }; then
                echo "$f includes \"$name\" from $inc/, a layer above $layer/"
            fi
        done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$root/$f")
        # names with the prefixes of the layers above (not members after . or ->;
        # the front end's own dbg_* fields are debug sections, so dbg_ is left
        # to the link check below); comments are blanked first, keeping line numbers
        case $r in
            0|1) sym='(rt|chk|ptxemu|tool|RT|CHK|TOOL)' ;;
            2) sym='(tool|TOOL)' ;;
            *) continue ;;
        esac
        perl -0pe 's{/\*.*?\*/}{$& =~ s/[^\n]//gr}gse; s{//[^\n]*}{}g' "$root/$f" |
            grep -noE "(^|[^.>[:alnum:]_])${sym}_[[:alnum:]_]+" | sed -E 's/^([0-9]+):[^[:alpha:]]?/\1:/' |
            head -n 3 | sed "s#^#$f:#; s#\$# names a symbol of a layer above $layer/#"
    done < <(cd "$root" && find lexer parser vm runtime tools -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' -o -name '*.y' -o -name '*.l' \) 2>/dev/null | sort)
}

v=$(violations .)
if [ -z "$v" ]; then ok "no file includes or calls into a layer above its own"
else bad "layering violations:"; echo "$v" | sed 's/^/    /'; fi

# the link check: no object of a layer references a symbol that an object of a
# layer above defines (catches calls hidden from the text check, e.g. through a
# local declaration)
B=build/${MODE:-release}
objs() {    # the objects under DIRs whose source still exists (a moved file leaves a stale one)
    local o src
    find "$@" -name '*.o' -type f 2>/dev/null | while IFS= read -r o; do
        src=${o#"$B"/}; src=${src%.o}.c
        { [ -f "$src" ] || [ -f "${o%.o}.c" ]; } && echo "$o"
    done
}
defs() { objs "$@" | xargs -r nm --defined-only -g 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
refs() { objs "$@" | xargs -r nm -u 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u; }
if [ ! -d "$B/vm" ] || [ ! -d "$B/runtime" ] || [ ! -d "$B/tools" ]; then
    bad "link check: $B has no vm/, runtime/ or tools/ objects; run make first"
else
    up=$(comm -12 <(refs "$B/vm" "$B/parser" "$B/gen") <(defs "$B/runtime" "$B/tools"))
    up2=$(comm -12 <(refs "$B/runtime") <(defs "$B/tools"))
    if [ -z "$up$up2" ]; then ok "link check: no object references a symbol defined by a layer above"
    else bad "link check: references up the layers: $(echo $up $up2)"; fi
    # inside the debugger: commands (dbg.c) over expressions (dbg_expr.c) over
    # the engine (dbg_engine.c)
    R=$B/runtime dup=""
    if [ -f "$R/dbg_engine.o" ] && [ -f "$R/dbg_expr.o" ] && [ -f "$R/dbg.o" ]; then
        x=$(comm -12 <(nm -u "$R/dbg_engine.o" | awk '{ print $2 }' | sort -u) \
                     <(nm --defined-only -g "$R/dbg_expr.o" "$R/dbg.o" | awk 'NF == 3 { print $3 }' | sort -u))
        [ -n "$x" ] && dup="$dup dbg_engine.c calls up: $(echo $x);"
        x=$(comm -12 <(nm -u "$R/dbg_expr.o" | awk '{ print $2 }' | sort -u) \
                     <(nm --defined-only -g "$R/dbg.o" | awk 'NF == 3 { print $3 }' | sort -u))
        [ -n "$x" ] && dup="$dup dbg_expr.c calls up: $(echo $x);"
        if [ -z "$dup" ]; then ok "debugger: the engine calls neither expressions nor commands; expressions call no command"
        else bad "debugger:$dup"; fi
    else
        bad "debugger: $R lacks dbg_engine.o, dbg_expr.o or dbg.o"
    fi
    # inside tools/: the dispatcher (ptxemu.c) calls the commands; a command or
    # common.c calls no command (tool_cmd_*) and nothing of the dispatcher
    side="" disp=$(nm --defined-only -g "$B/tools/ptxemu.o" 2>/dev/null | awk 'NF == 3 { print $3 }')
    for o in $(objs "$B/tools"); do
        [ "$(basename "$o")" = ptxemu.o ] && continue
        x=$(nm -u "$o" | awk '$2 ~ /^tool_cmd_/ { print $2 }'; nm -u "$o" | awk 'NF == 2 { print $2 }' | grep -xFf <(echo "$disp"))
        [ -n "$x" ] && side="$side $(basename "$o" .o).c calls $(echo $x);"
    done
    if [ -z "$side" ]; then ok "tools: no command calls another command or the dispatcher"
    else bad "tools: command-to-command calls:$side"; fi
fi

# the checker itself: a tree with one planted violation of each kind
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t"/{lexer,parser,vm,runtime,tools}
echo '#include "vm.h"' > "$t/runtime/ok.c"
echo 'int x;' > "$t/vm/vm.h"
echo 'int rt_ffi_call(int);' > "$t/runtime/printf.h"
echo 'int z;' > "$t/tools/tools.h"
printf '#include "printf.h"\n' > "$t/vm/up_include.c"
printf '#include "../tools/tools.h"\n' > "$t/runtime/up_path.c"
printf 'void f(void) { s->rt_ffi_call = 0; /* rt_ffi_call */ }\nvoid g(void) { rt_ffi_call(0); }\n' > "$t/vm/up_call.c"
printf '#include "vm.h"\n' > "$t/parser/up_parser.c"
printf '#include "vm/mnemonics.def"\n' > "$t/lexer/table.c"
echo 'OP(X)' > "$t/vm/mnemonics.def"
pv=$(violations "$t")
for want in "vm/up_include.c includes \"printf.h\" from runtime/" \
            "runtime/up_path.c includes \"../tools/tools.h\" from tools/" \
            "vm/up_call.c:2:rt_ffi_call names a symbol" \
            "parser/up_parser.c includes \"vm.h\" from vm/"; do
    if grep -qF "$want" <<<"$pv"; then ok "planted violation caught: $want"
    else bad "planted violation missed: $want"; fi
done
if grep -qE 'up_call.c:1:|lexer/table.c|runtime/ok.c' <<<"$pv"; then bad "allowed include, member or comment reported: $pv"
else ok "allowed includes, members and comments are not reported"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
