#!/bin/sh
# gpu-tmap-ptr.sh - a tensor map passed by pointer (issue 24 item 4) on the GPU present:
# tests/data/tmap/tmap_ptr.cu's tma_by_value (__grid_constant__ CUtensorMap) and tma_by_pointer
# (const CUtensorMap * to a buffer init=tmap(tA), which the GPU backend fills with
# cuTensorMapEncodeTiled's map) through `warpscope check`: each output against the simulator's.
# Both write the same 1024 raw shared bytes; tma_pointer_no_map is the wrong use the simulator
# refuses (the GPU faults or reads garbage there), so it is not run on the GPU.
# Writes into $OUT (default ./out-tmap-ptr) env.txt (GPU, driver, nvcc, ncu, date, commit) and
# check.log (both checks and their exit codes). Exit status: the worst `check` exit code.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-tmap-ptr.sh   (under a minute)
set -u
OUT=${OUT:-out-tmap-ptr}
BIN=${WS_BIN:-build/warpscope}
mkdir -p "$OUT"
{
    echo "== $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 || true
    command -v ncu && ncu --version 2>&1 | tail -1
    command -v nvcc && nvcc --version 2>&1 | tail -1
    echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} > "$OUT/env.txt" 2>&1
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope > "$OUT/check.log" 2>&1 || {
        echo "gpu-tmap-ptr: build failed, see $OUT/check.log" >&2
        exit 5
    }
fi
worst=0
for k in tma_by_value tma_by_pointer; do
    echo "+ $BIN check tests/data/tmap/tmap_ptr.cu:$k" >> "$OUT/check.log"
    "$BIN" check "tests/data/tmap/tmap_ptr.cu:$k" >> "$OUT/check.log" 2>&1
    rc=$?
    echo "exit $rc" >> "$OUT/check.log"
    [ "$rc" -gt "$worst" ] && worst=$rc
done
exit "$worst"
