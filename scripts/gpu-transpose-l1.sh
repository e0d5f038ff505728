#!/bin/sh
# gpu-transpose-l1.sh - what limits the 32 x 32 tile transposes at their realistic size
# (W=8192, H=4096 and 8192, beyond the L2): the conflicted ones ran 1.73-1.77x slower than their
# padded twins on the H200 (results/pairs-verdicts.md) while the model's shared wavefront rate
# says 1.06-1.08x. One launch of each under ncu (after two unprofiled ones): the L1 data path's
# share of its peak, the shared wavefronts, achieved occupancy, DRAM throughput and the stall
# reasons a phase model would have to reproduce.
# Writes $OUT/transpose-l1.csv (ncu --csv) and $OUT/log.txt.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-transpose-l1.sh   (about a minute)
set -u
OUT=${OUT:-out-transpose-l1}
BIN=${WS_BIN:-build/warpscope}
mkdir -p "$OUT"
M=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct
: > "$OUT/transpose-l1.csv"
: > "$OUT/log.txt"
for ks in transpose_coalesced:4096 transpose_padded:4096 tile_column_read:4096 tile_column_read_padded:4096 \
          copy_32x32:4096 transpose_coalesced:8192 transpose_padded:8192; do
    k=${ks%:*} h=${ks#*:}
    echo "+ ncu $k W=8192 H=$h" >> "$OUT/log.txt"
    ncu --clock-control none --csv -k regex:"$k" --launch-skip 2 --launch-count 1 --metrics "$M" \
        "$BIN" check --gpu-only -D W=8192 -D H="$h" "$k" > "$OUT/$k.$h.csv" 2>> "$OUT/log.txt"
    echo "exit $?: $k H=$h" >> "$OUT/log.txt"
    grep -v '^==' "$OUT/$k.$h.csv" | grep '^"' >> "$OUT/transpose-l1.csv"
    rm -f "$OUT/$k.$h.csv"
done
