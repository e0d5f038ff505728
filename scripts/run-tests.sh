#!/bin/sh
# Runs every cmocka test binary given; prints each one's summary and a total.
# Exits non-zero if any test binary fails (or crashes under the sanitizers).
pass=0; fail=0; failed=""
for t in "$@"; do
    echo "== $t"
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $t"; fi
done
echo "binaries: $pass passed, $fail failed"
[ "$fail" = 0 ] || { echo "failed:$failed"; exit 1; }
