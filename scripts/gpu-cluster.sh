#!/bin/sh
# gpu-cluster.sh - thread-block clusters (demos/cluster.cu) on the GPU present, for issue 24 item 3:
# each kernel through `warpscope check` (outputs against the simulator, the distributed shared
# memory rows smsp__sass_inst_executed_op_dshared_* and l1tex__t_{requests,sectors}_pipe_lsu_mem_
# dshared_* against ncu's: the sector rule is an assumption until this run), at cluster sizes 2, 4
# and 8, then the lesson pair timed at a size beyond L2.
# Writes into $OUT (default ./out-cluster): build.log (GPU, driver, nvcc, ncu, date: the env),
# check.log (check's report and exit codes), results/<gpu>.json and .md (check --record), pair.log.
# Exit status: the worst `check` exit code (0 all agree, 3 a counter or output differs, 4 no GPU).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-cluster.sh   (about 2 minutes)
set -u
OUT=${OUT:-out-cluster}
BIN=${WS_BIN:-build/warpscope}
mkdir -p "$OUT/results"
worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; return 0; }

{
    echo "== $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 || true
    command -v ncu && ncu --version 2>&1 | tail -1
    command -v nvcc && nvcc --version 2>&1 | tail -1
} > "$OUT/build.log" 2>&1
cp "$OUT/build.log" "$OUT/env.txt"
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope >> "$OUT/build.log" 2>&1 || {
        echo "gpu-cluster: build failed, see $OUT/build.log" >&2
        exit 5
    }
fi

: > "$OUT/check.log"
for g in 2 4 8; do
    for k in reduce_groups_atomic cluster_dsmem_reduce; do
        echo "+ $BIN check --record $OUT/results/ -D G=$g $k" >> "$OUT/check.log"
        "$BIN" check --record "$OUT/results/" -D G="$g" "$k" >> "$OUT/check.log" 2>&1
        rc=$?
        echo "exit $rc: $k G=$g" >> "$OUT/check.log"
        [ $rc = 4 ] && { echo "gpu-cluster: no usable GPU (exit 4), see $OUT/check.log" >&2; exit 4; }
        note $rc
    done
done

# the lesson pair at 2^26 inputs (256 MiB, beyond the 60 MiB L2): time only
: > "$OUT/pair.log"
for k in reduce_groups_atomic cluster_dsmem_reduce; do
    "$BIN" check --gpu-only --record "$OUT/results/" -D N=67108864 "$k" >> "$OUT/pair.log" 2>&1
    echo "exit $?: $k N=67108864" >> "$OUT/pair.log"
done
echo "gpu-cluster: worst check exit $worst; see $OUT/check.log" >&2
exit "$worst"
