#!/bin/sh
# gpu-stalls.sh - on a machine with a GPU: where the warps of the latency- and stall-bound catalog
# kernels wait, at their realistic sizes (issue 23). The time model predicts the reductions ~30 % fast
# with exact SASS counts (their missing time is stalls: barrier, shared-memory chains, a block's tree
# tail) and the 1024-thread-block transposes 25-30 % fast; ncu's warp-state sampling says which stall.
#   ncu.csv      ncu --clock-control none --section WarpStateStats + the metrics below, launches 3-4
#                of each kernel (after a warm-up and one rep):
#                smsp__average_warps_issue_stalled_*_per_issue_active (warps stalled per issued
#                instruction, by reason: barrier, long_scoreboard, short_scoreboard, wait, ...),
#                warps active / eligible per cycle, SM cycles, duration, DRAM bytes
#   summary.txt  kernel, ncu us, the four largest stall reasons (warps stalled per issued instruction)
#   OUT=/tmp/out sh scripts/gpu-stalls.sh      (OUT defaults to build/gpu-stalls; BUDGET_S, default 230)
# Writes env.txt, ncu.csv, summary.txt, log.txt (4 files). Never changes GPU clocks.
# Kernel names are fixed words below: nothing from a file reaches the shell.
set -u
cd "$(dirname "$0")/.." || exit 1
NAME=gpu-stalls DEFAULT_BUDGET=230
. scripts/gpu-prelude.sh   # OUT, BUDGET, START, WS, NCU, LOG, say(), env.txt, the build
METRICS=sm__cycles_elapsed.avg,gpu__time_duration.sum,smsp__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,smsp__warps_eligible.avg.per_cycle_active,dram__bytes_read.sum,dram__bytes_write.sum
# the two reductions first (the budget may cut the tail), then the latency-bound streaming kernels
# (1024-thread blocks with a barrier, 256-thread blocks with and without one) and one control
KERNELS="reduce_first_add
reduce_sequential
transpose_padded
copy_32x32
tile_column_read_padded
static_reverse
register_select
copy_float"
: > "$OUT/ncu.csv"
echo "kernel ncu_us top_stalls(warps_stalled_per_issue)" > "$OUT/summary.txt"
for k in $KERNELS; do
    [ $(($(date +%s) - START)) -lt $((BUDGET - 30)) ] || { say "out of time before $k"; break; }
    say "ncu $k"
    timeout 60 "$NCU" --clock-control none --section WarpStateStats --print-metric-name name \
        --metrics "$METRICS,regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio\$" --launch-skip 2 --launch-count 2 --csv \
        "$WS" gpu --realistic --no-verify --reps 4 "$k" > "$OUT/ncu.tmp" 2>> "$LOG"
    say "ncu exit $?"
    grep '^"' "$OUT/ncu.tmp" | sed "s/^/\"$k\",/" >> "$OUT/ncu.csv"
    nus=$(awk -F'","' '/"gpu__time_duration.sum"/ { v = $NF; gsub(/[",]/, "", v); print v / 1e3 }' "$OUT/ncu.tmp" |
        sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%.1f", a[int((NR + 1) / 2)]; else print "?" }')
    top=$(awk -F'","' '/issue_stalled_/ { m = $(NF-2); v = $NF; gsub(/[",]/, "", v); s[m] = v }
        END { for (m in s) print s[m], m }' "$OUT/ncu.tmp" | sort -rn | head -4 | awk '{ printf "%s=%s ", $2, $1 }')
    rm -f "$OUT/ncu.tmp"
    echo "$k $nus $top" >> "$OUT/summary.txt"
done
say "done"
