#!/bin/sh
# corpus-sim.sh - run `warpscope sim` on every kernel of corpus/MANIFEST.tsv (built by
# scripts/corpus-build.sh) and print a table: kernel, ran/failed, seconds, and for a failure the
# first error line warpscope printed. Each run is limited to SIM_TIMEOUT seconds (default 60).
# Environment: WS_BIN (default build/warpscope), SIM_TIMEOUT, LOG (default corpus/sim.log: every
# run's full output). Exit status: 0 when every kernel ran, 1 otherwise.
# Run from the repository root: sh scripts/corpus-sim.sh [NAME...]   (names: only those kernels)
set -u
BIN=${WS_BIN:-build/warpscope}
TO=${SIM_TIMEOUT:-60}
LOG=${LOG:-corpus/sim.log}
MAN=corpus/MANIFEST.tsv
[ -x "$BIN" ] || { echo "corpus-sim: $BIN not built (make build/warpscope)" >&2; exit 2; }
[ -f "$MAN" ] || { echo "corpus-sim: $MAN not found" >&2; exit 2; }
tab=$(printf '\t')
: > "$LOG"
ran=0; failed=0
printf '| kernel | repository | result | s | reason |\n|---|---|---|---:|---|\n'
while IFS="$tab" read -r kind repo _commit path name _rest; do
    [ "$kind" = kernel ] || continue
    if [ $# -gt 0 ]; then
        want=0; for a in "$@"; do [ "$a" = "$name" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    w="corpus/$(printf '%s' "$repo" | tr / +)/$(dirname "$path")/ws_$name.cu"
    t0=$(date +%s.%N)
    timeout "$TO" "$BIN" sim "$w:$name" > corpus/sim.out 2>&1 < /dev/null
    rc=$?
    t1=$(date +%s.%N)
    { echo "== $name (exit $rc)"; cat corpus/sim.out; } >> "$LOG"
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc = 0 ]; then
        ran=$((ran + 1)); res=ran; why=""
    else
        failed=$((failed + 1)); res=failed
        if [ $rc = 124 ]; then why="over ${TO} s"
        else why=$(grep -m1 -E 'error|refused|cannot' corpus/sim.out | cut -c1-220 | tr '|' '/')
             [ -n "$why" ] || why="exit $rc"
        fi
    fi
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$repo" "$res" "$s" "$why"
done < "$MAN"
rm -f corpus/sim.out
printf '\n%d ran, %d failed\n' "$ran" "$failed"
[ $failed = 0 ]
