#!/usr/bin/env bash
# tests/exec/record/record.sh DIR OUT — on a machine with an NVIDIA GPU:
# builds the tests/exec programs, runs each twice (static and shared), the
# Python tests twice, and the attribute dump; writes OUT/rec.tgz holding
# NAME.MODE.out{1,2}, .err, .rc.  The expected files are then taken from it
# (tests/exec/record/accept.sh) once both runs agree.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:?DIR}; out=${2:?OUT}
mkdir -p "$bin" "$out/rec"
JOBS=16 bash "$here/build.sh" "$bin" 2>&1 | tail -20
nvcc -o "$bin/attrs" "$here/record/attrs.cu" -lcuda 2>&1 | tail -3
"$bin/attrs" > "$out/rec/attrs.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/rec/gpu.txt" 2>&1
run() {   # run NAME CMD...
    local name=$1; shift
    for i in 1 2; do
        ( cd "$bin" && timeout 120 "$@" > "$out/rec/$name.out$i" 2> "$out/rec/$name.err$i"; echo $? > "$out/rec/$name.rc$i" )
    done
}
for f in "$here"/src/*.cu; do
    b=$(basename "$f" .cu)
    [ "$b" = dkern ] && continue
    for m in static shared; do
        [ -x "$bin/$b.$m" ] || continue
        if [ "$b" = driver ]; then run "$b.$m" "./$b.$m" .; else run "$b.$m" "./$b.$m"; fi
    done
done
for v in sm80 multi default xptxas; do run "basic.$v" "./basic.$v"; done
for p in "$here"/py/*.py; do
    b=$(basename "$p" .py)
    PYTHONUNBUFFERED=1 run "$b.py" python3 "$p"
done
python3 -c "import cuda.bindings, numba_cuda, numpy; print(cuda.bindings.__version__, numba_cuda.__version__, numpy.__version__)" > "$out/rec/pyversions.txt" 2>&1
tar czf "$out/rec.tgz" -C "$out" rec && rm -rf "$out/rec"
ls -la "$out"
