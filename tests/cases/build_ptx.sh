#!/bin/sh
# Rebuild every .ptx under tests/cases and kernels (CUDA 13.0, sm_90), with .file paths made relative.
# usage: sh tests/cases/build_ptx.sh            (from the repo root)
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ptx() {   # ptx DIR SRC OUT [extra nvcc flags...]
  d=$1; s=$2; o=$3; shift 3
  (cd "$ROOT/$d" && nvcc -ptx -arch=sm_90 "$@" "$s" -o "$o" &&
   sed -i -e "s#\"$ROOT/$d/#\"#g" -e 's#"/usr/local/cuda[^"]*/include/#"cuda/include/#g' -e 's#"/usr/include/#"sys/include/#g' "$o")
}
for c in int_edge atomics_all mem_forms calls_recursion printf_formats assert_fail trap_kernel \
         cub_block warp_algos barriers_named fp_rounding grid_3d cvt_edge tile_fma half_math shfl_forward; do
  [ -f "$ROOT/tests/cases/$c/$c.cu" ] && ptx tests/cases/$c $c.cu $c.ptx -lineinfo
done
# tile_fma with -ftz=true (fma.rn.ftz.f32, as -use_fast_math), used by the tile_fma_ftz case
ptx tests/cases/tile_fma tile_fma.cu ../tile_fma_ftz/tile_fma_ftz.ptx -lineinfo -ftz=true
# -G (debug) build of the calls/recursion kernels, used by the calls_debug case
ptx tests/cases/calls_recursion calls_recursion.cu calls_recursion_G.ptx -G
for k in saxpy reduce histogram matmul scan softmax; do
  [ -f "$ROOT/kernels/$k/$k.cu" ] && ptx kernels/$k $k.cu $k.ptx -lineinfo
done
echo ptx built
