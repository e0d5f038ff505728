#!/bin/sh
# Benchmarks (make bench): the interpreter's rate on the whole catalog, one
# core, no listener, and the time to simulate a 4096x4096 transpose.
# Run from the repository root after `make all build/bench_interp`.
set -e
BUILD=${BUILD:-build}
echo "== interpreter: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
"$BUILD/bench_interp" demos transpose_naive
