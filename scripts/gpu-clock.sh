#!/bin/sh
# gpu-clock.sh - on a machine with a GPU: the SM clock the catalog's kernels really run at, at their
# realistic sizes (issue 23). The time model runs the SM at the profile's sm_clock_mhz (1980 boost);
# the tensor-pipe probe saw 1743-1790 MHz (clock64 span / event time), ncu's probes 1979. Two views:
#   ncu.csv  ncu --clock-control none, launches 3-5 of each kernel (after a warm-up and one rep):
#            sm__cycles_elapsed.avg(.per_second), gpc__cycles_elapsed.max, gpu__time_duration.sum,
#            L2 and DRAM clocks, dram__bytes_read/write.sum: the clock during the kernel under ncu
#   smi.csv  nvidia-smi sampling clocks.sm, power, the clock-event reasons every 20 ms while the
#            same kernel runs back to back (`warpscope gpu --reps R`, L2 flushed before each, as
#            `check` times it) without ncu: the clock under the load `check` measures
#   summary.txt  kernel, sizes, ncu MHz (median of its launches), ncu us, smi MHz (median of the
#            samples while busy), event median us
#   OUT=/tmp/out sh scripts/gpu-clock.sh      (OUT defaults to build/gpu-clock; BUDGET_S, default 290)
# Writes env.txt, ncu.csv, smi.csv, summary.txt, log.txt (5 files). Never changes GPU clocks.
# Kernel names and sizes are fixed words below: nothing from a file reaches the shell.
set -u
cd "$(dirname "$0")/.." || exit 1
NAME=gpu-clock DEFAULT_BUDGET=290
. scripts/gpu-prelude.sh   # OUT, BUDGET, START, WS, NCU, LOG, say(), env.txt, the build
METRICS=sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,gpc__cycles_elapsed.max,gpu__time_duration.sum,lts__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum
# kernel|-D sizes beyond --realistic (the pair sizes of results/pairs-verdicts.md)|reps for the smi run
# (about 0.3-0.6 s of back-to-back launches). Most telling first: the budget may cut the tail.
RUNS="copy_float_w||3000
reduce_first_add||2000
mma_ldmatrix_padded||250
copy_float4||4000
transpose_padded||2000
reduce_sequential||1200
shared_stride_s1||2500
register_select||2000
seed_column_zero||4000
copy_32x32||2000
tile_column_read_padded||2000
static_reverse||3000
gather_random||500
stride_copy_s32|N=8388608|800
stride_copy_s2|N=33554432|1500
mma_ldmatrix_unpadded||80"
: > "$OUT/ncu.csv"
echo "kernel,sizes,sample,timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,clocks_event_reasons.active" > "$OUT/smi.csv"
echo "kernel sizes ncu_mhz ncu_us smi_mhz smi_samples event_median_us" > "$OUT/summary.txt"
echo "$RUNS" | while IFS='|' read -r k sizes reps; do
    [ $(($(date +%s) - START)) -lt $((BUDGET - 20)) ] || { say "out of time before $k"; break; }
    dargs=""
    for w in $sizes; do dargs="$dargs -D $w"; done
    say "ncu $k $sizes"
    # shellcheck disable=SC2086 # the -D words above
    timeout 60 "$NCU" --clock-control none --metrics "$METRICS" --launch-skip 2 --launch-count 3 --csv \
        "$WS" gpu --realistic --no-verify --reps 5 $dargs "$k" > "$OUT/ncu.tmp" 2>> "$LOG"
    say "ncu exit $?"
    grep '^"' "$OUT/ncu.tmp" | sed "s/^/\"$k\",\"$sizes\",/" >> "$OUT/ncu.csv"
    nmhz=$(awk -F'","' '/"sm__cycles_elapsed.avg.per_second"/ { v = $NF; gsub(/[",]/, "", v); print v / 1e6 }' "$OUT/ncu.tmp" |
        sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%.0f", a[int((NR + 1) / 2)]; else print "?" }')
    nus=$(awk -F'","' '/"gpu__time_duration.sum"/ { v = $NF; gsub(/[",]/, "", v); print v / 1e3 }' "$OUT/ncu.tmp" |
        sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%.1f", a[int((NR + 1) / 2)]; else print "?" }')
    rm -f "$OUT/ncu.tmp"
    say "smi $k $sizes reps $reps"
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,clocks_event_reasons.active \
        --format=csv,noheader,nounits -lms 20 > "$OUT/smi.tmp" 2>> "$LOG" &
    smi=$!
    sleep 1
    # shellcheck disable=SC2086
    timeout 60 "$WS" gpu --realistic --no-verify --json --reps "$reps" $dargs "$k" > "$OUT/gpu.json" 2>> "$LOG"
    say "gpu exit $?"
    kill "$smi" 2> /dev/null
    wait "$smi" 2> /dev/null
    awk -v k="$k" -v s="$sizes" '{ print k "," s "," NR "," $0 }' "$OUT/smi.tmp" >> "$OUT/smi.csv"
    # busy samples: utilization above 50 % (the idle second before the run and the set-up stay out)
    smhz=$(awk -F', *' '$4 + 0 > 50 { print $2 }' "$OUT/smi.tmp" | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) printf "%d %d", a[int((NR + 1) / 2)], NR; else print "? 0" }')
    med=$(sed -n 's/.*"median_ms":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$OUT/gpu.json" | head -1)
    emed=$(awk -v m="${med:-0}" 'BEGIN { if (m > 0) printf "%.1f", m * 1e3; else print "?" }')
    echo "$k ${sizes:--} $nmhz $nus $smhz $emed" >> "$OUT/summary.txt"
    rm -f "$OUT/smi.tmp" "$OUT/gpu.json"
done
say "done"
cat "$OUT/summary.txt"
