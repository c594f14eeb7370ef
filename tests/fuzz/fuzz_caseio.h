/* fuzz_caseio.h — what the case-file harnesses (fuzz_case.c, fuzz_check.c)
 * share: the work directory ($PTXEMU_FUZZ_DIR, laid out by tests/fuzz/run.sh
 * so that a case's `ptx ../../ptx/NAME.ptx` finds the conformance and own
 * PTX) and the input written there as cases/x/case.txt and parsed. */
#ifndef FUZZ_CASEIO_H
#define FUZZ_CASEIO_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "casefile.h"
#include "diag.h"

enum { FUZZ_MAX_BYTES = 16u << 20 };   /* cases with more buffer bytes are parsed only */

static char case_path[4096];
static FILE *sink;                     /* /dev/null: reports and diagnostics are written, not read */

/* LLVMFuzzerInitialize's work: the case's directory (a temporary one named
 * after `harness` without PTXEMU_FUZZ_DIR); exits when it cannot be made. */
static void fuzz_case_setup(const char *harness)
{
    const char *dir = getenv("PTXEMU_FUZZ_DIR");
    static char tmpl[64];
    snprintf(tmpl, sizeof tmpl, "/tmp/ptxemu-%s-XXXXXX", harness);
    if (!dir || !*dir) dir = mkdtemp(tmpl);
    if (!dir) { fprintf(stderr, "%s: cannot make a work directory\n", harness); exit(2); }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/cases/x'", dir);
    if (system(cmd) != 0) { fprintf(stderr, "%s: cannot make %s/cases/x\n", harness, dir); exit(2); }
    snprintf(case_path, sizeof case_path, "%s/cases/x/case.txt", dir);
    sink = fopen("/dev/null", "w");
}

/* Writes the input as the case file and parses it into c (diagnostics in d;
 * c is always filled, for rt_case_free): 1 when it parsed and its buffers fit
 * in FUZZ_MAX_BYTES, so that it may run. */
static int fuzz_case_load(const uint8_t *data, size_t size, rt_case *c, diag_list *d)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(case_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    if (rt_case_parse(case_path, c, d) != 0) return 0;
    uint64_t bytes = 0;
    for (int i = 0; i < c->nbuffers; i++) bytes += c->buffers[i].size;
    return bytes <= FUZZ_MAX_BYTES;
}

/* One input: loaded, run by `run` (with the input's size, which some
 * harnesses use to pick options) when it may run, its diagnostics written. */
static int fuzz_case_one(const uint8_t *data, size_t size, void (*run)(const rt_case *c, size_t size))
{
    rt_case c;
    diag_list d;
    diag_init(&d);
    if (fuzz_case_load(data, size, &c, &d)) run(&c, size);
    diag_render(&d, NULL, 0, sink);
    rt_case_free(&c);
    diag_list_free(&d);
    return 0;
}

/* The libFuzzer entry points of a case-file harness named NAME whose
 * work on a loaded case is RUN. */
#define FUZZ_CASE_HARNESS(NAME, RUN) \
    int LLVMFuzzerInitialize(int *argc, char ***argv) { (void)argc; (void)argv; fuzz_case_setup(NAME); return 0; } \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_case_one(data, size, RUN); }

#endif
