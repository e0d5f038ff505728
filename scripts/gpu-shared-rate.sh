#!/bin/sh
# gpu-shared-rate.sh - sustained shared-memory (L1 data path) wavefronts per SM cycle on the GPU
# present: LDS/STS 32-bit at conflict degree 1-32, 64/128-bit with and without conflicts, broadcast,
# store+load mixes (with and without barriers), LDG beside LDS, shared atomics; 4-64 warps per SM
# (issue 23: the t_l1 term of sim/models/timing.c). About 2-3 minutes.
# tests/gpu/shared_rate_probe.cu says what each column is.
#   $OUT/rate.csv     clock64/event timing: cycles per warp instruction, nominal wavefronts per clock
#   $OUT/ncu-32.csv, ncu-4_16_64.csv  one short launch per (form, warps/SM) with the shared wavefront,
#                     bank-conflict, instruction, cycle and stall counters (ncu --clock-control none:
#                     clocks are never changed); $OUT/once.txt maps each ncu launch ID to its form
#   $OUT/log.txt      build log (ptxas -v), exit codes, the probe's summary, per kernel the count of
#                     each shared/global/barrier opcode in its SASS
#   $OUT/env.txt      GPU, driver, clocks, nvcc, ncu, date, git
# From the repository root: OUT=/some/dir sh scripts/gpu-shared-rate.sh
set -u
OUT=${OUT:-out-shared-rate}
mkdir -p "$OUT" || exit 1
PATH=$PATH:/usr/local/cuda/bin
export PATH
LOG=$OUT/log.txt
NCU=${WARPSCOPE_NCU:-$(command -v ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "ncu: $NCU $("$NCU" --version 2>&1 | tail -1)"
} > "$OUT/env.txt"

: > "$LOG"
nvcc -arch=sm_90 -O3 -Xptxas -v -o "$TMP/probe" tests/gpu/shared_rate_probe.cu >> "$LOG" 2>&1 ||
    { echo "nvcc failed" >> "$LOG"; exit 1; }
if command -v cuobjdump > /dev/null 2>&1; then
    # what each PTX form became: LDS.U.32? LDS.64? ATOMS.ADD or ATOMS.POPC.INC? no spills (LDL/STL)?
    echo "== SASS opcodes per kernel (shared, global, barrier, local) ==" >> "$LOG"
    cuobjdump -sass "$TMP/probe" 2>> "$LOG" |
        awk '/Function :/ { f = $3; next }
             /\/\*[0-9a-f]+\*\// {
                 l = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", l); sub(/^@!?U?P[0-9T]+[ \t]+/, "", l)
                 split(l, w, /[ \t;]+/); op = w[1]
                 if (op ~ /^LDS|^STS|^ATOMS|^LDG|^BAR|^LDL|^STL|^RED/) n[f " " op]++
             }
             END { for (k in n) print k, n[k] }' | sort >> "$LOG"
fi

echo "== probe run ($(date -u +%H:%M:%S)) ==" >> "$LOG"
timeout 120 "$TMP/probe" run "$OUT" > "$TMP/summary.txt" 2>> "$LOG"
echo "probe exit $?" >> "$LOG"
cat "$TMP/summary.txt" >> "$LOG"

# names checked against ncu-metrics-gh100.txt; .sum.peak_sustained says what ncu takes as the peak
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max,sm__cycles_active.avg
M=$M,smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
M=$M,smsp__inst_executed_op_shared_atom.sum,l1tex__lsuin_requests.sum
M=$M,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts.sum.peak_sustained
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
M=$M,l1tex__lsu_writeback_active_mem_shared.sum,l1tex__f_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,smsp__warps_issue_stalled_mio_throttle.sum,smsp__warps_issue_stalled_short_scoreboard.sum
M=$M,smsp__warps_issue_stalled_barrier.sum,smsp__warps_issue_stalled_lg_throttle.sum,smsp__warps_active.sum
# two ncu runs, so a timeout in the second still leaves the 32-warp rows (ncu prints at its end)
for W in 32 4,16,64; do
    echo "== ncu warps $W ==" >> "$LOG"
    timeout 100 "$NCU" --clock-control none --csv --metrics "$M" "$TMP/probe" once "$W" > "$TMP/ncu-$W.csv" 2>> "$LOG"
    echo "ncu exit $? ($(date -u +%H:%M:%S))" >> "$LOG"
done
# once.txt: "# once,ID,form,warps" of both runs, each line prefixed with its run (32 / 4,16,64)
for W in 32 4,16,64; do grep '^# once' "$TMP/ncu-$W.csv" | sed "s/^/$W /"; done > "$OUT/once.txt"
for W in 32 4,16,64; do grep -v '^# once' "$TMP/ncu-$W.csv" | grep -v '^==PROF==' > "$OUT/ncu-$(echo $W | tr , _).csv"; done
cat "$TMP/summary.txt"
