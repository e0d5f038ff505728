#!/bin/sh
# gpu-ldgsts3.sh - on the H200: the cp.async (LDGSTS) probes of tests/data/tensor/ldgsts_rule.cu and
# tests/data/tensor/ldgsts_rule3.cu (a shared destination 16 B off a 32-B block, a rotated tile, a
# sector's lanes split 256 B apart; .cg and .ca), to test the LDGSTS shared-wavefront and .cg
# re-requested-sector rule of docs/sass.md "LDGSTS: shared wavefronts and global sectors" on patterns
# it was not fitted on. 19 checks of a few seconds each, about a minute and a half after the build.
# Writes what scripts/gpu-ldgsts-rule.sh writes into $OUT (default ./out-ldgsts3).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-ldgsts3.sh
OUT=${OUT:-out-ldgsts3} SRCS="tests/data/tensor/ldgsts_rule.cu tests/data/tensor/ldgsts_rule3.cu" \
    exec sh "$(dirname "$0")/gpu-ldgsts-rule.sh"
