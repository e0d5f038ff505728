#!/bin/sh
# gpu-verdicts.sh - the issue-23 measurements on the GPU present, in one run of at most ~8 minutes.
# Stages (STAGES, default "probe ncu pairs families"; any subset, always in this order):
#   probe     tests/gpu/contention_probe.cu built with nvcc and run: $OUT/contention.csv (atomic
#             contention, histograms, block launch rate; the probe's header says what each column is)
#   ncu       ncu (--clock-control none: clocks are never changed) on 15 probe configurations, for the
#             atomic counters: $OUT/contention-ncu.csv (ncu's CSV, a "config" column first)
#   pairs     every lesson pair of demos/pairs.txt timed with `warpscope check --gpu-only --record` at
#             sizes beyond the 60 MiB L2 (scripts/pair-sizes.awk chooses the -D per kernel)
#   families  `warpscope check --record` on demos/histogram.cu and demos/atomics.cu at their defaults
# pairs and families need `make build/warpscope` to succeed here (it needs libcjson-dev, or the
# cJSON scripts/gpu-carry.sh unpacks into .device-carry, carried to the GPU machine); both
# record into $OUT/results/<gpu>.json, rendered as $OUT/results/<gpu>.md.
# Also $OUT/env.txt (GPU, driver, nvcc, ncu, date), $OUT/log.txt (every command, its output, the
# pairs' sizes) and $OUT/sass.txt (the probe's atomic SASS, when cuobjdump is found): 7 files at most.
# Time: nvcc ~30 s; the probe 84 configurations of 12-14 launches each, the slowest (one address,
# 2^22 lanes; the 2^26-byte skewed histogram) some 10-40 ms a launch: well under its 150 s limit; ncu
# ~2-10 s per configuration (2 s each on the H200 run of 2026-12-01), none started after 150 s;
# make ~1 min on 16 cores; the pairs (about 75 kernel runs in 22 checks of a few seconds each) and
# the families (15 kernels, simulated and profiled) take what is left.
# No part stops the others: each runs under `timeout` within what is left of BUDGET_S (default 450 s)
# and its failure is logged. Exit status: 0, or 1 when the probe stage ran and wrote no CSV.
# Environment: OUT (default out-verdicts), BUDGET_S, STAGES, NVCC (default nvcc, with
# /usr/local/cuda/bin on PATH), NCU (default ncu), WS_BIN (a warpscope to use instead of building
# one). From the repository root: OUT=/some/dir sh scripts/gpu-verdicts.sh
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

STAGES=${STAGES:-probe ncu pairs families}
want() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
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
if want probe || want ncu; then
say "build the probe"
timeout "$(lim 120)" "$NVCC" -O3 -arch=sm_90 -o "$TMP/probe" tests/gpu/contention_probe.cu >> "$LOG" 2>&1
say "nvcc exit $?"
if [ -x "$TMP/probe" ]; then
    if command -v cuobjdump > /dev/null 2>&1; then
        # which SASS each kernel's atomics became (RED or ATOM, any compiler warp aggregation)
        cuobjdump -sass "$TMP/probe" 2>> "$LOG" |
            grep -E 'Function :|ATOM|RED|MATCH|VOTE|POPC|FLO|CAS' > "$OUT/sass.txt"
    fi
    if want probe; then
        say "run the probe"
        timeout "$(lim 150)" "$TMP/probe" > "$OUT/contention.csv" 2>> "$LOG"
        rc=$?
        say "probe exit $rc ($(grep -c ',flushed,' "$OUT/contention.csv") configurations)"
    fi
else
    say "no probe binary: skipping the probe and ncu"
fi
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
want ncu && : > "$OUT/contention-ncu.csv"
if want ncu && [ -x "$TMP/probe" ] && command -v "$NCU" > /dev/null 2>&1; then
    hdr=0
    for c in $NCU_CFGS; do
        # ncu stops at 150 s from the start, leaving the rest to the warpscope stages
        [ $(($(date +%s) - START)) -lt 150 ] || { say "ncu: out of time before $c"; break; }
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
    want ncu && say "ncu: not found or no probe; skipped"
fi

# ---- 3. warpscope: built when a stage needs it (without cJSON both are skipped)
WS=${WS_BIN:-build/warpscope}
if [ -z "${WS_BIN:-}" ] && { want pairs || want families; }; then
    say "make build/warpscope"
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    timeout "$(lim 150)" make -j"$(nproc 2>/dev/null || echo 8)" $cj CFLAGS=-Wno-error build/warpscope >> "$LOG" 2>&1
    say "make exit $?"
fi
[ -x "$WS" ] && mkdir -p "$OUT/results"

# ---- 4. every lesson pair of demos/pairs.txt, GPU time only, at sizes beyond the L2
# (scripts/pair-sizes.awk picks the -D per kernel); kernels sharing one -D are timed by one check
# of at most 4 kernels (check records at its end: a timeout loses one group, not the stage).
if want pairs && [ -x "$WS" ] && [ -f demos/pairs.txt ]; then
    : > "$TMP/runs"
    grep -v '^[[:space:]]*#' demos/pairs.txt | while read -r a b sz lesson; do
        [ -n "$a" ] || continue
        if ! awk -f scripts/pair-sizes.awk -v A="$a" -v B="$b" -v SIZES="$sz" demos/*.cu > "$TMP/pd" 2>> "$LOG"; then
            say "pairs: $a $b: no sizes (above)"
            continue
        fi
        da=$(sed -n 1p "$TMP/pd")
        db=$(sed -n 2p "$TMP/pd")
        case "$da $db" in *[!-A-Za-z0-9_=\ ]*) say "pairs: $a $b: odd sizes '$da' '$db'"; continue ;; esac
        echo "pair: $a [$da] vs $b [$db]: $lesson" >> "$LOG"
        printf '%s|%s\n' "$da" "$a" "$db" "$b" >> "$TMP/runs"
    done
    # unique runs, grouped by -D in the order pairs.txt first needs them (the first pairs are
    # the ones issue 23 is about), at most 4 kernels a group
    awk -F'|' '!seen[$0]++ {
            if (!($1 in n)) { order[++nd] = $1; n[$1] = 0 }
            g = int(n[$1] / 4); n[$1]++
            ks[$1, g] = ks[$1, g] " " $2; runs++
        }
        END {
            for (i = 1; i <= nd; i++)
                for (g = 0; g * 4 < n[order[i]]; g++) print order[i] "|" ks[order[i], g]
        }' "$TMP/runs" > "$TMP/groups"
    say "pairs: $(sort -u "$TMP/runs" | wc -l) kernel runs in $(wc -l < "$TMP/groups") checks"
    while IFS='|' read -r d ks; do
        [ "$(left)" -gt 20 ] || { say "pairs: out of time before$ks"; break; }
        say "check --gpu-only $d$ks"
        # shellcheck disable=SC2086 # the -D words and kernel names, one argument each
        timeout "$(lim 90)" "$WS" check --gpu-only --reps 10 --record "$OUT/results/" $d $ks >> "$LOG" 2>&1
        say "check exit $?"
    done < "$TMP/groups"
fi

# ---- 5. the contention families at their default sizes: outputs, every counter, time
fams=""
for f in demos/histogram.cu demos/atomics.cu; do [ -f "$f" ] && fams="$fams $f"; done
if want families && [ -n "$fams" ] && [ -x "$WS" ]; then
    for f in $fams; do
        names=$(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f")
        [ "$(left)" -gt 30 ] || { say "families: out of time before $f"; break; }
        say "check --record $f"
        # shellcheck disable=SC2086 # one argument per kernel name
        timeout "$(lim 200)" "$WS" check --record "$OUT/results/" $names >> "$LOG" 2>&1
        say "check exit $?"
    done
else
    want families && say "families: skipped (no contention family, or build/warpscope did not build)"
fi
for j in "$OUT"/results/*.json; do
    [ -f "$j" ] && [ -x "$WS" ] && "$WS" check --markdown "$j" > "${j%.json}.md" 2>> "$LOG"
done

say "done"
if want probe; then [ -s "$OUT/contention.csv" ] || exit 1; fi
exit 0
