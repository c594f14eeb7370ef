/* ptxemu.c — the command-line tool: a thin layer over libptxemu.
 *
 *   ptxemu run CASE.txt | FILE.ptx --kernel K --grid .. --block .. ARGS
 *   ptxemu test PATH...            ptxemu dis FILE.ptx
 *   ptxemu check ...               ptxemu debug ...
 *   ptxemu profile ...
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ptxemu.h"
#include "runcase.h"
#include "tools.h"

static void usage(FILE *f)
{
    fputs("usage: ptxemu COMMAND ...\n"
          "\n"
          "  run CASE.txt [--dump NAME=PATH]... [--timeout S] [--limit N] [--stack BYTES] [--load LIB.so]... [--stats] [--time]\n"
          "      [--resident N]  keep N blocks in flight at once (inter-block waits; default 1,\n"
          "      or the whole grid of up to 64 blocks for a kernel using grid-wide sync)\n"
          "  run FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] ARG...\n"
          "      ARG is a kernel parameter, in order:\n"
          "        u32:V s32:V u64:V s64:V f32:V f64:V   a scalar\n"
          "        NAME=file:PATH                         a buffer initialised from a file\n"
          "        NAME=zero:BYTES                        a zero-filled buffer\n"
          "        NAME=fill:BYTES:BYTEVALUE              a buffer with every byte set\n"
          "      buffers are passed as pointers; --dump NAME=PATH writes one after the launch.\n"
          "  test PATH... [--shard K/N] [-j JOBS] [--timeout S] [--stats] [--resident N]\n"
          "      runs every case file under the paths; prints one line per case, then\n"
          "      'N passed, N failed'.  --stats also compares expect-stat lines (memory\n"
          "      statistics counted from PTX-level accesses, see README).\n"
          "  dis FILE.ptx [--func NAME]      prints the compiled bytecode\n"
          "  check CASE.txt | FILE.ptx LAUNCH-ARGS [--schedules N] [--seed S] [--format text|json|sarif] [--output PATH] [--resident N]\n"
          "  debug CASE.txt | FILE.ptx LAUNCH-ARGS [-x SCRIPT] [--seed S] [--schedule hw|adversarial] [--resident N]\n"
          "  profile CASE.txt | FILE.ptx LAUNCH-ARGS [--format text|json|csv|html] [--output PATH] [--source-dir DIR]...\n"
          "      [--top N] [--sort COUNTER]   per-line costs as Nsight Compute's source view counts them\n"
          "  profile --diff A.json B.json [--output PATH]   what changed per line between two profiles\n"
          "\n"
          "exit status: 0 ok, 1 mismatch or findings, 2 usage, 3 PTX error, 4 fault/trap/assert,\n"
          "5 deadlock, 6 time or instruction limit\n", f);
}

/* ---- printing diagnostics --------------------------------------------------------------- */

void tool_print_diags(const diag_list *d, const char *text, size_t len)
{
    diag_render(d, text, len, stderr);
}

/* ---- launch arguments ---------------------------------------------------------------- */

/* Builds a case file (in a temporary file) from command-line launch
 * arguments, so the one case-file parser validates everything. */
static int write_inline_case(int argc, char **argv, int *consumed, char *path, size_t plen)
{
    const char *ptx = NULL, *kernel = NULL, *grid = "1", *block = "1", *shared = NULL;
    static char lines[64][PATH_MAX + 512];
    int nl = 0, np = 0;
    static char params[64][PATH_MAX + 512];
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--kernel") && i + 1 < argc) kernel = argv[++i];
        else if (!strcmp(a, "--grid") && i + 1 < argc) grid = argv[++i];
        else if (!strcmp(a, "--block") && i + 1 < argc) block = argv[++i];
        else if (!strcmp(a, "--shared") && i + 1 < argc) shared = argv[++i];
        else if (a[0] == '-' && a[1] == '-') break;       /* options of the command */
        else if (!ptx) ptx = a;
        else if (np < 64 && nl < 64) {
            const char *colon = strchr(a, ':'), *eq = strchr(a, '=');
            if (eq && (!colon || eq < colon)) {
                char name[256];
                size_t n = (size_t)(eq - a) < sizeof name - 1 ? (size_t)(eq - a) : sizeof name - 1;
                memcpy(name, a, n);
                name[n] = 0;
                const char *spec = eq + 1;
                if (!strncmp(spec, "file:", 5)) {
                    char rp[PATH_MAX + 1];
                    if (!realpath(spec + 5, rp)) { fprintf(stderr, "ptxemu: %s: %s\n", spec + 5, strerror(errno)); return -1; }
                    snprintf(lines[nl++], sizeof lines[0], "buffer %s file %s", name, rp);
                } else if (!strncmp(spec, "zero:", 5)) snprintf(lines[nl++], sizeof lines[0], "buffer %s zero %s", name, spec + 5);
                else if (!strncmp(spec, "fill:", 5)) {
                    char tmp[128];
                    snprintf(tmp, sizeof tmp, "%s", spec + 5);
                    char *c2 = strchr(tmp, ':');
                    if (!c2) { fprintf(stderr, "ptxemu: %s: expected NAME=fill:BYTES:VALUE\n", a); return -1; }
                    *c2 = 0;
                    snprintf(lines[nl++], sizeof lines[0], "buffer %s fill %s %s", name, tmp, c2 + 1);
                } else { fprintf(stderr, "ptxemu: %s: a buffer is NAME=file:PATH, NAME=zero:BYTES or NAME=fill:BYTES:VALUE\n", a); return -1; }
                snprintf(params[np++], sizeof params[0], "param ptr %s", name);
            } else if (colon) {
                snprintf(params[np++], sizeof params[0], "param %.*s %s", (int)(colon - a), a, colon + 1);
            } else { fprintf(stderr, "ptxemu: %s: expected TYPE:VALUE or NAME=KIND:...\n", a); return -1; }
        }
    }
    *consumed = i;
    if (!ptx || !kernel) { fprintf(stderr, "ptxemu: run FILE.ptx needs --kernel NAME\n"); return -1; }
    char rp[PATH_MAX];
    if (!realpath(ptx, rp)) { fprintf(stderr, "ptxemu: %s: %s\n", ptx, strerror(errno)); return -1; }
    snprintf(path, plen, "/tmp/ptxemu-case-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) { perror("ptxemu: mkstemp"); return -1; }
    FILE *f = fdopen(fd, "w");
    fprintf(f, "ptx %s\nkernel %s\n", rp, kernel);
    char g[64], b[64];
    snprintf(g, sizeof g, "%s", grid);
    snprintf(b, sizeof b, "%s", block);
    for (char *p = g; *p; p++) if (*p == ',') *p = ' ';
    for (char *p = b; *p; p++) if (*p == ',') *p = ' ';
    fprintf(f, "grid %s\nblock %s\n", g, b);
    if (shared) fprintf(f, "shared %s\n", shared);
    for (int k = 0; k < nl; k++) fprintf(f, "%s\n", lines[k]);
    for (int k = 0; k < np; k++) fprintf(f, "%s\n", params[k]);
    fclose(f);
    return 0;
}

/* Loads a case from CASE.txt or from inline launch arguments; argv[0] is
 * the file.  Sets *used to the arguments consumed. */
int tool_load_case(int argc, char **argv, int *used, rt_case *c)
{
    diag_list d;
    diag_init(&d);
    char tmp[64] = "";
    const char *path = argv[0];
    size_t n = strlen(path);
    *used = 1;
    if (n > 4 && !strcmp(path + n - 4, ".ptx")) {
        if (write_inline_case(argc, argv, used, tmp, sizeof tmp)) return PTXEMU_EXIT_USAGE;
        path = tmp;
    }
    int r = rt_case_parse(path, c, &d);
    if (r) { diag_render(&d, NULL, 0, stderr); rt_case_free(c); }
    if (tmp[0]) unlink(tmp);
    diag_list_free(&d);
    return r ? PTXEMU_EXIT_USAGE : 0;
}

/* ---- run ---------------------------------------------------------------------------- */

static int parse_common(const char *a, const char *v, rt_run_opts *o, const char **libs, int *nlibs)
{
    if (!strcmp(a, "--timeout")) o->timeout = atof(v);
    else if (!strcmp(a, "--limit")) o->insn_limit = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--seed")) o->seed = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--stack")) o->local_size = (uint32_t)strtoul(v, NULL, 0);
    else if (!strcmp(a, "--load")) { if (*nlibs < 16) libs[(*nlibs)++] = v; }
    else if (!strcmp(a, "--resident")) o->resident = atoi(v);
    else return -1;
    return 0;
}

void tool_print_failure(const rt_run_result *r)
{
    if (r->msg[0]) fprintf(stderr, "ptxemu: %s\n", r->msg);
    if (r->fault.report) fprintf(stderr, "blocked threads:\n%s", r->fault.report);
}

static int cmd_run(int argc, char **argv)
{
    if (argc < 1) { usage(stderr); return PTXEMU_EXIT_USAGE; }
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
        } else if (parse_common(argv[i], argv[i + 1], &o, libs, &nlibs)) {
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

/* ---- dis ----------------------------------------------------------------------------- */

static int cmd_dis(int argc, char **argv)
{
    if (argc < 1) { usage(stderr); return PTXEMU_EXIT_USAGE; }
    const char *func = NULL;
    for (int i = 1; i + 1 < argc; i++) if (!strcmp(argv[i], "--func")) func = argv[++i];
    diag_list d;
    diag_init(&d);
    char *text = NULL;
    size_t len = 0;
    ptxemu_module *m = ptxemu_load(argv[0], &d, &text, &len);
    if (!m) {
        tool_print_diags(&d, text, len);
        free(text);
        diag_list_free(&d);
        return PTXEMU_EXIT_PTX;
    }
    int f = -1;
    if (func && (f = bc_find_func(m->bc, func)) < 0) {
        fprintf(stderr, "ptxemu: no function '%s' in %s\n", func, argv[0]);
        ptxemu_module_free(m);
        diag_list_free(&d);
        return PTXEMU_EXIT_USAGE;
    }
    bc_disassemble(m->bc, f, stdout);
    ptxemu_module_free(m);
    diag_list_free(&d);
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? PTXEMU_EXIT_USAGE : 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "test")) return tool_cmd_test(argc - 2, argv + 2);
    if (!strcmp(cmd, "dis")) return cmd_dis(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return tool_cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "debug")) return tool_cmd_debug(argc - 2, argv + 2);
    if (!strcmp(cmd, "profile")) return tool_cmd_profile(argc - 2, argv + 2);
    fprintf(stderr, "ptxemu: unknown command '%s'\n", cmd);
    usage(stderr);
    return PTXEMU_EXIT_USAGE;
}
