#!/bin/sh
# Prints the headline of a `warpscope check --markdown` report: the agreement
# table per metric class, a blank line, then the time-and-bandwidth rows of the
# large-size runs (those recorded with -D). Shared by update-readme.sh and demo.sh.
# Usage: sh scripts/results-summary.sh results/h200.md
set -eu
md=$1
sed -n '/^## Agreement/,/^## Every/p' "$md" | sed '1,2d;$d'
sed -n '/^## Time and bandwidth/,/^## /p' "$md" | grep '^| kernel'
sed -n '/^## Time and bandwidth/,/^## /p' "$md" | grep '^|---'
sed -n '/^## Time and bandwidth/,/^## /p' "$md" | awk -F'|' 'NF > 3 && $3 ~ /[A-Z]=/'
