/* dis.c — `ptxemu dis`: prints a module's compiled bytecode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools.h"
#include "commands.h"

static int dis_main(int argc, char **argv);

const tool_command tool_cmd_dis = {
    .name = "dis",
    .summary = "print a module's compiled bytecode with its PTX and CUDA lines",
    .usage =
        "usage: ptxemu dis FILE.ptx [--func NAME]\n"
        "Compiles FILE.ptx and prints its bytecode, with the PTX and CUDA source line of each\n"
        "instruction; PTX errors are reported as the other commands report them (exit 3).\n"
        "\n"
        "options:\n"
        "  --func NAME            only the function or kernel NAME\n"
        "  -h, --help             print this help\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 PTX error\n",
    .main = dis_main,
};

static int dis_main(int argc, char **argv)
{
    const tool_command *cmd = &tool_cmd_dis;
    if (argc < 1) return tool_usage_error(cmd, "missing FILE.ptx");
    if (argv[0][0] == '-' && argv[0][1]) {
        if (tool_is_option(cmd, argv[0])) return tool_usage_error(cmd, "option '%s' comes before FILE.ptx; put the file first", argv[0]);
        return tool_usage_error(cmd, "unknown option '%s'", argv[0]);
    }
    const char *func = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--func")) {
            if (argv[i][0] == '-') return tool_usage_error(cmd, "unknown option '%s'", argv[i]);
            return tool_usage_error(cmd, "unexpected argument '%s'; dis takes one FILE.ptx", argv[i]);
        }
        if (i + 1 >= argc) return tool_usage_error(cmd, "option '--func' needs a value");
        func = argv[++i];
    }
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
        fprintf(stderr, "ptxemu dis: no function '%s' in %s; run without --func to see every function\n", func, argv[0]);
        ptxemu_module_free(m);
        diag_list_free(&d);
        return PTXEMU_EXIT_USAGE;
    }
    bc_disassemble(m->bc, f, stdout);
    ptxemu_module_free(m);
    diag_list_free(&d);
    return 0;
}
