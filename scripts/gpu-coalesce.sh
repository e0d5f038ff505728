#!/bin/sh
# gpu-coalesce.sh - when two SMs' identical L2 read requests reach L2 once (issue 23 item 2: the
# L2 request coalescer the model now applies to requests its SMs send in the same cycle,
# sim/models/cache.h "Read coalescing"), in one run of at most ~4 minutes. Builds
# tests/gpu/coalesce_probe.cu with nvcc (no warpscope build) and runs ncu (--clock-control none:
# clocks are never changed) once per configuration:
#   pair LINES DELAY BLOCKS PART    BLOCKS one-warp blocks on BLOCKS SMs read the same LINES lines,
#                       block b b x DELAY cycles later: the window (DELAY 0..4000), 2 vs 4 vs 16
#                       blocks, a request for half of the other's sectors (PART 1); caches flushed
#                       (--cache-control all): the first request misses L2
#   repeat ...          the same launched twice, the second profiled with the caches kept: the first
#                       request hits L2
# What decides the model: L2 read sectors (lts__t_sectors_srcunit_tex_op_read) against
# LINES x 4 x BLOCKS (no coalescing) and LINES x 4 (all), and the LRC's hardware-coalesced sectors,
# per DELAY: the window, and whether it is the L2 hit or the DRAM latency or a few cycles.
# Files in $OUT (3): env.txt, coalesce-ncu.csv (ncu's CSV, a "config" column first), log.txt.
# Time: nvcc ~20 s; ~30 ncu runs of ~2-5 s each; none started after BUDGET_S (default 230 s).
# Environment: OUT (default out-coalesce), BUDGET_S, NVCC (default nvcc), NCU (default ncu), CHAIN
# (set: only the PART 2 passes, each block one request in flight: the window by the first's latency),
# CHAIN2 (set: 1-32 requests in flight a block, alone and beside 7 or 14 streaming blocks).
# From the repository root: OUT=/some/dir sh scripts/gpu-coalesce.sh
set -u
NAME=coalesce DEFAULT_BUDGET=230 PROBE=tests/gpu/coalesce_probe.cu
. scripts/gpu-probe-prelude.sh

METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
dram__bytes_read.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum,\
lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lrc2xbar_sectors_op_read.sum,\
lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum
CSV=$OUT/coalesce-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

L=4096   # 512 KB: 4096 lines, 1024 instructions a block
if [ -n "${CHAIN:-}" ]; then # CHAIN=1: only PART 2 (one request in flight a block), cold and L2-hit first
    for d in 0 100 200 300 400 600 800 1000 1500 2000 4000; do run "chain_d${d}_b2" pair $L "$d" 2 2; done
    NCU_EXTRA="--launch-skip 1 --cache-control none"
    for d in 0 100 200 300 400 600 1000 2000; do run "chainrep_d${d}_b2" repeat $L "$d" 2 2; done
    say "done"
    exit 0
fi
if [ -n "${CHAIN2:-}" ]; then # CHAIN2=1: m requests in flight a block (PART m + 1), then beside streaming blocks
    NCU_EXTRA=
    for m in 1 2 4 8 32; do for d in 0 300; do run "mlp${m}_d${d}_b2" pair $L "$d" 2 $((m + 1)); done; done
    for bl in 9 16; do for m in 1 4; do for d in 0 300; do run "mlp${m}_d${d}_b${bl}" pair $L "$d" "$bl" $((m + 1)); done; done; done
    say "done"
    exit 0
fi
for d in 0 4 16 64 256 500 1000 2000 4000; do run "pair_d${d}_b2" pair $L "$d" 2 0; done
for d in 0 64 1000; do run "pair_d${d}_b4" pair $L "$d" 4 0; done
for d in 0 64; do run "pair_d${d}_b16" pair $L "$d" 16 0; done
for d in 0 1000; do run "pair_d${d}_b2_half" pair $L "$d" 2 1; done
NCU_EXTRA="--launch-skip 1 --cache-control none"
for d in 0 16 64 256 1000; do run "repeat_d${d}_b2" repeat $L "$d" 2 0; done
NCU_EXTRA=
say "done"
exit 0
