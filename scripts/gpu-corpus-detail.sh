#!/bin/sh
# gpu-corpus-detail.sh - the measurements `check --validate` names as missing for the corpus of
# public kernels (corpus/MANIFEST.tsv), on the GPU present, in one budgeted run:
#   sass-<k>.csv    ncu's source page per SASS instruction (SourceCounters: executed instructions,
#                   stall samples) for the kernels named in SASS_KERNELS: the model estimates each
#                   SASS line's executions from the PTX lines it came from; this is the GPU's count
#   stalls.csv      WarpStateStats, SchedulerStats, Occupancy and LaunchStats of the kernels in
#                   STALL_KERNELS (the time outliers)
#   lrc.csv         the L1 -> L2 read path of every corpus kernel: L1 misses, the L2 request
#                   coalescer's (LRC) sectors in and out and those it coalesced, L2 lookups, DRAM
#   repeats.csv     (REPEATS=N, N > 0) the same read path and sm__ctas_launched per SM (which SMs ran
#                   the blocks) of the kernels in REPEAT_KERNELS, each profiled N times, each time in a
#                   process of its own: whether a small grid's blocks coalesce changes from launch to
#                   launch (results/h200-corpus-tensor5 against lrc.csv: mma_direct 8,192 L2 read
#                   sectors, then 16,384); N runs say how often, and the SMs say where the blocks were
#                   (an entry path:name is a description outside the corpus, e.g. a catalog kernel;
#                   REPEAT_EXTRA=a,b adds metrics to each profile; REPEAT_D="M=1024 N=1024" runs every
#                   kernel of the pass with those -D values, its output unchecked (a large size is not
#                   simulated), and labels its rows name@M=1024,N=1024, so check never takes them for
#                   the default size's; REPEAT_LABEL=plain keeps the name and writes the repeat column
#                   1@M=1024,N=1024, ...: check then reads them as other runs of the record at that
#                   size, told apart from the default size's by their launch__grid_size)
# Each pass profiles the first launch of the description's entry (`warpscope gpu --profile-child`),
# caches flushed (ncu's default --cache-control all), clocks left alone. No pass starts after
# BUDGET_S seconds (default 540); LRC=0 leaves pass 3 out, LRC_KERNELS="a b" runs it on those only,
# LRC_METRICS=a,b,... replaces pass 3's metrics. REPEAT=N profiles N launches of each in one process (caches flushed before each); ONLY=repeats
# runs pass 4 alone. SASS_KERNELS="" / STALL_KERNELS="" leave passes 1 / 2 out. sass-*.csv travel
# in sass.tar.gz. `check --replay`/`--validate` take lrc.csv and repeats.csv as operands (the
# causes then say where the GPU's count varies). Run from the repository root with corpus/ carried:
#   OUT=/some/dir sh scripts/gpu-corpus-detail.sh
#   OUT=/some/dir ONLY=repeats REPEATS=5 sh scripts/gpu-corpus-detail.sh
set -u
NAME=gpu-corpus-detail DEFAULT_BUDGET=540
. scripts/gpu-prelude.sh
MAN=corpus/MANIFEST.tsv
[ -f "$MAN" ] || { say "no corpus (scripts/corpus-build.sh, carry corpus)"; exit 2; }
SASS_KERNELS=${SASS_KERNELS-"myHGEMMAlignedV1 myHGEMMAlignedV2 myHGEMMAlignedV5 wmmaBaseKernel wmmaAsyncKernel
cs_async_SingleStage cs_async_LargeChunk cs_wmma_f64 mma_multistage cs_wmma_tf32 wmmaNaiveKernel
cs_async_MultiStageSharedState cs_async_LargeChunkAWBarrier"}
STALL_KERNELS=${STALL_KERNELS-"cs_wmma_f64 cs_wmma_tf32 wmmaNaiveKernel cs_async_MultiStageSharedState
cs_async_LargeChunkAWBarrier cs_wmma_f16 mmaBaseKernel"}
LRC_METRICS=${LRC_METRICS:-gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,\
l1tex__m_l1tex2xbar_req.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum,\
lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lrc2xbar_sectors_op_read.sum,\
lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__grid_size,launch__block_size,launch__shared_mem_config_size,launch__occupancy_limit_blocks}

REPEAT_KERNELS=${REPEAT_KERNELS:-"myHGEMMAlignedV1 myHGEMMAlignedV5 mma_direct mma_ldmatrix mma_final mmaBaseKernel
wmmaBaseKernel mmaAsyncKernel wmmaAsyncKernel cs_wmma_f16"}
REPEAT_METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
l1tex__m_xbar2l1tex_read_sectors.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,\
sm__ctas_launched.sum,launch__grid_size${REPEAT_EXTRA:+,$REPEAT_EXTRA}
REPEATS=${REPEATS:-0}
if [ "${ONLY:-}" = repeats ]; then SASS_KERNELS= STALL_KERNELS= LRC=0; fi

tab=$(printf '\t')
# wrapper path and entry of corpus kernel $1 (empty when not in the manifest)
wrapper() {
    while IFS="$tab" read -r kind repo _commit path name _rest; do
        [ "$kind" = kernel ] && [ "$name" = "$1" ] || continue
        printf 'corpus/%s/%s/ws_%s.cu' "$(printf '%s' "$repo" | tr / +)" "$(dirname "$path")" "$name"
        return
    done < "$MAN"
}
entry() { sed -n 's/^entry[ ]*\([A-Za-z_0-9]*\).*/\1/p' "$1" | head -1; }
left() { [ $(($(date +%s) - START)) -lt "$BUDGET" ]; }

say "pass 1: source counters per SASS instruction"
for k in $SASS_KERNELS; do
    left || { say "skipped sass $k (budget)"; continue; }
    w=$(wrapper "$k"); [ -n "$w" ] || { say "no kernel $k"; continue; }
    e=$(entry "$w")
    say "sass $k ($e)"
    timeout 90 "$NCU" --clock-control none --section SourceCounters --launch-count 1 -k "regex:$e" \
        -f -o "$OUT/sass-$k" "$WS" gpu "$w:$k" --profile-child >> "$LOG" 2>&1
    echo "rc=$?" >> "$LOG"
    "$NCU" --import "$OUT/sass-$k.ncu-rep" --page source --print-source sass --csv > "$OUT/sass-$k.csv" 2>> "$LOG"
    echo "print rc=$?" >> "$LOG"
    rm -f "$OUT/sass-$k.ncu-rep"
done

say "pass 2: warp states of the time outliers"
: > "$OUT/stalls.csv"
for k in $STALL_KERNELS; do
    left || { say "skipped stalls $k (budget)"; continue; }
    w=$(wrapper "$k"); [ -n "$w" ] || continue
    e=$(entry "$w")
    say "stalls $k"
    echo "\"kernel: $k\"" >> "$OUT/stalls.csv"
    timeout 90 "$NCU" --clock-control none --section WarpStateStats --section SchedulerStats --section Occupancy \
        --section LaunchStats --section ComputeWorkloadAnalysis --launch-count 1 -k "regex:$e" --csv \
        "$WS" gpu "$w:$k" --profile-child 2>> "$LOG" | grep '^"' >> "$OUT/stalls.csv"
done

LRC_MAN=$MAN; [ "${LRC:-1}" = 1 ] || LRC_MAN=/dev/null   # LRC=0: pass 3 left out
REPEAT=${REPEAT:-1}
say "pass 3: the L1 -> LRC -> L2 read path of every corpus kernel"
: > "$OUT/lrc.csv"
HEAD=0
while IFS="$tab" read -r kind repo _commit path name _rest; do
    [ "$kind" = kernel ] || continue
    if [ -n "${LRC_KERNELS:-}" ]; then
        case " $(echo $LRC_KERNELS) " in *" $name "*) ;; *) continue ;; esac
    fi
    left || { say "skipped lrc $name (budget)"; continue; }
    w="corpus/$(printf '%s' "$repo" | tr / +)/$(dirname "$path")/ws_$name.cu"
    e=$(entry "$w")
    if [ "$REPEAT" -gt 1 ]; then   # REPEAT launches of one process, each profiled with the caches flushed
        timeout 90 "$NCU" --clock-control none --metrics "$LRC_METRICS" --launch-count "$REPEAT" -k "regex:$e" --csv \
            --print-units base "$WS" gpu "$w:$name" --reps "$REPEAT" --no-verify < /dev/null 2>> "$LOG" | grep '^"' > "$OUT/one.csv"
    else
        timeout 60 "$NCU" --clock-control none --metrics "$LRC_METRICS" --launch-count 1 -k "regex:$e" --csv \
            --print-units base "$WS" gpu "$w:$name" --profile-child < /dev/null 2>> "$LOG" | grep '^"' > "$OUT/one.csv"
    fi
    if [ "$HEAD" = 0 ] && [ -s "$OUT/one.csv" ]; then
        head -1 "$OUT/one.csv" | sed 's/^/"corpus kernel",/' >> "$OUT/lrc.csv"; HEAD=1
    fi
    tail -n +2 "$OUT/one.csv" | sed "s/^/\"$name\",/" >> "$OUT/lrc.csv"
done < "$LRC_MAN"
rm -f "$OUT/one.csv"

say "pass 4: $REPEATS profiles of each of the small grids' kernels, one process each"
[ "$REPEATS" -gt 0 ] 2>/dev/null && : > "$OUT/repeats.csv"
HEAD=0
for k in $([ "$REPEATS" -gt 0 ] 2>/dev/null && echo $REPEAT_KERNELS); do
    case "$k" in   # a description outside the corpus: path:name (a catalog kernel at its default sizes)
        *:*) w=${k%%:*} k=${k##*:}
             # its description's entry line, else the function is the kernel's name
             e=$(awk -v k="$k" '$1 == "kernel" { on = $2 == k } on && $1 == "entry" { print $2; exit }' "$w")
             [ -n "$e" ] || e=$k ;;
        *) w=$(wrapper "$k"); [ -n "$w" ] && e=$(entry "$w") ;;
    esac
    [ -n "$w" ] || { say "no kernel $k"; continue; }
    i=1
    while [ "$i" -le "$REPEATS" ]; do
        left || { say "skipped repeat $i of $k (budget)"; break; }
        # per-SM values of sm__ctas_launched: the SMs that ran a block (its row's value is not a number
        # then: check's reader skips it, the rest of the run's rows are read)
        # shellcheck disable=SC2046 # one -D per word of REPEAT_D
        timeout 120 "$NCU" --clock-control none --metrics "$REPEAT_METRICS" --print-metric-instances values \
            --launch-count 1 -k "regex:$e" --csv --print-units base "$WS" gpu "$w:$k" --profile-child \
            $(for d in ${REPEAT_D:-}; do printf '%s %s ' -D "$d"; done) ${REPEAT_D:+--no-verify} < /dev/null 2>> "$LOG" | grep '^"' > "$OUT/one.csv"
        if [ "$HEAD" = 0 ] && [ -s "$OUT/one.csv" ]; then
            head -1 "$OUT/one.csv" | sed 's/^/"corpus kernel","repeat",/' >> "$OUT/repeats.csv"; HEAD=1
        fi
        label=$k; rep=$i
        if [ -n "${REPEAT_D:-}" ] && [ "${REPEAT_LABEL:-}" = plain ]; then rep="$i@$(echo $REPEAT_D | tr ' ' ,)"
        elif [ -n "${REPEAT_D:-}" ]; then label="$k@$(echo $REPEAT_D | tr ' ' ,)"; fi
        tail -n +2 "$OUT/one.csv" | sed "s/^/\"$label\",\"$rep\",/" >> "$OUT/repeats.csv"
        i=$((i + 1))
    done
done
rm -f "$OUT/one.csv"
# the device tool brings back a few files: the per-kernel pages travel as one archive
tar -czf "$OUT/sass.tar.gz" -C "$OUT" $(cd "$OUT" && ls sass-*.csv 2>/dev/null) && rm -f "$OUT"/sass-*.csv
say "done"
