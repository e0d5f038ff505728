#!/bin/sh
# The main job (`make demo`): a tour of the catalog through the simulator,
# showing each seed lesson in numbers, then the GPU results recorded in results/.
set -e
WS=${WS:-build/warpscope}
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "The catalog"
"$WS" list

say "Coalescing: a float copy vs stride 2 (sectors per request)"
"$WS" sim --compare stride_copy_s1 stride_copy_s2

say "Shared memory: a 32x32 tile read by column, unpadded vs padded"
"$WS" sim --compare tile_column_read tile_column_read_padded

say "Transpose: naive vs padded shared tile"
"$WS" sim --compare transpose_naive transpose_padded

say "Reduction: interleaved (tid % (2*s)) vs warp shuffles"
"$WS" sim --compare reduce_interleaved reduce_shuffle

say "Matrix multiply: naive vs tiled 32"
"$WS" sim --compare matmul_naive matmul_tiled32

say "Occupancy: 13 vs 256 threads per block"
"$WS" sim --compare saxpy_block13 saxpy_block256

say "A kernel with a planted race: the tile is read back without __syncthreads()"
"$WS" sim --racecheck tests/data/planted/missing_sync_transpose.cu 2>&1 | grep -E "racecheck|first|hazard" | head -4 || true

say "Recorded on a GPU (results/): simulator vs hardware counters, and bandwidth at large sizes"
if [ -f results/h200.md ]; then
    sed -n '/^Device:/p' results/h200.md
    sh "$(dirname "$0")/results-summary.sh" results/h200.md
    echo "(every run and disagreement: results/h200.md; planted bugs vs compute-sanitizer: results/sanitizer-compare.md)"
else
    echo "no GPU results recorded yet (make gpu-test on a machine with a GPU)"
fi
