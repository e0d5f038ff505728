#!/usr/bin/env python3
"""record-counters.py - a time-only record (warpscope check --gpu-only --record's JSON) with the GPU
counters of another run of the same launches added, as `check --no-sim` would have recorded them.

Why: at realistic sizes the corpus GEMMs were recorded on their time alone (check simulates every
block at record time: minutes each). scripts/gpu-corpus-detail.sh profiled some of them again with
ncu at the same size (REPEAT_LABEL=plain REPEAT_D=...: the repeat column "1@M=2048,N=2048,K=2048"),
which measured their L2 and DRAM counters. A run with counters and "no_sim": true is simulated on a
sample of its blocks by `check --replay`/`--validate` and judged on each counter, so those
measurements enter the L2 and DRAM goals at the size the kernels are used at.

Each run of RECORD whose kernel has rows in DETAIL.csv of the given repeat (and launch__grid_size
equal to the run's blocks: the same launch) gets "no_sim": true and a counter per METRIC found
(the GPU's value; the simulator's null, as --no-sim writes it), beside its event-timed time row
(gpu__time_duration.sum, the record's median in ns, as check records it). Other runs are copied
unchanged. "recorded_by" says what was assembled from what.

Usage: scripts/record-counters.py RECORD.json DETAIL.csv REPEAT [METRIC ...] > out.json
       (METRIC defaults to the L2 read sectors, their hits and misses, the L2 read requests and
       the DRAM bytes read)
"""
import csv
import json
import sys

DEFAULT_METRICS = ["lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
                   "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "lts__t_requests_srcunit_tex_op_read.sum",
                   "dram__bytes_read.sum"]


def number(text):
    """An ncu CSV value: '1,234,567' or '12.5'; None where it is not a number ('16 (16)' is the grid)."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def detail_of(path, repeat):
    """{kernel: {metric: text}} of one repeat of a gpu-corpus-detail.sh CSV."""
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("repeat") == repeat:
                out.setdefault(row["corpus kernel"], {})[row["Metric Name"]] = row["Metric Value"]
    return out


def blocks_of(run):
    n = 1
    for g in run.get("grid", [1, 1, 1]):
        n *= int(g)
    return n


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__.split("Usage: ")[1])
        return 2
    record_path, detail_path, repeat = argv[1], argv[2], argv[3]
    metrics = argv[4:] or DEFAULT_METRICS
    try:
        with open(record_path) as f:
            rec = json.load(f)
        detail = detail_of(detail_path, repeat)
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write("record-counters: %s\n" % e)
        return 1
    added = 0
    for run in rec.get("runs", []):
        d = detail.get(run["kernel"])
        if not d or run.get("counters"):
            continue
        grid = d.get("launch__grid_size", "").split(" ")[0].replace(",", "")
        if not grid.isdigit() or int(grid) != blocks_of(run):
            sys.stderr.write("record-counters: %s: %s's launch__grid_size %r is not the record's %d blocks: left "
                             "time-only\n" % (run["kernel"], repeat, grid, blocks_of(run)))
            continue
        counters = [{"metric": "gpu__time_duration.sum", "class": "time", "sim": None,
                     "gpu": run["time"]["median_ms"] * 1e6, "verdict": "missing"}]
        for m in metrics:
            v = number(d.get(m, ""))
            if v is not None:
                counters.append({"metric": m, "class": "cache", "sim": None, "gpu": v, "verdict": "missing"})
        run["counters"] = counters
        run["no_sim"] = True
        run["counters_note"] = "ncu in another run of this launch (%s, repeat %s), added by scripts/record-counters.py" % (
            detail_path, repeat)
        added += 1
    rec["recorded_by"] = "%s; counters of %d runs added from %s (repeat %s) by scripts/record-counters.py" % (
        rec.get("recorded_by", "?"), added, detail_path, repeat)
    json.dump(rec, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
