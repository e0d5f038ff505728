# gpu-prelude.sh - the start every ncu script that runs `warpscope` on the lent GPU shares, sourced
# from the repository root after `set -u`, with NAME and DEFAULT_BUDGET set (POSIX `.` takes no
# arguments): `NAME=gpu-x DEFAULT_BUDGET=230; . scripts/gpu-prelude.sh`. It sets
# OUT (default build/NAME), BUDGET (BUDGET_S or the default), START, PATH with the toolkit's bin,
# WS, NCU, LOG ($OUT/log.txt, emptied) and say(); env.txt written; build/warpscope built with the
# carried cJSON where it is missing (the GPU machine reaches no package registry). Exits 1 when
# there is no warpscope after that.
OUT=${OUT:-build/$NAME}
BUDGET=${BUDGET_S:-$DEFAULT_BUDGET}
START=$(date +%s)
mkdir -p "$OUT" || exit 1
PATH=$PATH:/usr/local/cuda/bin
export PATH
WS=./build/warpscope
NCU=${WARPSCOPE_NCU:-$(command -v ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)}
LOG=$OUT/log.txt
: > "$LOG"
say() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - START)) s) $*" >> "$LOG"; }
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "ncu: $NCU $("$NCU" --version 2>&1 | tail -1)"
    echo "budget: ${BUDGET} s"
} > "$OUT/env.txt"
if [ ! -x "$WS" ]; then
    say "make build/warpscope"
    make -j"$(nproc 2>/dev/null || echo 8)" CJSON_DIR=.device-carry/cjson/usr CFLAGS=-Wno-error build/warpscope >> "$LOG" 2>&1
fi
[ -x "$WS" ] || { say "no warpscope"; exit 1; }
