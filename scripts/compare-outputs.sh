#!/bin/sh
# compare-outputs.sh OLD NEW [OUT] - runs two warpscope binaries on the same inputs and diffs what
# they print: every catalog kernel's `sim` (text, --json, --csv), three `sim --compare` pairs,
# `list` (text, --json), `check --markdown` and `check --replay` (markdown, --json, --csv) of
# results/h200.json, and, where a GPU answers `gpu --self-test`, `gpu` and `check` of two kernels
# with every number masked (times vary run to run). The simulation's own wall time ("in 1.94 s",
# "seconds") is masked everywhere. Run from the repository root; prints one line per difference
# and a count; exit 1 when any differ. A refactor of the output layer should change nothing.
set -u
old=$1 new=$2 out=${3:-/tmp/ws-compare-outputs}
mkdir -p "$out/old" "$out/new"
mask_wall() { sed -E 's/memory instructions in [0-9.]+ s/memory instructions in T s/; s/("seconds":[[:space:]]*)[0-9.e+-]+/\1T/'; }
mask_all() { mask_wall | sed -E 's/[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?/N/g'; }
n=0 differ=0
run() { # name mask cmd...
    name=$1 mask=$2
    shift 2
    for side in old new; do
        bin=$old
        [ $side = new ] && bin=$new
        "$bin" "$@" 2>"$out/$side/$name.err" | $mask >"$out/$side/$name"
        echo "exit $?" >>"$out/$side/$name.err"
    done
    n=$((n + 1))
    if ! cmp -s "$out/old/$name" "$out/new/$name"; then
        differ=$((differ + 1))
        echo "differs: $name ($*)"
    fi
}
kernels=$("$old" list --json | python3 -c 'import json,sys; [print(k["name"]) for f in json.load(sys.stdin)["files"] for k in f["kernels"]]')
for k in $kernels; do
    run "sim.$k.text" mask_wall sim "$k"
    run "sim.$k.json" mask_wall sim "$k" --json
    run "sim.$k.csv" mask_wall sim "$k" --csv
done
for pair in "copy_float stride_copy_s2" "offset_copy_o0 offset_copy_o1" "transpose_naive transpose_padded"; do
    set -- $pair
    run "cmp.$1.$2.text" mask_wall sim --compare "$1" "$2"
    run "cmp.$1.$2.csv" mask_wall sim --compare "$1" "$2" --csv
done
run list.text mask_wall list
run check-markdown mask_wall check --markdown results/h200.json
run replay.md mask_wall check --replay results/h200.json
run replay.json mask_wall check --replay results/h200.json --json
run replay.csv mask_wall check --replay results/h200.json --csv
if "$new" gpu --self-test >/dev/null 2>&1; then
    for k in copy_float transpose_naive; do
        run "gpu.$k.text" mask_all gpu "$k"
        run "gpu.$k.json" mask_all gpu "$k" --json
        run "check.$k.text" mask_all check "$k"
        run "check.$k.json" mask_all check "$k" --json
        run "check.$k.csv" mask_all check "$k" --csv
    done
else
    echo "no GPU: gpu and check not compared"
fi
echo "$differ of $n outputs differ (files in $out)"
[ $differ -eq 0 ]
