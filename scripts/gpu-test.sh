#!/bin/sh
# make gpu-test: the whole catalog through `warpscope check` on the GPU present,
# recorded in results/<gpu-key>.json, then results/<gpu-key>.md generated from it.
#   1. check --all at the descriptions' default sizes: outputs, every counter, causes;
#   2. check --gpu-only at sizes whose working set is well beyond the L2 (60 MB on
#      H200) for the kernels whose bandwidth the README claims (copy, transposes):
#      time, bandwidth and the cuMemcpyDtoD ceiling, no simulation.
# A kernel that fails does not stop the run; the exit status is the worst seen.
# Environment: WS_BIN (default build/warpscope), RESULTS (default results/), STAGE
# (all | catalog | bandwidth; default all), FILES (catalog files to check, default
# demos/*.cu; one `check` per file keeps each invocation short).
set -u
BIN=${WS_BIN:-build/warpscope}
RESULTS=${RESULTS:-results/}
STAGE=${STAGE:-all}
[ -x "$BIN" ] || { echo "gpu-test: $BIN not built (run make)" >&2; exit 5; }
mkdir -p "$RESULTS"
stamp=$(mktemp)
worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; }

run() {
    echo "+ $BIN $*"
    "$BIN" "$@"
    rc=$?
    [ $rc = 4 ] && { echo "gpu-test: no usable GPU here (exit 4); nothing recorded" >&2; rm -f "$stamp"; exit 4; }
    [ $rc != 0 ] && echo "gpu-test: exit $rc from: $BIN $*" >&2
    note $rc
}

if [ "$STAGE" = all ] || [ "$STAGE" = catalog ]; then
    for f in ${FILES:-demos/*.cu}; do
        names=$(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f")
        [ -n "$names" ] || continue
        # shellcheck disable=SC2086 # one argument per kernel name
        run check --record "$RESULTS" $names
    done
fi
if [ "$STAGE" = all ] || [ "$STAGE" = bandwidth ]; then
    # 2 x 256 MiB per copy; 8192 x 8192 floats = 256 MiB per matrix
    run check --gpu-only --record "$RESULTS" -D N=67108864 copy_float
    run check --gpu-only --record "$RESULTS" -D BYTES=268435456 copy_float4 copy_float_w
    run check --gpu-only --record "$RESULTS" -D W=8192 -D H=8192 \
        copy_32x32 transpose_naive transpose_coalesced transpose_padded \
        copy_32x8 transpose_naive_32x8 transpose_coalesced_32x8 transpose_padded_32x8 transpose_vec4
fi

for j in "$RESULTS"*.json; do
    [ -f "$j" ] && [ "$j" -nt "$stamp" ] || continue
    md=${j%.json}.md
    "$BIN" check --markdown "$j" > "$md" && echo "gpu-test: wrote $j and $md"
done
rm -f "$stamp"
exit $worst
