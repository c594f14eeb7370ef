/* dis.c — `ptxemu dis`: prints a module's compiled bytecode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools.h"
#include "commands.h"

int tool_cmd_dis(int argc, char **argv)
{
    if (argc < 1) { tool_usage(stderr); return PTXEMU_EXIT_USAGE; }
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
