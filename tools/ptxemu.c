/* ptxemu.c — the command-line tool's entry: `help`, `--help`, `--version`,
 * then dispatch to the commands (commands.h), each in its own file over
 * tools/common.c and libptxemu.
 *
 *   ptxemu COMMAND [ARGS...]        ptxemu help [COMMAND]
 *   ptxemu COMMAND --help           ptxemu --version
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "tools.h"
#include "commands.h"
#include "version.h"

static const tool_command *const commands[] = {
    &tool_cmd_run, &tool_cmd_test, &tool_cmd_dis, &tool_cmd_check, &tool_cmd_debug, &tool_cmd_exec, &tool_cmd_profile, NULL
};

static const tool_command *find_command(const char *name)
{
    for (int i = 0; commands[i]; i++)
        if (!strcmp(commands[i]->name, name)) return commands[i];
    return NULL;
}

/* `ptxemu help`: the commands, one line each. */
static void help(FILE *f)
{
    fputs("usage: ptxemu COMMAND [ARGS...]\n"
          "       ptxemu help [COMMAND] | --help | --version\n"
          "Runs, steps through and checks CUDA PTX kernels without a GPU.\n"
          "\n"
          "commands:\n", f);
    for (int i = 0; commands[i]; i++) fprintf(f, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\n"
          "'ptxemu help COMMAND' (or 'ptxemu COMMAND --help') shows a command's arguments and options.\n"
          "\n"
          "exit status: 0 ok, 1 mismatch or findings, 2 usage, 3 PTX error, 4 fault/trap/assert,\n"
          "5 deadlock, 6 time or instruction limit\n", f);
}

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h");
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fputs("ptxemu: missing COMMAND\n", stderr);
        help(stderr);
        return PTXEMU_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (is_help(name) || !strcmp(name, "help")) {
        if (argc < 3) { help(stdout); return 0; }
        const tool_command *c = find_command(argv[2]);
        if (c && argc == 3) { tool_print_usage(c, stdout); return 0; }
        if (c) fprintf(stderr, "ptxemu help: unexpected argument '%s'; 'ptxemu help COMMAND' takes one command\n", argv[3]);
        else fprintf(stderr, "ptxemu help: unknown command '%s'; the commands are listed below\n", argv[2]);
        help(stderr);
        return PTXEMU_EXIT_USAGE;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
        printf("ptxemu %s\n", PTXEMU_VERSION);
        return 0;
    }
    const tool_command *c = find_command(name);
    if (!c) {
        if (name[0] == '-') fprintf(stderr, "ptxemu: unknown option '%s'; the commands and options are listed below\n", name);
        else fprintf(stderr, "ptxemu: unknown command '%s'; the commands are listed below\n", name);
        help(stderr);
        return PTXEMU_EXIT_USAGE;
    }
    /* COMMAND ... --help ...: that command's usage, whatever else is given
     * (up to the first operand, for a command that runs another program) */
    for (int i = 2; i < argc; i++) {
        if (is_help(argv[i])) { tool_print_usage(c, stdout); return 0; }
        if (c->operands_end_options && argv[i][0] != '-') break;
    }
    return c->main(argc - 2, argv + 2);
}
