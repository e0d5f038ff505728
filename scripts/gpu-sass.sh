#!/bin/sh
# gpu-sass.sh - on a machine with a GPU: `check` the kernels whose machine code differs from
# their PTX (merges, removed stores, predication, unrolling, spills; docs/sass.md) with the
# simulator on its SASS path, and record the deterministic counters (SASS-patched wavefronts,
# smsp__sass_inst_executed_op_*) beside the raw ones into $OUT.
#   OUT=/tmp/out sh scripts/gpu-sass.sh            (OUT defaults to build/gpu-sass)
# Needs the CUDA driver, ncu, ptxas and nvdisasm (the toolkit's, or WARPSCOPE_NVDISASM=<path>).
# Writes: tools.txt, build.log, sass.json (check --record), <kernel>.txt per kernel (SASS path),
# <kernel>.ptx-level.txt (WARPSCOPE_SASS=off, for comparison), repeat-<i>.txt (raw counters'
# run-to-run variation on matmul_tiled32), <kernel>.sass.txt (ptx --sass), summary.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-sass}
mkdir -p "$OUT"
WS=./build/warpscope

{
    echo "host: $(uname -a)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1
    for t in ptxas nvdisasm ncu; do
        p=$(command -v "$t" 2>/dev/null || ls "${CUDA_HOME:-/usr/local/cuda}/bin/$t" 2>/dev/null)
        [ "$t" = nvdisasm ] && [ -n "${WARPSCOPE_NVDISASM:-}" ] && p=$WARPSCOPE_NVDISASM
        echo "$t: ${p:-not found} $([ -n "$p" ] && "$p" --version 2>/dev/null | tail -1)"
    done
} > "$OUT/tools.txt" 2>&1
cat "$OUT/tools.txt"

make -j"$(nproc 2>/dev/null || echo 4)" > "$OUT/build.log" 2>&1 || { echo "gpu-sass: build failed (see $OUT/build.log)"; exit 1; }

KERNELS="matmul_tiled16 matmul_tiled32 matmul_naive seed_reduce_sum reduce_interleaved reduce_unroll_last_warp
reduce_shuffle shared_float4_s1 shared_stride_s2 transpose_coalesced_32x8 transpose_vec4 spill_forced spill_free
tests/data/sass/probes.cu:lds128 tests/data/sass/probes.cu:sts64 tests/data/sass/probes.cu:guarded
tests/data/sass/probes.cu:atomics tests/data/sass/probes.cu:generic_ld"

status=0
for k in $KERNELS; do
    name=$(echo "$k" | sed 's|.*:||; s|/|_|g')
    echo "== $k"
    "$WS" ptx --sass "$k" > "$OUT/$name.sass.txt" 2>&1
    "$WS" check "$k" --record "$OUT/sass.json" > "$OUT/$name.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { [ $rc -ne 3 ] && status=$rc; }
    WARPSCOPE_SASS=off "$WS" check "$k" > "$OUT/$name.ptx-level.txt" 2>&1
    grep -E "^counters|=>" "$OUT/$name.txt" | sed 's/^/   /'
done

# the raw shared counters vary run to run, the SASS-patched ones do not
for i in 1 2 3 4; do
    "$WS" check matmul_tiled32 > "$OUT/repeat-$i.txt" 2>&1
done

{
    echo "exact rows that differ (SASS path):"
    grep -l "DIFFERS (an exact" "$OUT"/*.txt 2>/dev/null | grep -v ptx-level | grep -v repeat || echo "  none"
    echo
    echo "shared wavefronts over four runs of matmul_tiled32 (raw, SASS-patched):"
    for i in 1 2 3 4; do
        printf '  run %s:' "$i"
        grep -E "^  (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld|smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld|l1tex__data_bank_conflicts_type_arbitration)" \
            "$OUT/repeat-$i.txt" | awk '{printf " %s=%s", $1, $4}'
        echo
    done
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
exit $status
