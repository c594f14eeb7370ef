#!/bin/sh
# tests/check/precision/build.sh — rebuilds precision.ptx (CUDA 13, sm_90, -lineinfo, relative
# .file paths) and the case folders (gen_cases.py).
set -e
D=$(cd "$(dirname "$0")" && pwd)
cd "$D"
nvcc -ptx -arch=sm_90 -lineinfo precision.cu -o precision.ptx
sed -i -e "s#\"$D/#\"#g" -e 's#"/usr/local/cuda[^"]*/include/#"cuda/include/#g' -e 's#"/usr/include/#"sys/include/#g' precision.ptx
python3 gen_cases.py
