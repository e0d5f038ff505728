#!/bin/sh
# catalog-json.sh DIR [sim options...]: every catalog kernel's `sim --json --full` document at its
# default sizes into DIR/<kernel>.json, less the lines holding wall-clock seconds (the only thing
# time may change), plus a few larger launches (tensor-core GEMMs at 256^3, a 1024^2 transpose).
# A speed change must leave `diff -r BEFORE AFTER` empty: run this before and after it.
# Extra arguments go to every run (e.g. -j 2). Run from the repository root after `make`.
set -e
WS=${WS:-build/warpscope}
out=$1; shift
[ -n "$out" ] || { echo "usage: $0 DIR [sim options...]" >&2; exit 1; }
mkdir -p "$out"
one() { # name kernel args...: one document, its exit code on the last line
    name=$1; shift
    rc=0
    "$WS" sim "$@" --json --full >"$out/$name.raw" 2>/dev/null || rc=$?
    grep -v '"seconds"' "$out/$name.raw" >"$out/$name.json" || true
    echo "rc=$rc" >>"$out/$name.json"
    rm -f "$out/$name.raw"
}
"$WS" list --json | python3 -c 'import json, sys
for f in json.load(sys.stdin)["files"]:
    for k in f["kernels"]: print(k["name"])' >"$out/.kernels"
while read -r k; do one "$k" "$k" "$@"; done <"$out/.kernels"
for k in wmma_gemm_naive mma_ldmatrix_padded mma_ldmatrix_unpadded mma_cp_async mma_tma wgmma_gemm; do
    one "big-$k" "demos/tensorcore.cu:$k" -D M=256 -D N=256 -D K=256 "$@"
done
one big-transpose_naive transpose_naive -D W=1024 -D H=1024 "$@"
one big-matmul_tiled32 matmul_tiled32 -D M=256 -D N=256 -D K=256 "$@"
