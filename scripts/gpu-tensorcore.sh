#!/bin/sh
# gpu-tensorcore.sh - the tensor-core family (demos/tensorcore.cu) on the GPU present, for the
# issue-13 verification: every kernel through `warpscope check` (outputs against the simulator,
# the LDGSTS / LDSM / STSM counters against ncu's), then the GEMMs timed at a size worth timing
# with their TFLOP/s as a share of the GPU's dense FP16 tensor peak. Issue 24: the same for the
# forms of tests/data/tensor/sass_forms.cu (wmma from shared -> LDSM, an f16 accumulator, and the
# ldgsts_* probes whose LDGSTS shared wavefronts decide the rule docs/memory-models.md states),
# and ldgsts.txt: those probes' LDGSTS rows side by side (sim, gpu).
# Writes into $OUT (default ./out-tensorcore): build.log, check.log (check's report, exit codes),
# results/<gpu>.json and .md (what check --record keeps), gemm.log (the timed runs) and
# gemm-peak.txt (one line per GEMM: kernel, size, median ms, TFLOP/s, % of peak).
# Environment: OUT, WS_BIN (default build/warpscope; built here when missing), GEMM_SIZE
# (M = N = K, default 4096), PEAK_TFLOPS (default 989.4: NVIDIA's H200 / H100 SXM figure for
# dense FP16/BF16 with FP32 accumulation, half the 1,979 its datasheet gives with sparsity).
# Exit status: the worst `check` exit code (0 all agree, 3 a counter or output differs, 4 no GPU).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-tensorcore.sh
set -u
OUT=${OUT:-out-tensorcore}
BIN=${WS_BIN:-build/warpscope}
N=${GEMM_SIZE:-4096}
PEAK=${PEAK_TFLOPS:-989.4}
mkdir -p "$OUT/results"
worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; return 0; }

{
    echo "== $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 || true
    command -v ncu && ncu --version 2>&1 | tail -1
    command -v nvcc && nvcc --version 2>&1 | tail -1
} > "$OUT/build.log" 2>&1
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope >> "$OUT/build.log" 2>&1 || {
        echo "gpu-tensorcore: build failed, see $OUT/build.log" >&2
        exit 5
    }
fi

names=$(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' demos/tensorcore.cu)
forms=tests/data/tensor/sass_forms.cu
for k in $(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$forms"); do
    names="$names $forms:$k"
done
: > "$OUT/check.log"
for k in $names; do
    echo "+ $BIN check --record $OUT/results/ $k" >> "$OUT/check.log"
    "$BIN" check --record "$OUT/results/" "$k" >> "$OUT/check.log" 2>&1
    rc=$?
    echo "exit $rc: $k" >> "$OUT/check.log"
    [ $rc = 4 ] && { echo "gpu-tensorcore: no usable GPU (exit 4), see $OUT/check.log" >&2; exit 4; }
    note $rc
done

# The GEMMs at N x N x N: time only (the simulator would take minutes at this size).
: > "$OUT/gemm.log"
: > "$OUT/gemm-peak.txt"
for k in wmma_gemm_naive mma_ldmatrix_unpadded mma_ldmatrix_padded mma_ldmatrix_swizzled mma_cp_async mma_tma; do
    "$BIN" check --gpu-only --record "$OUT/results/" -D M="$N" -D N="$N" -D K="$N" "$k" > "$OUT/gemm.tmp" 2>&1
    rc=$?
    cat "$OUT/gemm.tmp" >> "$OUT/gemm.log"
    echo "exit $rc: $k" >> "$OUT/gemm.log"
    note $rc
    awk -v k="$k" -v n="$N" -v peak="$PEAK" '
        /time: median/ { for (i = 1; i <= NF; i++) if ($i == "median") ms = $(i + 1) }
        END {
            if (ms == "") { printf "%s %dx%dx%d: no time\n", k, n, n, n; exit }
            tf = 2.0 * n * n * n / (ms * 1e-3) / 1e12
            printf "%s %dx%dx%d: %.4f ms, %.1f TFLOP/s, %.2f %% of %.1f TFLOP/s dense FP16\n", k, n, n, n, ms, tf, 100 * tf / peak, peak
        }' "$OUT/gemm.tmp" >> "$OUT/gemm-peak.txt"
done
rm -f "$OUT/gemm.tmp"

# the LDGSTS probes' rows, one line each: kernel metric sim gpu (from check's report)
awk '/^\+ .* check --record .*ldgsts_/ { k = $NF }
     k != "" && /ldgsts|global_op_ld\.sum/ && NF >= 4 { print k, $1, $3, $4 }
     /^exit / { k = "" }' "$OUT/check.log" > "$OUT/ldgsts.txt"

for j in "$OUT"/results/*.json; do
    [ -f "$j" ] && "$BIN" check --markdown "$j" > "${j%.json}.md" 2>> "$OUT/check.log"
done
echo "gpu-tensorcore: worst exit $worst; logs in $OUT" | tee -a "$OUT/check.log"
exit $worst
