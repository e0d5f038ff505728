#!/bin/sh
# contention-validate.sh - the contention model against the H200 contention probe: simulates every
# configuration of results/h200-contention/contention.csv (tests/data/atomics/probe.cu, the probe's
# kernels as descriptions, at the probe's sizes) and prints predicted vs measured time, the ratio,
# the bound, then the share within 20 % and the histogram pair (global / privatised) ratios.
# Markdown on stdout (results/h200-contention-validation.md is its output).
# Usage: [WS=build/warpscope] [SHARED_DIV=16] [ONLY=regex] sh scripts/contention-validate.sh
#   SHARED_DIV: the shared-atomic configurations (128 atomics per thread, ~10^10 simulated thread
#   instructions each at the probe's size) are simulated with 1/SHARED_DIV of the blocks and their
#   time scaled by the busiest SM's block count (the terms are per SM); 1 = the probe's size.
# The probe's generated data (hashed bytes and ints) is written by python3 next to a copy of the
# description, in a temporary folder; nothing else is written.
set -eu
cd "$(dirname "$0")/.."
WS=${WS:-build/warpscope}
SHARED_DIV=${SHARED_DIV:-16}
ONLY=${ONLY:-}
[ -x "$WS" ] || { echo "contention-validate: $WS not built (make build/warpscope)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp tests/data/atomics/probe.cu "$tmp/"
for f in tests/data/atomics/probe.ptx tests/data/atomics/probe.resources; do
    [ -f "$f" ] && cp "$f" "$tmp/"
done
exec python3 - "$WS" "$tmp" "$SHARED_DIV" "$ONLY" <<'EOF'
import csv, json, math, os, re, subprocess, sys, time

ws, tmp, shared_div, only = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
M = 0xffffffff

def hash32(x):
    x ^= x >> 16; x = (x * 0x7feb352d) & M; x ^= x >> 15; x = (x * 0x846ca68b) & M; x ^= x >> 16
    return x

def np_hash32(x):
    import numpy as np
    x = x.astype(np.uint64)
    x ^= x >> 16; x = (x * 0x7feb352d) & M; x ^= x >> 15; x = (x * 0x846ca68b) & M; x ^= x >> 16
    return x

def write_data():
    """The probe's k_fill_bytes and k_fill_ints, bit for bit."""
    import numpy as np
    for lg in (24, 26):
        i = np.arange(1 << lg, dtype=np.uint64)
        h = np_hash32(i ^ 0x9e3779b9)
        b = (h & 0xff).astype(np.uint8)
        b.tofile(os.path.join(tmp, 'bytes-uniform-%d.u8' % lg))
        hot = np.array([3, 77, 128, 201], dtype=np.uint8)
        s = np.where((h >> 8) % 10 < 9, hot[((h >> 16) & 3).astype(np.int64)], b).astype(np.uint8)
        s.tofile(os.path.join(tmp, 'bytes-skew-%d.u8' % lg))
    for lg in (22, 24):
        i = np.arange(1 << lg, dtype=np.uint64)
        v = (np_hash32(i + 12345) >> 1).astype(np.int32)
        v.tofile(os.path.join(tmp, 'ints-%d.i32' % lg))

def config(name, n):
    """(description, {param: value}) for one probe configuration, or None."""
    m = re.match(r'(gf?)_(.*)_(red|atom)$', name)
    if m and not name.startswith('g_one_literal') and name not in ('g_cas_max', 'g_atomic_max'):
        kern = 'probe_%s_%s' % (m.group(1), m.group(3))
        what = m.group(2)
        p = {'THREADS': n, 'MODE': 0, 'K': 1, 'STRIDE': 1, 'SPAN': 1}
        if what == 'one': pass
        elif what.startswith('warp_'):
            stride = 1 if what == 'warp_4B' else 32
            p.update(MODE=1, STRIDE=stride, SPAN=(n // 32 - 1) * stride + 1)
        elif what.startswith('hash'):
            k = int(what[4:]); p.update(MODE=2, K=k, SPAN=k)
        elif what.startswith('lane'):
            k = int(what[4:]); p.update(MODE=3, K=k, SPAN=k)
        elif what.startswith('distinct'):
            stride = 1 if what == 'distinct4B' else 8
            p.update(MODE=4, STRIDE=stride, SPAN=(n - 1) * stride + 1)
        else: return None
        return kern, p
    if name.startswith('g_one_literal_'):
        return 'probe_g_one_literal_' + name.rsplit('_', 1)[1], {'THREADS': n}
    if name == 'g_cas_max': return 'probe_cas_max', {}
    if name == 'g_atomic_max': return 'probe_atomic_max', {}
    m = re.match(r's_(block|warp|lane32|onebank32|hash(\d+)|distinct)$', name)
    if m:
        mode = {'block': 0, 'warp': 1, 'lane32': 2, 'onebank32': 3, 'distinct': 5}.get(m.group(1), 4)
        return 'probe_shared', {'THREADS': n, 'MODE': mode, 'K': int(m.group(2) or 1), 'R': 128}
    m = re.match(r'hist_(naive|private|warpagg)_(uniform|skew)_2\^(\d+)$', name)
    if m: return 'probe_hist_%s_%s_%s' % m.groups(), {}
    m = re.match(r'launch_empty_(\d+)x(\d+)$', name)
    if m: return 'probe_empty', {'BLOCKS': int(m.group(1)), 'BLOCK': int(m.group(2))}
    return None

def simulate(kern, params):
    args = [ws, 'sim', os.path.join(tmp, 'probe.cu') + ':' + kern, '--json', '--budget', '400000000000']
    for k, v in params.items():
        args += ['-D', '%s=%d' % (k, v)]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'exit %d' % r.returncode)
    return json.loads(r.stdout)['timing']

rows = list(csv.DictReader(open('results/h200-contention/contention.csv')))
write_data()
print('# The contention model against the H200 contention probe\n')
print('`sh scripts/contention-validate.sh` (warpscope %s, profile h200): every configuration of' %
      subprocess.run([ws, '--version'], stdout=subprocess.PIPE, text=True).stdout.strip().split()[-1])
print('`results/h200-contention/contention.csv` simulated from `tests/data/atomics/probe.cu` (the probe\'s')
print('kernels and data, at the probe\'s thread counts). Ratio = predicted / measured median.')
if shared_div > 1:
    print('Shared-memory configurations (`s_*`, marked `/%d`) ran with 1/%d of the blocks; their time is' % (shared_div, shared_div))
    print('the launch overhead plus the rest scaled by the busiest SM\'s block count (`SHARED_DIV=1`: full size).')
print()
print('| configuration | threads | measured us | predicted us | ratio | bound |')
print('|---|---:|---:|---:|---:|---|')
res = {}
n_in = n_all = 0
for r in rows:
    name, n, meas = r['name'], int(r['threads']), float(r['median_us'])
    if only and not re.search(only, name): continue
    c = config(name, n)
    if not c:
        print('| %s | %d | %.1f | - | - | no description |' % (name, n, meas)); continue
    kern, p = c
    mark = ''
    scale = 1.0
    if kern == 'probe_shared' and shared_div > 1:
        full_blocks = n // 256
        p = dict(p, THREADS=n // shared_div)
        sim_blocks = p['THREADS'] // 256
        scale = math.ceil(full_blocks / 132) / math.ceil(sim_blocks / 132)
        mark = ' /%d' % shared_div
    t0 = time.time()
    try:
        t = simulate(kern, p)
    except Exception as e:
        print('| %s | %d | %.1f | - | - | simulation failed: %s |' % (name, n, meas, str(e).replace('|', '/'))); continue
    pred = t['predicted_us']
    if scale != 1.0:
        lo = t['launch_us']
        pred = lo + (pred - lo) * scale
    ratio = pred / meas
    res[name] = pred
    n_all += 1
    n_in += abs(ratio - 1) <= 0.2
    flag = '' if abs(ratio - 1) <= 0.2 else ' **outside 20 %**'
    print('| %s%s | %d | %.2f | %.2f | %.3f%s | %s |' % (name, mark, n, meas, pred, ratio, flag, t['bound']))
    sys.stdout.flush()
    print('contention-validate: %s %.1fs' % (name, time.time() - t0), file=sys.stderr)
print()
print('**Within 20 %%: %d of %d configurations (%.0f %%).**\n' % (n_in, n_all, 100.0 * n_in / max(n_all, 1)))
meas = {r['name']: float(r['median_us']) for r in rows}
print('| histogram pair (global / privatised) | measured | predicted | predicted / measured |')
print('|---|---:|---:|---:|')
for skew in ('uniform', 'skew'):
    for lg in (24, 26):
        a, b = 'hist_naive_%s_2^%d' % (skew, lg), 'hist_private_%s_2^%d' % (skew, lg)
        if a in res and b in res:
            mr, pr = meas[a] / meas[b], res[a] / res[b]
            print('| %s 2^%d | %.1fx | %.1fx | %.3f%s |' % (skew, lg, mr, pr, pr / mr,
                  '' if abs(pr / mr - 1) <= 0.25 else ' **outside 25 %**'))
EOF
