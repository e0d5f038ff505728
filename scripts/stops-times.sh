#!/bin/sh
# stops-times.sh [CUTOFF_S]: the wall time to the error (or the end) of each launch of
# tests/data/budget/budget.cu and tests/data/stops/stops.cu that must stop or be refused at once
# (docs/interp.md, "Stops"), for $WS (default build/warpscope) on -j 1: one line per case, the
# exit code, the seconds and the first words of the message. Runs past CUTOFF_S (default 100) are
# cut (rc 124). Before/after a change: WS=old/warpscope sh scripts/stops-times.sh; then the new.
set -u
WS=${WS:-build/warpscope}
cut=${1:-100}
B=tests/data/budget/budget.cu
S=tests/data/stops/stops.cu
one() { # label args...
    label=$1; shift
    t0=$(date +%s.%N)
    rc=0
    timeout "$cut" "$WS" sim "$@" -j 1 >/dev/null 2>/tmp/ws-stops-err.$$ || rc=$?
    t1=$(date +%s.%N)
    msg=$(sed -n 's/^warpscope: [^ ]* error: //p' /tmp/ws-stops-err.$$ | head -1 | cut -c1-110)
    printf '%-34s rc=%-3s %7.2f s  %s\n' "$label" "$rc" "$(echo "$t1 - $t0" | bc)" "$msg"
}
one count_in_memory "$B:count_in_memory"
one count_in_register "$B:count_in_register"
one count_at_grid_sync "$B:count_at_grid_sync"
one count_at_barrier "$B:count_at_barrier"
one count_in_block_5 "$B:count_in_block_5"
one grid_sync_after_return "$S:grid_sync_after_return"
one 'tiny_blocks 2^31-1 --full' "$B:tiny_blocks" --full
one 'tiny_blocks 2^31-1 (sampled)' "$B:tiny_blocks"
one block0_does_all "$B:block0_does_all"
one 'every_block_works --budget 5e7' "$B:every_block_works" --budget 50000000
one count_decides_through_memory "$B:count_decides_through_memory"
one count_read_by_other_warp "$B:count_read_by_other_warp"
rm -f /tmp/ws-stops-err.$$
