#!/bin/sh
# gpu-local.sh - what an L2 write (and read) request costs by its sectors, and the local-memory
# catalog kernels' counters at their realistic sizes (issue 23 item 2: local_dynamic_index and
# spill_forced ran 2x slower than the L2 model said), in one run of at most ~5 minutes.
# It builds tests/gpu/local_probe.cu with nvcc and runs ncu (--clock-control none: clocks are never
# changed; default --cache-control all) once per configuration, collecting
# lts__t_requests/sectors_srcunit_tex_op_read/write.sum, dram__bytes_read/write.sum,
# gpu__time_duration.sum and the local-memory L1 sectors and hits:
#   wr SPR FULL BLOCKS   ~16.8 M L2-resident store requests of SPR = 1/2/4 sectors each, whole
#                        (FULL=1) or one word per sector (FULL=0), on 132 and 66 SMs (1024-thread
#                        blocks: 132, 264 = 2 per SM, 66): the fixed and per-sector cost of a write
#                        request, and whether the limit is per SM or the L2's
#   rd SPR FULL BLOCKS   the same addresses as __ldcg loads (the read side of the same question)
#   ldi N                local_dynamic_index at 2^22 and 2^25 threads (the realistic size)
#   spill N              spill_forced at 2^18 and 2^21 threads (the realistic size)
# Files in $OUT (3): env.txt (GPU, driver, nvcc, ncu, date), local-ncu.csv (ncu's CSV, a "config"
# column first), log.txt (every command and its output).
# Time: nvcc ~20 s; 28 ncu runs of ~2-8 s each; none started after BUDGET_S (default 270 s).
# Environment: OUT (default out-local), BUDGET_S, NVCC (default nvcc), NCU (default ncu).
# From the repository root: OUT=/some/dir sh scripts/gpu-local.sh
set -u
NAME=local DEFAULT_BUDGET=270 PROBE=tests/gpu/local_probe.cu
. scripts/gpu-probe-prelude.sh

METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,\
l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum
CSV=$OUT/local-ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...

# the catalog kernels first: they are what the model must reproduce
run ldi_22 ldi 4194304
run ldi_25 ldi 33554432
run spill_18 spill 262144
run spill_21 spill 2097152
for b in 132 66 264; do
    for f in 1 0; do
        for s in 1 2 4; do run "wr_s${s}_f${f}_b$b" wr "$s" "$f" "$b"; done
    done
done
for f in 1 0; do
    for s in 1 2 4; do run "rd_s${s}_f${f}_b132" rd "$s" "$f" 132; done
done
say "done"
exit 0
