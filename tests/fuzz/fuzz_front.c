/* fuzz_front.c — libFuzzer harness for the front end: bytes -> lexer ->
 * parser -> compiler, then the diagnostics rendered with their carets and
 * the module disassembled (both to /dev/null).  Any input must end in a
 * module or in diagnostics, never a crash, leak or sanitizer report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"
#include "bc.h"
#include "diag.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) sink = fopen("/dev/null", "w");
    char *text = malloc(size + 1);      /* as ptxemu_load reads a file: NUL-terminated */
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    diag_list d;
    diag_init(&d);
    ast_module *am = ast_parse("fuzz.ptx", text, size, &d);
    bc_module *bc = am ? bc_compile(am, &d) : NULL;
    if (bc) {
        bc_disassemble(bc, -1, sink);
        bc_module_free(bc);
    }
    if (am) ast_module_free(am);
    diag_render(&d, text, size, sink);
    diag_list_free(&d);
    free(text);
    return 0;
}
