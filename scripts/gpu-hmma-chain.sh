#!/bin/sh
# gpu-hmma-chain.sh - on the H200: records chains of tensor-core multiply-accumulates (D of one step
# the C of the next, every step's D kept) for the inputs of tests/gpu/hmma_chain_probe.cu: f16 into
# f16 (m16n8k16, m16n8k8; the corpus's f16-accumulator GEMMs still differ after the one-mma rule of
# results/h200-hmma-rule), f16 and bf16 into f32 (m16n8k16, the control), tf32 with low 13 operand
# bits set (mma.sync m16n8k8, m16n8k4) and wmma m16n16k8 tf32 in both layouts (the cuda-samples form
# that differs almost everywhere). Each kernel runs once through `warpscope gpu --save` (no
# verification here: the same file runs through `warpscope sim --save` on the CPU, and
# scripts/hmma-chain-fit.py compares). The inputs are made in the kernel from hashes, so only D and
# the manifest (which holds the sha256 of the A, B and C0 records, for the fitter to check that the
# simulator made the same inputs) come back.
# Writes into $OUT (default build/gpu-hmma-chain): env.txt, log.txt, hmma-chain-f16.tar.gz
# (chain_f16_k16, chain_f16_k8), hmma-chain-rest.tar.gz (the other six): <kernel>/D.npy and
# <kernel>/manifest.json each. About a minute (the build included). Exit 0 recorded, 1 no warpscope,
# 4 a kernel failed on the GPU.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-hmma-chain.sh
set -u
NAME=gpu-hmma-chain DEFAULT_BUDGET=200
. scripts/gpu-prelude.sh
PROBE=tests/gpu/hmma_chain_probe.cu
F16="chain_f16_k16 chain_f16_k8"
REST="chain_f16f32_k16 chain_bf16_k16 chain_tf32_k8 chain_tf32_k4 chain_wmma_tf32_rc chain_wmma_tf32_cr"
SAVE=$OUT/save
rc=0
for k in $F16 $REST; do
    say "$k"
    mkdir -p "$SAVE/$k"
    if "$WS" gpu "$PROBE:$k" --no-verify --reps 1 --save "$SAVE/$k" >> "$LOG" 2>&1; then
        rm -f "$SAVE/$k/A.npy" "$SAVE/$k/B.npy" "$SAVE/$k/C0.npy"
    else
        say "$k failed"; rc=4
    fi
done
(cd "$SAVE" && tar czf ../hmma-chain-f16.tar.gz $F16 && tar czf ../hmma-chain-rest.tar.gz $REST) >> "$LOG" 2>&1
rm -rf "$SAVE"
say "done (exit $rc)"
ls -l "$OUT" >> "$LOG"
exit $rc
