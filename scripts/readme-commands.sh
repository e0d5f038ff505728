#!/bin/sh
# readme-commands.sh - runs the commands README.md shows a user, as written, and fails naming each
# one whose exit status is not the one the README documents (issue 26: "a test runs the README's
# commands"). tests/test_readme_commands.c runs it under make test (quick lines) and make test-slow
# (the lines marked slow).
#
# What is run (README.md, "Set up", says the same to its reader): every line of a fenced block
# tagged sh, and every "$ " line of any fenced block. A line must exit 0 unless its comment says:
#   # exit N: ...       it must exit N;
#   # needs a GPU ...   it is run with no GPU driver (WARPSCOPE_LIBCUDA names none) and must exit 4
#                       saying there is no driver (or no CUDA backend in this build);
#   # opens a window    it is run with no display and must exit 1 saying so;
#   # slow ...          it runs only when WS_SLOW=1 (make test-slow); otherwise it is named as left out.
# A line starting with make is checked with make -n in the repository (the target exists and its
# recipe expands; with -f FILE, in the folder where earlier lines wrote FILE), not run: make test runs this script, and make demo installs packages.
# A build without the visualizer (no SDL2) runs every viz line expecting its documented refusal.
#
# Every line runs in order in one scratch folder that looks like a fresh clone: build/warpscope is
# $WS_BIN, and the repository's top-level folders are linked in, so what a command writes (out/,
# frames/, a GIF) lands in the scratch folder, and a later line reads what an earlier one wrote.
#
# usage: WS_BIN=build/asan/warpscope sh scripts/readme-commands.sh [README.md]
# WS_SLOW: unset, "" or 0 = the quick lines; 1 = the slow lines only; all = both.
# WS_README_TIMEOUT: seconds one line may take (default 120).
# Exit 0 when every line run exits as documented, 1 otherwise (each difference on its own line),
# 2 on a usage error, 77 when WS_SLOW=1 finds no line marked slow.

root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
readme=${1:-$root/README.md}
doc=${readme##*/}
bin=${WS_BIN:-$root/build/warpscope}
limit=${WS_README_TIMEOUT:-120}
case ${WS_SLOW:-0} in 0 | '') slow=0 ;; 1) slow=1 ;; all) slow=all ;;
    *) echo "readme-commands.sh: WS_SLOW='$WS_SLOW': expected 0, 1 or all" >&2; exit 2 ;; esac
[ -f "$readme" ] || { echo "readme-commands.sh: $readme: no such file" >&2; exit 2; }
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin" ] || { echo "readme-commands.sh: $bin: not an executable (set WS_BIN or build it)" >&2; exit 2; }
command -v timeout >/dev/null || { echo "readme-commands.sh: timeout (coreutils) not found" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-readme-XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
mkdir "$scratch/run" "$scratch/run/build" || exit 2
ln -s "$bin" "$scratch/run/build/warpscope" || exit 2
for d in "$root"/*/; do
    d=${d%/}
    [ "${d##*/}" = build ] || ln -s "$d" "$scratch/run/${d##*/}" || exit 2
done

# The commands: "<README line>\t<command>\t<comment>", the comment after the first # outside quotes.
awk '
    /^```/ {
        if (fence) { fence = 0; sh = 0 } else { fence = 1; sh = ($0 ~ /^```sh[[:space:]]*$/) }
        next
    }
    !fence { next }
    {
        line = $0
        if (!sh) { if (line !~ /^\$ /) next; line = substr(line, 3) }
        if (line ~ /^[[:space:]]*$/) next
        q = ""; cut = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q != "") { if (c == q) q = ""; continue }
            if (c == "\"" || c == "\047") q = c
            else if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[[:space:]]/)) { cut = i; break }
        }
        cmd = cut ? substr(line, 1, cut - 1) : line
        com = cut ? substr(line, cut + 1) : ""
        sub(/[[:space:]]+$/, "", cmd); sub(/^[[:space:]]+/, "", cmd)
        sub(/^[[:space:]]+/, "", com)
        if (cmd != "") printf "%d\t%s\t%s\n", NR, cmd, com
    }
' "$readme" >"$scratch/commands" || exit 2
[ -s "$scratch/commands" ] || { echo "readme-commands.sh: $readme shows no commands" >&2; exit 1; }

# Built without the visualizer, viz refuses with this (common/main.c).
noviz=""
if "$bin" viz --version >/dev/null 2>"$scratch/viz.err"; then :; else
    grep -q 'this build has no visualizer' "$scratch/viz.err" && noviz=1
fi
[ -z "$noviz" ] || echo "readme-commands.sh: this build has no visualizer: each viz line must exit 1 saying so"

: >"$scratch/seen"
tab=$(printf '\t')
ran=0 bad=0 left=0
t0=$(date +%s)
while IFS="$tab" read -r n cmd com; do
    want=0 kind=plain
    case $com in "exit "[0-9]*) want=${com#exit }; want=${want%%[!0-9]*} ;; esac
    case $com in *"needs a GPU"*) kind=gpu; want=4 ;; *"opens a window"*) kind=window; want=1 ;; esac
    case $cmd in make | "make "*) kind=make ;; esac
    case $cmd in *"build/warpscope viz"*) [ -z "$noviz" ] || { kind=noviz; want=1; } ;; esac
    is_slow=0
    case $com in slow | "slow "* | "slow:"* | "slow,"*) is_slow=1 ;; esac
    case $slow$is_slow in
    01) left=$((left + 1)); echo "left to make test-slow: $doc:$n: $cmd"; continue ;;
    10) continue ;;
    esac
    # a command shown twice with the same documented outcome ran once (a fresh clone: the same
    # files; every line's outputs are new paths or the same ones again)
    key="$kind $want $cmd"
    seen=$(awk -v k="$key" 'index($0, " ") && substr($0, index($0, " ") + 1) == k { print $1; exit }' "$scratch/seen")
    if [ -n "$seen" ]; then
        echo "ok    $doc:$n: $cmd: as $doc:$seen, not run again"
        continue
    fi
    echo "$n $key" >>"$scratch/seen"
    ran=$((ran + 1))
    s0=$(date +%s)
    case $kind in
    make)
        target=${cmd#make} where=$root
        case " $target " in *" -f "*) where=$scratch/run ;; esac   # a makefile an earlier line wrote
        (cd "$where" && timeout "$limit" make -n $target) >"$scratch/out" 2>"$scratch/err" </dev/null
        ;;
    gpu)
        (cd "$scratch/run" && WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1 timeout "$limit" sh -c "$cmd") \
            >"$scratch/out" 2>"$scratch/err" </dev/null
        ;;
    window)
        (cd "$scratch/run" && unset DISPLAY WAYLAND_DISPLAY SDL_VIDEODRIVER && timeout "$limit" sh -c "$cmd") \
            >"$scratch/out" 2>"$scratch/err" </dev/null
        ;;
    *)
        (cd "$scratch/run" && timeout "$limit" sh -c "$cmd") >"$scratch/out" 2>"$scratch/err" </dev/null
        ;;
    esac
    rc=$?
    s1=$(date +%s)
    why=""
    if [ $rc = 124 ]; then why="ran past ${limit} s (timeout)"
    elif [ "$rc" != "$want" ]; then why="exit $rc, documented $want"
    else
        case $kind in
        gpu) grep -q -e 'no CUDA driver' -e 'no CUDA backend' "$scratch/err" || why="exit 4 without saying there is no driver" ;;
        window) grep -q 'no display' "$scratch/err" || why="exit 1 without saying there is no display" ;;
        noviz) grep -q 'this build has no visualizer' "$scratch/err" || why="exit 1 without saying viz was not built" ;;
        esac
    fi
    label=$kind
    [ $kind = make ] && label="make -n"
    if [ -n "$why" ]; then
        bad=$((bad + 1))
        echo "FAIL  $doc:$n: $cmd: $why ($label, $((s1 - s0)) s); its stderr ends:"
        tail -n 5 "$scratch/err" | sed 's/^/        /'
    else
        echo "ok    $doc:$n: $cmd: exit $rc ($label, $((s1 - s0)) s)"
    fi
done <"$scratch/commands"
t1=$(date +%s)
echo "README commands: $ran run, $bad not as documented, $left left to make test-slow ($((t1 - t0)) s)"
# the quick set is never empty (a README whose blocks lost their tag would pass by running nothing);
# the slow set may be, and says so by its own status (77, automake's "skipped")
if [ $ran = 0 ]; then
    [ "$slow" = 1 ] && { echo "readme-commands.sh: no line is marked slow"; exit 77; }
    echo "readme-commands.sh: no command was run" >&2
    exit 1
fi
[ $bad = 0 ]
