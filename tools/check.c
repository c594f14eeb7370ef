/* check.c — `ptxemu check`: the warp-synchronous bug checker (in progress). */
#include <stdio.h>
#include "tools.h"

int tool_cmd_check(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxemu: check is not implemented yet\n");
    return PTXEMU_EXIT_USAGE;
}
