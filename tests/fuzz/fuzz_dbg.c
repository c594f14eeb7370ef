/* fuzz_dbg.c — libFuzzer harness for the debugger's command language
 * (runtime/dbg.c over dbg_expr.c and dbg_engine.c): the input is a script,
 * one command per line, run against one of the debugger tests' cases
 * (tests/debug: diverge.txt, named_bar.txt, stuck.txt — the one a first
 * line "# args: NAME..." names, as in the tests/debug scripts, which are the seeds;
 * "adversarial" there picks the seeded adversarial schedule).  At most
 * FUZZ_LINES commands run; output goes to /dev/null.  Set PTXEMU_FUZZ_ROOT
 * to the repository (default: the current directory). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "casefile.h"
#include "dbg.h"
#include "diag.h"

enum { FUZZ_LINES = 64, FUZZ_LINE_MAX = 1024 };

static const char *const case_names[] = { "diverge.txt", "named_bar.txt", "stuck.txt" };
#define NCASES ((int)(sizeof case_names / sizeof *case_names))
static rt_case cases[NCASES];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *root = getenv("PTXEMU_FUZZ_ROOT");
    if (!root || !*root) root = ".";
    for (int i = 0; i < NCASES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/debug/%s", root, case_names[i]);
        diag_list d;
        diag_init(&d);
        if (rt_case_parse(path, &cases[i], &d) != 0) {
            fprintf(stderr, "fuzz_dbg: cannot read %s; set PTXEMU_FUZZ_ROOT to the repository\n", path);
            exit(2);
        }
        diag_list_free(&d);
    }
    sink = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int which = 0;
    dbg_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    size_t first = 0;
    while (first < size && data[first] != '\n') first++;
    if (size > 8 && !memcmp(data, "# args: ", 8)) {
        for (int i = 0; i < NCASES; i++) {
            size_t n = strlen(case_names[i]);
            if (first >= 8 + n && !memcmp(data + 8, case_names[i], n)) which = i;
        }
        if (memmem(data, first, "adversarial", 11)) { o.adversarial = 1; o.seed = 7; }
    }
    int code = 0;
    dbg_session *s = dbg_new(&cases[which], &o, sink, sink, &code);
    if (!s) return 0;
    dbg_banner(s);
    char line[FUZZ_LINE_MAX];
    size_t i = 0;
    for (int n = 0; n < FUZZ_LINES && i < size; n++) {
        size_t j = 0;
        while (i < size && data[i] != '\n') {
            if (j + 1 < sizeof line) line[j++] = (char)data[i];
            i++;
        }
        i++;                                  /* the newline */
        line[j] = 0;
        if (dbg_exec(s, line)) break;         /* quit */
    }
    dbg_free(s);
    return 0;
}
