#!/bin/sh
# Rebuild the .ptx of every case under tests/vm/cases from its .cu (CUDA 13.0, sm_90), with
# .file paths made relative.  usage: sh tests/vm/cases/build_ptx.sh   (from anywhere)
# Goldens (expect/) were recorded on an H200 with /work/shared/tools/gpu-runner.c (each case
# run twice, bytes identical); re-record them after changing a kernel.
set -e
DIR=$(cd "$(dirname "$0")" && pwd)
for cu in "$DIR"/*/*.cu; do
  d=$(dirname "$cu"); n=$(basename "$cu" .cu)
  (cd "$d" && nvcc -ptx -arch=sm_90 -lineinfo "$n.cu" -o "$n.ptx" &&
   sed -i -e "s#\"$d/#\"#g" -e 's#"/usr/local/cuda[^"]*/include/#"cuda/include/#g' -e 's#"/usr/include/#"sys/include/#g' "$n.ptx")
done
echo ptx built
