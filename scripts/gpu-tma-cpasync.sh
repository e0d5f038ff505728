#!/bin/sh
# gpu-tma-cpasync.sh - what separates the pair mma_cp_async / mma_tma (demos/pairs.txt, 4096^3), the
# one wrong winner of results/pairs-verdicts.md: the H200 ran TMA 1.115x faster (873.1 vs 783.2 us),
# the model ties them (796.2 / 799.9 us, both bound by the L1/shared data path: per block and k-tile
# 128 ldmatrix wavefronts + 64 for the 8 KB the copy writes, one wavefront per 128 B for LDGSTS and
# TMA alike). At the clock the tensor-pipe probe saw (1754 MHz) the measured times are 193 and 173 SM
# cycles per block k-tile: cp.async fits 128 + 64, TMA would be 128 + ~45. This measures, for both
# kernels at the pair's size, on the GPU present:
#   counters.csv  ncu --metrics: the SM clock (sm__cycles_elapsed.avg / gpu__time_duration), the data
#                 path's shared wavefronts (LSU) and its bank reads/writes (every client: the TMA unit's
#                 writes included), the L1 throughput's share of peak, instruction counts by kind
#   stalls.csv    WarpStateStats + SchedulerStats + MemoryWorkloadAnalysis (where the warps wait)
# What decides the model: cycles per block k-tile = sm__cycles_elapsed.avg / (blocks per SM x 64) for
# both; and whether TMA's 64 bank writes per k-tile take LSU data-path cycles (its
# l1tex__data_pipe_lsu_wavefronts_mem_shared counts only the ldmatrix reads, l1tex__data_bank_writes
# counts them, and the data pipe's pct_of_peak stays below cp.async's: the writes ride beside the
# reads) or not. Each run profiles the first launch (--profile-child), caches flushed, clocks left
# alone. Run from the repository root on the lent GPU:
#   OUT=/some/dir sh scripts/gpu-tma-cpasync.sh        (about 2 min; BUDGET_S bounds it, default 300)
set -u
NAME=gpu-tma-cpasync DEFAULT_BUDGET=300
. scripts/gpu-prelude.sh
SIZE=${SIZE:-4096}
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.avg,smsp__cycles_elapsed.avg.per_second,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts.sum,\
l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,\
l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,\
smsp__inst_executed.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_tma_ld.sum,\
smsp__sass_inst_executed_op_ldsm.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum,\
l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
launch__grid_size,launch__occupancy_limit_blocks,sm__warps_active.avg.pct_of_peak_sustained_active
left() { [ $(($(date +%s) - START)) -lt "$BUDGET" ]; }

: > "$OUT/counters.csv"
: > "$OUT/stalls.csv"
for k in mma_cp_async mma_tma; do
    left || { say "skipped $k (budget)"; continue; }
    say "time $k"     # the event-timed median beside the profiled launch
    timeout 120 "$WS" gpu -D M=$SIZE -D N=$SIZE -D K=$SIZE --reps 20 --no-verify "$k" >> "$OUT/time.txt" 2>> "$LOG"
    say "counters $k"
    timeout 120 "$NCU" --clock-control none --metrics "$METRICS" --launch-count 1 -k "regex:$k" --csv --print-units base \
        "$WS" gpu -D M=$SIZE -D N=$SIZE -D K=$SIZE --no-verify "$k" --profile-child < /dev/null 2>> "$LOG" |
        grep '^"' | sed "s/^/\"$k\",/" >> "$OUT/counters.csv"
    say "stalls $k"
    echo "\"kernel: $k\"" >> "$OUT/stalls.csv"
    timeout 120 "$NCU" --clock-control none --section WarpStateStats --section SchedulerStats \
        --section MemoryWorkloadAnalysis --launch-count 1 -k "regex:$k" --csv \
        "$WS" gpu -D M=$SIZE -D N=$SIZE -D K=$SIZE --no-verify "$k" --profile-child < /dev/null 2>> "$LOG" |
        grep '^"' >> "$OUT/stalls.csv"
done
say "done"
