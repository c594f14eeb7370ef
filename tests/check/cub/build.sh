#!/bin/sh
# tests/check/cub/build.sh — rebuilds cub_algos.ptx (CUDA 13, sm_90, -lineinfo) with the .file
# paths made relative, then the inputs and expectations (gen.py).  Run from anywhere.
set -e
D=$(cd "$(dirname "$0")" && pwd)
cd "$D"
nvcc -ptx -arch=sm_90 -lineinfo cub_algos.cu -o cub_algos.ptx
sed -i -e "s#\"$D/#\"#g" -e 's#"/usr/local/cuda[^"]*/include/#"cuda/include/#g' -e 's#"/usr/include/#"sys/include/#g' cub_algos.ptx
python3 gen.py
