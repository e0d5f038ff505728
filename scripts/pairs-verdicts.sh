#!/bin/sh
# pairs-verdicts.sh - the measuring stick of the time model (issue 23): every lesson pair of
# demos/pairs.txt, the GPU's medians (results/h200-pairs/h200.json) against `warpscope sim` at the
# same -D sizes, and the catalog at its default sizes (`check --replay results/h200.json`).
# Usage: sh scripts/pairs-verdicts.sh            (from the repository root; writes results/pairs-verdicts.md)
# Environment: WS_BIN (default build/warpscope), REC (the pairs record), CATALOG (the catalog record),
#   OUT_MD (the report), CACHE (build/pairs-sim), SIM_LIMIT (seconds per sim, default 300),
#   NO_SIM=1 (use cached sims only: a kernel without one is listed as not simulated),
#   JOBS=N (default 1: run N sims at once, each -j 2, before the report; on a machine with 2N cores).
# Sims are cached per warpscope binary (its cksum) + kernel + sizes under $CACHE, so a rerun with the
# same binary is fast and a rebuilt model is re-simulated. Why sh + awk: it runs where python does not,
# and no text from a description or a record reaches a shell (kernel names and sizes are checked
# against [A-Za-z0-9_= -] before they become argv words).
set -u
WS=${WS_BIN:-build/warpscope}
REC=${REC:-results/h200-pairs/h200.json}
CATALOG=${CATALOG:-results/h200.json}
OUT_MD=${OUT_MD:-results/pairs-verdicts.md}
CACHE=${CACHE:-build/pairs-sim}
SIM_LIMIT=${SIM_LIMIT:-300}
[ -x "$WS" ] || { echo "pairs-verdicts: $WS: not built (make build/warpscope)" >&2; exit 1; }
for f in "$REC" "$CATALOG" demos/pairs.txt scripts/pair-sizes.awk; do
    [ -f "$f" ] || { echo "pairs-verdicts: $f: not found" >&2; exit 1; }
done
tag=$(cksum < "$WS" | awk '{print $1}')
dir="$CACHE/$tag"
mkdir -p "$dir" || exit 1
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# ---- the GPU's medians: kernel|overrides|median us (cJSON's layout: one key a line)
awk '
    /^\t\t\t"kernel":/    { k = $0; sub(/^[^:]*:[ \t]*"/, "", k); sub(/".*/, "", k); o = ""; m = "" }
    /^\t\t\t"overrides":/ { o = $0; sub(/^[^:]*:[ \t]*"/, "", o); sub(/".*/, "", o) }
    /^\t\t\t\t"median_ms":/ && k != "" { m = $0; sub(/^[^:]*:[ \t]*/, "", m); sub(/,.*/, "", m)
                               printf "%s|%s|%.4f\n", k, o, m * 1000; k = "" }
' "$REC" > "$TMP/measured"

# ---- one sim per kernel + sizes; prints the cache file's path
sim() { # kernel, sizes ("N=1 M=2" or "")
    key=$(printf '%s@%s' "$1" "$2" | tr ' =' '_-')
    f="$dir/$key.json"
    if [ ! -s "$f" ] && [ -z "${NO_SIM:-}" ]; then
        dargs=""
        for w in $2; do dargs="$dargs -D $w"; done
        t0=$(date +%s)
        # shellcheck disable=SC2086 # the -D words, checked above
        timeout "$SIM_LIMIT" "$WS" sim --json --sample -j 2 $dargs "$1" > "$f.tmp" 2> "$f.err"
        rc=$?
        t1=$(date +%s)
        echo "$1 [$2]: exit $rc, $((t1 - t0)) s" >> "$dir/log.txt"
        echo "pairs-verdicts: sim $1 [$2]: exit $rc, $((t1 - t0)) s" >&2
        [ $rc -eq 0 ] && mv "$f.tmp" "$f"
        echo "$((t1 - t0))" > "$f.secs"
    fi
    echo "$f"
}
# One sim, as a job of the parallel pass below: "kernel|sizes".
if [ "${1:-}" = --one ]; then
    k=${2%%|*}; z=${2#*|}
    case "$k $z" in *[!-A-Za-z0-9_=\ ]*) exit 1 ;; esac
    sim "$k" "$z" > /dev/null
    exit 0
fi
# A pair's sizes ("N=1 M=2" words) into da and db, from scripts/pair-sizes.awk; 1 when it gives none.
pair_sizes() { # A, B, the pair's size list
    awk -f scripts/pair-sizes.awk -v A="$1" -v B="$2" -v SIZES="$3" demos/*.cu > "$TMP/pd" 2> /dev/null || return 1
    da=$(sed -n 1p "$TMP/pd" | sed 's/-D //g')
    db=$(sed -n 2p "$TMP/pd" | sed 's/-D //g')
}
# the pairs' kernels and sizes, one "kernel|sizes" line each
pair_runs() {
    grep -v '^[[:space:]]*#' demos/pairs.txt | while read -r a b sz lesson; do
        [ -n "$a" ] && pair_sizes "$a" "$b" "$sz" || continue
        echo "$a|$da"
        echo "$b|$db"
    done | sort -u
}
if [ "${JOBS:-1}" -gt 1 ] && [ -z "${NO_SIM:-}" ]; then
    pair_runs | tr '\n' '\0' | WS_BIN="$WS" CACHE="$CACHE" SIM_LIMIT="$SIM_LIMIT" xargs -0 -P "$JOBS" -n 1 sh "$0" --one
fi
# predicted us and bound class from a sim's JSON (its "timing" object)
pred() {
    [ -s "$1" ] || { echo "-|-"; return; }
    awk '/^\t"timing":/ { t = 1 } t && /"predicted_us":/ { p = $0; sub(/^[^:]*:[ \t]*/, "", p); sub(/,.*/, "", p) }
         t && /"bound_class":/ { b = $0; sub(/^[^:]*:[ \t]*"/, "", b); sub(/".*/, "", b); print p "|" b; exit }' "$1"
}

# ---- the pairs
: > "$TMP/rows"
grep -v '^[[:space:]]*#' demos/pairs.txt | while read -r a b sz lesson; do
    [ -n "$a" ] || continue
    pair_sizes "$a" "$b" "$sz" || { echo "$a|$b|-|-|-|-|-|-|||$lesson|0" >> "$TMP/rows"; continue; }
    case "$a $b $da $db" in *[!-A-Za-z0-9_=\ ]*) echo "pairs-verdicts: $a $b: odd sizes" >&2; continue ;; esac
    ma=$(awk -F'|' -v k="$a" -v o="$da" '$1 == k && $2 == o { print $3; exit }' "$TMP/measured")
    mb=$(awk -F'|' -v k="$b" -v o="$db" '$1 == k && $2 == o { print $3; exit }' "$TMP/measured")
    fa=$(sim "$a" "$da")
    fb=$(sim "$b" "$db")
    secs=$(cat "$fa.secs" "$fb.secs" 2> /dev/null | awk '$1 > s { s = $1 } END { print s + 0 }')
    echo "$a|$b|${ma:--}|${mb:--}|$(pred "$fa")|$(pred "$fb")|$da|$db|$lesson|$secs" >> "$TMP/rows"
done

# ---- the catalog at default sizes: check --replay's time rows (measured and predicted)
"$WS" check --replay "$CATALOG" --csv 2> /dev/null |
    awk -F, '$5 == "gpu__time_duration.sum" && ($8 == "measured" || $8 == "time") { print $1 "|" $2 "|" $8 "|" $7 }' \
    > "$TMP/catalog"

awk -F'|' -v rec="$REC" -v cat="$CATALOG" -v tag="$tag" -v catf="$TMP/catalog" -v simlog="$dir/log.txt" '
function abs(x) { return x < 0 ? -x : x }
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n == 0 ? 0 : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
}
function kern(name, sz, m, p, b) { # one kernel run, counted once however many pairs use it
    if (m == "-" || p == "-" || ((name, sz) in seen)) return
    seen[name, sz] = 1; nk++
    e = (p / m - 1) * 100; kerr[nk] = abs(e)
    if (abs(e) <= 20) kin++
    krow[nk] = sprintf("| %s | %s | %.1f | %.1f | %+.0f%% | %s |", name, sz == "" ? "default" : sz, m, p, e, b)
}
{
    a = $1; b = $2; ma = $3; mb = $4; pa = $5; ba = $6; pb = $7; bb = $8; sza = $9; szb = $10; les = $11; secs = $12
    if (ma == "-" || mb == "-" || pa == "-" || pb == "-") {
        miss[++nmiss] = sprintf("| %s | %s | measured %s/%s us, predicted %s/%s | %s |", a, b, ma, mb, pa, pb, les)
        next
    }
    np++
    mr = ma / mb; pr = pa / pb
    err = (pr / mr - 1) * 100
    tie = abs(mr - 1) < 0.03           # the GPU medians are within their own spread
    right = tie ? (abs(err) <= 25) : ((mr > 1) == (pr > 1))
    if (right) nright++
    if (abs(err) <= 25) nratio++
    if (right && abs(err) <= 25) nboth++
    if (secs + 0 > 90) slow[++nslow] = a " / " b " (" secs " s)"
    row[np] = sprintf("| %s vs %s | %.1f / %.1f | %.1f / %.1f | %.3f | %.3f | %s | %+.0f%% | %s / %s |",
                      a, b, ma, mb, pa, pb, mr, pr, tie ? (right ? "tie, yes" : "tie, no") : (right ? "yes" : "**no**"),
                      err, ba, bb)
    kern(a, sza, ma, pa, ba); kern(b, szb, mb, pb, bb)
}
END {
    print "# Lesson pairs: measured on the H200 vs predicted"
    print ""
    print "Generated by `sh scripts/pairs-verdicts.sh` (warpscope binary cksum " tag "): every pair of"
    print "`demos/pairs.txt` at the sizes `scripts/pair-sizes.awk` gives, the GPU medians of `" rec "` (events,"
    print "L2 flushed, 10 repetitions) against `warpscope sim --json --sample -j 2` at the same `-D`."
    print "Ratio = A / B (above 1: B is faster). Right winner: both ratios on the same side of 1; where the"
    print "GPU medians differ by under 3 % (a tie within their spread) it is right when the predicted ratio is"
    print "within 25 %. Ratio error = predicted ratio / measured ratio - 1."
    print ""
    print "## Summary"
    print ""
    printf "- right winner: %d/%d\n", nright, np
    printf "- ratio within 25 %%: %d/%d\n", nratio, np
    printf "- both: %d/%d\n", nboth, np
    printf "- per-kernel time within 20 %%: %d/%d (each kernel + size once)\n", kin, nk
    printf "- median |time error|: %.1f %%\n", median(kerr, nk)
    while ((getline l < catf) > 0) {
        split(l, f, "|"); key = f[1] "|" f[2]
        if (f[3] == "measured") cm[key] = f[4]; else cp[key] = f[4]
        if (!(key in ck)) { ck[key] = 1; corder[++nc] = key }
    }
    for (i = 1; i <= nc; i++) {
        key = corder[i]
        if (!(key in cm) || !(key in cp) || cm[key] <= 0) continue
        nct++; e = (cp[key] / cm[key] - 1) * 100; cerr[nct] = abs(e); if (abs(e) <= 20) cin++
        split(key, f, "|")
        crow[nct] = sprintf("| %s%s | %.2f | %.2f | %+.0f%% |", f[1], f[2] == "" ? "" : " (" f[2] ")", cm[key], cp[key], e)
    }
    printf "- catalog at default sizes (`check --replay %s`): time within 20 %% %d/%d, median |error| %.1f %%\n",
           cat, cin, nct, median(cerr, nct)
    print ""
    print "## Pairs"
    print ""
    print "| pair (A vs B) | measured A / B us | predicted A / B us | measured ratio | predicted ratio | right winner | ratio error | bound A / B |"
    print "|---|---:|---:|---:|---:|---|---:|---|"
    for (i = 1; i <= np; i++) print row[i]
    if (nmiss) {
        print ""
        print "Not judged (no GPU median at these sizes, or the sim failed):"
        print ""
        print "| A | B | values | lesson |"
        print "|---|---|---|---|"
        for (i = 1; i <= nmiss; i++) print miss[i]
    }
    if (nslow) {
        print ""
        printf "Sims over 90 s (at the pair sizes, kept):"
        for (i = 1; i <= nslow; i++) printf " %s%s", slow[i], i < nslow ? ";" : "\n"
    }
    print ""
    print "## Kernels at the pair sizes"
    print ""
    print "| kernel | -D | measured us | predicted us | error | bound |"
    print "|---|---|---:|---:|---:|---|"
    for (i = 1; i <= nk; i++) print krow[i]
    print ""
    print "## The catalog at default sizes"
    print ""
    print "`warpscope check --replay " cat " --csv`, rows `gpu__time_duration.sum` (measured: the event-timed"
    print "median; time: the model now)."
    print ""
    print "| kernel | measured us | predicted us | error |"
    print "|---|---:|---:|---:|"
    for (i = 1; i <= nct; i++) print crow[i]
}' "$TMP/rows" > "$OUT_MD.tmp" && mv "$OUT_MD.tmp" "$OUT_MD"
sed -n '/^## Summary/,/^## Pairs/p' "$OUT_MD" | grep '^-'
