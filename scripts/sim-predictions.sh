#!/bin/sh
# Records `warpscope sim` for every catalog kernel on one device profile, so the
# model's predictions can later be compared with the GPU (`warpscope check`).
# Usage: scripts/sim-predictions.sh [device] [warpscope binary]   (default h200, build/warpscope)
# Writes results/sim/<device>/<kernel>.json and results/sim/<device>/summary.csv
# (kernel, predicted us, bound, effective GB/s, DRAM bytes read, L2 read sectors,
#  global load sectors/request, shared load wavefronts, ncu bank conflicts).
set -eu
dev=${1:-h200}
bin=${2:-build/warpscope}
out=results/sim/$dev
mkdir -p "$out"
summary=$out/summary.csv
echo "kernel,predicted_us,bound,effective_gbs,dram_bytes_read,lts_sectors_read,ld_sectors_per_request,shared_ld_wavefronts,shared_ld_bank_conflicts_ncu" > "$summary"
fail=0
for f in demos/*.cu; do
    for k in $(sed -n 's/^kernel[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p' "$f"); do
        if "$bin" sim "$f:$k" --device "$dev" --json > "$out/$k.json" 2> "$out/$k.err"; then
            rm -f "$out/$k.err"
            python3 - "$out/$k.json" "$k" >> "$summary" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = {m["name"]: m["value"] for m in d["totals"]}
g = lambda n: t.get(n, 0)
print("%s,%.3f,%s,%.1f,%d,%d,%.2f,%d,%d" % (sys.argv[2], d["timing"]["predicted_us"], d["timing"]["bound"],
      d["timing"]["effective_bandwidth_gbs"], g("dram__bytes_read.sum"), g("lts__t_sectors_srcunit_tex_op_read.sum"),
      g("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"),
      g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
      g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")))
EOF
        else
            echo "sim-predictions: $f:$k failed (see $out/$k.err)" >&2
            rm -f "$out/$k.json"
            fail=$((fail + 1))
        fi
    done
done
echo "sim-predictions: wrote $summary ($fail failed)"
