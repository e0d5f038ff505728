#!/usr/bin/env python3
"""realistic-resim.py - re-simulates the catalog's realistic-size runs recorded without counters
(results/h200-realistic/h200.json, `check --gpu-only --realistic`) one kernel at a time, sampled,
and judges the predicted time against the recorded event median: within 20 % and median |error|.

    python3 scripts/realistic-resim.py [--ws build/warpscope] [--timeout 120] [--jobs 1]
           [--json results/h200-realistic/h200.json] [--out predictions.csv] [KERNEL...]

Each kernel is `warpscope sim KERNEL -D <recorded override>... --sample -j JOBS --json` under a
timeout (a kernel past it is listed as not finished). `check --validate` replays the same runs in
one process; this script exists so that a slow kernel costs its timeout, not the whole pass, and so
that two builds can be compared kernel by kernel (--out writes kernel,overrides,measured_us,
predicted_us,bound). Arguments reach warpscope as argv (subprocess, no shell).
"""
import argparse
import csv
import json
import statistics
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws", default="build/warpscope")
    ap.add_argument("--json", default="results/h200-realistic/h200.json")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", default="1")
    ap.add_argument("--out")
    ap.add_argument("kernels", nargs="*")
    a = ap.parse_args()
    runs = json.load(open(a.json))["runs"]
    rows, missing = [], []
    for r in runs:
        k = r["kernel"]
        if a.kernels and k not in a.kernels:
            continue
        med = (r.get("time") or {}).get("median_ms")
        if not med:
            continue
        argv = [a.ws, "sim", k, "--sample", "-j", a.jobs, "--json"]
        for w in (r.get("overrides") or "").split():
            argv += ["-D", w]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=a.timeout)
            t = json.loads(p.stdout)["timing"]
        except subprocess.TimeoutExpired:
            missing.append((k, "timeout"))
            print(f"{k}: past {a.timeout:.0f} s", file=sys.stderr)
            continue
        except (ValueError, KeyError):
            missing.append((k, "no prediction"))
            print(f"{k}: no prediction", file=sys.stderr)
            continue
        m, pr = med * 1e3, t["predicted_us"]
        rows.append((k, r.get("overrides") or "", m, pr, t.get("bound_class", "")))
        print(f"{k} {r.get('overrides') or ''}: measured {m:.1f} predicted {pr:.1f} us "
              f"({100 * (pr - m) / m:+.0f} %) {t.get('bound_class', '')}", file=sys.stderr, flush=True)
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "overrides", "measured_us", "predicted_us", "bound"])
            w.writerows(rows)
    errs = [abs(pr - m) / m for _, _, m, pr, _ in rows]
    if errs:
        within = sum(e <= 0.20 for e in errs)
        print(f"{len(rows)} kernels: {within} within 20 %, median |error| {100 * statistics.median(errs):.1f} %"
              f"; not finished: {len(missing)} {' '.join(k for k, _ in missing)}")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
