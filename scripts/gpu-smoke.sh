#!/bin/sh
# One script for the lent GPU machine: builds warpscope, runs the tests and
# exercises gpu and check end to end, writing every log under $OUT.
# Each stage stays under the device's 10-minute limit per command:
#   sh scripts/gpu-smoke.sh env        tools, driver, GPU (seconds)
#   sh scripts/gpu-smoke.sh build      make + make test (a few minutes)
#   sh scripts/gpu-smoke.sh quick      gpu --self-test --counters (driver layer + ncu against known
#                                      values), gpu / check on a few kernels, --json, sanitizer
#   sh scripts/gpu-smoke.sh catalog    check every catalog kernel -> results/<gpu>.json (+ .md);
#                                      FILES="demos/a.cu demos/b.cu" limits it (split it if the
#                                      whole catalog would take longer than 10 minutes)
#   sh scripts/gpu-smoke.sh bandwidth  large sizes, --gpu-only, same results file
# Logs: $OUT/<stage>.log and $OUT/<stage>-*.txt; results copied to $OUT/results/.
set -u
STAGE=${1:-quick}
OUT=${OUT:-/tmp/warpscope-smoke}
mkdir -p "$OUT"
BIN=build/warpscope
LOG="$OUT/$STAGE.log"
exec >"$LOG" 2>&1
echo "stage $STAGE at $(date -u +%FT%TZ) on $(hostname)"

step() { # step NAME CMD...: runs CMD, output to $OUT/$STAGE-NAME.txt, records the exit code
    name=$1; shift
    echo "== $name: $*"
    "$@" >"$OUT/$STAGE-$name.txt" 2>&1
    echo "== $name: exit $?"
    tail -n 30 "$OUT/$STAGE-$name.txt"
}

NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1)
case $STAGE in
env)
    step nvidia-smi nvidia-smi
    step libcuda sh -c 'ldconfig -p | grep -i libcuda; cat /proc/driver/nvidia/version'
    step tools sh -c "command -v nvcc ptxas cuobjdump compute-sanitizer; echo ncu=$NCU; ${NCU:-true} --version"
    step packages sh -c 'pkg-config --modversion libcjson; ls /usr/include/cmocka.h /usr/include/cjson/cJSON.h'
    ;;
build)
    step make make -j16 BUILD=build
    step test make -j16 test
    ;;
quick)
    [ -x $BIN ] || step make make -j16 BUILD=build
    step selftest $BIN gpu --self-test --counters
    step gpu-copy $BIN gpu copy_float
    step gpu-copy-json $BIN gpu copy_float --json
    step gpu-transpose-counters $BIN gpu transpose_naive --counters
    step gpu-bigcopy $BIN gpu copy_float -D N=67108864 --no-verify
    step check-few $BIN check copy_float transpose_naive transpose_padded copy_float4
    step check-json $BIN check copy_char --json
    step no-driver env WARPSCOPE_LIBCUDA=/nonexistent $BIN gpu copy_float
    step sanitizer compute-sanitizer --tool memcheck $BIN gpu copy_float --reps 2 --no-verify
    ;;
catalog)
    [ -x $BIN ] || step make make -j16 BUILD=build
    step check-all env STAGE=catalog sh scripts/gpu-test.sh
    mkdir -p "$OUT/results" && cp results/* "$OUT/results/" 2>/dev/null
    ;;
bandwidth)
    [ -x $BIN ] || step make make -j16 BUILD=build
    step bandwidth env STAGE=bandwidth sh scripts/gpu-test.sh
    mkdir -p "$OUT/results" && cp results/* "$OUT/results/" 2>/dev/null
    ;;
*)
    echo "unknown stage '$STAGE' (env | build | quick | catalog | bandwidth)"
    exit 1
    ;;
esac
echo "stage $STAGE done at $(date -u +%FT%TZ)"
