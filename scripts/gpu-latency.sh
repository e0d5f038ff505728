#!/bin/sh
# gpu-latency.sh - load latency against load and issue rate per pipe on the GPU present, for the
# timing model's latency and issue terms (issue 23). About 2 minutes.
#   $OUT/latency.csv   tests/gpu/latency_probe.cu's CSV (its header says what each column is)
#   $OUT/pipes-ncu.csv ncu (--clock-control none: clocks are never changed) on one launch of each
#                      pipe kernel: instructions per pipe and cycles, to turn PTX op counts into SASS
#   $OUT/sass.txt      the probe's SASS (cuobjdump), when cuobjdump is found
#   $OUT/env.txt, $OUT/log.txt
# From the repository root: OUT=/some/dir sh scripts/gpu-latency.sh
set -u
OUT=${OUT:-out-latency}
mkdir -p "$OUT" || exit 1
PATH=$PATH:/usr/local/cuda/bin
export PATH
LOG=$OUT/log.txt
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "ncu: $(ncu --version 2>&1 | tail -1)"
} > "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -o "$TMP/probe" tests/gpu/latency_probe.cu > "$LOG" 2>&1 || { echo "nvcc failed" >> "$LOG"; exit 1; }
command -v cuobjdump > /dev/null 2>&1 && cuobjdump -sass "$TMP/probe" > "$OUT/sass.txt" 2>> "$LOG"
timeout 240 "$TMP/probe" > "$OUT/latency.csv" 2>> "$LOG"
echo "probe exit $?" >> "$LOG"
timeout 120 ncu --clock-control none --csv --kernel-name regex:pipe_ \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_fmaheavy.sum,sm__inst_executed_pipe_fmalite.sum,sm__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_fp64.sum,sm__inst_executed_pipe_uniform.sum,sm__inst_executed_pipe_cbu.sum,sm__inst_executed_pipe_adu.sum \
    "$TMP/probe" pipes-once > "$OUT/pipes-ncu.csv" 2>> "$LOG"
echo "ncu exit $?" >> "$LOG"
