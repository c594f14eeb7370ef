/* test_ops.c — checks the opcode table itself (vm/ops.def): every name is
 * unique and non-empty, every format is known, and the dispatch table
 * covers every opcode (the VM's jump table is built from the same file, so
 * a missing handler is a compile error there; this checks the tables the
 * disassembler uses).  Prints PASS/FAIL lines and "N passed, N failed". */
#include <stdio.h>
#include <string.h>
#include "bc.h"

int main(void)
{
    int pass = 0, fail = 0;
    int dup = 0;
    for (int i = 0; i < OP__COUNT; i++)
        for (int j = i + 1; j < OP__COUNT; j++)
            if (!strcmp(bc_op_name[i], bc_op_name[j])) { printf("FAIL duplicate name '%s' (%d, %d)\n", bc_op_name[i], i, j); dup++; }
    if (dup) fail++; else { printf("PASS opcode names are unique (%d opcodes)\n", OP__COUNT); pass++; }
    int bad = 0;
    for (int i = 0; i < OP__COUNT; i++)
        if (!bc_op_name[i] || !bc_op_name[i][0] || bc_op_fmt[i] > F_MMA) { printf("FAIL opcode %d has no name or format\n", i); bad++; }
    if (bad) fail++; else { printf("PASS every opcode has a name and a format\n"); pass++; }
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
