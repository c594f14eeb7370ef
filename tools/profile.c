/* profile.c — `ptxemu profile`: per-line costs of one launch, as Nsight
 * Compute's source view shows them.
 *
 *   ptxemu profile CASE.txt | FILE.ptx LAUNCH-ARGS [--format text|json|csv|html]
 *                  [--output PATH] [--source-dir DIR]... [--top N] [--sort COUNTER]
 *                  [--timeout S] [--limit N] [--load LIB.so]... [--resident N]
 *   ptxemu profile --diff A.json B.json [--output PATH]
 *
 * Exit status as for `run` (the profile is written whenever the kernel ran,
 * also when it then faulted or missed an expectation); the engine is
 * runtime/profile.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "tools.h"

#include "commands.h"

#define MAX_DIRS 16
#define MAX_LIBS 16

static int profile_main(int argc, char **argv);

const tool_command tool_cmd_profile = {
    .name = "profile",
    .summary = "per-line costs of one launch, as Nsight Compute's source view (docs/PROFILING.md)",
    .usage =
        "usage: ptxemu profile CASE.txt [OPTION]...\n"
        "       ptxemu profile FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]] [--shared BYTES] [ARG]... [OPTION]...\n"
        "       ptxemu profile --diff A.json B.json [--output PATH]\n"
        "Runs one launch and reports, per CUDA and PTX line, what Nsight Compute's source view\n"
        "counts: warp instructions, active lanes, divergent branches, shared wavefronts and bank\n"
        "conflicts, global requests and sectors, waits at barriers and warp collectives.\n"
        "Launch arguments as for `ptxemu run` (see 'ptxemu help run').\n"
        "\n"
        "options:\n"
        "  --format FORMAT        text (default), json, csv or html\n"
        "  --output PATH          write the report to PATH instead of stdout\n"
        "  --source-dir DIR       a folder to find the CUDA sources in (repeatable)\n"
        "  --top N                lines the text report lists (default 20; 0: all)\n"
        "  --sort COUNTER         the counter the text report sorts by (docs/PROFILING.md)\n"
        "  --diff                 compare two JSON profiles line by line\n"
        "  --timeout S            stop after S seconds (exit 6)\n"
        "  --limit N              stop after N instructions (exit 6)\n"
        "  --stack BYTES          local memory (stack) per thread\n"
        "  --load LIB.so          host library for .extern functions (repeatable)\n"
        "  --resident N           keep N blocks in flight at once\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status as for `run`; the profile is written whenever the kernel ran, also when it\n"
        "then faulted or missed an expectation\n",
    .main = profile_main,
};

static FILE *open_output(const char *path)
{
    if (!path) return stdout;
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "ptxemu profile: cannot write the report to '%s' (%s); give a writable --output path\n", path, strerror(errno));
    return f;
}

static int cmd_diff(int argc, char **argv)
{
    const char *out = NULL, *files[2];
    int nf = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--diff")) continue;
        if (!strcmp(argv[i], "--output") && i + 1 < argc) out = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return tool_usage_error(&tool_cmd_profile, "option '%s' does not go with --diff; only --output does", argv[i]);
        else if (nf < 2) files[nf++] = argv[i];
        else return tool_usage_error(&tool_cmd_profile, "--diff compares two profiles; '%s' is a third", argv[i]);
    }
    if (nf != 2) return tool_usage_error(&tool_cmd_profile, "--diff needs two JSON profiles (written with --format json)");
    prof_report a, b;
    char msg[1024];
    if (prof_read_json(files[0], &a, msg, sizeof msg)) { fprintf(stderr, "ptxemu profile: %s\n", msg); return PTXEMU_EXIT_USAGE; }
    if (prof_read_json(files[1], &b, msg, sizeof msg)) {
        fprintf(stderr, "ptxemu profile: %s\n", msg);
        prof_report_free(&a);
        return PTXEMU_EXIT_USAGE;
    }
    FILE *f = open_output(out);
    int code = PTXEMU_EXIT_USAGE;
    if (f) {
        prof_write_diff(&a, &b, files[0], files[1], f);
        if (f != stdout) fclose(f);
        code = PTXEMU_EXIT_OK;
    }
    prof_report_free(&a);
    prof_report_free(&b);
    return code;
}

typedef struct popts {
    const char *format, *output;
    const char *dirs[MAX_DIRS];
    int ndirs, top, sort;
    const char *libs[MAX_LIBS];
    int nlibs;
    rt_run_opts run;
} popts;

static int parse_opts(int argc, char **argv, int from, popts *o)
{
    for (int i = from; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (a[0] != '-')
            return tool_usage_error(&tool_cmd_profile, "unexpected argument '%s'; kernel arguments go before the options", a);
        if (!v) return tool_usage_error(&tool_cmd_profile, tool_is_option(&tool_cmd_profile, a) ? "option '%s' needs a value" : "unknown option '%s'", a);
        if (!strcmp(a, "--format")) {
            o->format = v;
            if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "csv") && strcmp(v, "html"))
                return tool_usage_error(&tool_cmd_profile, "unknown format '%s'; use --format text, json, csv or html", v);
        } else if (!strcmp(a, "--output")) o->output = v;
        else if (!strcmp(a, "--source-dir")) {
            if (o->ndirs == MAX_DIRS) return tool_usage_error(&tool_cmd_profile, "too many --source-dir options (at most 16); '%s' is one more", v);
            o->dirs[o->ndirs++] = v;
        } else if (!strcmp(a, "--top")) {
            o->top = (int)strtol(v, &end, 0);
            if (*end || o->top < 0) return tool_usage_error(&tool_cmd_profile, "--top wants a count (0: all lines), not '%s'", v);
        } else if (!strcmp(a, "--sort")) {
            o->sort = prof_counter_index(v);
            if (o->sort < 0) return tool_usage_error(&tool_cmd_profile, "--sort wants a counter name (see docs/PROFILING.md), not '%s'", v);
        } else if (!strcmp(a, "--timeout")) o->run.timeout = atof(v);
        else if (!strcmp(a, "--limit")) o->run.insn_limit = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--stack")) o->run.local_size = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--resident")) {
            o->run.resident = (int)strtol(v, &end, 0);
            if (*end || o->run.resident < 1) return tool_usage_error(&tool_cmd_profile, "--resident wants a positive number, not '%s'", v);
        } else if (!strcmp(a, "--load")) {
            if (o->nlibs == MAX_LIBS) return tool_usage_error(&tool_cmd_profile, "too many --load options (at most 16); '%s' is one more", v);
            o->libs[o->nlibs++] = v;
        } else return tool_usage_error(&tool_cmd_profile, "unknown option '%s'", a);
        i++;
    }
    return 0;
}

static void write_report(const prof_report *r, const popts *o, FILE *f)
{
    if (!strcmp(o->format, "json")) prof_write_json(r, f);
    else if (!strcmp(o->format, "csv")) prof_write_csv(r, f);
    else if (!strcmp(o->format, "html")) prof_write_html(r, f);
    else prof_write_text(r, f, o->top, o->sort);
}

/* Runs the case under the profiler and writes the report. */
static int profile_case(const rt_case *c, popts *o)
{
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load(c->ptx_path, &d, &text, &len);
    if (!m) {
        tool_print_diags(&d, text, len);
        free(text);
        diag_list_free(&d);
        return PTXEMU_EXIT_PTX;
    }
    int k = bc_find_func(m->bc, c->kernel);
    prof_profile *p = k >= 0 ? prof_new(m->bc, k) : NULL;
    if (k >= 0 && !p) { fprintf(stderr, "ptxemu profile: out of memory\n"); ptxemu_module_free(m); diag_list_free(&d); return PTXEMU_EXIT_USAGE; }
    vm_hooks h;
    if (p) { prof_hooks(p, &h); o->run.hooks = &h; }
    o->run.module = m;
    o->run.libs = o->libs;
    o->run.nlibs = o->nlibs;
    rt_run_result r;
    int code = rt_run_case(c, &o->run, rt_case_has_expectations(c), &r, &d);
    if (r.out.len) fwrite(r.out.data, 1, r.out.len, stderr);     /* device printf: stdout holds the report */
    if (code) tool_print_failure(&tool_cmd_profile, &r);
    int ran = p && code != PTXEMU_EXIT_USAGE && code != PTXEMU_EXIT_PTX;
    if (ran) {
        prof_finish(p);
        /* the CUDA headers of inlined intrinsics (cuda/include/... in nvcc's .file lines) last */
        const char *cuda = getenv("CUDA_HOME");
        char cinc[1024];
        snprintf(cinc, sizeof cinc, "%s/include", cuda && *cuda ? cuda : "/usr/local/cuda");
        if (o->ndirs < MAX_DIRS) o->dirs[o->ndirs++] = cinc;
        prof_source_opts so = { o->dirs, o->ndirs, 0 };
        prof_report rep;
        FILE *f = NULL;
        if (prof_report_build(p, m, &so, &rep)) { fprintf(stderr, "ptxemu profile: out of memory\n"); code = code ? code : PTXEMU_EXIT_USAGE; }
        else {
            if ((f = open_output(o->output))) {
                write_report(&rep, o, f);
                if (f != stdout) fclose(f);
            } else code = code ? code : PTXEMU_EXIT_USAGE;
            fflush(stdout);
            for (int i = 0; i < rep.nfiles; i++)
                if (!rep.files[i].found && strcmp(o->format, "json") && strcmp(o->format, "csv"))
                    fprintf(stderr, "ptxemu profile: source %s not found (give its folder with --source-dir DIR)\n", rep.files[i].path);
            prof_report_free(&rep);
        }
    }
    prof_free(p);
    rt_run_result_free(&r);
    ptxemu_module_free(m);
    diag_list_free(&d);
    return code;
}

static int profile_main(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) if (!strcmp(argv[i], "--diff")) return cmd_diff(argc, argv);
    rt_case c;
    int used;
    int e = tool_load_case(&tool_cmd_profile, argc, argv, &used, &c);
    if (e) return e;
    popts o;
    memset(&o, 0, sizeof o);
    o.format = "text";
    o.sort = -1;
    o.top = 20;
    int code = parse_opts(argc, argv, used, &o);
    if (!code) code = profile_case(&c, &o);
    rt_case_free(&c);
    return code;
}
