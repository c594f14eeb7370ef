/* ptxemu.c — the command-line tool's entry: dispatches to the commands
 * (commands.h), each in its own file over tools/common.c and libptxemu.
 *
 *   ptxemu run CASE.txt | FILE.ptx --kernel K --grid .. --block .. ARGS
 *   ptxemu test PATH...            ptxemu dis FILE.ptx
 *   ptxemu check ...               ptxemu debug ...
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "tools.h"
#include "commands.h"

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        tool_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? PTXEMU_EXIT_USAGE : 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run")) return tool_cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "test")) return tool_cmd_test(argc - 2, argv + 2);
    if (!strcmp(cmd, "dis")) return tool_cmd_dis(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return tool_cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "debug")) return tool_cmd_debug(argc - 2, argv + 2);
    fprintf(stderr, "ptxemu: unknown command '%s'\n", cmd);
    tool_usage(stderr);
    return PTXEMU_EXIT_USAGE;
}
