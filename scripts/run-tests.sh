#!/bin/sh
# Runs every cmocka test binary given as an independent job, WS_TEST_JOBS at a time (default: every
# core), and prints each one's output whole, in the order given, as soon as it and the ones before it
# are done; then a total. Exits non-zero if any test binary fails (or crashes under the sanitizers).
# The binaries are independent (each its own temporary files); the tool cache below is shared, and
# its entries are written whole and renamed into place (common/toolcache.h), so jobs may fill it
# together.
# The tool cache (docs/sass.md) starts empty and is the run's own: a product kept by an earlier
# run (or the user's ~/.cache/warpscope) must not decide what a test sees.
# WS_TEST_TIMES=FILE (make test sets it): each binary's wall time is kept there, and the next run
# starts the longest first, so the slowest one does not start last and run alone.
# Slow cases (tests/slow.h) that a binary left out are counted into one line.
if [ -z "${WARPSCOPE_CACHE:-}" ]; then
    WARPSCOPE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-test-cache-XXXXXX") || exit 1
    export WARPSCOPE_CACHE
    own_cache=$WARPSCOPE_CACHE
fi
logs=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-test-logs-XXXXXX") || exit 1
trap 'rm -rf "$logs" ${own_cache:+"$own_cache"}' EXIT
trap 'exit 130' INT TERM
jobs=${WS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) echo "run-tests.sh: WS_TEST_JOBS='$jobs' is not a count of jobs" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "run-tests.sh: no test binaries given" >&2; exit 2; }

# The job list "index binary", longest first by the last run's times (unknown ones first, in order).
i=0
for t in "$@"; do
    i=$((i + 1))
    case $t in *[[:space:]]*) echo "run-tests.sh: '$t': a test binary's path may not hold spaces" >&2; exit 2 ;; esac
    s=$(awk -v t="$t" '$2 == t { s = $1 } END { print s == "" ? 1e9 : s }' "${WS_TEST_TIMES:-/dev/null}" 2>/dev/null)
    echo "${s:-1e9} $i $t"
done | sort -s -k1,1gr | cut -d' ' -f2- >"$logs/jobs"

# Each job: output to <index>.out, wall seconds to <index>.time, exit status to <index>.rc (last,
# renamed into place: the printer below waits for it).
start=$(date +%s.%N)
LOGS=$logs xargs -P "$jobs" -n 2 sh -c '
    t0=$(date +%s.%N)
    "$2" >"$LOGS/$1.out" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk "{ printf \"%.1f\n\", \$2 - \$1 }" >"$LOGS/$1.time"
    echo $rc >"$LOGS/$1.rc.tmp" && mv "$LOGS/$1.rc.tmp" "$LOGS/$1.rc"
' sh <"$logs/jobs" &
runner=$!

pass=0; fail=0; failed=""; i=0
for t in "$@"; do
    i=$((i + 1))
    while [ ! -f "$logs/$i.rc" ]; do
        if ! kill -0 "$runner" 2>/dev/null && [ ! -f "$logs/$i.rc" ]; then
            echo "run-tests.sh: $t: the job runner ended without running it" >&2
            : >>"$logs/$i.out"; echo 0 >"$logs/$i.time"; echo 127 >"$logs/$i.rc"
        fi
        sleep 0.2
    done
    rc=$(cat "$logs/$i.rc")
    echo "== $t ($(cat "$logs/$i.time") s)"
    cat "$logs/$i.out"
    if [ "$rc" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $t"; echo "-- $t: exit status $rc"; fi
done
wait "$runner"
end=$(date +%s.%N)

if [ -n "${WS_TEST_TIMES:-}" ]; then
    # this run's times, then the other binaries' old ones
    i=0
    for t in "$@"; do i=$((i + 1)); echo "$(cat "$logs/$i.time") $t"; done >"$logs/times"
    [ -f "$WS_TEST_TIMES" ] && awk 'NR == FNR { seen[$2] = 1; next } !($2 in seen)' "$logs/times" "$WS_TEST_TIMES" >>"$logs/times"
    cp "$logs/times" "$WS_TEST_TIMES" 2>/dev/null || true
fi

slow=$(cat "$logs"/*.out | grep -c '^\[  SLOW    \] ')
echo "binaries: $pass passed, $fail failed ($(echo "$start $end" | awk '{ printf "%.0f", $2 - $1 }') s, $jobs at a time)"
[ "$slow" = 0 ] || echo "slow cases: $slow left to make test-slow"
[ "$fail" = 0 ] || { echo "failed:$failed"; exit 1; }
