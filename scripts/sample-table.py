#!/usr/bin/env python3
"""sample-table.py - markdown rows of one launch's counters: a full `sim --json` beside sampled ones
(results/sample-vs-full-*.md). Rows: the written bytes' split, the L2 read counters, DRAM reads, and
every other total off by more than 0.1% in any sampled document; each sampled value as its
difference from the full run's.
usage: sample-table.py FULL.json SAMPLED.json [SAMPLED.json ...]"""
import json
import sys

KEY = ["thread_instructions", "lts__t_sectors_srcunit_tex_op_read.sum",
       "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
       "dram__bytes_read.sum", "dram__bytes_write.sum", "ws__l2_dirty_bytes_at_end"]


def totals(doc):
    t = {m["name"]: m["value"] for m in doc["totals"]}
    t["thread_instructions"] = doc["simulation"]["thread_instructions"]
    return t


def off(v, f):
    if f == 0:
        return "0" if v == 0 else "(full 0)"
    d = 100 * (v - f) / f
    return f"{d:+.2f}%" if abs(d) < 100 else f"{v / f:.2f}x"


def main():
    docs = [json.load(open(p)) for p in sys.argv[1:]]
    full, smp = totals(docs[0]), [totals(d) for d in docs[1:]]
    names = [n for n in KEY if n in full]
    names += [n for n in full if n not in names and not n.startswith("ws__sample") and full[n] and
              any(n in s and abs(s[n] - full[n]) > 0.001 * abs(full[n]) for s in smp)]
    for n in names:
        print(f"| `{n}` | {full[n]:.6g} | " + " | ".join(off(s.get(n, 0), full[n]) for s in smp) + " |")
    print("| blocks simulated | " + str(docs[0]["sampling"].get("blocks_total", "")) + " | " +
          " | ".join(str(d["sampling"].get("blocks_simulated", "")) for d in docs[1:]) + " |")


main()
