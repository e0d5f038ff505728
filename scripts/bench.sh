#!/bin/sh
# Benchmarks (make bench, issue 25), printed in one run:
#   1. every memory model on (`sim --full --json`, the SASS path where ptxas and nvdisasm are
#      found): the whole catalog at its default sizes on one thread and on every core, side by
#      side (thread-instructions / interpreter seconds, as the JSON reports them);
#   1b. every model on, large launches (a 2^26 copy, a 4096^2 transpose, 1024^3 tiled and half
#      tensor-core GEMMs), one thread and every core: wall and CPU seconds without the per-run costs;
#   2. block sampling against full simulation: a 2048^3 tiled matmul, an 8192^2 transpose and a
#      2^28-float copy, wall times and every counter's difference (scripts/sample-compare.py);
#   3. a repeated `sim` of a tiny kernel (its wall time, the tool cache warm);
#   4. the bare interpreter's rate (build/bench_interp: no listener, one core) and the
#      visualizer's frame time (build/bench_viz);
#   5. viz's first frame: every catalog kernel at its realistic size (`viz --realistic --headless
#      --first-frame-time`, stopped once the first frame is up: the totals' run is sim's, timed above).
# BENCH_FULL=0 skips the full runs of part 2 (the 2048^3 matmul alone is ~34 G thread-instructions,
# minutes on a 2-core machine) and says so; with them the bench takes about 10 minutes there.
# Run from the repository root after `make all build/bench_interp` (make bench does both).
set -e
BUILD=${BUILD:-build}
WS=${WS:-$BUILD/warpscope}
FULL=${BENCH_FULL:-1}
JOBS=$(nproc 2>/dev/null || echo 1)
for tool in python3 bc; do
    command -v $tool >/dev/null || { echo "bench: needs $tool" >&2; exit 1; }
done
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-bench-XXXXXX")
trap 'rm -rf "$tmpd"' EXIT
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

echo "== machine: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $JOBS cores," \
     "$(date -u +%Y-%m-%dT%H:%MZ), load average $(load)"
echo "   $("$WS" --version 2>/dev/null | head -1)"

# --- 1. every model on, one core and every core -----------------------------------------------
"$WS" list --json >"$tmpd/list.json"
python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    for k in f["kernels"]: print(k["name"])' "$tmpd/list.json" >"$tmpd/kernels"
# (simulation.seconds is the interpreter's run with the models listening: ptxas and nvdisasm, run
# before it on a cold tool cache, are not in it)
for j in 1 "$JOBS"; do
    while read -r k; do
        "$WS" sim "$k" --full -j "$j" --json >"$tmpd/m.$j.$k.json" 2>/dev/null || echo "{\"kernel\": \"$k\", \"failed\": true}" >"$tmpd/m.$j.$k.json"
    done <"$tmpd/kernels"
done
echo "== every memory model on: the catalog at default sizes, sim --full (interpreter + models seconds)"
python3 - "$tmpd" "$JOBS" <<'EOF'
import json, sys
d, jobs = sys.argv[1], sys.argv[2]
rows, tot, failed, levels = [], {"1": [0, 0.0], jobs: [0, 0.0]}, [], set()
for k in open(f"{d}/kernels").read().split():
    r = {}
    for j in ("1", jobs):
        doc = json.load(open(f"{d}/m.{j}.{k}.json"))
        if doc.get("failed") or doc.get("status") != "ok":
            failed.append(f"{k} (-j {j})")
            break
        r[j] = (doc["simulation"]["thread_instructions"], doc["simulation"]["seconds"])
        levels.add(doc.get("counters_level", "?").split(":")[0])
    else:
        rows.append((k, r))
        for j in ("1", jobs):
            tot[j][0] += r[j][0]
            tot[j][1] += r[j][1]
def rate(n, s): return n / s / 1e6 if s > 0 else 0.0
print(f"  {'kernel':30} {'thread-insns':>14} {'-j 1 s':>9} {'-j ' + jobs + ' s':>9} {'-j 1 M/s':>10} {'-j ' + jobs + ' M/s':>10}")
for k, r in sorted(rows, key=lambda x: -x[1]["1"][0])[:8]:
    print(f"  {k:30} {r['1'][0]:14} {r['1'][1]:9.3f} {r[jobs][1]:9.3f} {rate(*r['1']):10.1f} {rate(*r[jobs]):10.1f}")
n1, s1 = tot["1"]; nj, sj = tot[jobs]
print(f"  {'ALL (' + str(len(rows)) + ' kernels)':30} {n1:14} {s1:9.3f} {sj:9.3f} {rate(n1, s1):10.1f} {rate(nj, sj):10.1f}")
print(f"  counters level: {', '.join(sorted(levels))}" + (f"; failed: {', '.join(failed)}" if failed else ""))
EOF

# --- 1b. large launches: per-instruction throughput without the fixed per-run costs -------------
# (the catalog's default sizes are small: a run's start - parse, ptxas, nvdisasm, the models' set-up -
# is much of them.) Wall is the interpreter's run (simulation.seconds); CPU the process's user+system
# seconds, the figure to trust on a shared machine.
echo "== every model on, large launches, sim --full (load average $(load))"
python3 - "$WS" "$JOBS" <<'EOF_PY'
import json, resource, subprocess, sys
ws, jobs = sys.argv[1], sys.argv[2]
cases = [("copy_float 2^26", ["copy_float", "-D", "N=67108864"]),
         ("transpose_naive 4096^2", ["transpose_naive", "-D", "W=4096", "-D", "H=4096"]),
         ("matmul_tiled32 1024^3", ["matmul_tiled32", "-D", "M=1024", "-D", "N=1024", "-D", "K=1024", "--budget", "5000000000"]),
         ("mma_cp_async 1024^3 (half)", ["demos/tensorcore.cu:mma_cp_async", "-D", "M=1024", "-D", "N=1024", "-D", "K=1024"])]
print(f"  {'launch':28} {'thread-insns':>13} {'-j':>3} {'wall s':>8} {'CPU s':>8} {'M/s wall':>9} {'M/CPU-s':>8}")
for name, args in cases:
    for j in ("1", jobs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([ws, "sim", *args, "--full", "-j", j, "--json"], capture_output=True, text=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        try:
            s = json.loads(p.stdout)["simulation"]
        except (ValueError, KeyError):
            print(f"  {name:28} failed (-j {j}): {p.stderr.strip()[:100]}")
            continue
        n, w = s["thread_instructions"], s["seconds"]
        print(f"  {name:28} {n:13} {j:>3} {w:8.2f} {cpu:8.2f} {n / w / 1e6:9.1f} {n / cpu / 1e6:8.1f}")
EOF_PY

# --- 2. block sampling against full simulation ------------------------------------------------
sample_case() { # kernel -D...: sampled and (BENCH_FULL=1) full, compared; $SAMPLE_EXTRA: the sampled run's own options
    k=$1; shift
    t0=$(now)
    # shellcheck disable=SC2086 # SAMPLE_EXTRA is this script's constant, split on purpose
    "$WS" sim "$k" "$@" --sample $SAMPLE_EXTRA --json >"$tmpd/s.json" 2>/dev/null || { echo "  $k $*: the sampled run failed"; return 0; }
    t1=$(now)
    if [ "$FULL" = 1 ]; then
        "$WS" sim "$k" "$@" --full --json >"$tmpd/f.json" 2>/dev/null || { echo "  $k $*: the full run failed"; return 0; }
        t2=$(now)
        python3 scripts/sample-compare.py "$tmpd/s.json" "$tmpd/f.json" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
    else
        printf '  %s %s: sampled %.1f s (full run skipped: BENCH_FULL=0)\n' "$k" "$*" "$(echo "$t1 - $t0" | bc)"
        python3 -c 'import json, sys; print("  " + json.load(open(sys.argv[1]))["sampling"]["text"])' "$tmpd/s.json"
    fi
}
echo "== block sampling: sampled vs full, -j $JOBS (load average $(load))"
[ "$FULL" = 1 ] || echo "   BENCH_FULL=0: the full runs are skipped; sampled wall times only"
SAMPLE_EXTRA=
sample_case matmul_tiled32 -D M=2048 -D N=2048 -D K=2048 --budget 40000000000
# the 2048^3 matmul's 8 M-instruction blocks leave room for 1.17 waves (the raised budget): a per-block
# cache bound; the same matmul at K=512 gets 3 whole waves by default now (--sample-waves 3 says so)
SAMPLE_EXTRA="--sample-waves 3"
sample_case matmul_tiled32 -D M=2048 -D N=2048 -D K=512 --budget 40000000000
SAMPLE_EXTRA=
sample_case transpose_padded -D W=8192 -D H=8192
sample_case copy_float -D N=268435456 --budget 8000000000

# --- 3. a repeated sim of a tiny kernel -------------------------------------------------------
echo "== a tiny kernel, sim copy_float -D N=1024, 10 runs after one warm-up (the tool cache warm)"
"$WS" sim copy_float -D N=1024 >/dev/null 2>&1
for i in 1 2 3 4 5 6 7 8 9 10; do
    t0=$(now); "$WS" sim copy_float -D N=1024 >/dev/null 2>&1; t1=$(now)
    echo "$t1 - $t0" | bc
done | sort -n | awk '{ t[NR] = $1 } END { printf "  median %.3f s, fastest %.3f s, slowest %.3f s\n", (t[5] + t[6]) / 2, t[1], t[NR] }'

# --- 4. the bare interpreter and the visualizer -----------------------------------------------
echo "== interpreter alone (no listener, one core): build/bench_interp"
"$BUILD/bench_interp" demos transpose_naive | tail -2
if [ -x "$BUILD/bench_viz" ]; then
    echo "== visualizer: frame time at 1280x800, SDL software renderer"
    SDL_VIDEODRIVER=dummy "$BUILD/bench_viz"
else
    echo "== visualizer: not built (SDL2 not found), no frame time"
fi
# --- 5. viz's first frame at the realistic sizes ----------------------------------------------
viz_first() { # kernel: prints seconds to its first frame, or why there is none
    : >"$tmpd/ff"
    "$WS" viz "$1" --realistic --headless --first-frame-time >"$tmpd/ff" 2>"$tmpd/ff.err" &
    pid=$!
    i=0 # at most 60 s; the totals' run after the first frame is not waited for
    while [ $i -lt 600 ] && ! grep -q "first frame after" "$tmpd/ff" && kill -0 "$pid" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    t=$(sed -n 's/.* first frame after \([0-9.]*\) s (\([0-9]*\) of \([0-9]*\) blocks.*/\1 \2 \3/p' "$tmpd/ff" | head -1)
    if [ -n "$t" ]; then echo "$1 $t"; else echo "$1 none $(grep -m1 . "$tmpd/ff.err" | cut -c1-100)"; fi
}
if "$WS" viz --help >/dev/null 2>&1; then
    echo "== viz first frame: every catalog kernel at its realistic size (viz --realistic --headless --first-frame-time)"
    while read -r k; do viz_first "$k"; done <"$tmpd/kernels" >"$tmpd/ff.all"
    sort -k2 -g -r "$tmpd/ff.all" | awk '$2 != "none" { n++; s[n] = $2; if (n <= 5) printf "  %-30s %6.3f s  (%s of %s blocks simulated for it)\n", $1, $2, $3, $4 }
        $2 == "none" { bad = bad " " $1 }
        END { if (n) printf "  %d kernels: slowest %.3f s, median %.3f s, %d over 1 s%s\n", n, s[1], s[int((n + 1) / 2)],
                           over, bad != "" ? "; no first frame:" bad : "" }
        $2 != "none" && $2 > 1 { over++ }'
fi
echo "== done, load average $(load)"
