/* check.c — `ptxemu check`: the warp-synchronous bug checker.
 *
 *   ptxemu check CASE.txt | FILE.ptx LAUNCH-ARGS [--schedules N] [--seed S]
 *                [--format text|json|sarif] [--output PATH] [--max-findings N]
 *                [--timeout S] [--load LIB.so]... [--resident N] [--jobs N]
 *
 * Exit status: 0 no finding, 1 findings, 2 usage, 3 PTX error; when there is
 * no finding but the launch itself ended abnormally for a reason the checker
 * does not classify (a trap, an assert, a wild pointer, a limit), the status
 * `run` would give (4, 5, 6).  The engine is runtime/check.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "tools.h"
#include "commands.h"

static int check_main(int argc, char **argv);

/* Launches of this many threads or more show progress on a terminal. */
#define PROGRESS_THREADS 100000ull

static void show_progress(void *ctx, int done, int total, int findings)
{
    (void)ctx;
    fprintf(stderr, "\rptxemu check: %d of %d schedules done, %d finding%s so far", done, total, findings,
            findings == 1 ? "" : "s");
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
}


const tool_command tool_cmd_check = {
    .name = "check",
    .summary = "search several schedules for warp-synchronous bugs (docs/CHECKING.md)",
    .usage =
        "usage: ptxemu check CASE.txt [OPTION]...\n"
        "       ptxemu check FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]] [--shared BYTES] [ARG]... [OPTION]...\n"
        "Runs the launch under the hardware-like schedule and seeded adversarial ones and reports\n"
        "races, mask and barrier misuse and divergence bugs, each with the seed that replays it.\n"
        "Launch arguments as for `ptxemu run` (see 'ptxemu help run').\n"
        "\n"
        "options:\n"
        "  --schedules N          schedules to try (default " TOOL_STR(CHK_DEFAULT_SCHEDULES) ")\n"
        "  --seed S               base seed (0: start with the hardware-like schedule); a finding's\n"
        "                         seed with --schedules 1 replays it\n"
        "  --format FORMAT        text (default), json or sarif\n"
        "  --output PATH          write the report to PATH instead of stdout\n"
        "  --all-schedules        run every schedule, also when schedule 0 shows that they cannot\n"
        "                         differ (a race-free run of schedule-free code; docs/CHECKING.md)\n"
        "  --max-findings N       distinct findings to list (default " TOOL_STR(CHK_DEFAULT_MAX_FINDINGS) "; more are counted)\n"
        "  --timeout S            stop each schedule after S seconds\n"
        "  --load LIB.so          host library for .extern functions (repeatable)\n"
        "  --resident N           keep N blocks in flight at once\n"
        "  -j, --jobs N           run N schedules at once on host threads (default: every core)\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status: 0 no finding, 1 findings, 2 usage, 3 PTX error; with no finding but a launch\n"
        "that did not end cleanly, the status `run` would give (4 fault, 5 deadlock, 6 limit)\n",
    .main = check_main,
};

static int check_main(int argc, char **argv)
{
    const tool_command *cmd = &tool_cmd_check;
    rt_case c;
    int used;
    int e = tool_load_case(cmd, argc, argv, &used, &c);
    if (e) return e;
    chk_opts o;
    memset(&o, 0, sizeof o);
    const char *format = "text", *output = NULL;
    const char *libs[16];
    int nlibs = 0, rc = 0;
    for (int i = used; i < argc && !rc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (a[0] != '-') { rc = tool_usage_error(cmd, "unexpected argument '%s'; kernel arguments go before the options", a); break; }
        if (!strcmp(a, "--all-schedules")) { o.all_schedules = 1; continue; }
        if (!v && tool_is_option(cmd, a)) { rc = tool_usage_error(cmd, "option '%s' needs a value", a); break; }
        if (!v) { rc = tool_usage_error(cmd, "unknown option '%s'", a); break; }
        if (!strcmp(a, "--schedules")) {
            o.schedules = (int)strtol(v, &end, 0);
            if (*end || o.schedules < 1) rc = tool_usage_error(cmd, "--schedules wants a positive number, not '%s'", v);
        } else if (!strcmp(a, "--seed")) {
            o.seed = strtoull(v, &end, 0);
            if (*end) rc = tool_usage_error(cmd, "--seed wants a number, not '%s'", v);
        } else if (!strcmp(a, "--max-findings")) {
            o.max_findings = (int)strtol(v, &end, 0);
            if (*end || o.max_findings < 1) rc = tool_usage_error(cmd, "--max-findings wants a positive number, not '%s'", v);
        } else if (!strcmp(a, "--timeout")) o.timeout = atof(v);
        else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            o.jobs = (int)strtol(v, &end, 0);
            if (*end || o.jobs < 1) rc = tool_usage_error(cmd, "--jobs wants a positive number, not '%s'", v);
        } else if (!strcmp(a, "--resident")) {
            o.resident = (int)strtol(v, &end, 0);
            if (*end || o.resident < 1) rc = tool_usage_error(cmd, "--resident wants a positive number, not '%s'", v);
        }
        else if (!strcmp(a, "--format")) {
            format = v;
            if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif")) rc = tool_usage_error(cmd, "unknown format '%s'; use --format text, json or sarif", v);
        } else if (!strcmp(a, "--output")) output = v;
        else if (!strcmp(a, "--load")) { if (nlibs < 16) libs[nlibs++] = v; }
        else rc = tool_usage_error(cmd, "unknown option '%s'", a);
        i++;
    }
    if (rc) { rt_case_free(&c); return rc; }
    o.libs = libs;
    o.nlibs = nlibs;
    uint64_t threads = (uint64_t)c.grid[0] * c.grid[1] * c.grid[2] * c.block[0] * c.block[1] * c.block[2];
    if (threads >= PROGRESS_THREADS && isatty(STDERR_FILENO)) o.progress = show_progress;
    diag_list d;
    diag_init(&d);
    chk_result r;
    int code = chk_run(&c, &o, &r, &d);
    if (code == PTXEMU_EXIT_PTX) {
        diag_render(&d, NULL, 0, stderr);
    } else if (code == PTXEMU_EXIT_USAGE) {
        fprintf(stderr, "ptxemu check: %s\n", r.end_msg);
    } else {
        FILE *out = stdout;
        if (output && !(out = fopen(output, "w"))) {
            fprintf(stderr, "ptxemu check: cannot write the report to '%s' (%s); give a writable --output path\n", output, strerror(errno));
            code = PTXEMU_EXIT_USAGE;
        } else {
            char replay[4096];
            snprintf(replay, sizeof replay, "ptxemu check %s", c.case_path ? c.case_path : argv[0]);
            if (!strcmp(format, "json")) chk_write_json(&r, out);
            else if (!strcmp(format, "sarif")) chk_write_sarif(&r, out);
            else chk_write_text(&r, out, replay);
            if (out != stdout) fclose(out);
            if (!r.nfindings && r.status != VM_OK && r.end_msg[0] && (out != stdout || strcmp(format, "text")))
                fprintf(stderr, "ptxemu check: the launch ended with %s (no checker finding; exit status %d): %s\n",
                        vm_status_name(r.status), code, r.end_msg);
        }
    }
    chk_result_free(&r);
    diag_list_free(&d);
    rt_case_free(&c);
    return code;
}
