#!/usr/bin/env python3
"""l2dram-probe-replay.py - replays the configurations of the L2/DRAM probe (tests/gpu/l2dram_probe.cu,
recorded in results/h200-l2dram/l2dram-ncu.csv) through the simulator with the descriptions of
tests/data/l2dram/probe.cu, and prints simulated vs measured per counter, with the L2-sector rows
within 5 % and DRAM-byte rows within 10 % counted (issue 23's targets). The code_* configurations have
no description here (their launch fetch is tested in tests/test_cache.c).
Usage (repository root, after make build/warpscope):
  python3 scripts/l2dram-probe-replay.py [--bin build/warpscope] [--only PREFIX] [CSV]
warpscope gets its arguments as an argv list (no shell)."""
import csv
import json
import re
import subprocess
import sys

DESC = 'tests/data/l2dram/probe.cu'
METRICS = ['lts__t_sectors_srcunit_tex_op_read.sum', 'lts__t_sectors_srcunit_tex_op_write.sum',
           'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum',
           'lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum',
           'dram__bytes_read.sum', 'dram__bytes_write.sum']


def launch(cfg):
    """(description, -D overrides) for one probe configuration name, or None."""
    m = re.fullmatch(r'(write|copy)_(\d+)MB', cfg)
    if m:
        return 'k_' + m.group(1), {'BYTES': int(m.group(2)) << 20}
    m = re.fullmatch(r'partial_(\d+)MB_s(\d+)', cfg)
    if m:
        return 'k_partial', {'BYTES': int(m.group(1)) << 20, 'STRIDE': int(m.group(2))}
    m = re.fullmatch(r'local_(\d+)w', cfg)
    if m:
        return 'k_local' + m.group(1), {'ITERS': 64}
    return None


def main(argv):
    binary, only, src = 'build/warpscope', '', 'results/h200-l2dram/l2dram-ncu.csv'
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == '--bin':
            binary = args.pop(0)
        elif a == '--only':
            only = args.pop(0)
        else:
            src = a
    gpu = {}
    for r in csv.DictReader(open(src)):
        gpu.setdefault(r['config'], {})[r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
    tot = {'L2': [0, 0], 'DRAM': [0, 0]}
    for cfg, meas in gpu.items():
        if not cfg.startswith(only):
            continue
        l = launch(cfg)
        if not l:
            continue
        name, defs = l
        cmd = [binary, 'sim', DESC + ':' + name, '--json', '--full']
        for k, v in defs.items():
            cmd += ['-D', '%s=%d' % (k, v)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            print(cfg, 'sim failed:', p.stderr.strip()[:300])
            continue
        sim = {t['name']: t['value'] for t in json.loads(p.stdout)['totals']}
        for m in METRICS:
            if m not in meas or m not in sim:
                continue
            g, s = meas[m], float(sim[m])
            cls, tol = ('L2', 0.05) if m.startswith('lts__') else ('DRAM', 0.10)
            e = (s - g) / g if g else (0.0 if s == 0 else float('inf'))
            ok = abs(e) <= tol
            tot[cls][1] += 1
            tot[cls][0] += ok
            pct = 'inf' if e == float('inf') else '%+.1f %%' % (100 * e)
            print('%-18s %-52s gpu=%-12.0f sim=%-12.0f %9s %s' % (cfg, m, g, s, pct, '' if ok else 'OUT'))
    for c, (a, n) in tot.items():
        print('%s: %d/%d within %s %%' % (c, a, n, '5' if c == 'L2' else '10'))


if __name__ == '__main__':
    main(sys.argv[1:])
