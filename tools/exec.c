/* exec.c — `ptxemu exec [OPTIONS] PROGRAM ARGS...`: runs an unmodified CUDA
 * program (or Python) with ptxemu's libcuda.so.1 in place of NVIDIA's.
 *
 * The library directory is found next to the executable (build tree:
 * build/MODE/lib; installed: PREFIX/lib/ptxemu), put first on
 * LD_LIBRARY_PATH, and the options travel as PTXEMU_EXEC_* variables.  The
 * library appends what it saw (faults, findings, unsupported calls) to a
 * report file named by PTXEMU_EXEC_REPORT; after the program exits this
 * command prints the findings on stderr, writes --report, and exits with
 * the program's status (1 if the program succeeded but there were findings).
 * Report lines are "KIND TEXT"; a line starting with "+ " continues the
 * previous one.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools.h"
#include "commands.h"

static int exec_main(int argc, char **argv);

const tool_command tool_cmd_exec = {
    .name = "exec",
    .summary = "run a CUDA program (nvcc-built, or python3 script.py) with every kernel on the emulator",
    .usage =
        "usage: ptxemu exec [--check | --profile DIR] [--jobs N] [--timeout S] [--report PATH.json|PATH.sarif]\n"
        "                   [--trace]\n"
        "                   PROGRAM [ARGS...]\n"
        "Runs PROGRAM (an nvcc-built executable, python3 script.py, ...) on the emulator:\n"
        "every kernel it launches runs in ptxemu.  The program's exit status passes through.\n"
        "\n"
        "options (before PROGRAM; everything after it is the program's):\n"
        "  --check        run every launch under the warp-synchronous checker; findings are\n"
        "                 printed on stderr when the program exits, and the exit status is 1\n"
        "  --profile DIR  profile every kernel (docs/PROFILING.md): one profile per kernel, summed\n"
        "                 over its launches, written as DIR/KERNEL.json and DIR/KERNEL.html\n"
        "  --jobs N       run the blocks of each launch on N host threads (default: every core;\n"
        "                 results are those of --jobs 1); with --check, N schedules at once\n"
        "  --timeout S    stop a kernel launch that runs longer than S seconds (the program\n"
        "                 sees cudaErrorLaunchTimeout)\n"
        "  --report PATH  write the findings and faults as JSON, or SARIF for a .sarif path\n"
        "  --trace        print every driver call the program makes (PTXEMU_CUDA_TRACE=1)\n"
        "  -h, --help     print this help\n",
    .main = exec_main,
    .operands_end_options = 1,
};

/* The directory holding libcuda.so.1 for this ptxemu executable. */
static int find_lib_dir(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    const char *cands[] = { "%s/lib", "%s/../lib/ptxemu", "%s/release/lib" };
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        char dir[PATH_MAX + 32], so[PATH_MAX + 64];
        snprintf(dir, sizeof dir, cands[i], exe);
        snprintf(so, sizeof so, "%s/libcuda.so.1", dir);
        if (access(so, R_OK) == 0) {
            char *real = realpath(dir, NULL);
            snprintf(out, len, "%s", real ? real : dir);
            free(real);
            return 0;
        }
    }
    return -1;
}

typedef struct exec_opts {
    int check, trace;
    int jobs;
    double timeout;
    const char *report;
    const char *profile;         /* --profile DIR, made absolute (the program may change directory) */
} exec_opts;

static int parse_opts(int argc, char **argv, exec_opts *o, int *first)
{
    memset(o, 0, sizeof *o);
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) { i++; break; }
        if (a[0] != '-') break;
        if (!strcmp(a, "--check")) o->check = 1;
        else if (!strcmp(a, "--trace")) o->trace = 1;
        else if (!strcmp(a, "--jobs") && i + 1 < argc) {
            rt_run_opts ro;
            memset(&ro, 0, sizeof ro);
            if (tool_parse_run_opt(a, argv[++i], &ro, NULL, NULL))
                return tool_usage_error(&tool_cmd_exec, "--jobs wants a number from 1 to %d, not '%s'", TOOL_MAX_JOBS, argv[i]);
            o->jobs = ro.jobs;
        }
        else if (!strcmp(a, "--timeout") && i + 1 < argc) o->timeout = atof(argv[++i]);
        else if (!strcmp(a, "--report") && i + 1 < argc) o->report = argv[++i];
        else if (!strcmp(a, "--profile") && i + 1 < argc) o->profile = argv[++i];
        else if (tool_is_option(&tool_cmd_exec, a)) return tool_usage_error(&tool_cmd_exec, "option '%s' needs a value", a);
        else return tool_usage_error(&tool_cmd_exec, "unknown option '%s'", a);
    }
    if (i >= argc) return tool_usage_error(&tool_cmd_exec, "missing PROGRAM");
    if (o->jobs < 0 || o->timeout < 0) return tool_usage_error(&tool_cmd_exec, "--jobs and --timeout take non-negative numbers");
    if (o->check && o->profile)
        return tool_usage_error(&tool_cmd_exec, "--check and --profile each run the launches their own way; use one at a time");
    *first = i;
    return 0;
}

/* Sets variable var to "first:OLD" (or "first" when it was unset or empty). */
static int env_prepend(const char *var, const char *first)
{
    const char *old = getenv(var);
    size_t n = strlen(first) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v) return -1;
    snprintf(v, n, "%s%s%s", first, old && *old ? ":" : "", old && *old ? old : "");
    setenv(var, v, 1);
    free(v);
    return 0;
}

/* Puts dir first on LD_LIBRARY_PATH and sets the PTXEMU_EXEC_* variables. */
static int set_env(const char *dir, const exec_opts *o, const char *report)
{
    if (env_prepend("LD_LIBRARY_PATH", dir)) return -1;
    char buf[PATH_MAX + 32];
    /* the nvJitLink stand-in, loaded first so that run-time linkers (Numba
     * through cuda.core) hand the driver PTX rather than machine code */
    snprintf(buf, sizeof buf, "%s/libnvJitLink.so.13", dir);
    if (access(buf, R_OK) == 0 && env_prepend("LD_PRELOAD", buf)) return -1;
    /* Numba finds the driver through this variable rather than the loader */
    snprintf(buf, sizeof buf, "%s/libcuda.so.1", dir);
    setenv("NUMBA_CUDA_DRIVER", buf, 1);
    setenv("PTXEMU_EXEC_REPORT", report, 1);
    if (o->check) setenv("PTXEMU_EXEC_CHECK", "1", 1);
    if (o->profile) setenv("PTXEMU_EXEC_PROFILE", o->profile, 1);
    if (o->trace) setenv("PTXEMU_CUDA_TRACE", "1", 1);
    if (o->jobs) { snprintf(buf, sizeof buf, "%d", o->jobs); setenv("PTXEMU_EXEC_JOBS", buf, 1); }
    if (o->timeout > 0) { snprintf(buf, sizeof buf, "%g", o->timeout); setenv("PTXEMU_EXEC_TIMEOUT", buf, 1); }
    return 0;
}

/* One line of the library's report. */
typedef struct exec_line { char kind[16]; char *text; } exec_line;

static int read_report(const char *path, exec_line **lines)
{
    FILE *f = fopen(path, "r");
    *lines = NULL;
    if (!f) return 0;
    int n = 0, cap = 0;
    char buf[8192];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        if (buf[0] == '+' && buf[1] == ' ' && n > 0) {      /* continuation of a multi-line entry */
            exec_line *l = &(*lines)[n - 1];
            size_t a = strlen(l->text), b = strlen(buf + 2);
            char *t = realloc(l->text, a + b + 2);
            if (t) { t[a] = '\n'; memcpy(t + a + 1, buf + 2, b + 1); l->text = t; }
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            exec_line *nl = realloc(*lines, (size_t)cap * sizeof *nl);
            if (!nl) break;
            *lines = nl;
        }
        char *sp = strchr(buf, ' ');
        size_t k = sp ? (size_t)(sp - buf) : strlen(buf);
        exec_line *l = &(*lines)[n++];
        snprintf(l->kind, sizeof l->kind, "%.*s", (int)(k < 15 ? k : 15), buf);
        l->text = strdup(sp ? sp + 1 : "");
    }
    fclose(f);
    return n;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* --report: findings and faults as JSON, or SARIF 2.1.0 for a .sarif path. */
static int write_report(const char *path, const exec_line *l, int n, int status)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "ptxemu exec: cannot write %s: %s\n", path, strerror(errno)); return -1; }
    size_t pl = strlen(path);
    int sarif = pl > 6 && !strcmp(path + pl - 6, ".sarif");
    int first = 1;
    if (sarif) {
        fputs("{\"version\":\"2.1.0\",\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"runs\":[{"
              "\"tool\":{\"driver\":{\"name\":\"ptxemu exec\",\"informationUri\":\"https://github.com/ptxemu\"}},"
              "\"results\":[", f);
        for (int i = 0; i < n; i++) {
            int finding = !strcmp(l[i].kind, "finding"), fault = !strcmp(l[i].kind, "fault");
            if (!finding && !fault) continue;
            fprintf(f, "%s{\"ruleId\":\"%s\",\"level\":\"%s\",\"message\":{\"text\":", first ? "" : ",",
                    finding ? "warp-sync" : "fault", finding ? "warning" : "error");
            json_str(f, l[i].text);
            fputs("}}", f);
            first = 0;
        }
        fputs("]}]}\n", f);
    } else {
        fprintf(f, "{\"exit_status\":%d,\"findings\":[", status);
        for (int i = 0; i < n; i++) {
            if (strcmp(l[i].kind, "finding") && strcmp(l[i].kind, "fault")) continue;
            fprintf(f, "%s{\"kind\":\"%s\",\"text\":", first ? "" : ",", l[i].kind);
            json_str(f, l[i].text);
            fputc('}', f);
            first = 0;
        }
        fputs("]}\n", f);
    }
    fclose(f);
    return 0;
}

static int exec_main(int argc, char **argv)
{
    exec_opts o;
    int first = 0;
    int pr = parse_opts(argc, argv, &o, &first);
    if (pr) return pr;
    char profile_dir[PATH_MAX];
    if (o.profile) {
        if (mkdir(o.profile, 0777) && errno != EEXIST) {
            fprintf(stderr, "ptxemu exec: cannot create the profile folder '%s' (%s); give a writable --profile DIR\n",
                    o.profile, strerror(errno));
            return PTXEMU_EXIT_USAGE;
        }
        if (!realpath(o.profile, profile_dir)) {
            fprintf(stderr, "ptxemu exec: --profile '%s' is not a usable folder (%s)\n", o.profile, strerror(errno));
            return PTXEMU_EXIT_USAGE;
        }
        o.profile = profile_dir;
    }
    char dir[PATH_MAX];
    if (find_lib_dir(dir, sizeof dir)) {
        fprintf(stderr, "ptxemu exec: cannot find libcuda.so.1 next to the ptxemu executable "
                        "(expected in lib/ beside it, or PREFIX/lib/ptxemu): rebuild with make\n");
        return PTXEMU_EXIT_USAGE;
    }
    const char *tmp = getenv("TMPDIR");
    char report[PATH_MAX];
    snprintf(report, sizeof report, "%s/ptxemu-exec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(report);
    if (fd < 0) { fprintf(stderr, "ptxemu exec: cannot create a report file in %s: %s\n", tmp ? tmp : "/tmp", strerror(errno)); return PTXEMU_EXIT_USAGE; }
    close(fd);
    if (set_env(dir, &o, report)) { unlink(report); return PTXEMU_EXIT_USAGE; }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { fprintf(stderr, "ptxemu exec: fork: %s\n", strerror(errno)); unlink(report); return PTXEMU_EXIT_USAGE; }
    if (pid == 0) {
        execvp(argv[first], argv + first);
        fprintf(stderr, "ptxemu exec: cannot run %s: %s\n", argv[first], strerror(errno));
        _exit(127);
    }
    /* the terminal's Ctrl-C reaches the program; we only wait for it */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int status;
    if (WIFEXITED(st)) status = WEXITSTATUS(st);
    else {
        int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        fprintf(stderr, "ptxemu exec: %s was killed by signal %d (%s)\n", argv[first], sig, strsignal(sig));
        status = 128 + sig;
    }
    exec_line *lines;
    int n = read_report(report, &lines);
    unlink(report);
    int findings = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(lines[i].kind, "finding")) {
            if (!findings) fputs("ptxemu exec: checker findings:\n", stderr);
            fprintf(stderr, "%s\n", lines[i].text);
            findings++;
        }
    }
    if (findings) fprintf(stderr, "ptxemu exec: findings in %d launch%s\n", findings, findings == 1 ? "" : "es");
    for (int i = 0; i < n; i++)
        if (!strcmp(lines[i].kind, "profile")) fprintf(stderr, "ptxemu exec: profile of %s\n", lines[i].text);
    if (o.report) write_report(o.report, lines, n, status);
    for (int i = 0; i < n; i++) free(lines[i].text);
    free(lines);
    if (status == 0 && findings) return PTXEMU_EXIT_MISMATCH;
    return status;
}
