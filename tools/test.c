/* test.c — `ptxemu test PATH...`: every case under the paths, each in its
 * own process (a crash or hang fails one case, not the run), JOBS at a time,
 * reported in a stable order, ending with exactly "N passed, N failed". */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tools.h"
#include "commands.h"

typedef struct tcase {
    char *path;            /* the case file */
    char *name;            /* shown name */
    pid_t pid;
    int fd;                /* read end of the child's report pipe */
    char report[2048];
    size_t rlen;
    double start, secs;
    int done, pass;          /* pass: 1 passed, 2 ran without expectations */
} tcase;

typedef struct tlist { tcase *v; int n, cap; } tlist;

static void add_case(tlist *l, const char *path, const char *name)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        if (!l->v) { fprintf(stderr, "ptxemu test: out of memory listing the cases; give fewer paths\n"); exit(PTXEMU_EXIT_USAGE); }
    }
    tcase *t = &l->v[l->n++];
    memset(t, 0, sizeof *t);
    t->path = strdup(path);
    t->name = strdup(name);
    t->fd = -1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Adds the case at dir/case.txt, or recurses into dir's subdirectories. */
static void collect(tlist *l, const char *path, const char *name, int depth)
{
    struct stat st;
    if (depth > 16 || stat(path, &st)) return;
    if (!S_ISDIR(st.st_mode)) { add_case(l, path, name); return; }
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/case.txt", path);
    if (!stat(buf, &st)) { add_case(l, buf, name); return; }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) { cap = cap ? cap * 2 : 32; names = realloc(names, (size_t)cap * sizeof *names); }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        char sub[4096], subname[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
        snprintf(subname, sizeof subname, "%s%s%s", name, name[0] ? "/" : "", names[i]);
        if (!stat(sub, &st) && S_ISDIR(st.st_mode)) collect(l, sub, subname, depth + 1);
        free(names[i]);
    }
    free(names);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The child: runs one case and writes "P" or "F<reason>" to fd. */
static int g_stats;   /* --stats: compare expect-stat lines too */
static int g_resident;   /* --resident N: blocks in flight */
static rt_run_opts g_opts;   /* --jobs N (jobs 0: not given) */
static int g_digest;     /* --digest: each line ends with a digest of everything the launch produced */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* " [status insns buffers stdout message]": equal digests, equal results. */
static void digest(const rt_run_result *r, int code, char *buf, size_t len)
{
    uint64_t h = fnv(1469598103934665603ull, r->out.data ? r->out.data : "", r->out.len);
    uint64_t hm = fnv(1469598103934665603ull, r->msg, strlen(r->msg));
    if (r->fault.report) hm = fnv(hm, r->fault.report, strlen(r->fault.report));
    snprintf(buf, len, " [%d %s %llu %016llx %016llx %016llx]", code, vm_status_name(r->status), (unsigned long long)r->insns,
             (unsigned long long)r->buffers_hash, (unsigned long long)h, (unsigned long long)hm);
}

static void child(const tcase *t, double timeout, int threads, int fd)
{
    rt_case c;
    diag_list d;
    diag_init(&d);
    char out[2048];
    if (rt_case_parse(t->path, &c, &d)) {
        snprintf(out, sizeof out, "Fbad case file: %s", d.n ? d.v[0].msg : "?");
        rt_case_free(&c);
    } else {
        rt_run_opts o;
        memset(&o, 0, sizeof o);
        o.timeout = timeout;
        o.memstats = g_stats;
        o.resident = g_resident;
        o.jobs = threads;
        o.digest = g_digest;
        rt_run_result r;
        diag_list pd;
        diag_init(&pd);
        int code = rt_run_case(&c, &o, 1, &r, &pd);
        char dg[160] = "";
        if (g_digest) digest(&r, code, dg, sizeof dg);
        if (code == 0 && r.unchecked)
            snprintf(out, sizeof out, "Uno expectation; ended with %s%s%s", vm_status_name(r.status),
                     r.status ? ": " : "", r.status ? r.fault.msg : "");
        else if (code == 0) snprintf(out, sizeof out, "P");
        else if (code == PTXEMU_EXIT_PTX && pd.n)
            snprintf(out, sizeof out, "F%s:%d:%d: %s", pd.v[0].file ? pd.v[0].file : "?", pd.v[0].line, pd.v[0].col, pd.v[0].msg);
        else snprintf(out, sizeof out, "F%s", r.msg);
        if (dg[0]) {
            size_t n = strlen(out);
            if (n + strlen(dg) >= sizeof out) n = sizeof out - 1 - strlen(dg);
            snprintf(out + n, sizeof out - n, "%s", dg);
        }
        rt_run_result_free(&r);
        diag_list_free(&pd);
        rt_case_free(&c);
    }
    for (char *p = out; *p; p++) if (*p == '\n') *p = ' ';
    ssize_t w = write(fd, out, strlen(out));
    (void)w;
    diag_list_free(&d);
}

/* Starts case t in a child process whose launch uses `threads` host threads. */
static void start(tcase *t, double timeout, int threads)
{
    int p[2];
    if (pipe(p)) { fprintf(stderr, "ptxemu test: cannot create a pipe for %s (%s); try a smaller -j\n", t->name, strerror(errno)); exit(PTXEMU_EXIT_USAGE); }
    fflush(stdout);
    t->start = now();
    t->pid = fork();
    if (t->pid == 0) {
        close(p[0]);
        child(t, timeout, threads, p[1]);
        _exit(0);
    }
    close(p[1]);
    t->fd = p[0];
}

static void finish(tcase *t)
{
    int status = 0;
    waitpid(t->pid, &status, 0);
    close(t->fd);
    t->fd = -1;
    t->secs = now() - t->start;
    t->done = 1;
    t->report[t->rlen] = 0;
    if (WIFSIGNALED(status)) {
        snprintf(t->report, sizeof t->report, "Fcrashed with signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (!t->rlen) snprintf(t->report, sizeof t->report, "Fno result");
    t->pass = t->report[0] == 'P' ? 1 : t->report[0] == 'U' ? 2 : 0;
}

static int test_main(int argc, char **argv);

const tool_command tool_cmd_test = {
    .name = "test",
    .summary = "run every case under the paths: one line each, then 'N passed, N failed'",
    .usage =
        "usage: ptxemu test PATH... [OPTION]...\n"
        "Runs every case under the paths (a case file, a directory holding case.txt, or a directory\n"
        "of such directories), each in its own process, and prints PASS, FAIL or RAN (no\n"
        "expectation) per case in a stable order, then exactly 'N passed, N failed'.\n"
        "\n"
        "options:\n"
        "  -j JOBS                cases run at once (default: the number of CPUs)\n"
        "  --jobs N               host threads each launch runs its blocks on (as in 'run'; default:\n"
        "                         the CPUs shared among the cases in flight, so the last cases\n"
        "                         or a lone big one use every core); results do not depend on it\n"
        "  --shard K/N            run only the K-th of N shares of the cases (1 <= K <= N)\n"
        "  --timeout S            stop each case after S seconds (default 120)\n"
        "  --stats                also compare expect-stat lines (memory statistics, see README)\n"
        "  --resident N           keep N blocks in flight at once\n"
        "  -v                     print each passing case's run time\n"
        "  --digest               end each line with a digest of the launch's results (status,\n"
        "                         instruction count, buffers, stdout, message), to compare runs\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status: 0 all passed, 1 some case failed, 2 usage\n",
    .main = test_main,
};

static int test_main(int argc, char **argv)
{
    const tool_command *cmd = &tool_cmd_test;
    tlist l = { NULL, 0, 0 };
    const int ncpu = tool_default_jobs();
    int shard_k = 0, shard_n = 0, jobs = ncpu;
    double timeout = 120;
    int verbose = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d/%d", &shard_k, &shard_n) != 2 || shard_n < 1 || shard_k < 1 || shard_k > shard_n) {
                return tool_usage_error(cmd, "bad --shard '%s'; write K/N with 1 <= K <= N", argv[i]);
            }
        } else if (!strcmp(argv[i], "-j") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "--digest")) g_digest = 1;
        else if (!strcmp(argv[i], "--stats")) g_stats = 1;
        else if (!strcmp(argv[i], "--resident") && i + 1 < argc) g_resident = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
            if (tool_parse_run_opt(argv[i], argv[i + 1], &g_opts, NULL, NULL))
                return tool_usage_error(cmd, "--jobs wants a number from 1 to %d, not '%s'", TOOL_MAX_JOBS, argv[i + 1]);
            i++;
        }
        else if (argv[i][0] == '-' && tool_is_option(cmd, argv[i])) return tool_usage_error(cmd, "option '%s' needs a value", argv[i]);
        else if (argv[i][0] == '-') return tool_usage_error(cmd, "unknown option '%s'", argv[i]);
        else {
            struct stat st;
            if (stat(argv[i], &st)) {
                fprintf(stderr, "ptxemu test: cannot read '%s' (%s); give case files or directories of them\n", argv[i], strerror(errno));
                return PTXEMU_EXIT_USAGE;
            }
            const char *base = strrchr(argv[i], '/');
            collect(&l, argv[i], S_ISDIR(st.st_mode) ? "" : (base ? base + 1 : argv[i]), 0);
            /* a directory given directly that is itself a case: name it */
            if (S_ISDIR(st.st_mode) && l.n && !l.v[l.n - 1].name[0]) {
                free(l.v[l.n - 1].name);
                char tmp[4096];
                snprintf(tmp, sizeof tmp, "%s", argv[i]);
                size_t n = strlen(tmp);
                while (n > 1 && tmp[n - 1] == '/') tmp[--n] = 0;
                const char *b = strrchr(tmp, '/');
                l.v[l.n - 1].name = strdup(b ? b + 1 : tmp);
            }
        }
    }
    if (jobs < 1) jobs = 1;
    if (shard_n) {
        int k = 0;
        for (int i = 0; i < l.n; i++) {
            if (i % shard_n == shard_k - 1) l.v[k++] = l.v[i];
            else { free(l.v[i].path); free(l.v[i].name); }
        }
        l.n = k;
    }
    int next = 0, printed = 0, running = 0, passed = 0, failed = 0, unchecked = 0;
    while (printed < l.n) {
        while (running < jobs && next < l.n) {
            /* the cores are shared among the cases in flight: many cases run a
             * thread each, the last ones (or a lone big one) get the rest */
            int in_flight = l.n - next + running < jobs ? l.n - next + running : jobs;
            int threads = g_opts.jobs ? g_opts.jobs : ncpu / in_flight > 1 ? ncpu / in_flight : 1;
            start(&l.v[next++], timeout, threads);
            running++;
        }
        struct pollfd pf[64];
        int idx[64], np = 0;
        for (int i = printed; i < next && np < 64; i++)
            if (!l.v[i].done && l.v[i].fd >= 0) { pf[np].fd = l.v[i].fd; pf[np].events = POLLIN; idx[np++] = i; }
        if (np) poll(pf, (nfds_t)np, 200);
        for (int k = 0; k < np; k++) {
            tcase *t = &l.v[idx[k]];
            if (pf[k].revents & (POLLIN | POLLHUP)) {
                ssize_t r = read(t->fd, t->report + t->rlen, sizeof t->report - 1 - t->rlen);
                if (r > 0) t->rlen += (size_t)r;
                else { finish(t); running--; }
            } else if (now() - t->start > timeout + 10) {
                kill(t->pid, SIGKILL);
                finish(t);
                snprintf(t->report, sizeof t->report, "Ftimed out after %.0f s", timeout + 10);
                t->pass = 0;
                running--;
            }
        }
        while (printed < next && l.v[printed].done) {
            tcase *t = &l.v[printed++];
            if (t->pass == 2) { unchecked++; printf("RAN  %s: %s\n", t->name, t->report + 1); }
            else if (t->pass) { passed++; printf("PASS %s%s%s", t->name, t->report + 1, verbose ? "" : "\n"); }
            else { failed++; printf("FAIL %s: %s\n", t->name, t->report + 1); }
            if (verbose && t->pass == 1) printf(" (%.2f s)\n", t->secs);
            fflush(stdout);
            free(t->path); free(t->name);
        }
    }
    free(l.v);
    if (unchecked) printf("%d case%s without expectations ran to a clean end (not counted)\n", unchecked, unchecked == 1 ? "" : "s");
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? PTXEMU_EXIT_MISMATCH : 0;
}
