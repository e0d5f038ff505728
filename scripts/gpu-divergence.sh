#!/bin/sh
# gpu-divergence.sh - on a GPU machine: do warps reconverge where the simulator
# says? Runs demos/divergence.cu through `warpscope check` (outputs, and every
# exact counter against ncu: smsp__sass_inst_executed_op_global_st.sum is one
# per warp after the branch) and records it; then three probes whose hardware
# count the simulator can only guess from the PTX (lanes that store and leave
# a loop in different iterations), and the SASS lines around them.
# Run from the repository root; builds build/warpscope when it is missing.
#   OUT=/some/dir sh scripts/gpu-divergence.sh
# Writes under $OUT: gpu-divergence.log (everything, in order), check.txt,
# results/<gpu>.json + .md (the catalog run, for `check --replay`), probes.txt,
# probes/<gpu>.json, probe_divergence.cu, sass.txt. Exit: the catalog check's.
set -u
OUT=${OUT:-/tmp/warpscope-divergence}
BIN=${WS_BIN:-build/warpscope}
KERNELS="div_copy div_trap div_return div_exit div_return_taken div_nested div_loop div_syncwarp div_barrier"
mkdir -p "$OUT/results" "$OUT/probes"
LOG="$OUT/gpu-divergence.log"
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }

say "gpu-divergence at $(date -u +%FT%TZ) on $(hostname)"
{ nvidia-smi -L; command -v nvcc ptxas cuobjdump ncu; nvcc --version | tail -n 1; } >> "$LOG" 2>&1

if [ ! -x "$BIN" ]; then
    say "== make"
    make -j16 >> "$LOG" 2>&1 || { say "gpu-divergence: make failed (see $LOG)"; exit 5; }
fi

# 1. the catalog family: must agree on every exact counter
say "== check $KERNELS"
# shellcheck disable=SC2086 # one argument per kernel
"$BIN" check --record "$OUT/results/" $KERNELS > "$OUT/check.txt" 2>&1
rc=$?
cat "$OUT/check.txt" >> "$LOG"
say "== check: exit $rc (0 = every exact counter and output agrees)"
for j in "$OUT"/results/*.json; do
    [ -f "$j" ] && "$BIN" check --markdown "$j" > "${j%.json}.md" 2>> "$LOG"
done
grep -E "^== |inst_executed_op_global|  => |cause:|kernels agree" "$OUT/check.txt" | head -n 80 | tee -a "$LOG"

# 2. probes: the order of paths that never meet again is the simulator's
#    documented choice (the side that leaves runs first); these show the GPU's.
cat > "$OUT/probe_divergence.cu" <<'EOF'
/* Lane t of each warp finds its value at iteration t % 4 of a search loop (kept a
 * loop: fully unrolled, every find would branch to one shared block). */

/*@warpscope
kernel  probe_search_return
note    Lanes store aux and return in the iteration they find; nobody reaches the end.
param   N = 1<<13
buffer  in   int  N+64  init=index
buffer  aux  int  N     init=zero  output
buffer  out  int  N     init=zero  output
grid    cdiv(N, 256)
block   256
args    in, aux, out, N
*/
__global__ void probe_search_return(const int *in, int *aux, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int want = i + (threadIdx.x & 3);
#pragma unroll 1
    for (int k = 0; k < 64; k++) {
        if (in[i + k] == want) {
            aux[i] = k;
            return;
        }
    }
    out[i] = i;
}

/*@warpscope
kernel  probe_search_return_m1
note    As probe_search_return with out[i] = -1: ptxas moves the loop's BSYNC to the other exit.
param   N = 1<<13
buffer  in   int  N+64  init=index
buffer  aux  int  N     init=zero  output
buffer  out  int  N     init=zero  output
grid    cdiv(N, 256)
block   256
args    in, aux, out, N
*/
__global__ void probe_search_return_m1(const int *in, int *aux, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int want = i + (threadIdx.x & 3);
#pragma unroll 1
    for (int k = 0; k < 64; k++) {
        if (in[i + k] == want) {
            aux[i] = k;
            return;
        }
    }
    out[i] = -1;
}

/*@warpscope
kernel  probe_search_break
note    Lanes store aux and break in the iteration they find; then every lane stores out.
param   N = 1<<13
buffer  in   int  N+64  init=index
buffer  aux  int  N     init=zero  output
buffer  out  int  N     init=zero  output
grid    cdiv(N, 256)
block   256
args    in, aux, out, N
*/
__global__ void probe_search_break(const int *in, int *aux, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int want = i + (threadIdx.x & 3), k;
#pragma unroll 1
    for (k = 0; k < 64; k++) {
        if (in[i + k] == want) {
            aux[i] = k;
            break;
        }
    }
    out[i] = k;
}
EOF
# The simulator: 4 aux stores per warp in each (one per iteration in which lanes
# find, the leaving side first), probe_search_break 1 out store more. ptxas (13.0):
# probe_search_return has its BSYNC before the aux store (the GPU should count 1
# per warp), probe_search_return_m1 before the out store and probe_search_break
# after the aux store (the GPU's order of the two paths decides: 1 to 4).
say "== probes (not judged here; see the comment in this script for what each shows)"
"$BIN" check --record "$OUT/probes/" "$OUT/probe_divergence.cu:probe_search_return" \
    "$OUT/probe_divergence.cu:probe_search_return_m1" \
    "$OUT/probe_divergence.cu:probe_search_break" > "$OUT/probes.txt" 2>&1
say "== probes: exit $?"
cat "$OUT/probes.txt" >> "$LOG"
grep -E "^== |inst_executed_op_global|  => |output:" "$OUT/probes.txt" | head -n 40 | tee -a "$LOG"

# 3. where ptxas put the convergence barriers
if command -v nvcc > /dev/null 2>&1 && command -v cuobjdump > /dev/null 2>&1; then
    tmp=$(mktemp -d)
    for cu in demos/divergence.cu "$OUT/probe_divergence.cu"; do
        nvcc -cubin -arch=sm_90 -O3 -o "$tmp/k.cubin" "$cu" >> "$LOG" 2>&1 &&
            cuobjdump -sass "$tmp/k.cubin" |
            grep -E "Function :|BSSY|BSYNC|BREAK|WARPSYNC|EXIT|BPT|STG|LDG|BRA" >> "$OUT/sass.txt"
    done
    rm -rf "$tmp"
    say "== sass: $(grep -c BSSY "$OUT/sass.txt") BSSY lines in $OUT/sass.txt"
else
    say "== sass: skipped (nvcc or cuobjdump not on PATH)"
fi
say "gpu-divergence: done, exit $rc; logs in $OUT"
exit $rc
