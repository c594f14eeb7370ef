/* debug.c — `ptxemu debug`: the stepping debugger (in progress). */
#include <stdio.h>
#include "tools.h"

int tool_cmd_debug(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxemu: debug is not implemented yet\n");
    return PTXEMU_EXIT_USAGE;
}
