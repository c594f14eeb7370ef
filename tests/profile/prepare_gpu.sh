#!/bin/sh
# Assembles gpu/prof/ (git-ignored) for the device recording of Nsight
# Compute's source view: the runner (../shared/tools/gpu-runner.c with the
# JIT's line table switched on), the conformance cases compared per line,
# this folder's own cases, and record_gpu.sh.  Usage, from the repo root:
#   sh tests/profile/prepare_gpu.sh [DEST]      (default gpu/prof)
# then on the device machine: sh gpu/prof/record_gpu.sh  (writes $OUT/rec.tgz)
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEST=${1:-$ROOT/gpu/prof}
SH=$ROOT/../shared
mkdir -p "$DEST/conf/cases" "$DEST/own"
sed -e 's|CUjit_option o\[2\] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};|CUjit_option o[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_GENERATE_LINE_INFO};|' \
    -e 's|void \*ov\[2\] = {log, (void \*)(uintptr_t)sizeof log};|void *ov[3] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)1};|' \
    -e 's|cuModuleLoadDataEx(&mod, ptx, 2, o, ov)|cuModuleLoadDataEx(\&mod, ptx, 3, o, ov)|' \
    "$SH/tools/gpu-runner.c" > "$DEST/runner.c"
grep -q 'CU_JIT_GENERATE_LINE_INFO' "$DEST/runner.c" && grep -q 'ptx, 3, o, ov' "$DEST/runner.c"
cp -r "$SH/conformance/ptx" "$SH/conformance/src" "$DEST/conf/"
for c in $(cd "$SH/conformance/cases" && ls -d mem_* matmul_tiled reduce_* its_diverge_reconverge); do
    rm -rf "$DEST/conf/cases/$c"; cp -r "$SH/conformance/cases/$c" "$DEST/conf/cases/"
done
rm -rf "$DEST/own/cases" "$DEST/own/kernels"
cp -r "$ROOT/tests/profile/cases" "$ROOT/tests/profile/kernels" "$DEST/own/"
# the runner writes the buffers named by expect lines: record every case's "out"
for f in "$DEST"/own/cases/*/case.txt; do grep -q "^expect out " "$f" || echo "expect out expect/out.bin" >> "$f"; done
cp "$ROOT/tests/profile/record_gpu.sh" "$DEST/"
echo "prepared $DEST"
