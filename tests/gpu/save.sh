#!/bin/sh
# save.sh - `--save DIR` on the GPU present (issue 26): the GPU's buffers written by the writer
# `sim --save` uses (common/save.c), checked against the simulator's and, where python3-numpy is
# installed, read by NumPy itself (tests/npy_check.py: numpy.load, numpy.save's bytes, hashlib's
# SHA-256, y = 2x + y from SplitMix64's inputs). Also shows check's listing of an output that
# differs (the planted race: whether the GPU's output differs depends on the scheduling).
# Usage, from the repository root on a GPU machine:
#   OUT=/tmp/save sh tests/gpu/save.sh
# Writes $OUT/summary.txt, $OUT/env.txt and $OUT/save.tar.gz (every log and saved folder).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-out-save}
mkdir -p "$OUT"
W="$OUT/work"
rm -rf "$W"; mkdir -p "$W"
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "python3: $(python3 -c 'import numpy; print("numpy", numpy.__version__)' 2>&1 | tail -1)"
    echo "git: $(git describe --always --dirty 2>/dev/null)"
} > "$OUT/env.txt"
if [ -n "${CJSON_DIR:-}" ]; then mk="make CJSON_DIR=$CJSON_DIR CFLAGS=-Wno-error"; else mk="make"; fi
$mk -j"$(nproc 2>/dev/null || echo 2)" build/warpscope > "$W/build.log" 2>&1 || { echo "save: build failed" | tee "$OUT/summary.txt"; exit 5; }
WS=build/warpscope
status=0
: > "$OUT/summary.txt"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
have_numpy=no
python3 -c 'import numpy' 2>/dev/null && have_numpy=yes
[ $have_numpy = yes ] || say "NOTE: python3-numpy is missing here: the NumPy reads below are NOT done (sha256 and cmp only)"

# 1. gpu --save: the GPU's saxpy, read by NumPy, and the same bytes as sim --save's
"$WS" gpu saxpy_block256 -D N=1000 --reps 2 --save "$W/gpu-saxpy" --save-inputs > "$W/gpu-saxpy.log" 2>&1
say "gpu --save saxpy_block256: rc=$? ($(ls "$W/gpu-saxpy" 2>/dev/null | tr '\n' ' '))"
"$WS" sim saxpy_block256 -D N=1000 --save "$W/sim-saxpy" --save-inputs > "$W/sim-saxpy.log" 2>&1
for f in x.in.npy y.in.npy y.npy; do
    if cmp -s "$W/gpu-saxpy/$f" "$W/sim-saxpy/$f"; then say "  $f: GPU and simulator files identical"
    else say "  $f: GPU and simulator files DIFFER"; status=1; fi
done
if [ $have_numpy = yes ]; then
    python3 tests/npy_check.py "$W/gpu-saxpy" 1000 gpu > "$W/npy-gpu.log" 2>&1
    rc=$?; say "  npy_check (NumPy) on the GPU's save: rc=$rc $(tail -1 "$W/npy-gpu.log")"; [ $rc = 0 ] || status=1
fi

# 2. check --save: both sides of two kernels, a folder each; outputs agree, so the files are equal
"$WS" check copy_float transpose_naive --no-counters --reps 2 --save "$W/chk" > "$W/check.log" 2>&1
say "check --save copy_float transpose_naive: rc=$?"
for k in copy_float transpose_naive; do
    if cmp -s "$W/chk/$k/sim/out.npy" "$W/chk/$k/gpu/out.npy"; then say "  $k: sim/out.npy = gpu/out.npy"
    else say "  $k: sim/out.npy and gpu/out.npy DIFFER (or missing)"; status=1; fi
    grep -q '"computed_by":[[:space:]]*"gpu"' "$W/chk/$k/gpu/manifest.json" || { say "  $k: gpu/manifest.json does not say gpu"; status=1; }
done

# 3. one kernel: DIR/sim and DIR/gpu directly; the planted race may differ on the GPU
"$WS" check tests/data/planted/missing_sync_transpose.cu --no-counters --reps 2 --save "$W/race" > "$W/race.log" 2>&1
rc=$?
say "check --save missing_sync_transpose: rc=$rc (3 = the output differs); listing: $(grep -c 'scalars differ' "$W/race.log") buffer(s)"
grep -A9 'scalars differ' "$W/race.log" | head -10 | sed 's/^/  /' | tee -a "$OUT/summary.txt"
[ -f "$W/race/sim/manifest.json" ] && [ -f "$W/race/gpu/manifest.json" ] || { say "  race: sim/ or gpu/ missing"; status=1; }

tar -czf "$OUT/save.tar.gz" -C "$OUT" work && rm -rf "$W"
say "save: $( [ $status = 0 ] && echo all checks passed || echo SOME CHECKS FAILED ); logs and folders in $OUT/save.tar.gz"
exit $status
