#!/usr/bin/env python3
"""shared-rate-table.py - the table of scripts/gpu-shared-rate.sh's results: per form and warps/SM, the
wavefronts one warp instruction takes (ncu), the SM cycles one wavefront takes (clock64 span / the ncu
wavefronts) and ncu's own wavefronts per sm__cycles_elapsed. Reads DIR/rate.csv, DIR/once.txt and
DIR/ncu-*.csv (tests/gpu/shared_rate_probe.cu says what each is).

    python3 scripts/shared-rate-table.py DIR [--csv OUT.csv]

Matching: the probe's `once` mode prints "# once,ID,form,warps" for each launch in launch order; ncu
numbers the kernels it profiles from 0 in the same order, so the n-th probe kernel of one ncu run is
the n-th "# once" line of that run (once.txt prefixes each line with its run: "32 # once,...").
"""
import argparse
import csv
import glob
import os
import sys
from collections import defaultdict

WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
NEED = [WF, "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
        "smsp__inst_executed_op_shared_atom.sum", "sm__cycles_elapsed.avg"]


def num(s):
    try:
        return float(s.replace(",", ""))
    except (ValueError, AttributeError):
        return None


def ncu_rows(d):
    """{(form, warps): {metric: value}} from every ncu-*.csv and once.txt."""
    once = defaultdict(list)
    for line in open(os.path.join(d, "once.txt")):
        run, _, rest = line.strip().partition(" ")
        f = rest.split(",")
        if len(f) == 4:
            once[run.replace(",", "_")].append((f[2], int(f[3])))
    out = {}
    for path in sorted(glob.glob(os.path.join(d, "ncu-*.csv"))):
        run = os.path.basename(path)[4:-4]
        per_id = defaultdict(dict)
        order = []
        for r in csv.DictReader(l for l in open(path) if l.startswith('"')):
            if "probe" not in r.get("Kernel Name", ""):
                continue
            i = int(r["ID"])
            if i not in per_id:
                order.append(i)
            per_id[i][r["Metric Name"]] = num(r["Metric Value"])
        for n, i in enumerate(order):
            if n < len(once[run]):
                out[once[run][n]] = per_id[i]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--csv")
    a = ap.parse_args()
    nc = ncu_rows(a.dir)
    rows = []
    for r in csv.DictReader(l for l in open(os.path.join(a.dir, "rate.csv")) if not l.startswith("#")):
        key = (r["form"], int(r["warps_per_sm"]))
        m = nc.get(key, {})
        inst = sum(m.get(k) or 0 for k in NEED[1:4])
        wf = m.get(WF)
        wf_inst = wf / inst if wf and inst else None
        winst = float(r["winst_per_sm"])
        span = float(r["span_cyc"])
        # shared instructions only: an LDG beside them has no shared wavefronts
        shared_winst = winst / 2 if r["opB"] == "ldg32" else winst
        cyc_wf = span / (shared_winst * wf_inst) if wf_inst else None
        ncu_rate = wf / 132.0 / m["sm__cycles_elapsed.avg"] if wf and m.get("sm__cycles_elapsed.avg") else None
        rows.append(dict(form=r["form"], warps=key[1], resident=r["resident_blocks"], mhz=r["mhz"],
                         nominal=int(r["nomwfA"]) + int(r["nomwfB"]), wf_inst=wf_inst,
                         cyc_winst=float(r["cyc_per_winst"]), cyc_wf=cyc_wf, ncu_wf_clk=ncu_rate,
                         conflicts=sum(m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + o + ".sum") or 0
                                       for o in ("ld", "st", "atom")),
                         mio=m.get("smsp__warps_issue_stalled_mio_throttle.sum"),
                         active=m.get("smsp__warps_active.sum")))
    f = lambda v, p=3: "-" if v is None else f"{v:.{p}f}"
    print("| form | warps/SM | MHz | nominal wf | ncu wf/inst | cycles/inst | cycles/wf | ncu wf/cycle | mio-throttled share |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        mio = r["mio"] / r["active"] if r["mio"] and r["active"] else None
        print(f"| {r['form']} | {r['warps']} | {r['mhz']} | {r['nominal']} | {f(r['wf_inst'], 2)} | "
              f"{f(r['cyc_winst'], 2)} | {f(r['cyc_wf'])} | {f(r['ncu_wf_clk'])} | {f(mio, 2)} |")
    if a.csv:
        with open(a.csv, "w", newline="") as fo:
            w = csv.DictWriter(fo, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
