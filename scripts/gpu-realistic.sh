#!/bin/sh
# gpu-realistic.sh - the catalog at its realistic sizes (each description's `realistic` line:
# beyond 4x the 60 MiB L2, or its stated class, docs/description-format.md) beside its default
# sizes, on the GPU present, in one run of at most ~6 minutes (BUDGET_S, default 360 s).
# Stages (STAGES, default "realistic predict default"; any subset, always in this order):
#   realistic  `check --gpu-only --realistic --record $OUT/results/ --reps 10` over the
#              catalog, a file at a time: GPU time and bandwidth only. No simulation (a 4096^3
#              GEMM or 2^25 threads fully interpreted takes far past the budget) and no ncu
#              (--gpu-only implies --no-counters: ncu's replay passes at 256 MiB+ working sets
#              would take the stage's minutes), so these runs are judged on time.
#   predict    `sim --realistic --sample -j 4 --csv` per kernel, 4 at a time (the sampler runs
#              the first waves and scales, sim/sample.h), each under `timeout` (PREDICT_S, default
#              20 s: a kernel that does not finish, e.g. a naive 4096^3 GEMM's first wave, is logged
#              and left out), into $OUT/predictions.csv:
#              kernel,size,sizes,predicted_us; the default sizes first (size "default",
#              sampled only where the sampler chooses), then size "realistic"
#   default    `check --no-counters --record $OUT/results/` over the catalog at default sizes
#              (simulated in full, outputs compared, GPU time): the default-size counters are
#              in results/h200.json already (ncu left out here for time; NCU_DEFAULT=1 keeps it)
# Writes $OUT/env.txt (GPU, driver, nvcc, ncu, date), $OUT/log.txt, $OUT/predictions.csv and
# $OUT/results.tar (results/<gpu>.json and its check --markdown .md): 4 files.
# warpscope is built here (make with the carried cJSON, scripts/gpu-carry.sh) unless WS_BIN names one.
# The lead runs it from the repository root: OUT=dir sh scripts/gpu-realistic.sh; the results
# then go to results/h200-realistic/ (scripts/update-readme.sh reads predictions.csv there).
set -u
OUT=${OUT:-out-realistic}
BUDGET=${BUDGET_S:-360}
PREDICT_S=${PREDICT_S:-20}
START=$(date +%s)
mkdir -p "$OUT/results" || exit 1
LOG=$OUT/log.txt
: > "$LOG"
PATH=$PATH:/usr/local/cuda/bin
export PATH
NCU=${NCU:-ncu}
JOBS=$(nproc 2>/dev/null || echo 16)
[ "$JOBS" -gt 16 ] && JOBS=16

STAGES=${STAGES:-realistic predict default}
want() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
left() { echo $((START + BUDGET - $(date +%s))); }
say() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - START)) s) $*" >> "$LOG"; }
lim() {   # lim SECONDS: at most SECONDS and never past the budget (10 s kept for the tar)
    l=$(($(left) - 10))
    [ "$1" -lt "$l" ] && l=$1
    [ "$l" -lt 1 ] && l=1
    echo "$l"
}

{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "git: $(git rev-parse --short HEAD 2>/dev/null) $(git rev-parse --abbrev-ref HEAD 2>/dev/null)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,persistence_mode --format=csv,noheader 2>&1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
    echo "ncu: $("$NCU" --version 2>&1 | tail -1)"
    echo "stages: $STAGES; budget ${BUDGET} s; make -j $JOBS; predictions 4 sims of -j 4 at a time"
} > "$OUT/env.txt"

WS=${WS_BIN:-build/warpscope}
if [ -z "${WS_BIN:-}" ]; then
    say "make build/warpscope"
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"
    # shellcheck disable=SC2086
    timeout "$(lim 150)" make -j"$JOBS" $cj CFLAGS=-Wno-error build/warpscope >> "$LOG" 2>&1
    say "make exit $?"
fi
[ -x "$WS" ] || { say "no warpscope: nothing to run"; exit 1; }

names() { sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$1"; }

# ---- 1. every catalog kernel at its realistic size: GPU time (a check per file: a timeout loses one file)
if want realistic; then
    for f in demos/*.cu; do
        [ "$(left)" -gt 30 ] || { say "realistic: out of time before $f"; break; }
        say "check --gpu-only --realistic $f"
        # shellcheck disable=SC2046 # one argument per kernel name
        timeout "$(lim 90)" "$WS" check --gpu-only --realistic --reps 10 --record "$OUT/results/" \
            $(names "$f") >> "$LOG" 2>&1
        say "check exit $?"
    done
fi

# ---- 2. the simulator's predicted time at both sizes: 4 sims at a time, -j 4 each (16 cores)
predict_one() {   # predict_one SIZE KERNEL: its row of predictions.csv into $TMP/p.SIZE.KERNEL
    how=""; [ "$1" = realistic ] && how="--realistic --sample"
    # shellcheck disable=SC2086 # the two option words
    timeout "$(lim "$PREDICT_S")" "$WS" sim $how -j 4 --csv "$2" > "$TMP/s.$1.$2" 2>> "$TMP/e.$1.$2"
    rc=$?
    [ $rc -eq 0 ] || echo "predict: sim ($1) $2 exit $rc" >> "$TMP/e.$1.$2"
    # the predicted time row (ws__predicted_time_us, basis model; docs/csv.md); the -D text is the variant column
    awk -F, -v k="$2" -v s="$1" '$1 == k && $5 == "ws__predicted_time_us" && $8 == "model" {
            print k "," s "," $2 "," $7; exit }' "$TMP/s.$1.$2" > "$TMP/p.$1.$2"
}
if want predict; then
    TMP=$(mktemp -d) || exit 1
    echo "kernel,size,sizes,predicted_us" > "$OUT/predictions.csv"
    all=$(for f in demos/*.cu; do names "$f"; done)
    for size in default realistic; do   # the quick default sizes first
        n=0
        for k in $all; do
            [ "$(left)" -gt 20 ] || { say "predict: out of time before $size $k"; break; }
            predict_one "$size" "$k" &
            n=$((n + 1))
            [ $((n % 4)) -eq 0 ] && wait
        done
        wait
        for k in $all; do
            [ -f "$TMP/p.$size.$k" ] && cat "$TMP/p.$size.$k" >> "$OUT/predictions.csv"
            [ -f "$TMP/e.$size.$k" ] && cat "$TMP/e.$size.$k" >> "$LOG"
        done
        say "predict: $size done"
    done
    rm -rf "$TMP"
    say "predict: $(($(wc -l < "$OUT/predictions.csv") - 1)) predictions"
fi

# ---- 3. the catalog at default sizes: simulated, outputs compared, GPU time (counters: NCU_DEFAULT=1)
if want default; then
    nc=--no-counters; [ "${NCU_DEFAULT:-0}" = 1 ] && nc=""
    for f in demos/*.cu; do
        [ "$(left)" -gt 30 ] || { say "default: out of time before $f"; break; }
        say "check $nc $f"
        # shellcheck disable=SC2046,SC2086
        timeout "$(lim 120)" "$WS" check $nc --record "$OUT/results/" $(names "$f") >> "$LOG" 2>&1
        say "check exit $?"
    done
fi

for j in "$OUT"/results/*.json; do
    [ -f "$j" ] && "$WS" check --markdown "$j" > "${j%.json}.md" 2>> "$LOG"
done
tar -C "$OUT" -cf "$OUT/results.tar" results && rm -rf "$OUT/results"
say "done"
exit 0
