#!/bin/sh
# gpu-hmma-rule.sh - on an sm_80+ GPU (the H200): records what mma.sync computes for inputs chosen to
# show the tensor core's f32/f16 accumulation rule (tests/gpu/hmma_rule.cu says which cases): the
# order of the k-sum, how many bits of the smaller terms survive alignment to the largest, and the
# rounding of the result. The simulator rounds the exact sum once (sim/interp/exec_mma.c); the
# issue-24 corpus differed from that by ~1 ulp after HMMA. scripts/hmma-rule-fit.py then judges the
# candidate rules against the records, here, without a GPU.
# Writes into $OUT (default ./out-hmma-rule): env.txt (GPU, driver, nvcc, date, commit), build.log,
# hmma.tsv (form, case, i, j, D's bits: 4 forms x 23 cases x 128 elements), inputs.tsv (the A, B and C
# bits of every case). Takes a few seconds. Exit: 0 recorded, 4 no GPU, 5 build failed.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-hmma-rule.sh
set -u
OUT=${OUT:-out-hmma-rule}
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$OUT"
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv,noheader 2>&1 || true
    "$NVCC" --version 2>&1 | tail -1
    command -v ncu > /dev/null && ncu --version 2>&1 | tail -1
} > "$OUT/env.txt"
"$NVCC" -arch=sm_90 -O2 -o "$OUT/hmma_rule" tests/gpu/hmma_rule.cu > "$OUT/build.log" 2>&1 || {
    echo "gpu-hmma-rule: build failed, see $OUT/build.log" >&2; exit 5; }
"$OUT/hmma_rule" "$OUT/inputs.tsv" > "$OUT/hmma.tsv" 2>> "$OUT/build.log"
rc=$?
rm -f "$OUT/hmma_rule"
[ $rc = 0 ] || { echo "gpu-hmma-rule: the run failed (exit $rc), see $OUT/build.log" >&2; exit 4; }
echo "gpu-hmma-rule: $(($(wc -l < "$OUT/hmma.tsv") - 1)) outputs in $OUT/hmma.tsv"
