#!/usr/bin/env python3
"""sample-compare.py - a sampled `warpscope sim --json` beside a full one (make bench, issue 25):
wall times, and each kernel total's relative difference, grouped by basis (exact / model).
usage: sample-compare.py SAMPLED.json FULL.json SAMPLED_SECONDS FULL_SECONDS"""
import json
import sys


def totals(doc):
    return {t["name"]: (t["value"], t.get("basis", "")) for t in doc["totals"]}


def main():
    s, f = (json.load(open(p)) for p in sys.argv[1:3])
    ts, tf = float(sys.argv[3]), float(sys.argv[4])
    smp = s.get("sampling", {})
    print(f"  {s['kernel']} {s.get('overrides', '')}: sampled {ts:.1f} s, full {tf:.1f} s")
    print(f"  {smp.get('text', '(no sampling line)')}")
    a, b = totals(s), totals(f)
    worst = {}
    for name, (vf, basis) in b.items():
        if name not in a or name.startswith("ws__sample"):
            continue
        vs = a[name][0]
        d = abs(vs - vf) / abs(vf) if vf else (0.0 if vs == 0 else 1.0)
        if d > worst.get(basis, (0, ""))[0]:
            worst[basis] = (d, name)
        if d > 0.001:
            print(f"    {basis:6} {name}: sampled {vs:.6g} full {vf:.6g} ({100 * d:.3f}%)")
    for k in ("thread_instructions", "warp_instructions"):
        vs, vf = s["simulation"][k], f["simulation"][k]
        d = abs(vs - vf) / vf if vf else 0
        print(f"    {k}: sampled {vs} full {vf} ({100 * d:.4f}%)")
    for basis, (d, name) in sorted(worst.items()):
        print(f"  worst {basis} counter: {100 * d:.3f}% ({name})")


main()
