#!/bin/sh
# gpu-subbyte.sh - the sub-byte mma.sync forms (tests/gpu/subbyte_mma.cu: s4/u4 m8n8k32,
# m16n8k32, m16n8k64; b1 m8n8k128, m16n8k128, m16n8k256 with .and.popc / .xor.popc; the wmma
# m8n8k32 s4/u4 and m8n8k128 b1 forms) through
# `warpscope check` on the GPU present: each output against the simulator's bit for bit (random
# fragments: the fragment layouts and the sums both decide it), and its exact counters.
# Writes $OUT/subbyte.log (default ./out-subbyte) and $OUT/results/<gpu>.json (check --record).
# Exit status: the worst check exit code (0 all agree, 3 an output or counter differs, 4 no GPU).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-subbyte.sh   (about a minute)
set -u
OUT=${OUT:-out-subbyte}
BIN=${WS_BIN:-build/warpscope}
mkdir -p "$OUT/results"
worst=0
: > "$OUT/subbyte.log"
for kf in subbyte_mma:0 subbyte_mma:1 subbyte_mma:2 subbyte_mma:3 subbyte_mma:4 subbyte_mma:5 subbyte_mma:6 \
          subbyte_mma:7 wmma_subbyte:0 wmma_subbyte:1 wmma_subbyte:2 wmma_subbyte:3; do
    k=${kf%:*} f=${kf#*:}
    echo "+ $BIN check --record $OUT/results/ -D FORM=$f tests/gpu/subbyte_mma.cu:$k" >> "$OUT/subbyte.log"
    "$BIN" check --record "$OUT/results/" -D FORM="$f" tests/gpu/subbyte_mma.cu:"$k" >> "$OUT/subbyte.log" 2>&1
    rc=$?
    echo "exit $rc: $k FORM=$f" >> "$OUT/subbyte.log"
    [ $rc = 4 ] && { echo "gpu-subbyte: no usable GPU (exit 4), see $OUT/subbyte.log" >&2; exit 4; }
    [ $rc -gt $worst ] && worst=$rc
done
echo "gpu-subbyte: worst check exit $worst; see $OUT/subbyte.log" >&2
exit "$worst"
