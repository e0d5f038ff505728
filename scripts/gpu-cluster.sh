#!/bin/sh
# gpu-cluster.sh - thread-block clusters (demos/cluster.cu, tests/gpu/cluster_swap.cu) on the GPU
# present, for issue 24 item 3: each kernel through `warpscope check` (outputs against the
# simulator, racecheck on the cluster launch - it follows a cluster's blocks together since round 2 -
# and the distributed shared memory rows smsp__sass_inst_executed_op_dshared_* and
# l1tex__t_{requests,sectors}_pipe_lsu_mem_dshared_* against ncu's: the sector rule is an
# assumption until this run), at cluster sizes 2, 4 and 8, the cluster-of-two exchange, then the
# lesson pair timed at a size beyond L2. Round 3: the TMA pair table_per_block / table_multicast
# (cp.async.bulk, and .multicast::cluster to every block of the cluster) at the same sizes: outputs,
# and the TMA rows (the copies counted once per issuing thread, the global side read once, the
# bytes written into every destination block) against ncu's, with
# l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld{,_dest_multicast,_dest_self}.sum and
# sm__inst_executed_pipe_tma.sum queried beside check in ncu.log (their multicast rule is not known yet).
# Writes into $OUT (default ./out-cluster) two files: env.txt (GPU, driver, nvcc, ncu, date, commit)
# and cluster.tar.gz holding build.log, check.log (check's report and exit codes), ncu.log, pair.log and
# results/<gpu>.json and .md (check --record): the device returns at most 8 files.
# Exit status: the worst `check` exit code (0 all agree, 3 a counter or output differs, 4 no GPU).
# Run from the repository root: OUT=/some/dir sh scripts/gpu-cluster.sh   (about 3 minutes)
set -u
OUT=${OUT:-out-cluster}
BIN=${WS_BIN:-build/warpscope}
W="$OUT/cluster"                  # everything but env.txt, tarred at the end
mkdir -p "$W/results"
worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; return 0; }
# every way out leaves the logs in one archive beside env.txt
finish() { tar -czf "$OUT/cluster.tar.gz" -C "$OUT" cluster && rm -rf "$W"; exit "$1"; }

{
    echo "== $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uname -n)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 || true
    command -v ncu && ncu --version 2>&1 | tail -1
    command -v nvcc && nvcc --version 2>&1 | tail -1
    echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} > "$W/build.log" 2>&1
cp "$W/build.log" "$OUT/env.txt"
if [ ! -x "$BIN" ]; then
    cj=""; [ -d .device-carry/cjson/usr ] && cj="CJSON_DIR=.device-carry/cjson/usr"   # scripts/gpu-carry.sh
    # shellcheck disable=SC2086
    make -j"$(nproc 2>/dev/null || echo 4)" $cj CFLAGS=-Wno-error build/warpscope >> "$W/build.log" 2>&1 || {
        echo "gpu-cluster: build failed, see build.log in $OUT/cluster.tar.gz" >&2
        finish 5
    }
fi

: > "$W/check.log"
for g in 2 4 8; do
    for k in reduce_groups_atomic cluster_dsmem_reduce table_per_block table_multicast; do
        echo "+ $BIN check --record $W/results/ -D G=$g $k" >> "$W/check.log"
        "$BIN" check --record "$W/results/" -D G="$g" "$k" >> "$W/check.log" 2>&1
        rc=$?
        echo "exit $rc: $k G=$g" >> "$W/check.log"
        [ $rc = 4 ] && { echo "gpu-cluster: no usable GPU (exit 4), see check.log in $OUT/cluster.tar.gz" >&2; finish 4; }
        note $rc
    done
done

# the cluster-of-two exchange (__cluster_dims__, cuLaunchKernel), its description in tests/gpu/
k=tests/gpu/cluster_swap.cu:cluster_swap
echo "+ $BIN check --record $W/results/ $k" >> "$W/check.log"
"$BIN" check --record "$W/results/" "$k" >> "$W/check.log" 2>&1
rc=$?
echo "exit $rc: $k" >> "$W/check.log"
note $rc

# the TMA unit's own counters for the table pair at G=4 (what ncu says multicast reads and executes)
: > "$W/ncu.log"
if command -v ncu >/dev/null 2>&1; then
    for k in table_per_block table_multicast; do
        echo "+ ncu $k G=4" >> "$W/ncu.log"
        ncu --clock-control none --csv --metrics l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_self.sum,sm__inst_executed_pipe_tma.sum,lts__t_sectors_srcunit_tex_op_read.sum \
            "$BIN" check --gpu-only -D G=4 "$k" >> "$W/ncu.log" 2>&1
        echo "exit $?: ncu $k" >> "$W/ncu.log"
    done
fi

# the lesson pairs at 2^26 inputs (256 MiB, beyond the 60 MiB L2): time only
: > "$W/pair.log"
for k in reduce_groups_atomic cluster_dsmem_reduce table_per_block table_multicast; do
    "$BIN" check --gpu-only --record "$W/results/" -D N=67108864 "$k" >> "$W/pair.log" 2>&1
    echo "exit $?: $k N=67108864" >> "$W/pair.log"
done
for f in "$W"/results/*.json; do
    [ -f "$f" ] && "$BIN" check --markdown "$f" > "${f%.json}.md" 2>&1
done
echo "gpu-cluster: worst check exit $worst; see check.log in $OUT/cluster.tar.gz" >&2
finish "$worst"
