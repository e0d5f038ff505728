#!/bin/sh
# gpu-verdicts.sh - the issue-23 measurements on the GPU present, in one run of at most ~8 minutes:
#   1. tests/gpu/contention_probe.cu built with nvcc and run: $OUT/contention.csv (atomic contention,
#      histograms, block launch rate; the probe's header comment says what each column means);
#   2. ncu (--clock-control none: the clocks are never changed) on chosen probe configurations, for the
#      atomic counters: $OUT/contention-ncu.csv (ncu's CSV, one row per metric, a "config" column first);
#   3. where `make build/warpscope` succeeds here (it needs libcjson-dev): `warpscope check --record` on
#      the contention families demos/histogram.cu and demos/atomics.cu where they exist:
#      $OUT/results/<gpu>.json and .md.
# Also $OUT/env.txt (GPU, driver, nvcc, ncu, date) and $OUT/log.txt (every command and its output);
# $OUT/sass.txt (the probe's atomic SASS, when cuobjdump is found). At most 8 files in all.
# Time: nvcc ~30 s; the probe ~84 configurations of 12-14 launches each, the slowest (one address,
# 2^22 lanes; the 2^26-byte skewed histogram) some 10-40 ms a launch: well under its 150 s limit; ncu
# ~5-10 s per configuration (15, stopped when 200 s are left); make ~1-2 min; check the rest.
# No part stops the others: each runs under `timeout` within what is left of BUDGET_S (default 450 s)
# and its failure is logged. Exit status: 0, or 1 when the probe did not produce its CSV.
# Environment: OUT (default out-verdicts), BUDGET_S, NVCC (default nvcc, else /usr/local/cuda/bin/nvcc),
# NCU (default ncu). Run from the repository root: OUT=/some/dir sh scripts/gpu-verdicts.sh
set -u
OUT=${OUT:-out-verdicts}
BUDGET=${BUDGET_S:-450}
START=$(date +%s)
mkdir -p "$OUT" || exit 1
LOG=$OUT/log.txt
: > "$LOG"
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
PATH=$PATH:/usr/local/cuda/bin
export PATH
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}

left() { echo $((START + BUDGET - $(date +%s))); }
say() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - START)) s) $*" >> "$LOG"; }
# lim SECONDS: at most SECONDS, and never past the budget (keeps 5 s for the last steps)
lim() {
    l=$(($(left) - 5))
    [ "$1" -lt "$l" ] && l=$1
    [ "$l" -lt 1 ] && l=1
    echo "$l"
}

{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $("$NVCC" --version 2>&1 | tail -1)"
    echo "ncu: $("$NCU" --version 2>&1 | tail -1)"
} > "$OUT/env.txt"

# ---- 1. the probe
say "build the probe"
timeout "$(lim 120)" "$NVCC" -O3 -arch=sm_90 -o "$TMP/probe" tests/gpu/contention_probe.cu >> "$LOG" 2>&1
say "nvcc exit $?"
if [ -x "$TMP/probe" ]; then
    if command -v cuobjdump > /dev/null 2>&1; then
        # which SASS each kernel's atomics became (RED or ATOM, any compiler warp aggregation)
        cuobjdump -sass "$TMP/probe" 2>> "$LOG" |
            grep -E 'Function :|ATOM|RED|MATCH|VOTE|POPC|FLO|CAS' > "$OUT/sass.txt"
    fi
    say "run the probe"
    timeout "$(lim 150)" "$TMP/probe" > "$OUT/contention.csv" 2>> "$LOG"
    rc=$?
    say "probe exit $rc ($(grep -c ',flushed,' "$OUT/contention.csv") configurations)"
else
    say "no probe binary: skipping the probe and ncu"
fi

# ---- 2. ncu on chosen configurations (fixed at 2^22 threads so counts do not depend on timing)
# Every metric below is in /work/shared/reference/ncu-metrics-gh100.txt (gh100, ncu 2025.3.1).
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second
METRICS=$METRICS,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum
METRICS=$METRICS,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
METRICS=$METRICS,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
METRICS=$METRICS,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum
METRICS=$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
METRICS=$METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
METRICS=$METRICS,smsp__inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_atom.sum
NCU_CFGS="g_one_red g_one_literal_red g_one_atom g_lane32_red g_hash256_red g_distinct4B_red
g_distinct32B_red g_cas_max s_block s_lane32 s_onebank32
hist_naive_uniform_2^24 hist_private_uniform_2^24 hist_warpagg_uniform_2^24 hist_naive_skew_2^24"
: > "$OUT/contention-ncu.csv"
if [ -x "$TMP/probe" ] && command -v "$NCU" > /dev/null 2>&1; then
    hdr=0
    for c in $NCU_CFGS; do
        [ "$(left)" -gt 200 ] || { say "ncu: out of time before $c"; break; }
        say "ncu $c"
        rm -f "$TMP/ncu.csv"
        # only the measured kernel: not the fills, checks or memsets around it
        timeout "$(lim 60)" "$NCU" --csv --print-units base --clock-control none --metrics "$METRICS" \
            --kernel-name 'regex:^k_(global|one_literal|cas_max|atomic_max|shared|hist_)' \
            --log-file "$TMP/ncu.csv" "$TMP/probe" --only "$c" --threads 4194304 --reps 1 --warmup 0 \
            > "$TMP/ncu.out" 2>&1
        say "ncu exit $?"
        cat "$TMP/ncu.out" >> "$LOG"
        [ -f "$TMP/ncu.csv" ] || continue
        grep -v '^==' "$TMP/ncu.csv" | awk -v c="$c" -v h="$hdr" '
            /^"ID"/ { if (h == 0) print "\"config\"," $0; next }
            /^"/ { print "\"" c "\"," $0 }' >> "$OUT/contention-ncu.csv"
        hdr=1
    done
else
    say "ncu: not found or no probe; skipped"
fi

# ---- 3. warpscope check on the contention families
fams=""
for f in demos/histogram.cu demos/atomics.cu; do [ -f "$f" ] && fams="$fams $f"; done
if [ -n "$fams" ]; then
    say "make build/warpscope"
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    timeout "$(lim 150)" make -j"$(nproc 2>/dev/null || echo 8)" $cj build/warpscope >> "$LOG" 2>&1
    say "make exit $?"
fi
if [ -n "$fams" ] && [ -x build/warpscope ]; then
    mkdir -p "$OUT/results"
    for f in $fams; do
        names=$(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f")
        [ "$(left)" -gt 30 ] || { say "check: out of time before $f"; break; }
        say "check --record $f"
        # shellcheck disable=SC2086 # one argument per kernel name
        timeout "$(lim 200)" build/warpscope check --record "$OUT/results/" $names >> "$LOG" 2>&1
        say "check exit $?"
    done
    for j in "$OUT"/results/*.json; do
        [ -f "$j" ] && build/warpscope check --markdown "$j" > "${j%.json}.md" 2>> "$LOG"
    done
else
    say "warpscope check skipped (no contention family, or build/warpscope did not build)"
fi

say "done"
[ -s "$OUT/contention.csv" ] || exit 1
exit 0
