/* fuzz_case.c — libFuzzer harness for case files: the input is written to
 * $PTXEMU_FUZZ_DIR/cases/x/case.txt (tests/fuzz/run.sh lays the directory
 * out so that `ptx ../../ptx/NAME.ptx` finds the conformance and own PTX),
 * parsed with rt_case_parse, and when it parses, run with its expectations
 * checked (rt_run_case) under a low instruction limit and a short time
 * limit.  Cases with more than FUZZ_MAX_BYTES of buffers are parsed only. */
#include <string.h>
#include "fuzz_caseio.h"
#include "runcase.h"

static void run(const rt_case *c, size_t size)
{
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
    rt_run_case(c, &o, 1, &r, &pd);
    diag_render(&pd, r.ptx_text, r.ptx_len, sink);
    rt_run_result_free(&r);
    diag_list_free(&pd);
}

FUZZ_CASE_HARNESS("fuzz_case", run)
