# gpu-ncu-rows.sh - the ncu pass the probe scripts share (gpu-l2dram.sh, gpu-local.sh, gpu-l2req.sh),
# sourced after they set NCU, METRICS, TMP (holding the built $TMP/probe), LOG, CSV, START, BUDGET
# and say(). `run CONFIG ARGS...` profiles the probe's one launch with ARGS and appends its CSV rows
# to $CSV prefixed by a "config" column (the header once, from the first pass that printed one);
# ncu's other output goes to $LOG. No pass starts once BUDGET seconds have gone since START.
HEAD=0
: > "$CSV"
run() {
    cfg=$1
    shift
    if [ $(($(date +%s) - START)) -ge "$BUDGET" ]; then
        say "skipped $cfg (budget)"
        return
    fi
    say "ncu $cfg: $*"
    # NCU_EXTRA: further ncu options for this pass (gpu-coalesce.sh: --launch-skip 1 --cache-control none)
    timeout 60 "$NCU" --clock-control none ${NCU_EXTRA:-} --metrics "$METRICS" --csv "$TMP/probe" "$@" > "$TMP/one.csv" 2>> "$LOG"
    echo "rc=$?" >> "$LOG"
    grep -v '^==' "$TMP/one.csv" | grep '^"' > "$TMP/rows.csv"
    grep -v '^"' "$TMP/one.csv" >> "$LOG"
    if [ "$HEAD" = 0 ] && [ -s "$TMP/rows.csv" ]; then
        head -1 "$TMP/rows.csv" | sed 's/^/"config",/' >> "$CSV"
        HEAD=1
    fi
    tail -n +2 "$TMP/rows.csv" | sed "s/^/\"$cfg\",/" >> "$CSV"
}
