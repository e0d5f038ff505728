#!/bin/sh
# frontend.sh - runs the compile-path regression kernels (tests/data/frontend) through
# `warpscope check` on the GPU present: outputs of the simulator and the GPU must agree bit
# for bit (half/bf16 buffers and by-value parameters, file-initialised and generated buffers,
# template instantiations, overloads, a header kernel, the nvcc fallback, a -D macro), and
# the counters are compared as check always does. Logs go to $OUT (default ./out-frontend).
# Usage, from the repository root on a GPU machine with the CUDA toolkit:
#   OUT=/tmp/frontend sh tests/gpu/frontend.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-out-frontend}
mkdir -p "$OUT"
make -j"$(nproc 2>/dev/null || echo 2)" >"$OUT/build.log" 2>&1 || { echo "frontend: build failed (see $OUT/build.log)"; exit 5; }
WS=build/warpscope
D=tests/data/frontend
status=0
run() {                               # run NAME ARGS...: one check, its exit code recorded
    name=$1; shift
    "$WS" check "$@" >"$OUT/$name.txt" 2>&1
    rc=$?
    echo "$name rc=$rc" | tee -a "$OUT/summary.txt"
    [ "$rc" = 0 ] || status=1
}
: >"$OUT/summary.txt"
run half_axpy    "$D/half_buffers.cu:half_axpy"
run half2_copy   "$D/half_buffers.cu:half2_copy"
run half_bias    "$D/half_buffers.cu:half_bias"
run gather_files "$D/gather.cu:gather_files"
run gather_perm  "$D/gather.cu:gather_perm"
run gather_lcg   "$D/gather.cu:gather_lcg"
run scale2       "$D/templates.cu:scale<2>"
run scale4       "$D/templates.cu:scale4"
run bump_int     "$D/overloads.cu:bump_int"
run bump_float   "$D/overloads.cu:bump_float"
run from_header  "$D/header_kernel.cu"
run clamp_add    "$D/libc_headers.cu"
run macro_scale  "$D/macro_scale.cu" -D SCALE=3
run readme       "$D/readme.cu"
"$WS" gpu "$D/templates.cu:scale4" --json >"$OUT/scale4-gpu.json" 2>&1
echo "frontend: $(grep -c 'rc=0' "$OUT/summary.txt") of $(wc -l <"$OUT/summary.txt") agree; logs in $OUT"
exit $status
