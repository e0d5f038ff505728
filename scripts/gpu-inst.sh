#!/bin/sh
# gpu-inst.sh - on a machine with a GPU: the issued warp instructions ncu counts
# (smsp__inst_executed.sum, per pipe) for the kernels ptxas unrolls, beside the simulator's SASS
# issue count (`sim --json`: sass_warp_insns), to judge sim/sass/sass_unroll.c (issue 23).
#   OUT=/tmp/out sh scripts/gpu-inst.sh            (OUT defaults to build/gpu-inst)
# Needs the CUDA driver, ncu, ptxas and nvdisasm. Writes env.txt, ncu.csv (one launch per kernel
# and size), sim-<kernel>-<n>.json, summary.txt (kernel, sizes, ncu, sim, sim/ncu), h200.json (the same as
# a record for `check --replay`: scripts/inst-record.py). ~2 minutes.
# Kernel names and sizes are fixed words below: nothing from a file reaches the shell.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-inst}
mkdir -p "$OUT"
WS=./build/warpscope
NCU=${WARPSCOPE_NCU:-$(command -v ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
{
    date -u
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1
    echo "nvcc: $(nvcc --version 2>/dev/null | tail -1)"
    echo "ncu: $NCU $("$NCU" --version 2>/dev/null | tail -1)"
} > "$OUT/env.txt"
[ -x "$WS" ] || make CJSON_DIR=.device-carry/cjson/usr CFLAGS=-Wno-error build/warpscope > "$OUT/build.log" 2>&1 ||
    { echo "gpu-inst: build failed ($OUT/build.log)"; exit 1; }
METRICS=smsp__inst_executed.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_fmaheavy.sum,sm__inst_executed_pipe_lsu.sum,sm__inst_executed_pipe_adu.sum,sm__inst_executed_pipe_cbu.sum,sm__inst_executed_pipe_uniform.sum
# kernel|entry (ncu's -k)|sizes: K = 143 and N = 112 exercise the 8-k / 2-tile copies and the remainder
RUNS="matmul_naive|matmul_naive|
matmul_naive|matmul_naive|M=64 N=64 K=143
matmul_tiled16|matMulShared|
matmul_tiled16|matMulShared|N=112
matmul_tiled32|^matmul_tiled$|
transpose_padded|^transpose_padded$|
copy_32x32|^copy_32x32$|
reduce_interleaved|^reduce_interleaved$|
reduce_first_add|^reduce_first_add$|
reduce_shuffle|^reduce_shuffle$|
register_select|^register_select$|"
: > "$OUT/ncu.csv"
: > "$OUT/summary.txt"
i=0
echo "$RUNS" | while IFS='|' read -r k entry sizes; do
    i=$((i + 1))
    dargs=""
    for w in $sizes; do dargs="$dargs -D $w"; done
    # shellcheck disable=SC2086 # the -D words above
    "$NCU" --clock-control none --metrics "$METRICS" -k "regex:$entry" --launch-count 1 --csv \
        "$WS" gpu $dargs "$k" > "$OUT/ncu-$i.tmp" 2>&1
    grep '^"' "$OUT/ncu-$i.tmp" | sed "s/^/\"$k\",\"$sizes\",/" >> "$OUT/ncu.csv"
    # shellcheck disable=SC2086
    "$WS" sim --json $dargs "$k" > "$OUT/sim-$k-$i.json" 2>/dev/null
    g=$(grep '"smsp__inst_executed.sum"' "$OUT/ncu-$i.tmp" | tail -1 | awk -F'","' '{gsub(/[",]/, "", $NF); print $NF}')
    s=$(awk '/"sass_warp_insns":/ {gsub(/[^0-9]/, "", $0); print; exit}' "$OUT/sim-$k-$i.json")
    printf '%s [%s]: ncu %s sim %s ratio %s\n' "$k" "$sizes" "${g:-?}" "${s:-?}" \
        "$(awk -v a="${s:-0}" -v b="${g:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "?" }')" >> "$OUT/summary.txt"
    rm -f "$OUT/ncu-$i.tmp"
done
tar cf "$OUT/sims.tar" -C "$OUT" $(cd "$OUT" && ls sim-*.json) && rm -f "$OUT"/sim-*.json
# the record `check --replay` judges (h200.json; registers from results/h200.json)
command -v python3 > /dev/null && python3 scripts/inst-record.py "$OUT" results/h200.json
cat "$OUT/summary.txt"
