/* fuzz_check.c — libFuzzer harness for the checker: the input is a case file,
 * laid out as for fuzz_case.c ($PTXEMU_FUZZ_DIR/cases/x/case.txt, its `ptx`
 * line reaching the conformance and own PTX through ../../ptx/), and when it
 * parses it is checked (chk_run) with three schedules on one thread under a
 * low instruction limit and a short time limit, and the report is written in
 * each of the three formats.  Cases with more than FUZZ_MAX_BYTES of buffers
 * are parsed only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "casefile.h"
#include "check.h"
#include "diag.h"
#include "ptxemu.h"

enum { FUZZ_MAX_BYTES = 16u << 20, FUZZ_SCHEDULES = 3 };

static char case_path[4096];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    const char *dir = getenv("PTXEMU_FUZZ_DIR");
    static char tmpl[] = "/tmp/ptxemu-fuzz-check-XXXXXX";
    if (!dir || !*dir) dir = mkdtemp(tmpl);
    if (!dir) { fprintf(stderr, "fuzz_check: cannot make a work directory\n"); exit(2); }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/cases/x'", dir);
    if (system(cmd) != 0) { fprintf(stderr, "fuzz_check: cannot make %s/cases/x\n", dir); exit(2); }
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
            chk_opts o;
            memset(&o, 0, sizeof o);
            o.schedules = FUZZ_SCHEDULES;
            o.seed = size & 1 ? 0 : 7;     /* with and without the hardware-like schedule 0 */
            o.max_findings = 8;
            o.timeout = 0.5;
            o.insn_limit = 20000;
            o.jobs = 1;
            chk_result r;
            diag_list cd;
            diag_init(&cd);
            int code = chk_run(&c, &o, &r, &cd);
            if (code != PTXEMU_EXIT_PTX && code != PTXEMU_EXIT_USAGE) {
                chk_write_text(&r, sink, "ptxemu check case.txt");
                chk_write_json(&r, sink);
                chk_write_sarif(&r, sink);
            }
            diag_render(&cd, NULL, 0, sink);
            chk_result_free(&r);
            diag_list_free(&cd);
        }
    }
    diag_render(&d, NULL, 0, sink);
    rt_case_free(&c);
    diag_list_free(&d);
    return 0;
}
