#!/bin/sh
# gpu-wgmma.sh - on an sm_90 GPU (H100/H200): does the simulator's wgmma agree with the GPU?
# 1. `warpscope check` on the catalog's wgmma_gemm (demos/tensorcore.cu, `target sm_90a`) at its
#    default size and at 192 x 320 x 192: its output bit for bit (small-integer inputs: every sum
#    is exact) and every exact counter against ncu.
# 2. `check` on each kernel of tests/data/wgmma/wgmma.cu in each swizzle mode (-D MODE=0..3: none,
#    128B, 64B, 32B): f16 and bf16 from shared memory, K-major and MN-major (imm-trans), A from
#    registers, imm-scale-a = -1, tf32, e4m3, s8. An output that differs here is a layout the
#    simulator reads differently from the tensor core (sim/interp/exec_wgmma.c).
# 3. ncu on wgmma_gemm for the GMMA metrics the simulator does not judge yet (docs/interp.md,
#    "wgmma"): instructions, shared bytes, wavefronts and bank conflicts of the descriptor reads,
#    tensor-pipe instructions. Logged, not judged.
# Writes into $OUT (default ./out-wgmma): env.txt (GPU, driver, nvcc, ncu, date), build.log,
# check.log (every check, its exit code), results/<gpu>.json + .md (check --record, for
# `check --replay`), ncu-gmma.csv. Exit: the worst check exit (0 all agree, 3 a difference, 4 no GPU).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-wgmma.sh   (about 2 minutes)
set -u
OUT=${OUT:-out-wgmma}
BIN=${WS_BIN:-build/warpscope}
NCU=${WARPSCOPE_NCU:-$(command -v ncu 2>/dev/null || echo /usr/local/cuda/bin/ncu)}
mkdir -p "$OUT/results"
worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; return 0; }

{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ') on $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv 2>&1 || true
    echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
    echo "ncu: $("$NCU" --version 2>&1 | tail -n 1)"
    echo "warpscope: $(git describe --always --dirty 2>/dev/null)"
} > "$OUT/env.txt"

if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope > "$OUT/build.log" 2>&1 || {
        echo "gpu-wgmma: build failed, see $OUT/build.log" >&2
        exit 5
    }
fi

: > "$OUT/check.log"
run_check() {   # run_check LABEL ARGS...: one `check`, logged with its exit code
    label=$1; shift
    echo "+ $BIN check --record $OUT/results/ $*" >> "$OUT/check.log"
    timeout 300 "$BIN" check --record "$OUT/results/" "$@" >> "$OUT/check.log" 2>&1
    rc=$?
    echo "exit $rc: $label" >> "$OUT/check.log"
    [ $rc = 4 ] && { echo "gpu-wgmma: no usable GPU (exit 4), see $OUT/check.log" >&2; exit 4; }
    note $rc
}

# 1. the catalog kernel
run_check "wgmma_gemm" wgmma_gemm
run_check "wgmma_gemm 192x320x192" -D M=192 -D N=320 -D K=192 wgmma_gemm

# 2. every layout of the test kernels
T=tests/data/wgmma/wgmma.cu
for k in wgmma_ss_f16 wgmma_ss_f16_tnsp wgmma_ss_bf16 wgmma_ss_bf16_tnsp wgmma_rs_f16 wgmma_rs_f16_tnsp_neg \
         wgmma_tf32 wgmma_e4m3 wgmma_s8; do
    for m in 0 1 2 3; do
        run_check "$k MODE=$m" -D MODE="$m" "$T:$k"
    done
done
for j in "$OUT"/results/*.json; do
    [ -f "$j" ] && "$BIN" check --markdown "$j" > "${j%.json}.md" 2>> "$OUT/check.log"
done

# 3. the GMMA counters of the catalog kernel, as ncu reads them
METRICS=smsp__sass_inst_executed_op_shared_gmma.sum,smsp__sass_data_bytes_mem_shared_op_gmma.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,\
smsp__inst_executed_pipe_tensor_op_gmma.sum,l1tex__lsuin_requests_op_gmma.sum
timeout 240 "$NCU" --csv --print-units base --clock-control none --target-processes all --metrics "$METRICS" \
    "$BIN" gpu wgmma_gemm > "$OUT/ncu-gmma.csv" 2>&1 || echo "gpu-wgmma: ncu exit $? (see ncu-gmma.csv)" >&2

grep -E "^exit " "$OUT/check.log"
echo "gpu-wgmma: worst check exit $worst (0 = every output and exact counter agrees); files in $OUT"
exit "$worst"
