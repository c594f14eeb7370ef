#!/bin/sh
# Build and run the fp module test against the recorded sm_90 results, then
# the exhaustive (hashed) check of the bit-exact MUFU .approx ops.
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/fptest
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -O1 -g -Ivm -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cc $CFLAGS vm/fp.c vm/fp_approx.c tests/fp/test_fp.c -o build/fptest/test_fp -lm
build/fptest/test_fp tests/fp/gpu_results.txt.gz
cc -std=gnu11 -Wall -Wextra -Werror -O2 -Ivm vm/fp.c vm/fp_approx.c tests/fp/mufu_check.c -o build/fptest/mufu_check -lm
exec build/fptest/mufu_check
