#!/bin/sh
# Benchmarks (make bench): the interpreter's rate on the whole catalog, one
# core, no listener, the time to simulate a 4096x4096 transpose, and the
# visualizer's frame time.
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
