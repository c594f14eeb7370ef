#!/usr/bin/env bash
# tests/exec/build.sh OUT — builds the test programs of tests/exec/src with
# nvcc into OUT: each PROGRAM.cu as OUT/PROGRAM.static (nvcc's default,
# static cudart) and OUT/PROGRAM.shared (-cudart shared), the fat-binary
# variants of basic.cu, and dkern.ptx / dkern.fatbin for the driver test.
# Rebuilds only what is older than its source.  Exit 0, or 2 without nvcc.
set -u
out=${1:?usage: build.sh OUT}
src=$(cd "$(dirname "$0")/src" && pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "nvcc not found"; exit 2; }
mkdir -p "$out"
jobs=()
add() { jobs+=("$1|$2|$3"); }   # add OUTPUT SOURCE FLAGS
for f in "$src"/*.cu; do
    b=$(basename "$f" .cu)
    [ "$b" = dkern ] || [ "$b" = driver ] && continue
    add "$out/$b.static" "$f" "-arch=sm_90 -lineinfo"
    add "$out/$b.shared" "$f" "-arch=sm_90 -lineinfo -cudart shared"
done
stubs="$(dirname "$(command -v "$NVCC")")/../lib64/stubs"
add "$out/driver.static" "$src/driver.cu" "-arch=sm_90 -L$stubs -lcuda"
add "$out/driver.shared" "$src/driver.cu" "-arch=sm_90 -L$stubs -lcuda -cudart shared"
# fat binaries: what nvcc embeds for other targets
add "$out/basic.sm80" "$src/basic.cu" "-arch=sm_80"
add "$out/basic.multi" "$src/basic.cu" "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=compute_100"
add "$out/basic.default" "$src/basic.cu" ""
add "$out/basic.xptxas" "$src/basic.cu" "-arch=sm_90 -Xptxas -O3,-v"
add "$out/basic.sassonly" "$src/basic.cu" "-gencode arch=compute_90,code=sm_90"
build_one() {
    IFS='|' read -r o s fl <<<"$1"
    if [ "$o" -nt "$s" ] && [ "$o" -nt "$src/common.h" ]; then return 0; fi
    # shellcheck disable=SC2086
    "$NVCC" $fl -o "$o" "$s" >"$o.log" 2>&1 || { echo "FAIL build $(basename "$o"): $(head -3 "$o.log")"; return 1; }
    rm -f "$o.log"
}
export -f build_one; export NVCC src
fail=0
printf '%s\n' "${jobs[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c 'build_one "$@"' _ {} || fail=1
[ "$out/dkern.ptx" -nt "$src/dkern.cu" ] || "$NVCC" -ptx -arch=sm_90 -o "$out/dkern.ptx" "$src/dkern.cu" || fail=1
[ "$out/dkern.fatbin" -nt "$src/dkern.cu" ] || "$NVCC" -fatbin -gencode arch=compute_90,code=compute_90 -gencode arch=compute_90,code=sm_90 -o "$out/dkern.fatbin" "$src/dkern.cu" || fail=1
exit $fail
