#!/bin/sh
# gpu-corpus.sh - issue 24's corpus of public tensor-core kernels (corpus/MANIFEST.tsv) on the GPU
# present: every kernel through `warpscope check --record` (outputs against the simulator, ncu's
# exact counters against the simulator's), one kernel at a time, each limited to CHECK_TIMEOUT
# seconds, no new kernel started TOTAL seconds after the start (the build included), so the whole run
# takes at most TOTAL + CHECK_TIMEOUT seconds: 490 s by default, one 10-minute device call. The
# 2026-12-02 run took 273 s for 36 kernels (3-21 s each) and skipped the last 3 at TOTAL=270; all 39
# need ~300 s beside a build of ~1 minute.
# corpus/ is ignored by git (third-party code): build it here with scripts/corpus-build.sh and carry
# it to the GPU machine (the device run's carry list: corpus, .device-carry).
# Writes into $OUT (default ./out-corpus): env.txt (GPU, driver, nvcc, ncu, date, commit),
# build.log, check.log (every check's report and exit code), summary.tsv (kernel, repository, exit,
# seconds; exit 0 agrees, 3 a counter or output differs, 124 over CHECK_TIMEOUT, skipped: TOTAL
# reached), corpus-results.tar.gz (results/<gpu>.json and .md that --record keeps).
# Environment: OUT, WS_BIN (default build/warpscope; built here when missing), CHECK_TIMEOUT
# (default 40), TOTAL (default 450), CHECK_ARGS (more check options for every kernel: e.g.
# "--gpu-only --realistic --reps 10" records each at its manifest `realistic` size on time alone, not
# simulated, as scripts/gpu-realistic.sh does the catalog; "--no-sim --realistic --reps 10" records the
# time and ncu's counters there, not simulated: `check --replay`/`--validate` simulate those runs on a
# sample of their blocks and judge every counter. ncu replays the kernel once per pass, so a 2048^3
# GEMM under ncu takes longer than its timed runs: raise CHECK_TIMEOUT if rows end 124). Arguments:
# kernel names to run only those (default: all).
# Rows marked skipped (TOTAL reached): run again with their names, into another OUT.
# Exit status: 0 all agree, 3 something differs or failed, 4 no GPU, 5 build failed, 2 no corpus.
# Run from the repository root: OUT=/some/dir sh scripts/gpu-corpus.sh
set -u
OUT=${OUT:-out-corpus}
BIN=${WS_BIN:-build/warpscope}
TO=${CHECK_TIMEOUT:-40}
TOTAL=${TOTAL:-450}
MAN=corpus/MANIFEST.tsv
mkdir -p "$OUT/results"
start=$(date +%s)
if [ ! -f "$MAN" ] || [ ! -d corpus/NVIDIA+cuda-samples ]; then
    echo "gpu-corpus: corpus/ not built: run scripts/corpus-build.sh here and carry corpus" >&2; exit 2
fi
{
    echo "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "host: $(uname -n)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || true
    command -v nvcc > /dev/null && nvcc --version 2>&1 | tail -1
    command -v ncu > /dev/null && ncu --version 2>&1 | tail -1
} > "$OUT/env.txt"
: > "$OUT/build.log"
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope >> "$OUT/build.log" 2>&1 || {
        echo "gpu-corpus: build failed, see $OUT/build.log" >&2; exit 5; }
fi
tab=$(printf '\t')
worst=0
: > "$OUT/check.log"
printf 'kernel\trepository\texit\tseconds\n' > "$OUT/summary.tsv"
while IFS="$tab" read -r kind repo _commit path name _rest; do
    [ "$kind" = kernel ] || continue
    if [ $# -gt 0 ]; then
        want=0; for a in "$@"; do [ "$a" = "$name" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    now=$(date +%s)
    if [ $((now - start)) -ge "$TOTAL" ]; then
        printf '%s\t%s\tskipped\t0\n' "$name" "$repo" >> "$OUT/summary.tsv"; worst=3; continue
    fi
    w="corpus/$(printf '%s' "$repo" | tr / +)/$(dirname "$path")/ws_$name.cu"
    echo "+ $BIN check ${CHECK_ARGS:-} --record $OUT/results/ $w:$name" >> "$OUT/check.log"
    # shellcheck disable=SC2086 # one option per word of CHECK_ARGS
    timeout "$TO" "$BIN" check ${CHECK_ARGS:-} --record "$OUT/results/" "$w:$name" >> "$OUT/check.log" 2>&1 < /dev/null
    rc=$?
    echo "exit $rc: $name" >> "$OUT/check.log"
    printf '%s\t%s\t%s\t%s\n' "$name" "$repo" "$rc" "$(( $(date +%s) - now ))" >> "$OUT/summary.tsv"
    [ $rc = 4 ] && { echo "gpu-corpus: no usable GPU (exit 4), see $OUT/check.log" >&2; exit 4; }
    [ $rc != 0 ] && worst=3
done < "$MAN"
tar -czf "$OUT/corpus-results.tar.gz" -C "$OUT" results && rm -rf "$OUT/results"
# with --gpu-only or --no-sim nothing is judged here: exit 0 is a run recorded, not one that agrees
case " ${CHECK_ARGS:-} " in *" --gpu-only "*|*" --no-sim "*) ok="recorded (judged later by check --validate)" ;; *) ok=agree ;; esac
echo "gpu-corpus: $(awk -F'\t' 'NR > 1 && $3 == 0' "$OUT/summary.tsv" | wc -l) $ok of $(($(wc -l < "$OUT/summary.tsv") - 1)); see $OUT/summary.tsv"
exit $worst
