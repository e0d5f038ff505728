#!/bin/sh
# gpu-ldgsts-rule.sh - on the H200: `warpscope check` on every kernel of tests/data/tensor/ldgsts_rule.cu,
# cp.async patterns that vary one thing at a time (.ca/.cg, src-size or not, global lines per
# quarter-warp, bank conflicts between them, a shared row crossed), so the LDGSTS shared-write
# wavefronts, bank conflicts and re-requested global sectors ncu counts can be fitted
# (docs/memory-models.md "The LDGSTS shared-side rule"; results/corpus-tensor.md says what the
# issue-24 corpus left open). Each check is a few seconds; the whole run about a minute after the build.
# Writes into $OUT (default ./out-ldgsts-rule): env.txt (GPU, driver, nvcc, ncu, date, commit),
# build.log, check.log (every check and its exit code), ldgsts.txt (kernel, metric, sim, gpu for the
# LDGSTS and global-load rows), ldgsts-results.tar.gz (results/<gpu>.json for `check --replay`).
# Exit: the worst check exit (0 all agree, 3 a difference, 4 no GPU), 5 build failed.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-ldgsts-rule.sh
set -u
OUT=${OUT:-out-ldgsts-rule}
BIN=${WS_BIN:-build/warpscope}
# SRCS: the probe files (scripts/gpu-ldgsts3.sh adds tests/data/tensor/ldgsts_rule3.cu)
SRCS=${SRCS:-tests/data/tensor/ldgsts_rule.cu}
mkdir -p "$OUT/results"
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || true
    command -v nvcc > /dev/null && nvcc --version 2>&1 | tail -1
    command -v ncu > /dev/null && ncu --version 2>&1 | tail -1
} > "$OUT/env.txt"
: > "$OUT/build.log"
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope >> "$OUT/build.log" 2>&1 || {
        echo "gpu-ldgsts-rule: build failed, see $OUT/build.log" >&2; exit 5; }
fi
worst=0
: > "$OUT/check.log"
for SRC in $SRCS; do
for k in $(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$SRC"); do
    echo "+ $BIN check --record $OUT/results/ $SRC:$k" >> "$OUT/check.log"
    "$BIN" check --record "$OUT/results/" "$SRC:$k" >> "$OUT/check.log" 2>&1 < /dev/null
    rc=$?
    echo "exit $rc: $k" >> "$OUT/check.log"
    [ $rc = 4 ] && { echo "gpu-ldgsts-rule: no usable GPU (exit 4), see $OUT/check.log" >&2; exit 4; }
    [ $rc -gt $worst ] && worst=$rc
done
done
awk '/^\+ .* check --record / { n = split($NF, p, ":"); k = p[n] }
     k != "" && /ldgsts|global_op_ld\.sum|srcunit_tex_op_read\.sum/ && NF >= 4 { print k, $1, $3, $4 }
     /^exit / { k = "" }' "$OUT/check.log" > "$OUT/ldgsts.txt"
tar -czf "$OUT/ldgsts-results.tar.gz" -C "$OUT" results && rm -rf "$OUT/results"
echo "gpu-ldgsts-rule: see $OUT/ldgsts.txt"
exit $worst
