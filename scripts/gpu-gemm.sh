#!/bin/sh
# gpu-gemm.sh - issue 24 item 7: the warp-specialised wgmma + TMA GEMM of tests/gpu/gemm_wgmma.cu,
# built in several tile / stage / cluster configurations (compile-time macros) and each run at
# 2048^3, 4096^3 and 8192^3 against cuBLAS (checks and timings: see the file's header).
# Writes into $OUT (default ./out-gemm) three files: env.txt (GPU, driver, nvcc, ncu, date),
# summary.txt (the RESULT lines, best 8192^3 first, the conditions table, the catalog's times) and
# gemm-logs.tar.gz holding build.log (ptxas register and spill lines of every variant), sweep.log
# (every variant's full output, exit codes), conditions.log (two variants at 8192^3 with each input
# kind, with and without an L2 flush before each run), catalog.log / catalog.txt (the catalog's
# wgmma_gemm_ws and mma_tma through `warpscope gpu` at 8192^3 and 4096^3; warpscope is built here
# when build/warpscope is missing, as gpu-tensorcore.sh does). Every variant runs under `timeout` (a barrier
# bug hangs, and must not take the rest of the sweep with it). About 3 minutes on an H200.
# Environment: OUT; VARIANTS (names below, default all); SIZES (default "2048 4096 8192"); REPS
# (median of, default 30); NVCC (default nvcc); COND_VARIANTS (default "s3 base"); CATALOG (0: no
# warpscope stage); WS_BIN.
# Exit status: 0 when every variant built, ran and passed its checks, 1 otherwise.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-gemm.sh
set -u
OUT=${OUT:-out-gemm}
SIZES=${SIZES:-2048 4096 8192}
NVCC=${NVCC:-nvcc}
export REPS=${REPS:-30}
mkdir -p "$OUT/bin"
SRC=tests/gpu/gemm_wgmma.cu

# name:macros (macros joined by commas)
ALL="base:BM=128,BN=256,STAGES=4
s3:BM=128,BN=256,STAGES=3
acqcluster:BM=128,BN=256,STAGES=4,WAIT_CLUSTER_SCOPE=1
cluster2:BM=128,BN=256,STAGES=4,CLUSTER=2
cluster2grid:BM=128,BN=256,STAGES=4,CLUSTER=2,PERSISTENT=0
m256n128:BM=256,BN=128,STAGES=4
n128s6:BM=128,BN=128,STAGES=6
grid:BM=128,BN=256,STAGES=4,PERSISTENT=0
group8:BM=128,BN=256,STAGES=4,GROUP_M=8"
VARIANTS=${VARIANTS:-$(echo "$ALL" | sed 's/:.*//')}

{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n) $(uname -r)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit --format=csv 2>&1 || true
    echo "nvcc: $($NVCC --version 2>&1 | tail -2 | tr '\n' ' ')"
    if command -v ncu > /dev/null 2>&1; then echo "ncu: $(ncu --version 2>&1 | tail -1)"; else echo "ncu: none"; fi
    echo "git: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "sizes: $SIZES; reps: $REPS; variants: $(echo $VARIANTS)"
} > "$OUT/env.txt"

# build every variant in parallel; each compile's output into its own file, then build.log
: > "$OUT/build.log"
for v in $VARIANTS; do
    macros=$(echo "$ALL" | sed -n "s/^$v://p")
    [ -z "$macros" ] && { echo "gpu-gemm: unknown variant $v" >> "$OUT/build.log"; continue; }
    defs=$(echo "$macros" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
    # shellcheck disable=SC2086
    ( $NVCC -O3 -std=c++17 -arch=sm_90a -Xptxas -v $defs -o "$OUT/bin/$v" "$SRC" -lcuda -lcublas \
        > "$OUT/bin/$v.build" 2>&1; echo "exit $?" >> "$OUT/bin/$v.build" ) &
done
wait
for v in $VARIANTS; do
    [ -f "$OUT/bin/$v.build" ] || continue
    echo "== $v: $(echo "$ALL" | sed -n "s/^$v://p")" >> "$OUT/build.log"
    grep -A3 "gemm_ws" "$OUT/bin/$v.build" | grep -i "spill\|Used\|warn\|error" >> "$OUT/build.log"
    grep -i "error\|warn" "$OUT/bin/$v.build" | grep -v "^ptxas info" >> "$OUT/build.log"
    tail -1 "$OUT/bin/$v.build" >> "$OUT/build.log"
done

status=0
: > "$OUT/sweep.log"
for v in $VARIANTS; do
    echo "== $v: $(echo "$ALL" | sed -n "s/^$v://p")" >> "$OUT/sweep.log"
    if [ ! -x "$OUT/bin/$v" ]; then
        echo "not built" >> "$OUT/sweep.log"; status=1; continue
    fi
    # shellcheck disable=SC2086
    timeout 90 "$OUT/bin/$v" $SIZES >> "$OUT/sweep.log" 2>&1
    rc=$?
    echo "exit $rc: $v" >> "$OUT/sweep.log"
    [ $rc -ne 0 ] && status=1
done

# measurement conditions at 8192^3 for the two best configurations of round 1: the inputs
# (random in [-1, 1) or the catalog's halves in [0.5, 2)) and a 120 MiB memset before each timed
# run (FLUSH=1, as `warpscope gpu` does) - the GEMM is power-bound, so both can move its clock
: > "$OUT/conditions.log"
for v in ${COND_VARIANTS:-s3 base}; do
    [ -x "$OUT/bin/$v" ] || continue
    for inputs in signed unit; do
        for flush in 0 1; do
            echo "== $v INPUTS=$inputs FLUSH=$flush" >> "$OUT/conditions.log"
            INPUTS=$inputs FLUSH=$flush timeout 60 "$OUT/bin/$v" 8192 >> "$OUT/conditions.log" 2>&1
            echo "exit $?: $v INPUTS=$inputs FLUSH=$flush" >> "$OUT/conditions.log"
        done
    done
done

# the catalog description (wgmma_gemm_ws of demos/tensorcore.cu) through warpscope at 8192^3, and its pair's
# other side: the time `warpscope gpu` records, with the command that made it (CATALOG=0: skip)
if [ "${CATALOG:-1}" = 1 ]; then
    WS=${WS_BIN:-build/warpscope}
    if [ ! -x "$WS" ]; then
        cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
        # shellcheck disable=SC2086
        timeout 240 make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope > "$OUT/catalog.log" 2>&1 ||
            echo "gpu-gemm: warpscope build failed (catalog stage skipped)" >> "$OUT/catalog.log"
    fi
    if [ -x "$WS" ]; then
        for n in 8192 4096; do
            for k in wgmma_gemm_ws mma_tma; do
                echo "+ $WS gpu -D M=$n -D N=$n -D K=$n --reps 20 --no-verify $k" >> "$OUT/catalog.log"
                timeout 120 "$WS" gpu -D M=$n -D N=$n -D K=$n --reps 20 --no-verify "$k" >> "$OUT/catalog.log" 2>&1
                rc=$?
                echo "exit $rc: $k" >> "$OUT/catalog.log"
                [ $rc -ne 0 ] && status=1
            done
        done
        awk '/^\+ / { k = $NF; n = $5; sub(/^M=/, "", n) }
             /time: median/ { for (i = 1; i <= NF; i++) if ($i == "median") ms = $(i + 1);
             printf "CATALOG %s %d^3: %.4f ms, %.1f TFLOP/s, %.1f %% of 989.4\n", k, n, ms, 2 * n^3 / (ms * 1e-3) / 1e12,
                    100 * 2 * n^3 / (ms * 1e-3) / 1e12 / 989.4 }' "$OUT/catalog.log" > "$OUT/catalog.txt"
    fi
fi

# summary: the 8192 lines, best first, then the rest
{
    echo "# RESULT lines of $OUT/sweep.log; TFLOP/s = 2 M N K / median time; peak = 989.4 TFLOP/s dense FP16"
    grep "^RESULT size=8192 " "$OUT/sweep.log" | \
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^ours_tflops=/) t = substr($i, 13); print t, $0 }' | sort -rn | cut -d' ' -f2-
    grep '^RESULT ' "$OUT/sweep.log" | grep -v '^RESULT size=8192 '
    grep '^CHECK .*FAIL' "$OUT/sweep.log"
    grep '^exit [^0]' "$OUT/sweep.log"
    echo "# conditions (8192^3): variant inputs flush -> ours, cuBLAS fp32 out, cuBLAS fp16 out (TFLOP/s)"
    grep '^RESULT ' "$OUT/conditions.log" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "COND STAGES=%s WAIT_CLUSTER_SCOPE=%s inputs=%s flush=%s: %s %s %s %s\n", v["STAGES"], v["WAIT_CLUSTER_SCOPE"],
               v["inputs"], v["flush"], v["ours_tflops"], v["cublas_f32out_tflops"], v["cublas_f16out_tflops"], v["check"] }'
    grep '^gemm_wgmma: cudaOccupancy' "$OUT/sweep.log" | sort -u
    [ -f "$OUT/catalog.txt" ] && cat "$OUT/catalog.txt"
} > "$OUT/summary.txt"
rm -rf "$OUT/bin"
# the device returns few files: everything in one archive, env.txt and summary.txt beside it
( cd "$OUT" && tar czf gemm-logs.tar.gz build.log sweep.log conditions.log $(ls catalog.log catalog.txt 2>/dev/null) &&
  rm -f build.log sweep.log conditions.log catalog.log catalog.txt )
cat "$OUT/summary.txt"
exit $status
