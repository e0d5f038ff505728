#!/usr/bin/env python3
"""record-others.py - a recorded run file (warpscope check --record's JSON) as the "other runs" CSV
that `check --validate` and `check --replay` read beside the records (cuda/check_others.h): one
Nsight Compute CSV row per GPU counter of every run, in the form scripts/gpu-corpus-detail.sh writes
(columns "corpus kernel", "repeat", "ID", ..., "Metric Name", "Metric Unit", "Metric Value").

Why: a second full record of the same kernels is a second measurement of each counter; as an
operand of --validate it would be replayed as more rows, while as "other runs" it tells how far the
GPU lands from itself ("The GPU against itself" under the goals).

Each run's "repeat" is NAME (the argument), its "ID" 0, and it carries launch__grid_size (the
blocks, so only runs of as many blocks are compared) and the event-timed median as
ws__event_time_median_ns (check times the kernel with CUDA events; ncu's gpu__time_duration.sum,
also in the record's counters, is a different measure and keeps its own name).

Usage: scripts/record-others.py NAME RECORD.json [NAME RECORD.json ...] > others.csv
"""
import csv
import json
import sys

HEADER = ["corpus kernel", "repeat", "ID", "Process ID", "Process Name", "Host Name", "Kernel Name",
          "Context", "Stream", "Block Size", "Grid Size", "Device", "CC", "Section Name",
          "Metric Name", "Metric Unit", "Metric Value"]


def dims(v):
    v = list(v) + [1] * (3 - len(v))
    return "(%d, %d, %d)" % tuple(v[:3])


def rows_of(name, path):
    with open(path) as f:
        rec = json.load(f)
    for run in rec.get("runs", []):
        counters = run.get("gpu_counters")
        if not counters:
            continue
        grid = run.get("grid", [1, 1, 1])
        blocks = 1
        for g in grid:
            blocks *= int(g)
        base = [run["kernel"], name, "0", "", "warpscope", "", run.get("entry", run["kernel"]), "", "",
                dims(run.get("block", [1, 1, 1])), dims(grid), "0", "9.0", "Command line profiler metrics"]
        yield base + ["launch__grid_size", "", "%d (%d)" % (blocks, blocks)]
        for metric, value in sorted(counters.items()):
            if value is None:
                continue
            yield base + [metric, "", repr(value) if isinstance(value, float) else str(value)]
        t = run.get("time", {}).get("median_ms")
        if t is not None:
            yield base + ["ws__event_time_median_ns", "ns", "%.1f" % (t * 1e6)]


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.stderr.write(__doc__.split("Usage: ")[1])
        return 2
    out = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL, lineterminator="\n")
    out.writerow(HEADER)
    for i in range(1, len(argv), 2):
        try:
            for row in rows_of(argv[i], argv[i + 1]):
                out.writerow(row)
        except (OSError, ValueError, KeyError) as e:
            sys.stderr.write("record-others: %s: %s\n" % (argv[i + 1], e))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
