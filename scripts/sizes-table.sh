#!/bin/sh
# sizes-table.sh - the README's catalog table at both sizes: per kernel the simulator's predicted
# time at its default sizes and at its realistic sizes (the description's `realistic` line), and
# the H200's measured median at the realistic sizes where a recorded run has it.
# Usage: sh scripts/sizes-table.sh PREDICTIONS.csv [RESULTS.md]
#   PREDICTIONS.csv  scripts/gpu-realistic.sh's predictions.csv: kernel,size,sizes,predicted_us
#   RESULTS.md       `warpscope check --markdown` of its results (the "Time and bandwidth" rows)
# Prints a markdown table on stdout; "-" where a figure is not available (a prediction that ran
# out of time, a run not recorded). awk only: the GPU machine may have no python.
set -eu
pred=$1
md=${2:-/dev/null}
awk -F, -v md="$md" '
    BEGIN {
        # measured: | kernel | -D | median ms | ... from the markdown time table
        while ((getline l < md) > 0) {
            if (l ~ /^## Time and bandwidth/) { intime = 1; continue }
            if (l ~ /^## /) intime = 0
            if (!intime || l !~ /^\| [A-Za-z_]/ || l ~ /^\| kernel/) continue
            n = split(l, f, "|")
            k = f[2]; d = f[3]; t = f[4]
            gsub(/ /, "", k); gsub(/^ +| +$/, "", d); gsub(/ /, "", t)
            meas[k "|" d] = t
        }
    }
    NR == 1 { next }
    {
        k = $1; s = $2
        if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
        pus[k, s] = $4; dtext[k, s] = $3
    }
    function us(v) { return v == "" ? "-" : v >= 1000 ? sprintf("%.2f ms", v / 1000) : sprintf("%.1f us", v) }
    END {
        print "| kernel | predicted, default sizes | realistic sizes (-D) | predicted | measured (H200) |"
        print "|---|---:|---|---:|---:|"
        for (i = 1; i <= nk; i++) {
            k = order[i]
            r = dtext[k, "realistic"]
            m = (k "|" r) in meas ? sprintf("%.2f ms", meas[k "|" r]) : "-"
            rt = !((k, "realistic") in pus) ? "-" : r == "" ? "(the defaults)" : r
            printf "| %s | %s | %s | %s | %s |\n", k, us(pus[k, "default"]), rt,
                   us(pus[k, "realistic"]), m
        }
    }' "$pred"
