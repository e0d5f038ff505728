#!/bin/sh
# gpu-inflight.sh - which L2 partition an SM's reads enter, which partition is a line's home, and whether
# a lookup that finds its line's fill in flight counts as a miss (issue 23: the "in-flight L2 misses"
# rows; sim/models/cache.h "Far lookups"), in one run of ~1-2 minutes. Builds tests/gpu/inflight_probe.cu
# with nvcc (no warpscope build) and runs ncu (--clock-control none: clocks are never changed) once per
# configuration SM_A SM_B NLINES SEL DELAY_A DELAY_B REREAD: the blocks on SM_A and SM_B (one block per
# SM, by %smid) read the same NLINES lines with ld.global.cg, SM_B DELAY_B cycles later.
# What decides the model:
#   sweep_b<N>   SM_A 0, SM_B N, 100,000 cycles (~50 us) apart: read lookup misses 4 x NLINES where N shares SM 0's
#                partition, more (~6 x NLINES if a far side's first miss fills the home, 8 x if not)
#                where it does not, with lts__t_sectors_srcunit_ltcfabric the sectors that crossed: the
#                SMs' partition map (the model's stand-in: sm / 2 % 2, so 1, 4, 5, ... same, 2, 3, 6 other).
#   home_<sel>_b<N>  even / odd line numbers, even / odd parity of the line number's bits, from SM 0 then
#                SM N: a selection whose lines share one home gives 2x or 1x, a mixed one 1.5x (the
#                model's stand-in: the bits' parity, so SEL 3 / 4 are one-sided, SEL 1 / 2 mixed).
#   atonce_b<N>  the same 0 and N with no delay: misses beyond sweep_b<N>'s are lookups that met a fill in
#                flight (the LRC's coalesced sectors say how many never reached L2).
#   reread_<d>   SM 0 alone reads the lines twice, d - 1 cycles apart (1: at once): the second pass's
#                lookups are hits (lookup_hit) or misses on a fill in flight.
# Files in $OUT (3): env.txt, inflight-ncu.csv (ncu's CSV, a "config" column first), log.txt (each
# run's "blocks that read" line: 2, or 1 for SM_B -1; anything else means the SMs were not both used).
# Time: nvcc ~20 s; ~30 ncu runs of ~1-3 s each; none started after BUDGET_S (default 200 s).
# Environment: OUT (default out-inflight), BUDGET_S, NVCC (default nvcc), NCU (default ncu), NLINES
# (default 4096: 512 KB, 16,384 sectors a side).
# From the repository root: OUT=/some/dir sh scripts/gpu-inflight.sh
set -u
NAME=inflight DEFAULT_BUDGET=200 PROBE=tests/gpu/inflight_probe.cu
. scripts/gpu-probe-prelude.sh

N=${NLINES:-4096}
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.max,\
l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,\
lts__t_requests_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric.sum,\
lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum,lts__ltcfabric2lts_cycles_active.sum,\
dram__bytes_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
CSV=$OUT/inflight-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

FAR=100000
# the SM map: SM 0 against SMs of the same TPC, the next TPCs, other GPCs under the usual numbering
for b in 1 2 3 4 6 8 10 16 17 32 64 66 67 98 130 131; do run "sweep_b$b" 0 "$b" "$N" 0 0 "$FAR" 0; done
# the home map, against an SM of the other partition under the stand-in (2) and one in the far half (66)
for b in 2 66; do
    for sel in 1 2 3 4; do run "home_sel${sel}_b$b" 0 "$b" "$N" "$sel" 0 "$FAR" 0; done
done
# fills in flight: both sides at once; one SM reading twice at once and after a delay
for b in 1 2 66; do run "atonce_b$b" 0 "$b" "$N" 0 0 0 0; done
for d in 1 2000 "$((FAR + 1))"; do run "reread_$d" 0 -1 "$N" 0 0 0 "$d"; done
say "done"
exit 0
