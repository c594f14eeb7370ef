#!/usr/bin/env bash
# tests/parser/run.sh — parser tests: valid dumps, error messages, real
# modules, malformed inputs under ASan/UBSan.  One line per test, then
# "N passed, N failed"; exit 1 if any failed.
#   UPDATE=1 tests/parser/run.sh   rewrites the valid/*.expect files
set -u
cd "$(dirname "$0")/../.." || exit 2
T=tests/parser
BIN=build/asan/astdump
pass=0 fail=0
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }

if ! make -s -j"$(nproc)" MODE=asan "$BIN" >/tmp/parser-build.$$ 2>&1; then
    cat /tmp/parser-build.$$; rm -f /tmp/parser-build.$$
    bad build "make MODE=asan $BIN failed"
    echo "$pass passed, $fail failed"; exit 1
fi
rm -f /tmp/parser-build.$$
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

sanitizer_hit() { grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$1"; }

# ---- valid constructs: dump == expected ----
for f in $T/valid/*.ptx; do
    n=valid/$(basename "$f" .ptx); exp=${f%.ptx}.expect
    timeout 20 "$BIN" "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ -n "${UPDATE:-}" ] && [ $rc = 0 ]; then cp "$TMP/out" "$exp"; fi
    if [ $rc != 0 ]; then bad "$n" "exit $rc: $(head -c 300 "$TMP/err")"
    elif sanitizer_hit "$TMP/err"; then bad "$n" "sanitizer report"
    elif ! diff -u "$exp" "$TMP/out" >"$TMP/diff"; then bad "$n" "dump differs: $(head -20 "$TMP/diff" | tr '\n' ' ')"
    else ok "$n"; fi
done

# ---- valid constructs through the compiler: `// dis: ok` (build/ptxemu dis
# accepts the file) or `// dis: error L:C: text` (the compiler reports that,
# e.g. an unsupported instruction, at that spot) ----
if grep -lqE '^// dis: ' $T/valid/*.ptx; then
    if ! make -s build/ptxemu >"$TMP/build" 2>&1; then
        bad dis/build "make build/ptxemu failed: $(head -c 300 "$TMP/build")"
    else
        for f in $(grep -lE '^// dis: ' $T/valid/*.ptx); do
            n=dis/$(basename "$f" .ptx)
            timeout 20 build/ptxemu dis "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
            why=""
            if grep -q '^// dis: ok' "$f"; then
                [ $rc = 0 ] || why="exit $rc: $(grep ': error: ' "$TMP/err" | head -3 | tr '\n' ' ')"
            else
                [ $rc != 0 ] || why="dis succeeded, expected errors"
                while IFS= read -r line; do
                    spec=${line#// dis: error }; loc=${spec%%: *}; text=${spec#*: }
                    grep -F -- "$f:$loc: error: " "$TMP/err" | grep -qF -- "$text" ||
                        { why="missing '$f:$loc: error: $text'"; break; }
                done < <(grep -F '// dis: error ' "$f")
            fi
            if [ -n "$why" ]; then bad "$n" "$why"; else ok "$n"; fi
        done
    fi
fi

# ---- errors: exit 3 and each `// expect error: L:C: text` at that spot ----
for f in $T/errors/*.ptx; do
    n=errors/$(basename "$f" .ptx)
    timeout 20 "$BIN" "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc != 3 ]; then bad "$n" "exit $rc, expected 3"; continue; fi
    if sanitizer_hit "$TMP/err"; then bad "$n" "sanitizer report"; continue; fi
    why=""
    nexp=0
    while IFS= read -r line; do
        spec=${line#*// expect error: }
        loc=${spec%%: *}; text=${spec#*: }
        nexp=$((nexp + 1))
        if ! grep -F -- "$f:$loc: error: " "$TMP/err" | grep -qF -- "$text"; then
            why="missing '$f:$loc: error: $text'"; break
        fi
    done < <(grep -F '// expect error: ' "$f")
    [ $nexp = 0 ] && why="no expectations in file"
    if [ -n "$why" ]; then bad "$n" "$why; got: $(grep ': error: ' "$TMP/err" | head -5 | tr '\n' ' ')"
    else ok "$n"; fi
done

# ---- real modules: conformance and our nvcc outputs parse cleanly ----
for f in /work/shared/conformance/ptx/*.ptx $T/inputs/*.ptx; do
    [ -e "$f" ] || continue
    n=parse/$(basename "$f")
    timeout 20 "$BIN" -q "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc != 0 ]; then bad "$n" "exit $rc: $(head -3 "$TMP/err" | tr '\n' ' ')"
    elif sanitizer_hit "$TMP/err"; then bad "$n" "sanitizer report"
    else ok "$n"; fi
done

# ---- malformed inputs: no crash, hang or sanitizer report ----
M=$TMP/malformed; mkdir -p "$M"
python3 - "$M" <<'EOF'
import os, random, sys
d = sys.argv[1]
def w(name, data):
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode('latin-1'))
H = ".version 9.0\n.target sm_90\n.address_size 64\n"
B = H + ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n"
rnd = random.Random(1234)
w("empty.ptx", b"")
w("only_newlines.ptx", "\n" * 10000)
w("garbage.ptx", bytes(rnd.randrange(256) for _ in range(200000)))
w("garbage_ascii.ptx", "".join(rnd.choice("{}[]()<>;:,.%@!_+-=|\"/*\\ \n\t0123456789abcxyzWARP_SZ") for _ in range(200000)))
w("nul_bytes.ptx", B + "\tmov.u32 %r1,\0 2;\0\0\0\n\0}\n\0")
w("all_nul.ptx", b"\0" * 100000)
w("long_line_operand.ptx", B + "\tmov.u32 %r1, " + "a" * 1000000 + ";\n}\n")
w("long_line_word.ptx", B + "\t" + "x" * 1000000 + "\n}\n")
w("long_line_comment.ptx", B + "\t// " + "c" * 1000000 + "\n\tret;\n}\n")
w("long_line_commas.ptx", B + "\tmov.u32 %r1" + ", %r1" * 200000 + ";\n}\n")
w("long_string.ptx", H + ".file 1 \"" + "s" * 1000000 + "\"\n")
w("nested_open_body.ptx", B + "{" * 100000 + "\n")
w("nested_open_body_closed.ptx", B + "{" * 100000 + "}" * 100000 + "\n}\n")
w("nested_open_top.ptx", H + "{" * 100000)
w("nested_close.ptx", H + "}" * 100000)
w("nested_vector.ptx", B + "\tmov.b32 %r1, " + "{" * 100000 + "\n}\n")
w("nested_addr.ptx", B + "\tld.u32 %r1, " + "[" * 100000 + "\n}\n")
w("nested_parens.ptx", B + "\tcall " + "(" * 100000 + "\n}\n")
w("deep_init.ptx", H + ".global .u32 x[1] = " + "{" * 100000 + "1" + "}" * 100000 + ";\n")
w("deep_init_open.ptx", H + ".global .u32 x[1] = " + "{" * 100000)
w("reg_range_huge.ptx", B + "\t.reg .b32 %q<4294967296>;\n\t.reg .b32 %z<" + "9" * 50 + ">;\n}\n")
w("huge_ints.ptx", B + "\tmov.u32 %r1, 18446744073709551616;\n\tmov.u32 %r1, 0x1ffffffffffffffff;\n"
  "\tmov.u32 %r1, -9223372036854775808;\n\tmov.u32 %r1, 9223372036854775808;\n\tld.u32 %r1, [%r2+-9223372036854775808];\n}\n")
w("digits_10000.ptx", B + "\tmov.u32 %r1, " + "7" * 10000 + ";\n\tmov.u32 %r1, 0x" + "f" * 10000 +
  ";\n\tmov.f64 %r1, " + "1" * 10000 + "." + "2" * 10000 + "e99999;\n}\n")
w("unterminated_comment.ptx", B + "/* " + "x" * 100000)
w("unterminated_string.ptx", H + ".file 1 \"abc")
w("unterminated_string_bs.ptx", H + ".file 1 \"abc\\")
w("unterminated_section.ptx", H + ".section .debug_str\n{\n$L__info_string0:\n.b8 65,66")
w("section_no_brace.ptx", H + ".section .debug_str")
w("section_nested.ptx", H + ".section .debug_str {" + "{" * 100000)
w("many_errors.ptx", B + "\tfoo.bar %r1;\n" * 5000 + "}\n")
w("many_bad_chars.ptx", B + "\t" + "\x01" * 100000 + "\n}\n")
w("guards.ptx", B + "@" * 100000 + "\n}\n")
w("labels.ptx", B + "a:" * 100000 + "\n}\n")
w("dots.ptx", B + "\tadd" + "." * 100000 + " %r1;\n}\n")
w("semis.ptx", B + ";" * 100000 + "\n}\n")
w("many_stmts.ptx", B + "\tadd.u32 %r1, %r1, 1;\n" * 200000 + "}\n")
w("loc_huge.ptx", B + "\t.loc 99999999999 99999999999 99999999999, function_name x, inlined_at 1 1 1\n}\n")
w("directives_only.ptx", ".version .target .address_size .entry .func .reg .param .loc .file .section")
w("bad_version.ptx", ".version 99999999999999999999.99999999999999999999\n.target\n.address_size 12\n")
# constant expressions, texture addresses, new directives
w("expr_deep_parens.ptx", B + "\tadd.s32 %r1, %r1, " + "(" * 100000 + "1" + ")" * 100000 + ";\n}\n")
w("expr_deep_parens_open.ptx", B + "\tadd.s32 %r1, %r1, " + "(" * 100000 + "\n}\n")
w("expr_deep_parens_decl.ptx", H + ".global .u32 x[" + "(" * 100000 + "2" + ")" * 100000 + "];\n"
  ".global .u32 y = " + "(" * 300 + "1" + ")" * 300 + ";\n")
w("expr_parens_limit.ptx", B + "\tadd.s32 %r1, %r1, " + "(" * 256 + "1" + ")" * 256 + ";\n"
  "\tadd.s32 %r1, %r1, " + "(" * 257 + "1" + ")" * 257 + ";\n}\n")
w("expr_unary_chain.ptx", B + "\tmov.u32 %r1, " + "-" * 100000 + "1;\n\tmov.u32 %r1, " + "~!" * 50000 + "1;\n}\n")
w("expr_ternary_chain.ptx", B + "\tmov.u32 %r1, " + "1 ? 2 : " * 50000 + "3;\n}\n")
w("expr_long_sum.ptx", H + ".global .u64 s = " + "+".join(["123456789"] * 100000) + ";\n")
w("expr_huge_shifts.ptx", B + "".join("\tmov.u64 %%r1, 1 << %s;\n\tmov.u64 %%r1, -1 >> %s;\n" % (n, n) for n in
  ["63", "64", "-1", "9223372036854775807", "18446744073709551615", "-9223372036854775808", "0x7fffffffffffffffU"]) +
  "\tmov.u64 %r1, (-9223372036854775807-1) / -1;\n\tmov.u64 %r1, (-9223372036854775807-1) % -1;\n"
  "\tmov.u64 %r1, -(-9223372036854775807-1);\n\tmov.u64 %r1, 18446744073709551615U * 18446744073709551615U;\n}\n")
w("expr_ops_soup.ptx", B + "".join("\tmov.u32 %%r1, %s;\n" % "".join(rnd.choice(["1", "0", "(", ")", "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&", "||", "!", "~", "?", ":", " ", "2", "0x8000000000000000"]) for _ in range(60)) for _ in range(2000)) + "}\n")
w("expr_decl_soup.ptx", H + "".join(".global .u32 x%d[%s] = {%s};\n" % (i, "".join(rnd.choice("12()+-*/%<>!~&|^?: ") for _ in range(20)), "".join(rnd.choice("12(),+-*/{}%<>!~") for _ in range(30))) for i in range(2000)))
w("tex_nested.ptx", B + "\ttex.2d.v4.f32.f32 {%r1,%r1,%r1,%r1}, [t, s, " + "{" * 100000 + "\n}\n")
w("tex_forms.ptx", B + "".join("\ttex.2d.v4.f32.f32 {%%r1,%%r1,%%r1,%%r1}%s, [%s];\n" % (rnd.choice(["", "|%p1", "|"]), rnd.choice(["t", "t,", "t, {", "t, {%r1}", "t, s, {%r1, %r2}", "t, s, s, {}", ", {%r1}", "t, {%r1}, {%r2}", "t, s, 4*2"])) for _ in range(3000)) + "}\n")
w("missing_semis.ptx", B + "\tadd.u32 %r1, %r1, 1\n" * 20000 + "\tmov.u32 %r1, {%r1\n}\n")
w("braces_deep_indented.ptx", B + "".join("\t" * (i % 40) + "{\n" for i in range(5000)) + "".join("}\n" for i in range(4000)))
w("braces_over_stack.ptx", B + "{\n" * 300 + "\t}\n" * 299)
w("loc_fn_offset.ptx", B + "\t.loc 1 1 1, function_name $s+99999999999999999999, inlined_at 1 1 1\n"
  "\t.loc 1 1 1, function_name $s+4294967296, inlined_at 1 1 1\n\t.loc 1 1 1, function_name $s+5, inlined_at 1 1 1\n"
  "\t.loc 1 1 1, function_name $s+2, inlined_at 1 1 1\n\tret;\n}\n.section .debug_str\n{\n$s:\n.b8 65,0\n}\n")
w("directives_new.ptx", H + ".alias\n.alias a,\n.alias a, b, c;\n.entry k() .maxclusterrank .reqnctapercluster 1,2,3,4,5 .explicitcluster 3\n{\n"
  "p: .callprototype (.param .b32 _) _ (.param .b32 _;\nq: .callprototype;\nt: .calltargets;\nu: .calltargets a,;\n"
  "\tcall (%r1), %rd1, (%r2), p;\n}\n")
EOF
for f in "$M"/*.ptx; do
    n=malformed/$(basename "$f" .ptx)
    timeout 10 "$BIN" -q "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc = 124 ]; then bad "$n" "timeout"
    elif sanitizer_hit "$TMP/err"; then bad "$n" "sanitizer: $(grep -m1 -E 'ERROR|runtime error' "$TMP/err")"
    elif [ $rc != 0 ] && [ $rc != 3 ]; then bad "$n" "exit $rc"
    elif [ "$(grep -c ': error: ' "$TMP/err")" -gt 100 ]; then bad "$n" "more than 100 messages"
    else ok "$n"; fi
done

# every byte prefix of a small module, every line prefix of real ones
prefix_test() {
    local n=$1 mode=$2 f=$3
    timeout 30 "$BIN" "$mode" "$f" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc = 124 ]; then bad "$n" "timeout"
    elif sanitizer_hit "$TMP/err"; then bad "$n" "sanitizer: $(grep -m1 -E 'ERROR|runtime error' "$TMP/err")"
    elif [ $rc != 0 ]; then bad "$n" "exit $rc"
    else ok "$n"; fi
}
prefix_test prefixes/bytes/stmts -P $T/valid/stmts.ptx
prefix_test prefixes/bytes/decls -P $T/valid/decls.ptx
prefix_test prefixes/bytes/memory_patterns -P /work/shared/conformance/ptx/memory_patterns.ptx
prefix_test prefixes/lines/bugs -L /work/shared/conformance/ptx/bugs.ptx
prefix_test prefixes/lines/inlineasm_k_G -L $T/inputs/inlineasm_k_G.ptx

echo "$pass passed, $fail failed"
[ $fail = 0 ]
