#!/bin/bash
# Runs on the device machine from the repo root: builds the runner, runs every case twice.
cd "$(dirname "$0")/.."
R=gpu/res
rm -rf $R; mkdir -p $R/r1 $R/r2
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv > $R/gpu.txt 2>&1
nvcc --version >> $R/gpu.txt 2>&1
nvcc -O2 gpu/gpu-runner.c -o gpu/runner -lcuda || { echo BUILD FAILED; exit 1; }
for d in tests/cases/*/ kernels/*/; do
  d=${d%/}; [ -f $d/case.txt ] || continue
  name=$(basename $d); case $d in kernels/*) name=k_$name;; esac
  for r in r1 r2; do
    o=$R/$r/$name; mkdir -p $o
    timeout 90 ./gpu/runner $d $o 20 > $o/stdout.raw 2> $o/stderr.txt; echo $? > $o/rc
  done
  st=$(tail -1 $R/r1/$name/stdout.raw)
  if diff -r $R/r1/$name $R/r2/$name > /dev/null; then same=SAME; else same=DIFF; fi
  echo "$name rc=$(cat $R/r1/$name/rc) last=[$st] $same" | tee -a $R/summary.txt
done
diff -r $R/r1 $R/r2 > $R/diff.txt 2>&1
tar czf $OUT/res.tgz -C gpu res
cp $R/summary.txt $OUT/summary.txt
