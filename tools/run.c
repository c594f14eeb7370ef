/* run.c — `ptxemu run`: one launch from a case file or inline launch
 * arguments; device printf to stdout, failures and --stats/--time to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "tools.h"
#include "commands.h"

static int run_main(int argc, char **argv);

const tool_command tool_cmd_run = {
    .name = "run",
    .summary = "run one kernel launch (a case file, or a .ptx file and launch arguments)",
    .usage =
        "usage: ptxemu run CASE.txt [OPTION]...\n"
        "       ptxemu run FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]] [--shared BYTES] [ARG]... [OPTION]...\n"
        "Runs one kernel launch and compares the case's expectations (exit 1 on a mismatch).\n"
        "Device printf goes to stdout; failures, --stats and --time to stderr.\n"
        "\n"
        "launch arguments (with FILE.ptx):\n"
        "  --kernel NAME          the kernel (.entry) to launch\n"
        "  --grid X[,Y,Z]         the grid, in blocks (default 1)\n"
        "  --block X[,Y,Z]        the block, in threads (default 1)\n"
        "  --shared BYTES         dynamic shared memory per block\n"
        "  ARG                    the kernel's parameters, in order:\n"
        "                           u32:V s32:V u64:V s64:V f32:V f64:V   a scalar\n"
        "                           NAME=file:PATH          a buffer initialised from a file\n"
        "                           NAME=zero:BYTES         a zero-filled buffer\n"
        "                           NAME=fill:BYTES:VALUE   a buffer with every byte set to VALUE\n"
        "                         buffers are passed as pointers\n"
        "options:\n"
        "  --dump NAME=PATH       write buffer NAME to PATH after the launch (repeatable)\n"
        "  --timeout S            stop after S seconds (exit 6)\n"
        "  --limit N              stop after N instructions (exit 6)\n"
        "  --stack BYTES          local memory (stack) per thread (default: the kernel's frame + 16 KiB)\n"
        "  --load LIB.so          host library for .extern functions (repeatable)\n"
        "  --resident N           keep N blocks in flight at once (inter-block waits; default 1,\n"
        "                         or the whole grid of up to 64 blocks for a kernel using grid-wide sync)\n"
        "  --jobs N               run the blocks of the launch on N host threads (default: every\n"
        "                         core); results are those of --jobs 1 (see docs/PERFORMANCE.md)\n"
        "  --seed S               the launch's seed (no run-time behaviour depends on it yet)\n"
        "  --stats                print the launch's memory statistics (see README)\n"
        "  --time                 print the run time, lane-instructions per second, peak memory\n"
        "                         and the host threads the launch ran on (and why only one)\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status: 0 ok, 1 expectation mismatch, 2 usage or case-file error, 3 PTX error,\n"
        "4 fault/trap/assert, 5 deadlock, 6 time or instruction limit\n",
    .main = run_main,
};

static int run_main(int argc, char **argv)
{
    const tool_command *cmd = &tool_cmd_run;
    rt_case c;
    int used;
    int e = tool_load_case(cmd, argc, argv, &used, &c);
    if (e) return e;
    rt_run_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = tool_default_jobs();
    const char *libs[16];
    int nlibs = 0;
    rt_dump dumps[32];
    int nd = 0, stats = 0, timing = 0;
    for (int i = used; i < argc; i++) {
        if (!strcmp(argv[i], "--stats")) { stats = 1; continue; }
        if (!strcmp(argv[i], "--time")) { timing = 1; continue; }
        if (argv[i][0] != '-') {
            rt_case_free(&c);
            return tool_usage_error(cmd, "unexpected argument '%s'; kernel arguments go before the options", argv[i]);
        }
        if (i + 1 >= argc || !tool_is_option(cmd, argv[i])) {
            rt_case_free(&c);
            if (!tool_is_option(cmd, argv[i])) return tool_usage_error(cmd, "unknown option '%s'", argv[i]);
            return tool_usage_error(cmd, "option '%s' needs a value", argv[i]);
        }
        if (!strcmp(argv[i], "--dump")) {
            char *eq = strchr(argv[i + 1], '=');
            if (!eq || nd == 32) {
                rt_case_free(&c);
                if (!eq) return tool_usage_error(cmd, "--dump wants NAME=PATH, not '%s'", argv[i + 1]);
                return tool_usage_error(cmd, "too many --dump options (at most 32); dump the others in another run");
            }
            *eq = 0;
            dumps[nd].name = argv[i + 1];
            dumps[nd++].path = eq + 1;
        } else {
            int pr = tool_parse_run_opt(argv[i], argv[i + 1], &o, libs, &nlibs);
            if (pr) {
                rt_case_free(&c);
                if (pr == -2) return tool_usage_error(cmd, "%s wants a number from 1 to %d, not '%s'", argv[i], TOOL_MAX_JOBS, argv[i + 1]);
                return tool_usage_error(cmd, "unknown option '%s'", argv[i]);
            }
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
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
        fprintf(stderr, "ptxemu: %llu lane-instructions in %.3f s: %.1f M lane-instructions/s, peak RSS %.1f MB, CPU %.3f s\n",
                (unsigned long long)r.insns, secs, secs > 0 ? (double)r.insns / secs / 1e6 : 0.0, ru.ru_maxrss / 1024.0, cpu);
        fprintf(stderr, "ptxemu: the launch itself: %.4f s, %.1f M lane-instructions/s (the rest: loading the module, "
                "setting up and checking the buffers)\n", r.launch_secs, r.launch_secs > 0 ? (double)r.insns / r.launch_secs / 1e6 : 0.0);
        fprintf(stderr, "ptxemu: ran on %d host thread%s%s%s\n", r.fault.threads, r.fault.threads == 1 ? "" : "s",
                r.fault.threads_note[0] ? ": " : "", r.fault.threads_note);
        const vm_par_times *pt = &r.fault.par;
        if (r.fault.threads > 1 && pt->end > 0)
            fprintf(stderr, "ptxemu: threads: set up in %.2f ms, the last began its first block at %.2f ms; "
                    "in blocks %.0f%% of %d x %.2f ms; the first found none left at %.2f ms; %u-%u blocks each\n",
                    pt->setup * 1e3, pt->last_start * 1e3, 100.0 * pt->busy / (r.fault.threads * pt->end), r.fault.threads,
                    pt->end * 1e3, pt->first_end * 1e3, pt->blocks_min, pt->blocks_max);
    }
    if (r.out.len) fwrite(r.out.data, 1, r.out.len, stdout);
    fflush(stdout);
    if (code == PTXEMU_EXIT_PTX) tool_print_diags(&d, r.ptx_text, r.ptx_len);
    else if (code) tool_print_failure(cmd, &r);
    else if (r.status != VM_OK) fprintf(stderr, "ptxemu run: ended with %s as expected: %s\n", vm_status_name(r.status), r.fault.msg);
    rt_run_result_free(&r);
    diag_list_free(&d);
    rt_case_free(&c);
    return code;
}
