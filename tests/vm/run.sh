#!/usr/bin/env bash
# tests/vm/run.sh — the opcode table check and the VM's own PTX tests
# (tests/vm/*.ptx carry their launch and expectations in comments, see
# tests/vm/README.md).  Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
mkdir -p build/vmtest
make -s build/release/libptxemu.a && cc -std=gnu11 -Wall -Wextra -Werror -Ivm -Iparser -Iruntime tests/vm/test_ops.c build/release/libptxemu.a -lffi -lm -ldl -o build/vmtest/test_ops || { echo "0 passed, 1 failed"; exit 1; }
build/vmtest/test_ops
