#!/bin/sh
# gpu-lrc-map.sh - where the H200 places blocks, and which SMs share an L2 request coalescer (issue 23:
# "requests coalesced in step", sim/models/cache.h "Read coalescing"), in one run of ~2-3 minutes.
# Builds tests/gpu/lrc_map_probe.cu with nvcc (no warpscope build); clocks are never changed.
#   1. place: %smid of every block, for grids of 1 block per SM (150 KB shared) to 8 per SM, 3 launches
#      each (placement.txt), no profiler;
#   2. solo: 132 launches, in launch t only the block on SM t reads 4096 lines, under ncu with
#      --print-metric-instances values: the lrc__ instance counting them is SM t's (solo-ncu.csv);
#   3. pair: two SMs read the same lines at once; hardware-coalesced sectors say whether they share a
#      coalescer (pair-ncu.csv), a check on 2.
#   4. set: 2 to 16 SMs of one coalescer (and of two) read the same lines at once, one load a line
#      (set2: two): how many requests one coalesced request answers (set-ncu.csv);
#   5. place2: the same as 1 for GEMM-like launches (8 KB shared, 128 threads: many blocks per SM).
# Files in $OUT: env.txt, placement.txt, solo-ncu.csv, solo-raw.txt (ncu's own output if the CSV is
# empty), pair-ncu.csv, set-ncu.csv, log.txt. Environment: OUT (default out-lrc-map), BUDGET_S (default
# 300), ONLY (phases to run, default "place solo pair set place2"), NVCC, NCU.
# From the repository root: OUT=/some/dir sh scripts/gpu-lrc-map.sh
set -u
NAME=lrc-map DEFAULT_BUDGET=300 PROBE=tests/gpu/lrc_map_probe.cu
. scripts/gpu-probe-prelude.sh

ONLY=${ONLY:-place solo pair set place2}
has() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
P=$OUT/placement.txt
: > "$P"
has place && for cfg in "16 150 32" "66 150 32" "132 150 32" "264 150 32" "264 100 128" "528 50 128" "1056 24 128" "1056 0 256"; do
    # shellcheck disable=SC2086
    timeout 60 "$TMP/probe" place $cfg 3 >> "$P" 2>> "$LOG"
    echo "rc=$? place $cfg" >> "$LOG"
done

if has solo; then
say "solo"
timeout 240 "$NCU" --clock-control none -k k_read --print-metric-instances values --csv \
    --metrics lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum \
    "$TMP/probe" solo 4096 > "$TMP/solo.csv" 2>> "$LOG"
echo "rc=$? solo" >> "$LOG"
grep '^"' "$TMP/solo.csv" > "$OUT/solo-ncu.csv"
[ -s "$OUT/solo-ncu.csv" ] || head -c 200000 "$TMP/solo.csv" > "$OUT/solo-raw.txt"
fi

METRICS=lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,\
lts__t_sectors_srcunit_tex_op_read.sum
NCU_EXTRA="-k k_read"
if has pair; then
CSV=$OUT/pair-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...
for ab in "124 126" "124 125" "124 128" "0 1" "0 2" "0 4" "0 8" "0 16" "0 18" "0 32" "0 64" "0 66" "1 3" "0 124" "2 3" "10 12"; do
    # shellcheck disable=SC2086
    run "pair_$(echo $ab | tr ' ' _)" pair $ab 4096
done
fi
# GPC 0's SMs in the order a 132-block launch fills them (placement.txt), GPC 1's the same
G0="124 125 126 127 128 129 130 131 0 1 16 17 32 33 48 49"
G1="2 3 18 19 34 35 50 51 64 65 78 79 92 93 106 107"
if has set; then
CSV=$OUT/set-ncu.csv
. scripts/gpu-ncu-rows.sh
for n in 2 3 4 5 6 8 9 12 16; do
    # shellcheck disable=SC2086
    run "set_gpc0_$n" set 4096 $(echo $G0 | cut -d' ' -f1-$n)
done
run set_gpc0_even4 set 4096 0 16 32 48
# shellcheck disable=SC2086
run set_gpc0_4_gpc1_4 set 4096 $(echo $G0 | cut -d' ' -f1-4) $(echo $G1 | cut -d' ' -f1-4)
# shellcheck disable=SC2086
run set_gpc0_8_gpc1_8 set 4096 $(echo $G0 | cut -d' ' -f1-8) $(echo $G1 | cut -d' ' -f1-8)
# shellcheck disable=SC2086
run set_all132 set 4096 $(seq 0 131)
# shellcheck disable=SC2086
run set2_gpc0_9 set2 4096 $(echo $G0 | cut -d' ' -f1-9)
# shellcheck disable=SC2086
run set2_gpc0_16 set2 4096 $G0
fi
NCU_EXTRA=
if has place2; then
    say "place2"
    for cfg in "32 150 32" "256 8 128" "1024 8 128" "4096 8 128" "512 40 256" "1056 24 128" "264 100 128"; do
        # shellcheck disable=SC2086
        timeout 60 "$TMP/probe" place $cfg 2 >> "$P" 2>> "$LOG"
        echo "rc=$? place $cfg" >> "$LOG"
    done
fi
say "done"
exit 0
