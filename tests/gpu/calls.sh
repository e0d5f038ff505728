#!/bin/sh
# calls.sh - runs the regression kernels of tests/data/calls on the GPU present and
# compares them with the simulator: `warpscope check` for the kernels that must agree
# (calls with eight arguments and a struct, recursion, a function table, local frames
# passed down, printf, special registers that do not depend on the hardware, long
# names, the approximate-math kernel within its stated bound), and the GPU's own text
# for printf and a failed assert beside the simulator's. Logs go to $OUT (default
# ./out-calls): one .txt per check, printf-gpu.txt / printf-sim.txt and their diff,
# assert-gpu.txt / assert-sim.txt, summary.txt.
# Usage, from the repository root on a GPU machine with the CUDA toolkit:
#   OUT=/tmp/calls sh tests/gpu/calls.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-out-calls}
mkdir -p "$OUT"
make -j"$(nproc 2>/dev/null || echo 2)" all >"$OUT/build.log" 2>&1 || { echo "calls: build failed (see $OUT/build.log)"; exit 5; }
WS=build/warpscope
D=tests/data/calls
status=0
: >"$OUT/summary.txt"
check() {                             # check NAME KERNEL: outputs and exact counters must agree
    name=$1; shift
    "$WS" check "$@" >"$OUT/$name.txt" 2>&1
    rc=$?
    echo "$name rc=$rc $(grep -m1 'output:' "$OUT/$name.txt" | sed 's/^ *//')" | tee -a "$OUT/summary.txt"
    [ "$rc" = 0 ] || status=1
}
check many_arguments  "$D/abi.cu:many_arguments"
check recursion       "$D/abi.cu:recursion"
check function_table  "$D/abi.cu:function_table"
check local_frames    "$D/abi.cu:local_frames"
check waits_fences    "$D/trap.cu:waits_and_fences"
check long_names      "$D/long_names.cu:long_names"
check healthy         "$D/mixed.cu:healthy"
check approx_math     "$D/approx.cu:approx_math"

# printf: the GPU prints from the driver on stdout, once per launch (gpu launches it for the
# output check and then --reps times); the simulator's copy comes from `sim` (stderr under
# --csv). Warps may print in another order on the GPU: both sides are sorted, and only the
# GPU's first launch (as many lines as the simulator printed) is compared.
"$WS" sim "$D/printf.cu:printf_formats" --csv 2>"$OUT/printf-sim.txt" >/dev/null
n=$(wc -l <"$OUT/printf-sim.txt")
"$WS" gpu "$D/printf.cu:printf_formats" --no-verify --reps 1 >"$OUT/printf-gpu.raw" 2>&1
grep -v '^ \|^warpscope\|^gpu\|^$' "$OUT/printf-gpu.raw" | head -n "$n" | sort >"$OUT/printf-gpu.txt"
if sort "$OUT/printf-sim.txt" | diff "$OUT/printf-gpu.txt" - >"$OUT/printf.diff"; then r=same; else r=differs; status=1; fi
echo "printf_formats: GPU and simulator text $r, $n lines (printf.diff)" | tee -a "$OUT/summary.txt"

# assert: the GPU's lines and exit status beside the simulator's (exit 2, a kernel fault)
"$WS" gpu "$D/assert.cu:assert_in_bounds" --no-verify >"$OUT/assert-gpu.txt" 2>&1
echo "assert_in_bounds: gpu rc=$? ($(grep -c 'Assertion' "$OUT/assert-gpu.txt") Assertion lines)" | tee -a "$OUT/summary.txt"
"$WS" sim "$D/assert.cu:assert_in_bounds" >"$OUT/assert-sim.txt" 2>&1
echo "assert_in_bounds: sim rc=$? ($(grep -c 'Assertion' "$OUT/assert-sim.txt") Assertion lines)" | tee -a "$OUT/summary.txt"
"$WS" gpu "$D/trap.cu:trap_on_lane" --no-verify >"$OUT/trap-gpu.txt" 2>&1
echo "trap_on_lane: gpu rc=$?" | tee -a "$OUT/summary.txt"

echo "calls: $(grep -c ' rc=0 ' "$OUT/summary.txt") of 8 checks agree; logs in $OUT"
exit $status
