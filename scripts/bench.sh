#!/bin/sh
# Runs every benchmark program make built (build/bench_*), one after another, and
# prints what each measures. Used by `make bench`; BUILD overrides the build folder.
B=${BUILD:-build}
found=0
for b in "$B"/bench_*; do
    [ -x "$b" ] || continue
    found=1
    echo "== $b"
    "$b" || exit 1
done
[ "$found" = 1 ] || { echo "bench: no benchmark programs in $B/ (tests/bench_*.c)" >&2; exit 1; }
