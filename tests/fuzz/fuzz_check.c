/* fuzz_check.c — libFuzzer harness for the checker: the input is a case file,
 * laid out as for fuzz_case.c (fuzz_caseio.h), and when it parses it is
 * checked (chk_run) with three schedules on one thread under a low
 * instruction limit and a short time limit, and the report is written in
 * each of the three formats.  Cases with more than FUZZ_MAX_BYTES of buffers
 * are parsed only. */
#include <string.h>
#include "check.h"
#include "fuzz_caseio.h"
#include "ptxemu.h"

enum { FUZZ_SCHEDULES = 3 };

static void run(const rt_case *c, size_t size)
{
    chk_opts o;
    memset(&o, 0, sizeof o);
    o.schedules = FUZZ_SCHEDULES;
    o.seed = size & 1 ? 0 : 7;         /* with and without the hardware-like schedule 0 */
    o.max_findings = 8;
    o.timeout = 0.5;
    o.insn_limit = 20000;
    o.jobs = 1;
    chk_result r;
    diag_list d;
    diag_init(&d);
    int code = chk_run(c, &o, &r, &d);
    if (code != PTXEMU_EXIT_PTX && code != PTXEMU_EXIT_USAGE) {
        chk_write_text(&r, sink, "ptxemu check case.txt");
        chk_write_json(&r, sink);
        chk_write_sarif(&r, sink);
    }
    diag_render(&d, NULL, 0, sink);
    chk_result_free(&r);
    diag_list_free(&d);
}

FUZZ_CASE_HARNESS("fuzz_check", run)
