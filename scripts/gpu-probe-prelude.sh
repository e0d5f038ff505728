# gpu-probe-prelude.sh - the start the standalone-probe scripts share (gpu-coalesce.sh, gpu-l2req.sh,
# gpu-l2dram.sh, gpu-local.sh): they build one tests/gpu/ probe with nvcc and profile it with ncu, no
# warpscope build (scripts/gpu-prelude.sh is the start of the scripts that run warpscope). Sourced
# from the repository root after `set -u`, with NAME, DEFAULT_BUDGET and PROBE (the .cu) set (POSIX
# `.` takes no arguments): `NAME=l2req DEFAULT_BUDGET=230 PROBE=tests/gpu/l2req_probe.cu; . scripts/gpu-probe-prelude.sh`.
# Sets OUT (default out-NAME), BUDGET (BUDGET_S or the default), START, LOG ($OUT/log.txt, emptied),
# TMP (removed at exit) holding the built $TMP/probe, PATH with the toolkit's bin, NVCC, NCU and say();
# writes env.txt. Exits 1 when nvcc fails.
OUT=${OUT:-out-$NAME}
BUDGET=${BUDGET_S:-$DEFAULT_BUDGET}
START=$(date +%s)
mkdir -p "$OUT" || exit 1
LOG=$OUT/log.txt
: > "$LOG"
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
PATH=$PATH:/usr/local/cuda/bin
export PATH
NVCC=${NVCC:-nvcc}
NCU=${NCU:-$(command -v ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
say() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - START)) s) $*" >> "$LOG"; }

{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,ecc.mode.current,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1)"
    echo "gpu serial, uuid: $(nvidia-smi --query-gpu=serial,uuid --format=csv,noheader 2>&1)"
    echo "nvcc: $("$NVCC" --version 2>&1 | tail -1)"
    echo "ncu: $NCU $("$NCU" --version 2>&1 | tail -1)"
} > "$OUT/env.txt"

say "nvcc"
"$NVCC" -O3 -arch=sm_90 -o "$TMP/probe" "$PROBE" >> "$LOG" 2>&1 || { say "nvcc failed"; exit 1; }
