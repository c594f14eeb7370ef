/* fuzz_case.c — libFuzzer harness for case files: the input is written to
 * $PTXEMU_FUZZ_DIR/cases/x/case.txt (tests/fuzz/run.sh lays the directory
 * out so that `ptx ../../ptx/NAME.ptx` finds the conformance and own PTX),
 * parsed with rt_case_parse, and when it parses, run with its expectations
 * checked (rt_run_case) under a low instruction limit and a short time
 * limit.  Cases with more than FUZZ_MAX_BYTES of buffers are parsed only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "casefile.h"
#include "diag.h"
#include "runcase.h"

enum { FUZZ_MAX_BYTES = 16u << 20 };

static char case_path[4096];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *dir = getenv("PTXEMU_FUZZ_DIR");
    static char tmpl[] = "/tmp/ptxemu-fuzz-case-XXXXXX";
    if (!dir || !*dir) dir = mkdtemp(tmpl);
    if (!dir) { fprintf(stderr, "fuzz_case: cannot make a work directory\n"); exit(2); }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/cases/x'", dir);
    if (system(cmd) != 0) { fprintf(stderr, "fuzz_case: cannot make %s/cases/x\n", dir); exit(2); }
    snprintf(case_path, sizeof case_path, "%s/cases/x/case.txt", dir);
    sink = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(case_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    rt_case c;
    diag_list d;
    diag_init(&d);
    if (rt_case_parse(case_path, &c, &d) == 0) {
        uint64_t bytes = 0;
        for (int i = 0; i < c.nbuffers; i++) bytes += c.buffers[i].size;
        if (bytes <= FUZZ_MAX_BYTES) {
            rt_run_opts o;
            memset(&o, 0, sizeof o);
            o.timeout = 0.5;
            o.insn_limit = 20000;
            o.seed = 1;
            o.local_size = 1024;
            o.memstats = (size & 1) != 0;
            rt_run_result r;
            diag_list pd;
            diag_init(&pd);
            rt_run_case(&c, &o, 1, &r, &pd);
            diag_render(&pd, r.ptx_text, r.ptx_len, sink);
            rt_run_result_free(&r);
            diag_list_free(&pd);
        }
    }
    diag_render(&d, NULL, 0, sink);
    rt_case_free(&c);
    diag_list_free(&d);
    return 0;
}
