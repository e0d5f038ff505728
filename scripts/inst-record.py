#!/usr/bin/env python3
"""inst-record.py - turns the issued-instruction run of scripts/gpu-inst.sh (results/h200-inst/ncu.csv:
ncu's smsp__inst_executed.sum and sm__inst_executed_pipe_*.sum per launch; summary.txt: the simulator's
SASS issue count then) into a record `warpscope check --replay` judges (results/h200-inst/h200.json), so
the agreement is re-judged without a GPU (tests/test_check_replay.c).
Each launch becomes one run: its kernel and -D words as gpu-inst.sh ran them, every ncu metric as a
counter with its GPU value, "sim" only where the simulator's value was recorded (the total, from
summary.txt). ncu.csv has no registers: they are the driver's for the same kernel at its default size in
results/h200.json (the same PTX, so the same JIT; they set only the occupancy, which no counter here
depends on). No time was recorded, so the record has none.
Usage (repository root):
  python3 scripts/inst-record.py [results/h200-inst] [results/h200.json]
Reads and writes files only; nothing from them reaches a shell."""
import csv
import json
import os
import re
import sys


def number(text):
    return float(text.replace(',', ''))


def main(argv):
    folder = argv[0] if argv else 'results/h200-inst'
    catalog = argv[1] if len(argv) > 1 else 'results/h200.json'
    base = json.load(open(catalog))
    defaults = {r['kernel']: r for r in base['runs'] if r.get('overrides', '') == ''}
    launches, order = {}, []
    with open(os.path.join(folder, 'ncu.csv'), newline='') as f:
        for row in csv.reader(f):
            if len(row) < 17 or row[2] == 'ID':   # each launch's header line
                continue
            key = (row[0], row[1])
            if key not in launches:
                launches[key] = {'grid': row[10], 'block': row[9], 'metrics': {}}
                order.append(key)
            launches[key]['metrics'][row[14]] = number(row[16])
    recorded = {}
    line_re = re.compile(r'^(\S+) \[([^\]]*)\]: ncu (\d+) sim (\d+) ratio')
    for line in open(os.path.join(folder, 'summary.txt')):
        m = line_re.match(line)
        if m:
            recorded[(m.group(1), m.group(2))] = int(m.group(4))
    date = ''
    env = os.path.join(folder, 'env.txt')
    if os.path.exists(env):
        date = open(env).readline().strip()
    runs = []
    for key in order:
        kernel, sizes = key
        if kernel not in defaults:
            sys.exit('inst-record: %s: no run of %s at its default size in %s (its registers)' %
                     (folder, kernel, catalog))
        d = defaults[kernel]
        dims = lambda t: [int(x) for x in re.findall(r'\d+', t)]
        counters = []
        for name in sorted(launches[key]['metrics']):
            c = {'metric': name, 'gpu': launches[key]['metrics'][name]}
            if name == 'smsp__inst_executed.sum' and key in recorded:
                c['sim'] = recorded[key]
            counters.append(c)
        runs.append({'kernel': kernel, 'file': d['file'], 'overrides': sizes,
                     'grid': dims(launches[key]['grid']), 'block': dims(launches[key]['block']),
                     'registers': d['registers'], 'local_bytes': d['local_bytes'],
                     'static_shared_bytes': d['static_shared_bytes'], 'counters': counters})
    out = {'device': base['device'], 'date': date,
           'recorded_by': 'scripts/gpu-inst.sh (ncu --metrics), converted by scripts/inst-record.py',
           'runs': runs}
    with open(os.path.join(folder, 'h200.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print('inst-record: %d runs -> %s' % (len(runs), os.path.join(folder, 'h200.json')))


if __name__ == '__main__':
    main(sys.argv[1:])
