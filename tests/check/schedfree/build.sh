#!/bin/sh
# tests/check/schedfree/build.sh — rebuilds schedfree.ptx (CUDA 13, sm_90, -lineinfo, relative
# .file paths).
set -e
D=$(cd "$(dirname "$0")" && pwd)
cd "$D"
nvcc -ptx -arch=sm_90 -lineinfo schedfree.cu -o schedfree.ptx
sed -i -e "s#\"$D/#\"#g" -e 's#"/usr/local/cuda[^"]*/include/#"cuda/include/#g' -e 's#"/usr/include/#"sys/include/#g' schedfree.ptx
