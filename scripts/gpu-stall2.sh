#!/bin/sh
# gpu-stall2.sh - the short dependent latencies between barriers on the GPU present, for the timing
# model's barrier-chain term (issue 23: block-wide tree reductions ~30 % under-predicted). ~1 minute.
#   $OUT/stall.csv  tests/gpu/stall_probe.cu's CSV (its header comment says what each row is): SM
#                   cycles (clock64) per step of a dependent shared-load chain, FADD / IADD chain,
#                   shuffle chain, bar.sync alone, store-barrier-load and the catalog's tree
#                   reduction step, by block size (32-1024) and blocks per SM (1-8)
#   $OUT/sass.txt   the probe's SASS (cuobjdump), when cuobjdump is found
#   $OUT/env.txt, $OUT/log.txt
# Never changes clocks; no warpscope build. From the repository root: OUT=/some/dir sh scripts/gpu-stall2.sh
set -u
OUT=${OUT:-out-stall2}
mkdir -p "$OUT" || exit 1
PATH=$PATH:/usr/local/cuda/bin
export PATH
LOG=$OUT/log.txt
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
} > "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -o "$TMP/probe" tests/gpu/stall_probe.cu > "$LOG" 2>&1 || { echo "nvcc failed" >> "$LOG"; exit 1; }
command -v cuobjdump > /dev/null 2>&1 && cuobjdump -sass "$TMP/probe" > "$OUT/sass.txt" 2>> "$LOG"
timeout 150 "$TMP/probe" > "$OUT/stall.csv" 2>> "$LOG"
echo "probe exit $?" >> "$LOG"
