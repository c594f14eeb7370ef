/* common.c — what every command shares: usage errors, loading a case from
 * CASE.txt or inline launch arguments, the run options, printing
 * diagnostics and failures.  Commands depend on this file, never on each
 * other. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools.h"

/* ---- usage and usage errors ------------------------------------------------------------ */

void tool_print_usage(const tool_command *c, FILE *f)
{
    fputs(c->usage, f);
}

int tool_usage_error(const tool_command *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ptxemu %s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    tool_print_usage(c, stderr);
    return PTXEMU_EXIT_USAGE;
}

/* ---- printing diagnostics --------------------------------------------------------------- */

void tool_print_diags(const diag_list *d, const char *text, size_t len)
{
    diag_render(d, text, len, stderr);
}

/* ---- launch arguments ---------------------------------------------------------------- */

/* Builds a case file (in a temporary file) from command-line launch
 * arguments, so the one case-file parser validates everything. */
static int write_inline_case(const tool_command *cmd, int argc, char **argv, int *consumed, char *path, size_t plen)
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
                    if (!realpath(spec + 5, rp)) {
                        fprintf(stderr, "ptxemu %s: cannot open buffer file '%s' (%s), in argument '%s'; give an existing file as NAME=file:PATH\n",
                                cmd->name, spec + 5, strerror(errno), a);
                        return -1;
                    }
                    snprintf(lines[nl++], sizeof lines[0], "buffer %s file %s", name, rp);
                } else if (!strncmp(spec, "zero:", 5)) snprintf(lines[nl++], sizeof lines[0], "buffer %s zero %s", name, spec + 5);
                else if (!strncmp(spec, "fill:", 5)) {
                    char tmp[128];
                    snprintf(tmp, sizeof tmp, "%s", spec + 5);
                    char *c2 = strchr(tmp, ':');
                    if (!c2) { fprintf(stderr, "ptxemu %s: buffer argument '%s' lacks its byte value; write NAME=fill:BYTES:VALUE\n", cmd->name, a); return -1; }
                    *c2 = 0;
                    snprintf(lines[nl++], sizeof lines[0], "buffer %s fill %s %s", name, tmp, c2 + 1);
                } else {
                    fprintf(stderr, "ptxemu %s: unknown buffer kind in argument '%s'; a buffer is NAME=file:PATH, NAME=zero:BYTES or NAME=fill:BYTES:VALUE\n",
                            cmd->name, a);
                    return -1;
                }
                snprintf(params[np++], sizeof params[0], "param ptr %s", name);
            } else if (colon) {
                snprintf(params[np++], sizeof params[0], "param %.*s %s", (int)(colon - a), a, colon + 1);
            } else {
                fprintf(stderr, "ptxemu %s: cannot read kernel argument '%s': expected TYPE:VALUE (a scalar: u32:7, f32:1.5, ...) or NAME=KIND:... (a buffer); see 'ptxemu help %s'\n",
                        cmd->name, a, cmd->name);
                return -1;
            }
        }
    }
    *consumed = i;
    if (!ptx || !kernel) {
        fprintf(stderr, "ptxemu %s: no kernel named for %s; add --kernel NAME (and --grid, --block, the kernel's arguments)\n",
                cmd->name, ptx ? ptx : "the .ptx file");
        return -1;
    }
    char rp[PATH_MAX];
    if (!realpath(ptx, rp)) {
        fprintf(stderr, "ptxemu %s: cannot open '%s' (%s); give the path of a .ptx file or of a case file\n", cmd->name, ptx, strerror(errno));
        return -1;
    }
    snprintf(path, plen, "/tmp/ptxemu-case-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "ptxemu %s: cannot create a temporary case file in /tmp (%s); check that /tmp is writable\n", cmd->name, strerror(errno));
        return -1;
    }
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

int tool_load_case(const tool_command *cmd, int argc, char **argv, int *used, rt_case *c)
{
    if (argc < 1) return tool_usage_error(cmd, "missing CASE.txt or FILE.ptx");
    if (argv[0][0] == '-' && argv[0][1]) {
        if (tool_is_option(cmd, argv[0]))
            return tool_usage_error(cmd, "option '%s' comes before CASE.txt or FILE.ptx; put the file first", argv[0]);
        return tool_usage_error(cmd, "unknown option '%s'", argv[0]);
    }
    diag_list d;
    diag_init(&d);
    char tmp[64] = "";
    const char *path = argv[0];
    size_t n = strlen(path);
    *used = 1;
    if (n > 4 && !strcmp(path + n - 4, ".ptx")) {
        if (write_inline_case(cmd, argc, argv, used, tmp, sizeof tmp)) { diag_list_free(&d); return PTXEMU_EXIT_USAGE; }
        path = tmp;
    }
    int r = rt_case_parse(path, c, &d);
    if (r) { diag_render(&d, NULL, 0, stderr); rt_case_free(c); }
    if (tmp[0]) unlink(tmp);
    diag_list_free(&d);
    return r ? PTXEMU_EXIT_USAGE : 0;
}

/* ---- run options and failures -------------------------------------------------------- */

int tool_parse_run_opt(const char *a, const char *v, rt_run_opts *o, const char **libs, int *nlibs)
{
    if (!strcmp(a, "--timeout")) o->timeout = atof(v);
    else if (!strcmp(a, "--limit")) o->insn_limit = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--seed")) o->seed = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--stack")) o->local_size = (uint32_t)strtoul(v, NULL, 0);
    else if (!strcmp(a, "--load")) { if (*nlibs < 16) libs[(*nlibs)++] = v; }
    else if (!strcmp(a, "--resident")) o->resident = atoi(v);
    else if (!strcmp(a, "--jobs")) {
        char *end;
        long n = strtol(v, &end, 0);
        if (*end || end == v || n < 1 || n > TOOL_MAX_JOBS) return -2;
        o->jobs = (int)n;
    } else return -1;
    return 0;
}

int tool_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int tool_is_option(const tool_command *c, const char *arg)
{
    size_t n = strlen(arg);
    if (n < 2 || arg[0] != '-') return 0;
    for (const char *p = c->usage; (p = strstr(p, arg)); p += n)
        if ((p == c->usage || p[-1] == ' ' || p[-1] == '[' || p[-1] == '\n') &&
            (!p[n] || p[n] == ' ' || p[n] == ']' || p[n] == ',' || p[n] == '\n'))
            return 1;
    return 0;
}

void tool_print_failure(const tool_command *cmd, const rt_run_result *r)
{
    if (r->msg[0]) fprintf(stderr, "ptxemu %s: %s\n", cmd->name, r->msg);
    if (r->fault.report) fprintf(stderr, "blocked threads:\n%s", r->fault.report);
}
