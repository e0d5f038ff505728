#!/usr/bin/env python3
"""l2dram-agreement.py - how many L2-sector rows (lts__t_sectors_*) agree within 5 % and DRAM-byte
rows (dram__bytes_read/write.sum) within 10 % of the GPU, plain relative error, no slack (issue 23's
targets; check's own CACHE class adds a slack), and every row outside with its kernel.
Input: the CSVs of `warpscope check --replay FILE --csv`. Example:
  for f in results/h200.json results/h200-pairs/h200.json results/h200-tensorcore/h200.json; do
    build/warpscope check --replay $f --csv > /tmp/$(basename $(dirname $f)).csv; done
  python3 scripts/l2dram-agreement.py /tmp/*.csv"""
import csv
import sys


def is_l2(m):
    return m.startswith('lts__t_sectors')


def is_dram(m):
    return m in ('dram__bytes_read.sum', 'dram__bytes_write.sum')


def main(files):
    tot, miss = {}, []
    for fn in files:
        rows = {}
        for r in csv.DictReader(open(fn)):
            m = r['metric']
            if r['scope'] != 'kernel' or not (is_l2(m) or is_dram(m)):
                continue
            side = 'gpu' if r['basis'] == 'measured' else 'sim'
            rows.setdefault((r['kernel'], r['variant'], m), {})[side] = float(r['value'])
        for (k, v, m), d in rows.items():
            if 'gpu' not in d or 'sim' not in d:
                continue
            cls, tol = ('L2', 0.05) if is_l2(m) else ('DRAM', 0.10)
            g, s = d['gpu'], d['sim']
            e = (s - g) / g if g else (0.0 if s == 0 else float('inf'))
            t = tot.setdefault(cls, [0, 0])
            t[1] += 1
            if abs(e) <= tol:
                t[0] += 1
            else:
                miss.append((cls, k, v, m, g, s, e))
    for c in sorted(tot):
        a, n = tot[c]
        print(f'{c}: {a}/{n} within {"5" if c == "L2" else "10"} %')
    for c, k, v, m, g, s, e in sorted(miss):
        pct = 'inf' if e == float('inf') else f'{100 * e:+.1f} %'
        print(f'{c:4s} {k:26s} {v:10s} {m:52s} gpu={g:<12.0f} sim={s:<12.0f} {pct}')


if __name__ == '__main__':
    main(sys.argv[1:])
