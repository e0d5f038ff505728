#!/bin/sh
# barriers.sh - what the GPU does with the kernels of tests/data/barriers/, beside what
# warpscope's simulator says (tests/test_barriers.c states the simulator's side):
#   legal kernels      `warpscope check --no-counters`: the GPU's outputs against the
#                      simulator's (named barriers, bar.arrive, bar.red, barrier.sync on
#                      diverged paths, tile masks, cooperative groups, grid.sync());
#   refused launches   `warpscope gpu`: the driver's error for a block over __launch_bounds__
#                      (expected CUDA_ERROR_INVALID_VALUE) and a cooperative grid too large to
#                      be resident (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
#   misuse             `warpscope gpu` with a short timeout: a deadlock hangs (the timeout
#                      fires), grid.sync() without a cooperative launch traps;
#   synccheck          compute-sanitizer --tool synccheck on a host program per misuse kernel,
#                      for the verdicts warpscope names after it.
# Every log goes under $OUT (default /tmp/warpscope-barriers); summary.txt has one line each.
# Usage (on a machine with a GPU, from the repository root, after `make`):
#   OUT=/tmp/out sh tests/gpu/barriers.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/warpscope-barriers}
WS=${WS_BIN:-build/warpscope}
NVCC=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
SAN=${SAN:-$(command -v compute-sanitizer 2>/dev/null || echo /usr/local/cuda/bin/compute-sanitizer)}
D=tests/data/barriers
mkdir -p "$OUT"
export WARPSCOPE_PTXGEN=${WARPSCOPE_PTXGEN:-nvcc}   # cooperative_groups headers need the toolkit's include path
summary="$OUT/summary.txt"
: > "$summary"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1; "$NVCC" --version | tail -n 1; } > "$OUT/machine.txt"

one() { # one LABEL CMD...: runs CMD, log to $OUT/LABEL.txt, one summary line
    label=$1; shift
    "$@" > "$OUT/$label.txt" 2>&1
    rc=$?
    first=$(grep -m 1 -E 'error|mismatch|agree|CUDA_ERROR|outputs' "$OUT/$label.txt" | cut -c 1-220)
    echo "$label: exit $rc: $first" >> "$summary"
}

for k in named_groups_imm named_groups_reg one_warp_named producer_consumer sync_count unaligned_divergent \
         unaligned_join; do
    one "check-$k" "$WS" check --no-counters --reps 3 "$D/named.cu:$k"
done
one check-redux_tiles "$WS" check --no-counters --reps 3 "$D/misuse.cu:redux_tiles"
for k in cg_block cg_tiles cg_dynamic cg_coalesced cg_labeled cg_grid; do
    one "check-$k" "$WS" check --no-counters --reps 3 "$D/coop.cu:$k"
done
one check-bounded_2d "$WS" check --no-counters --reps 3 "$D/bounds.cu:bounded_2d"

one gpu-bounded_over "$WS" gpu "$D/bounds.cu:bounded_over"
one gpu-cg_grid_too_big "$WS" gpu "$D/coop.cu:cg_grid_too_big"
one gpu-cg_grid_plain "$WS" gpu "$D/coop.cu:cg_grid_plain"
for k in count_over_block id_splits_block count_zero loop_trip_differs shfl_absent_lanes syncwarp_outside_mask \
         vote_masks_disagree; do
    WARPSCOPE_GPU_TIMEOUT=10 one "gpu-$k" "$WS" gpu "$D/misuse.cu:$k"
done

# synccheck: one host program per misuse kernel, buffers sized as the descriptions say
if [ -x "$SAN" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT INT TERM
    for spec in "count_over_block 1 128 1" "id_splits_block 1 128 1" "count_zero 1 64 1" \
                "loop_trip_differs 1 256 1" "shfl_absent_lanes 1 32 2" "syncwarp_outside_mask 1 32 2" \
                "vote_masks_disagree 1 32 2" "unaligned_pass 1 64 1"; do
        set -- $spec
        k=$1; grid=$2; block=$3; nbuf=$4
        args="out"; [ "$nbuf" = 2 ] && args="in, out"
        cat > "$tmp/$k.cu" <<EOF
#include <cstdio>
#include "$(pwd)/$D/misuse.cu"
int main()
{
    int *in, *out, h[4096];
    for (int i = 0; i < 4096; i++) h[i] = i;
    cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    $k<<<$grid, $block>>>($args);
    cudaError_t e = cudaDeviceSynchronize();
    printf("$k: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
EOF
        if "$NVCC" -arch=sm_90 -lineinfo -o "$tmp/$k" "$tmp/$k.cu" > "$OUT/synccheck-$k.nvcc.txt" 2>&1; then
            timeout 60 "$SAN" --tool synccheck "$tmp/$k" > "$OUT/synccheck-$k.txt" 2>&1
            echo "synccheck-$k: exit $?: $(grep -m 1 -E 'Barrier error|Invalid|Divergent|ERROR SUMMARY' "$OUT/synccheck-$k.txt")" >> "$summary"
        else
            echo "synccheck-$k: nvcc failed" >> "$summary"
        fi
    done
fi
cat "$summary"
