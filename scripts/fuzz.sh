#!/bin/sh
# Runs each libFuzzer target given for FUZZ_SECONDS (default 60), one at a time,
# with a seed corpus from the catalog and the malformed corpora. New inputs
# accumulate in $BUILD/fuzz/corpus/<target>; crashes land in
# $BUILD/fuzz/artifacts/<target>/. Exits non-zero if any target found a crash.
# FUZZ_TIMEOUT (default 10 s) bounds one input.
# Each run's final stats (execs, coverage) are appended to $BUILD/fuzz/runs.log.
secs=${FUZZ_SECONDS:-60}
tmo=${FUZZ_TIMEOUT:-10}   # per input; a loaded shared machine needs more for the kept big reproducers
build=${BUILD:-build}
status=0
for bin in "$@"; do
    name=$(basename "$bin")
    seeds="$build/fuzz/seeds/$name"
    corpus="$build/fuzz/corpus/$name"
    arts="$build/fuzz/artifacts/$name"
    rm -rf "$seeds"
    mkdir -p "$seeds" "$corpus" "$arts"
    case "$name" in
        fuzz_desc) globs="demos/*.cu tests/data/desc/*.cu tests/data/bad_desc/*.cu tests/data/bad_resolve/*.cu tests/data/planted/*.cu" ;;
        fuzz_semantics) globs="tests/data/fuzz-corpus/fuzz_semantics/*" ;;  # bytes that pick a program, not text
        fuzz_cli) globs="tests/data/fuzz-corpus/fuzz_cli/*" ;;  # .cu ---- command line ---- results JSON ---- PTX
        *)         globs="demos/*.ptx tests/data/ptx/*.ptx tests/data/bad_ptx/*.ptx" ;;
    esac
    for f in $globs tests/data/fuzz-regressions/"$name"/*; do
        [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done
    dict=""
    case "$name" in fuzz_desc) d=tests/fuzz/desc.dict ;; fuzz_cli) d=tests/fuzz/cli.dict ;; fuzz_semantics) d="" ;;
        *) d=tests/fuzz/ptx.dict ;; esac
    [ -n "$d" ] && [ -f "$d" ] && dict="-dict=$d"
    echo "== $name: ${secs}s, $(ls "$seeds" | wc -l) seeds, $(ls "$corpus" | wc -l) corpus inputs"
    log="$build/fuzz/$name.log"
    "$bin" -max_total_time="$secs" -timeout="$tmo" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        $dict -artifact_prefix="$arts/" "$corpus" "$seeds" >"$log" 2>&1
    rc=$?
    grep -E '^#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss|cov:' "$log" | tail -n 3
    { echo "$(date -u +%FT%TZ) $name ${secs}s rc=$rc"; grep -E 'stat::|DONE' "$log"; } >>"$build/fuzz/runs.log"
    if [ "$rc" != 0 ]; then
        echo "$name: FOUND A PROBLEM (rc $rc); see $log and $arts/"
        grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 5
        status=1
    fi
done
exit $status
