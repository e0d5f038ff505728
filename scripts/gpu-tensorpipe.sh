#!/bin/sh
# gpu-tensorpipe.sh - tensor-pipe, ldmatrix, cp.async-beside-mma and block-launch rates and latencies
# on the GPU present (sm_90a: H100/H200), for the timing model's throughput units (issue 23 item 1).
# About 2-3 minutes. tests/gpu/tensor_pipe_probe.cu says what each column is.
#   $OUT/mma.csv      mma.sync forms and wmma m16n16k16: 1-16 warps/SM x 1-8 independent chains
#   $OUT/wgmma.csv    wgmma m64n{64,128,256}k16 f16->f32: latency, batched, pipelined
#   $OUT/ldsm.csv     ldmatrix x1/x2/x4 and LDS.128: latency and rate
#   $OUT/overlap.csv  cp.async.cg 16 B from DRAM beside mma.sync: time mma only, copy only, both
#   $OUT/launch.csv   empty kernels of 132*k blocks of 32/128/1024 threads
#   $OUT/log.txt      build log (ptxas' refusal of e4m3, if any), exit codes, the probe's summary,
#                     and per kernel the count of each tensor/shared/copy opcode in its SASS
#   $OUT/raw.tar.gz   ncu.csv (ncu --clock-control none: clocks are never changed; one launch per
#                     form, its "# once,ID,form" lines name each ncu ID) and sass.txt (cuobjdump)
#   $OUT/env.txt      GPU, driver, clocks, nvcc, ncu, date, git
# From the repository root: OUT=/some/dir sh scripts/gpu-tensorpipe.sh
set -u
OUT=${OUT:-out-tensorpipe}
mkdir -p "$OUT" || exit 1
PATH=$PATH:/usr/local/cuda/bin
export PATH
LOG=$OUT/log.txt
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "ncu: $(ncu --version 2>&1 | tail -1)"
} > "$OUT/env.txt"

# mma.sync ... .e4m3 is sm_89+ PTX: if ptxas refuses it for sm_90a, say so and build without it
: > "$LOG"
if ! nvcc -arch=sm_90a -O3 -o "$TMP/probe" tests/gpu/tensor_pipe_probe.cu >> "$LOG" 2>&1; then
    echo "nvcc with e4m3 failed (above); rebuilding with -DNO_E4M3" >> "$LOG"
    nvcc -arch=sm_90a -O3 -DNO_E4M3 -o "$TMP/probe" tests/gpu/tensor_pipe_probe.cu >> "$LOG" 2>&1 ||
        { echo "nvcc failed" >> "$LOG"; exit 1; }
fi
if command -v cuobjdump > /dev/null 2>&1; then
    cuobjdump -sass "$TMP/probe" > "$TMP/sass.txt" 2>> "$LOG"
    # opcode histogram per kernel: what each PTX form became (wmma m16n16k16 = 2 HMMA.16816?)
    echo "== SASS opcodes per kernel (tensor, shared, copy, wgmma sync) ==" >> "$LOG"
    awk '/Function :/ { f = $3; next }
         /\/\*[0-9a-f]+\*\// {
             l = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", l); sub(/^@!?U?P[0-9T]+[ \t]+/, "", l)
             split(l, w, /[ \t;]+/); op = w[1]
             if (op ~ /MMA|LDSM|^LDS|LDGSTS|LDGDEPBAR|DEPBAR|WARPGROUP|UTMA|SYNCS|F2FP|F2F|I2F/) n[f " " op]++
         }
         END { for (k in n) print k, n[k] }' "$TMP/sass.txt" | sort >> "$LOG"
fi

echo "== probe ==" >> "$LOG"
timeout 150 "$TMP/probe" run "$OUT" > "$TMP/summary.txt" 2>> "$LOG"
echo "probe exit $?" >> "$LOG"
cat "$TMP/summary.txt" >> "$LOG"

# one launch per form with the tensor/shared/copy/launch counters (names from ncu-metrics-gh100.txt)
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.avg,smsp__inst_executed.sum
M=$M,sm__ctas_launched.sum,sm__warps_launched.sum
M=$M,sm__inst_executed_pipe_tensor.sum,sm__inst_executed_pipe_tensor_op_hmma.sum
M=$M,sm__inst_executed_pipe_tensor_op_imma.sum,sm__inst_executed_pipe_tensor_op_dmma.sum
M=$M,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum
M=$M,sm__pipe_tensor_cycles_active.sum,sm__pipe_tensor_op_hmma_cycles_active.sum
M=$M,sm__pipe_tensor_op_imma_cycles_active.sum,sm__pipe_tensor_op_dmma_cycles_active.sum
M=$M,sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.sum
M=$M,sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.sum
M=$M,sm__ops_path_tensor_src_fp16.sum,sm__ops_path_tensor_src_bf16_dst_fp32.sum
M=$M,sm__ops_path_tensor_src_tf32_dst_fp32.sum,sm__ops_path_tensor_src_int8.sum
M=$M,sm__ops_path_tensor_src_fp8.sum,sm__ops_path_tensor_src_fp64.sum
M=$M,sm__inst_executed_op_ldsm.sum,sm__sass_data_bytes_mem_shared_op_ldsm.sum
M=$M,sm__inst_executed_pipe_lsu.sum,sm__pipe_shared_cycles_active.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum
M=$M,sm__sass_inst_executed_op_ldgsts.sum,sm__sass_data_bytes_mem_global_op_ldgsts.sum,dram__bytes_read.sum
timeout 120 ncu --clock-control none --csv --metrics "$M" "$TMP/probe" once > "$TMP/ncu.csv" 2>> "$LOG"
echo "ncu exit $?" >> "$LOG"
tar -czf "$OUT/raw.tar.gz" -C "$TMP" ncu.csv $( [ -f "$TMP/sass.txt" ] && echo sass.txt ) 2>> "$LOG"
cat "$TMP/summary.txt"
