#!/bin/sh
# gpu-drift.sh - do blocks reading the same lines drift apart as a kernel runs, and does it depend on
# how many blocks share an SM (issue 23: the L2 request coalescer's drift, sim/models/cache.h "Read
# coalescing"), in one run of at most ~4 minutes. Builds tests/gpu/drift_probe.cu with nvcc (no
# warpscope build) and runs ncu (--clock-control none: clocks are never changed; -k k_drift: the
# probe's second kernel only counts blocks per SM) once per configuration BUSY ITERS WORK:
# SMs x BUSY blocks of 128 threads, each reading the same 16 lines an iteration beside 16 of its own.
# What decides the model: the LRC's hardware-coalesced sectors against the shared stream's sectors
# (ITERS x 64 per block), by BUSY and ITERS: flat for BUSY 1 and falling with ITERS for BUSY > 1 if
# only blocks that share an SM drift.
# Files in $OUT (3): env.txt, drift-ncu.csv (ncu's CSV, a "config" column first), log.txt (with each
# run's "most per SM" line).
# Time: nvcc ~20 s; 12 ncu runs of ~2-5 s each; none started after BUDGET_S (default 230 s).
# Environment: OUT (default out-drift), BUDGET_S, NVCC (default nvcc), NCU (default ncu).
# From the repository root: OUT=/some/dir sh scripts/gpu-drift.sh
set -u
NAME=drift DEFAULT_BUDGET=230 PROBE=tests/gpu/drift_probe.cu
. scripts/gpu-probe-prelude.sh

METRICS=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__ctas_launched.max,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
dram__bytes_read.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum,\
lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lrc2xbar_sectors_op_read.sum
CSV=$OUT/drift-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

NCU_EXTRA="-k k_drift"
for it in 64 512 2048; do
    for b in 1 2 4 8; do run "busy${b}_iters${it}" "$b" "$it" 8; done
done
NCU_EXTRA=
say "done"
exit 0
