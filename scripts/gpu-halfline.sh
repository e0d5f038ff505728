#!/bin/sh
# gpu-halfline.sh - the latency of a cold line's other 64-B half (issue 23: the model's per-k-step DRAM
# latency in pipelined GEMMs), in one run of ~1 minute. Builds tests/gpu/halfline_probe.cu with nvcc
# (no warpscope build), runs it plain (clock64 medians per step, halfline.txt) and once under ncu
# (--clock-control none: L2 lookups and DRAM bytes of the five chains, launch IDs 0-4, halfline-ncu.csv).
# Files in $OUT: env.txt, halfline.txt, halfline-ncu.csv, log.txt. Environment: OUT (default
# out-halfline), BUDGET_S (default 120), NVCC, NCU. From the repository root: OUT=/dir sh scripts/gpu-halfline.sh
set -u
NAME=halfline DEFAULT_BUDGET=120 PROBE=tests/gpu/halfline_probe.cu
. scripts/gpu-probe-prelude.sh

for n in 1024 2000; do timeout 60 "$TMP/probe" "$n" >> "$OUT/halfline.txt" 2>> "$LOG"; echo "rc=$? plain $n" >> "$LOG"; done
METRICS=lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,gpu__time_duration.sum
CSV=$OUT/halfline-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...
NCU_EXTRA="-k k_half"
run lines1024 1024
NCU_EXTRA=
say "done"
exit 0
