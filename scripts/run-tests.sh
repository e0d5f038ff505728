#!/bin/sh
# Runs every cmocka test binary given; prints each one's summary and a total.
# Exits non-zero if any test binary fails (or crashes under the sanitizers).
# The tool cache (docs/sass.md) starts empty and is the run's own: a product kept by an earlier
# run (or the user's ~/.cache/warpscope) must not decide what a test sees.
if [ -z "${WARPSCOPE_CACHE:-}" ]; then
    WARPSCOPE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-test-cache-XXXXXX") || exit 1
    export WARPSCOPE_CACHE
    trap 'rm -rf "$WARPSCOPE_CACHE"' EXIT
fi
pass=0; fail=0; failed=""
for t in "$@"; do
    echo "== $t"
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $t"; fi
done
echo "binaries: $pass passed, $fail failed"
[ "$fail" = 0 ] || { echo "failed:$failed"; exit 1; }
