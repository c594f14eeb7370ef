/* run.c — `ptxemu run`: one launch from a case file or inline launch
 * arguments; device printf to stdout, failures and --stats/--time to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tools.h"
#include "commands.h"

/* ---- run ---------------------------------------------------------------------------- */

int tool_cmd_run(int argc, char **argv)
{
    if (argc < 1) { tool_usage(stderr); return PTXEMU_EXIT_USAGE; }
    rt_case c;
    int used;
    int e = tool_load_case(argc, argv, &used, &c);
    if (e) return e;
    rt_run_opts o;
    memset(&o, 0, sizeof o);
    const char *libs[16];
    int nlibs = 0;
    rt_dump dumps[32];
    int nd = 0, stats = 0, timing = 0;
    for (int i = used; i < argc; i++) {
        if (!strcmp(argv[i], "--stats")) { stats = 1; continue; }
        if (!strcmp(argv[i], "--time")) { timing = 1; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "ptxemu: %s needs a value\n", argv[i]); rt_case_free(&c); return PTXEMU_EXIT_USAGE; }
        if (!strcmp(argv[i], "--dump")) {
            char *eq = strchr(argv[i + 1], '=');
            if (!eq || nd == 32) { fprintf(stderr, "ptxemu: --dump NAME=PATH\n"); rt_case_free(&c); return PTXEMU_EXIT_USAGE; }
            *eq = 0;
            dumps[nd].name = argv[i + 1];
            dumps[nd++].path = eq + 1;
        } else if (tool_parse_run_opt(argv[i], argv[i + 1], &o, libs, &nlibs)) {
            fprintf(stderr, "ptxemu: unknown option %s\n", argv[i]);
            rt_case_free(&c);
            return PTXEMU_EXIT_USAGE;
        }
        i++;
    }
    o.libs = libs; o.nlibs = nlibs; o.dumps = dumps; o.ndumps = nd;
    o.memstats = stats;
    diag_list d;
    diag_init(&d);
    rt_run_result r;
    int check = c.nexpects || c.stdout_path || c.status != RT_CASE_STATUS_OK;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int code = rt_run_case(&c, &o, check, &r, &d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (stats && r.has_stats) {
#define X(n) fprintf(stderr, "ptxemu: %-28s %llu\n", #n, (unsigned long long)r.stats.n);
        RT_MEMSTATS(X)
#undef X
    }
    if (timing) {
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
        fprintf(stderr, "ptxemu: %llu lane-instructions in %.3f s: %.1f M lane-instructions/s\n",
                (unsigned long long)r.insns, secs, secs > 0 ? (double)r.insns / secs / 1e6 : 0.0);
    }
    if (r.out.len) fwrite(r.out.data, 1, r.out.len, stdout);
    fflush(stdout);
    if (code == PTXEMU_EXIT_PTX) tool_print_diags(&d, r.ptx_text, r.ptx_len);
    else if (code) tool_print_failure(&r);
    else if (r.status != VM_OK) fprintf(stderr, "ptxemu: ended with %s as expected: %s\n", vm_status_name(r.status), r.fault.msg);
    rt_run_result_free(&r);
    diag_list_free(&d);
    rt_case_free(&c);
    return code;
}
