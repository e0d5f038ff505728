#!/bin/sh
# Benchmarks (make bench): the interpreter's rate on the whole catalog, one
# core, no listener, the time to simulate a 4096x4096 transpose, and the
# visualizer's frame time, and block sampling against full simulation.
# Run from the repository root after `make all build/bench_interp`.
set -e
BUILD=${BUILD:-build}
echo "== interpreter: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
"$BUILD/bench_interp" demos transpose_naive
if [ -x "$BUILD/bench_viz" ]; then
    echo "== visualizer: frame time at 1280x800, SDL software renderer"
    SDL_VIDEODRIVER=dummy "$BUILD/bench_viz"
else
    echo "== visualizer: not built (SDL2 not found), no frame time"
fi

# Block sampling (issue 25): each case sampled and full, wall times and the counters'
# differences (scripts/sample-compare.py). A full 2048^3 matmul (34 G thread-instructions)
# takes far more than 10 minutes on the 2-core build machine, so it is timed sampled only
# and compared with full at 1024 x 1024 x 256; the 2^28-float copy's full run needs a
# budget above the default 4e9. BENCH_SAMPLE_SMALL=1: smaller transpose and copy (quick).
WS=${WS:-$BUILD/warpscope}
sample_case() { # label kernel -D... : sampled and full, compared
    k=$1; shift
    t0=$(date +%s.%N)
    "$WS" sim "$k" "$@" --sample --json >"$tmpd/s.json" 2>/dev/null
    t1=$(date +%s.%N)
    "$WS" sim "$k" "$@" --full --json >"$tmpd/f.json" 2>/dev/null
    t2=$(date +%s.%N)
    python3 scripts/sample-compare.py "$tmpd/s.json" "$tmpd/f.json" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
}
sample_only() { # kernel -D...: the sampled run's wall time and its sampling line
    k=$1; shift
    t0=$(date +%s.%N)
    "$WS" sim "$k" "$@" --sample >"$tmpd/s.txt" 2>/dev/null
    t1=$(date +%s.%N)
    echo "  $k $*: sampled $(echo "$t1 - $t0" | bc) s"
    grep '^sampling' "$tmpd/s.txt" | sed 's/^sampling */  /'
}
if command -v python3 >/dev/null && command -v bc >/dev/null; then
    tmpd=$(mktemp -d)
    echo "== block sampling: sampled vs full (load on this machine: $(cut -d' ' -f1-3 /proc/loadavg))"
    if [ "${BENCH_SAMPLE_SMALL:-0}" = 1 ]; then
        sample_case matmul_tiled32 -D M=1024 -D N=1024 -D K=256
        sample_case transpose_padded -D W=4096 -D H=4096
        sample_case copy_float -D N=67108864
    else
        sample_only matmul_tiled32 -D M=2048 -D N=2048 -D K=2048
        sample_case matmul_tiled32 -D M=1024 -D N=1024 -D K=256
        sample_case transpose_padded -D W=8192 -D H=8192
        sample_case copy_float -D N=268435456 --budget 8000000000
    fi
    rm -rf "$tmpd"
else
    echo "== block sampling: needs python3 and bc, not run"
fi
