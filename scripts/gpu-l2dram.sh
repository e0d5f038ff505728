#!/bin/sh
# gpu-l2dram.sh - what L2 and DRAM see for the mechanisms of sim/models/cache.h that the recorded
# runs cannot decide (issue 23 item 2), in one run of at most ~5 minutes on the GPU present.
# It builds tests/gpu/l2dram_probe.cu with nvcc and runs ncu (--clock-control none: clocks are never
# changed; default --cache-control all, so every run starts with flushed caches) once per
# configuration, collecting lts__t_sectors_srcunit_tex_op_read/write(.lookup_hit/_miss).sum,
# lts__t_requests_srcunit_tex_op_read/write.sum, dram__bytes_read/write.sum, gpu__time_duration.sum,
# and the local-memory L1 sectors:
#   write BYTES           8..512 MB of full-sector stores: dram__bytes_write during the kernel vs B
#                         (a dirty limit f*C writes max(0, B - f*C); plain LRU writes max(0, B - C))
#   copy BYTES            8..512 MB copied: the same with reads competing for the L2
#   partial BYTES STRIDE  a 4-byte store every 8..128 bytes of an 8/32/64 MB output: when partial
#                         sectors are written back (and read first for ECC) during the kernel
#   local WORDS ITERS     a per-thread array of 16/64/256 ints updated at run-time indices, 2^20
#                         threads: local stores' L2 write sectors and DRAM write-back
#   code K                0/64/256/1024 unrolled FMAs in one warp: dram__bytes_read vs SASS size
# Files in $OUT (4): env.txt (GPU, driver, nvcc, ncu, date), l2dram-ncu.csv (ncu's CSV, a "config"
# column first), sass-sizes.txt (each probe kernel's SASS text size, from cuobjdump -elf when found),
# log.txt (every command and its output).
# Time: nvcc ~20 s; 37 ncu runs of ~2-6 s each; none started after BUDGET_S (default 280 s).
# Environment: OUT (default out-l2dram), BUDGET_S, NVCC (default nvcc), NCU (default ncu).
# From the repository root: OUT=/some/dir sh scripts/gpu-l2dram.sh
set -u
NAME=l2dram DEFAULT_BUDGET=280 PROBE=tests/gpu/l2dram_probe.cu
. scripts/gpu-probe-prelude.sh
if command -v cuobjdump > /dev/null 2>&1; then
    cuobjdump -elf "$TMP/probe" 2>/dev/null | grep -E '\.text\.|\.nv\.constant0\.' | grep -E 'PROGBITS|^ *\[' > "$OUT/sass-sizes.txt"
else
    echo "cuobjdump not found" > "$OUT/sass-sizes.txt"
fi

METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,\
l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum
CSV=$OUT/l2dram-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

MB=1048576
for m in 8 16 32 48 64 128 256 512; do run "write_${m}MB" write $((m * MB)); done
for m in 8 16 32 48 64 128 256; do run "copy_${m}MB" copy $((m * MB)); done
for m in 8 32 64; do
    for s in 8 16 32 64 128; do run "partial_${m}MB_s$s" partial $((m * MB)) "$s"; done
done
for w in 16 64 256; do run "local_${w}w" local "$w" 64; done
for k in 0 64 256 1024; do run "code_$k" code "$k"; done
say "done"
exit 0
