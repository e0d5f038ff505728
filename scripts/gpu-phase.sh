#!/bin/sh
# gpu-phase.sh - on a machine with a GPU: does a block's DRAM-latency phase add to its bank-conflicted
# shared phase, and how much do the other blocks resident on the SM hide (issue 23 item 2, "phases that
# add rather than overlap")? The model predicts the 32-way-conflicted transposes ~45 % fast at realistic
# sizes although the shared path's rate is right (results/h200-shared-rate). About 3 minutes.
#   phase.csv    tests/gpu/phase_probe.cu: load (1 GiB, coalesced) -> STS -> barrier -> k-way conflicted
#                LDS (k = 0 control, 1, 4, 16, 32; R = 1, 4 loads per element; or P = 1: the STS
#                conflicted instead, before the barrier) -> coalesced store, at
#                1/2/4/8 blocks per SM (dynamic shared memory), 256- and 1024-thread blocks, one tile
#                per block (grid) and persistent blocks (persist); cudaEvent median of 5, clock64 phases
#   ncu.tar.gz   ncu-probe.csv (one launch per grid-mode configuration; once.txt says which) and
#                ncu-catalog.csv (the transposes, tile_column_read, shared_stride_*, matmul_tiled16 at
#                --realistic sizes, launches 3-4): SM cycles, shared wavefronts, DRAM bytes, time and
#                the stall reasons (warp latency per instruction and warps stalled per issue)
#   rate.csv     scripts' shared_rate_probe.cu run of its `ldg` forms only (the first run's forms were
#                void: ptxas merged their loads), if the budget leaves time; its SASS counts in log.txt
#   once.txt (which ncu launch is which configuration, prefixed by the run: 256 / 1024), log.txt, env.txt
#   OUT=/tmp/out sh scripts/gpu-phase.sh   (OUT defaults to build/gpu-phase; BUDGET_S, default 240)
# Never changes GPU clocks. Kernel names are fixed words below: nothing from a file reaches the shell.
set -u
cd "$(dirname "$0")/.." || exit 1
NAME=gpu-phase DEFAULT_BUDGET=240
. scripts/gpu-prelude.sh   # OUT, BUDGET, START, WS, NCU, LOG, say(), env.txt, the build
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
left() { echo $((BUDGET - ($(date +%s) - START))); }

say "nvcc phase_probe"
nvcc -arch=sm_90 -O3 -Xptxas -v -o "$TMP/phase" tests/gpu/phase_probe.cu >> "$LOG" 2>&1 || { say "nvcc failed"; exit 1; }
if command -v cuobjdump > /dev/null 2>&1; then
    echo "== phase_probe SASS LDG/STG/LDS/STS/BAR per kernel ==" >> "$LOG"
    cuobjdump -sass "$TMP/phase" 2>> "$LOG" |
        awk '/Function :/ { f = $3; next }
             /\/\*[0-9a-f]+\*\// { l = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", l); sub(/^@!?U?P[0-9T]+[ \t]+/, "", l)
                 split(l, w, /[ \t;]+/); if (w[1] ~ /^LDG|^STG|^LDS|^STS|^BAR/) n[f " " w[1]]++ }
             END { for (k in n) print k, n[k] }' | sort >> "$LOG"
fi
say "phase_probe run"
timeout 60 "$TMP/phase" run "$OUT" > "$TMP/summary.txt" 2>> "$LOG"
say "phase_probe exit $?"
cat "$TMP/summary.txt" >> "$LOG"

STALLS=smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
STALLS=$STALLS,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio
STALLS=$STALLS,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio
STALLS=$STALLS,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
STALLS=$STALLS,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.avg,smsp__inst_executed.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
M=$M,dram__bytes_read.sum,dram__bytes_write.sum,smsp__warps_active.avg.per_cycle_active
M=$M,smsp__warps_eligible.avg.per_cycle_active,sm__ctas_launched.sum,$STALLS

# the catalog's conflicted kernels, their padded twins and controls (a fixed list of words)
KERNELS="transpose_coalesced
tile_column_read
shared_stride_s32
shared_stride_s16
shared_stride_s8
matmul_tiled16
transpose_padded
tile_column_read_padded
shared_stride_s1
shared_stride_s33
copy_32x32
transpose_coalesced_32x8
transpose_padded_32x8"
: > "$TMP/ncu-catalog.csv"
for k in $KERNELS; do
    [ "$(left)" -gt 120 ] || { say "out of time before $k"; break; }
    say "ncu $k"
    timeout 40 "$NCU" --clock-control none --print-metric-name name --metrics "$M" --launch-skip 2 --launch-count 2 --csv \
        "$WS" gpu --realistic --no-verify --reps 4 "$k" > "$TMP/one.csv" 2>> "$LOG"
    say "ncu exit $?"
    grep '^"' "$TMP/one.csv" | sed "s/^/\"$k\",/" >> "$TMP/ncu-catalog.csv"
done
# two ncu runs (ncu prints at its end: a timeout in the second still leaves the first's rows)
: > "$OUT/once.txt"
: > "$TMP/ncu-probe.csv"
for T in 256 1024; do
    say "ncu probe (grid mode, $T threads)"
    [ "$(left)" -gt 50 ] || { say "out of time before the $T-thread probe ncu"; break; }
    tl=$(($(left) - 35)); [ "$tl" -le 75 ] || tl=75
    timeout "$tl" "$NCU" --clock-control none --csv --print-metric-name name --metrics "$M" "$TMP/phase" once grid "$T" \
        > "$TMP/ncu-probe.raw" 2>> "$LOG"
    say "ncu probe exit $?"
    grep '^# once' "$TMP/ncu-probe.raw" | sed "s/^/$T /" >> "$OUT/once.txt"
    grep '^"' "$TMP/ncu-probe.raw" | sed "s/^/\"$T\",/" >> "$TMP/ncu-probe.csv"
done

tar -czf "$OUT/ncu.tar.gz" -C "$TMP" ncu-probe.csv ncu-catalog.csv

# the shared-rate probe's global-load forms (fixed in main after the void first run), if time is left
if [ "$(left)" -gt 40 ]; then
    say "nvcc shared_rate_probe"
    if nvcc -arch=sm_90 -O3 -o "$TMP/srate" tests/gpu/shared_rate_probe.cu >> "$LOG" 2>&1; then
        if command -v cuobjdump > /dev/null 2>&1; then
            echo "== shared_rate_probe SASS LDG/LDS per ldg kernel ==" >> "$LOG"
            cuobjdump -sass "$TMP/srate" 2>> "$LOG" |
                awk '/Function :/ { f = $3; next }
                     /\/\*[0-9a-f]+\*\// { l = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", l); sub(/^@!?U?P[0-9T]+[ \t]+/, "", l)
                         split(l, w, /[ \t;]+/); if (w[1] ~ /^LDG|^LDS/) n[f " " w[1]]++ }
                     END { for (k in n) print k, n[k] }' | sort >> "$LOG"
        fi
        say "shared_rate_probe run ldg"
        timeout "$(($(left) - 10))" "$TMP/srate" run "$OUT" ldg >> "$LOG" 2>&1
        say "shared_rate_probe exit $?"
    else
        say "shared_rate_probe nvcc failed"
    fi
else
    say "no time left for the shared-rate ldg forms"
fi
cat "$TMP/summary.txt"
say "done"
