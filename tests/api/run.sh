#!/usr/bin/env bash
# tests/api/run.sh — a host program built against libptxemu (MODE=asan).
set -u
cd "$(dirname "$0")/../.." || exit 2
make -s MODE=asan build/asan/libptxemu.a >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p build/apitest
cc -std=gnu11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -Iruntime -Ivm -Iparser \
   tests/api/saxpy_api.c build/asan/libptxemu.a -lffi -lm -ldl -lreadline -o build/apitest/saxpy_api || { echo "0 passed, 1 failed"; exit 1; }
build/apitest/saxpy_api
