#!/bin/sh
# gpu-l2req.sh - what an L2 read request and an L2 atomic cost by their pattern (issue 23: the
# remaining L2-bound and atomics time misses: gather_random, atomic_per_warp, atomic_32_bins), in
# one run of at most ~4 minutes. Builds tests/gpu/l2req_probe.cu with nvcc (no warpscope build:
# the probe needs none, so scripts/gpu-prelude.sh is not sourced) and runs ncu (--clock-control
# none: clocks are never changed; default --cache-control all) once per configuration:
#   gather N WINDOW / ghash N WINDOW   one-sector random reads over a WINDOW-word array that fits
#                       L2 (2^22 words = 16 MB) or not (2^26 = 256 MB), with and without an idx stream:
#                       L2 read requests per cycle, hitting vs missing
#   warp N SPACING PERM SMEM           one word per warp (32 lanes on it), words SPACING words
#                       apart, in warp order or hashed (PERM), blocks per SM limited by SMEM: lines
#                       shared by warps vs the slices the warps in flight touch
#   bins N MODE         32-lane REDs on 16-32 words: even vs hashed spreads over one line
# Files in $OUT (3): env.txt (GPU, driver, nvcc, ncu, date), l2req-ncu.csv (ncu's CSV, a "config"
# column first), log.txt (every command and its output).
# Time: nvcc ~20 s; ~30 ncu runs of ~2-6 s each; none started after BUDGET_S (default 230 s).
# Environment: OUT (default out-l2req), BUDGET_S, NVCC (default nvcc), NCU (default ncu).
# From the repository root: OUT=/some/dir sh scripts/gpu-l2req.sh
set -u
NAME=l2req DEFAULT_BUDGET=230 PROBE=tests/gpu/l2req_probe.cu
. scripts/gpu-probe-prelude.sh

METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
lts__t_requests_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_requests_op_red.sum,lts__t_sectors_op_red.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,\
smsp__sass_inst_executed_op_global_red.sum,sm__warps_active.avg.pct_of_peak_sustained_active
CSV=$OUT/l2req-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

N24=16777216
# atomics first: one word per warp (the catalog's atomic_per_warp is spacing 1, warp order)
run warp_s1_p0_20 warp 1048576 1 0 0
run warp_s1_p0 warp $N24 1 0 0
run warp_s1_p1 warp $N24 1 1 0
for s in 2 8 32 128; do run "warp_s${s}_p0" warp $N24 "$s" 0 0; done
run warp_s32_p1 warp $N24 32 1 0
run warp_s1_p0_smem4 warp $N24 1 0 50000      # 4 blocks (32 warps) per SM
run warp_s1_p0_smem2 warp $N24 1 0 110000     # 2 blocks per SM
run warp_s1_p0_smem1 warp $N24 1 0 200000     # 1 block per SM
run warp_s32_p0_smem1 warp $N24 32 0 200000
for m in 0 1 2 3 4 5 6; do run "bins_m$m" bins 4194304 "$m"; done
# one-sector reads: the catalog's gather at its default size, then hit vs miss at 2^24
run gather_20_w20 gather 1048576 1048576
run gather_24_w22 gather $N24 4194304
run gather_24_w26 gather $N24 67108864
run ghash_24_w22 ghash $N24 4194304
run ghash_24_w23 ghash $N24 8388608
run ghash_24_w26 ghash $N24 67108864
say "done"
exit 0
