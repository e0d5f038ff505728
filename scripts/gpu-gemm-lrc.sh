#!/bin/sh
# gpu-gemm-lrc.sh - how GEMM-shaped blocks fall out of step, and what that does to L2 read coalescing
# (issue 23: "requests coalesced in step"; tests/gpu/gemm_lrc_probe.cu says what it measures), in one
# run of ~3 minutes. Builds the probe with nvcc (no warpscope build); clocks are never changed.
# For each configuration "GX GY K WORK SMEM_KB [THREADS]" (THREADS 128 when left out): one launch that stamps every block's step starts
# (stamps.txt: the probe's summary line, steps.txt.gz: every block's SM and stamps), then one under
# ncu for the L2 and coalescer counters (ncu.csv).
# Files in $OUT: env.txt, log.txt, stamps.txt, steps.txt.gz, ncu.csv. Environment: OUT (default
# out-gemm-lrc), BUDGET_S (default 300), CONFIGS (";"-separated, default below), NVCC, NCU.
# From the repository root: OUT=/some/dir sh scripts/gpu-gemm-lrc.sh
set -u
NAME=gemm-lrc DEFAULT_BUDGET=300 PROBE=tests/gpu/gemm_lrc_probe.cu
. scripts/gpu-probe-prelude.sh

# one block per SM (150 KB) or many (8 KB); K and WORK swept at a fixed grid; a multi-wave grid
CONFIGS=${CONFIGS:-"8 8 64 256 150;16 16 64 256 8;32 32 16 256 8;32 32 64 256 8;32 32 256 256 8;32 32 64 0 8;32 32 64 2048 8;32 32 64 256 100;64 64 16 256 8;4 4 64 256 8;16 1 64 256 8"}
METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum
CSV=$OUT/ncu.csv
. scripts/gpu-ncu-rows.sh   # run CONFIG ARGS...
: > "$OUT/stamps.txt"
: > "$TMP/steps.txt"
echo "$CONFIGS" | tr ';' '\n' | while read -r cfg; do
    [ -n "$cfg" ] || continue
    if [ $(($(date +%s) - START)) -ge "$BUDGET" ]; then
        say "skipped $cfg (budget)"
        continue
    fi
    say "stamps $cfg"
    # shellcheck disable=SC2086
    set -- $cfg
    th=${6:-128}
    timeout 60 "$TMP/probe" "$1" "$2" "$3" "$4" "$5" "$TMP/one-steps.txt" "$th" >> "$OUT/stamps.txt" 2>> "$LOG"
    echo "rc=$? stamps $cfg" >> "$LOG"
    cat "$TMP/one-steps.txt" >> "$TMP/steps.txt" 2>/dev/null
    run "gemm_$1_$2_$3_$4_$5_$th" "$1" "$2" "$3" "$4" "$5" - "$th"
done
gzip -c "$TMP/steps.txt" > "$OUT/steps.txt.gz"
say "done"
