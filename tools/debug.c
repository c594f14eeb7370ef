/* debug.c — `ptxemu debug`: the command loop around runtime/dbg.c.
 *
 *   ptxemu debug CASE.txt | FILE.ptx LAUNCH-ARGS [-x SCRIPT] [--seed S]
 *                [--schedule hw|adversarial] [--echo] [--load LIB.so] [--resident N]
 *
 * With a terminal on stdin (and no -x) it prompts and edits lines with
 * readline (history included); otherwise it reads the same commands from
 * the script or stdin and prints the same output without prompts.  --echo
 * prints each scripted command after a "(ptxemu) " marker, for transcripts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <readline/history.h>
#include <readline/readline.h>
#include "dbg.h"
#include "tools.h"
#include "commands.h"

#define PROMPT "(ptxemu) "

static char *complete_gen(const char *text, int state)
{
    static int i;
    static size_t len;
    if (!state) { i = 0; len = strlen(text); }
    while (dbg_command_names[i]) {
        const char *n = dbg_command_names[i++];
        if (!strncmp(n, text, len)) return strdup(n);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = start != 0;
    return start == 0 ? rl_completion_matches(text, complete_gen) : NULL;
}

static void interactive(dbg_session *s)
{
    rl_readline_name = "ptxemu";
    rl_attempted_completion_function = complete;
    char *last = NULL;
    for (;;) {
        char *line = readline(PROMPT);
        if (!line) { fputs("quit\n", stdout); break; }
        const char *cmd = line;
        while (*cmd == ' ') cmd++;
        if (!*cmd && last) cmd = last;            /* an empty line repeats the last command */
        else if (*cmd) {
            add_history(line);
            free(last);
            last = strdup(line);
        }
        int q = dbg_exec(s, cmd);
        free(line);
        fflush(stdout);
        if (q) break;
    }
    free(last);
}

static void scripted(dbg_session *s, FILE *in, int echo)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) >= 0) {
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        const char *t = line;
        while (*t == ' ' || *t == '\t') t++;
        if (echo && *t && *t != '#') { printf(PROMPT "%s\n", line); fflush(stdout); }
        if (dbg_exec(s, line)) break;
    }
    free(line);
}

static int debug_main(int argc, char **argv);

const tool_command tool_cmd_debug = {
    .name = "debug",
    .summary = "step through a kernel warp by warp, lane by lane (docs/DEBUGGING.md)",
    .usage =
        "usage: ptxemu debug CASE.txt [OPTION]...\n"
        "       ptxemu debug FILE.ptx --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]] [--shared BYTES] [ARG]... [OPTION]...\n"
        "A gdb-like session over one launch: breakpoints on PTX and CUDA lines, watchpoints,\n"
        "stepping a lane group, registers and memory of any thread.  With a terminal it prompts\n"
        "(type 'help'); otherwise it reads commands from stdin or the -x script.\n"
        "Launch arguments as for `ptxemu run` (see 'ptxemu help run').\n"
        "\n"
        "options:\n"
        "  -x SCRIPT              read the commands from SCRIPT\n"
        "  --echo                 print each scripted command after a \"(ptxemu) \" marker\n"
        "  --schedule KIND        hw (default): the hardware-like schedule; adversarial: the checker's\n"
        "                         seeded schedule (with --seed, replays a `ptxemu check` finding)\n"
        "  --seed S               the seed of the adversarial schedule\n"
        "  --load LIB.so          host library for .extern functions (repeatable)\n"
        "  --resident N           keep N blocks in flight at once\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status: 0 after the session, 2 usage, 3 PTX error\n",
    .main = debug_main,
};

static int debug_main(int argc, char **argv)
{
    const tool_command *cmd = &tool_cmd_debug;
    /* -x has one dash, so the inline launch arguments would take it: pull it out first */
    const char *script = NULL;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-x")) {
            if (i + 1 >= argc) return tool_usage_error(cmd, "option '-x' needs a value");
            script = argv[++i];
            continue;
        }
        argv[n++] = argv[i];
    }
    argc = n;
    rt_case c;
    int used;
    int e = tool_load_case(cmd, argc, argv, &used, &c);
    if (e) return e;
    dbg_opts o;
    memset(&o, 0, sizeof o);
    const char *libs[16];
    int echo = 0;
    for (int i = used; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--echo")) { echo = 1; continue; }
        if (a[0] != '-') {
            rt_case_free(&c);
            return tool_usage_error(cmd, "unexpected argument '%s'; kernel arguments go before the options", a);
        }
        if (!v) {
            rt_case_free(&c);
            if (!tool_is_option(cmd, a)) return tool_usage_error(cmd, "unknown option '%s'", a);
            return tool_usage_error(cmd, "option '%s' needs a value", a);
        }
        if (!strcmp(a, "-x")) script = v;
        else if (!strcmp(a, "--seed")) o.seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--schedule")) {
            if (!strcmp(v, "hw")) o.adversarial = 0;
            else if (!strcmp(v, "adversarial")) o.adversarial = 1;
            else { rt_case_free(&c); return tool_usage_error(cmd, "unknown schedule '%s'; use --schedule hw or --schedule adversarial", v); }
        } else if (!strcmp(a, "--load")) { if (o.nlibs < 16) libs[o.nlibs++] = v; }
        else if (!strcmp(a, "--resident")) o.resident = atoi(v);
        else { rt_case_free(&c); return tool_usage_error(cmd, "unknown option '%s'", a); }
        i++;
    }
    o.libs = libs;
    int code;
    dbg_session *s = dbg_new(&c, &o, stdout, stderr, &code);
    if (!s) { rt_case_free(&c); return code; }
    dbg_banner(s);
    fflush(stdout);
    if (script) {
        FILE *f = fopen(script, "r");
        if (!f) {
            fprintf(stderr, "ptxemu debug: cannot open script '%s' (%s); check the path given with -x\n", script, strerror(errno));
            dbg_free(s);
            rt_case_free(&c);
            return PTXEMU_EXIT_USAGE;
        }
        scripted(s, f, echo);
        fclose(f);
    } else if (isatty(0)) interactive(s);
    else scripted(s, stdin, echo);
    fflush(stdout);
    dbg_free(s);
    rt_case_free(&c);
    return 0;
}
