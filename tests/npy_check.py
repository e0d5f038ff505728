#!/usr/bin/env python3
"""npy_check.py - reads a folder that `warpscope sim --save DIR --save-inputs` wrote for the catalog's
saxpy_block256 (y = 2x + y, x = random(21), y = random(22), as common/buffers.h defines them) with NumPy
itself, and checks it from first principles:
  - manifest.json lists every file; each loads with numpy.load, with the manifest's dtype and shape;
  - each file is byte for byte what numpy.save writes for the same array (header and data);
  - each file's SHA-256 (hashlib) is the manifest's;
  - x and y's initial contents are SplitMix64's (counter seed + k, top 53 bits over 2^53, to float32),
    and the saved y is 2x + y exactly (2x is exact in float32, so a fused multiply-add and a
    multiply then an add agree bit for bit).
Usage: npy_check.py DIR N [simulator|gpu] (who computed the save; default simulator: `gpu --save`
writes the same files from the GPU's buffers). Exit 0 when all hold; 1 with what failed; 2 when NumPy is missing (never
a silent pass: the test that runs this fails)."""
import hashlib
import io
import json
import os
import sys

try:
    import numpy as np
except ImportError:
    print("npy_check: NumPy is not installed (Debian: apt-get install python3-numpy; scripts/deps.sh "
          "installs it); the .npy round trip cannot be checked", file=sys.stderr)
    sys.exit(2)

M64 = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def random_floats(seed, n):
    """init=random(seed) of a float buffer: lo + (hi - lo) * (u >> 11) * 2^-53 with lo 0, hi 1."""
    return np.array([(splitmix64(seed + k) >> 11) * 2.0 ** -53 for k in range(n)], dtype=np.float64).astype(np.float32)


def fail(msg):
    print("npy_check: " + msg, file=sys.stderr)
    sys.exit(1)


def main(folder, n, by):
    if splitmix64(0) != 0xE220A8397B1DCDAF:
        fail("the SplitMix64 of this script is wrong")
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    if man["kernel"] != "saxpy_block256" or man["params"]["N"] != n or man["computed_by"] != by:
        fail(f"manifest names {man['kernel']} N={man['params'].get('N')} by {man['computed_by']}")
    arrays = {}
    for b in man["buffers"]:
        path = os.path.join(folder, b["file"])
        a = np.load(path, allow_pickle=False)
        if a.dtype != np.dtype(b["dtype"]) or list(a.shape) != b["shape"] or a.nbytes != b["bytes"]:
            fail(f"{b['file']}: numpy reads {a.dtype} {a.shape}, the manifest says {b['dtype']} {b['shape']}")
        raw = open(path, "rb").read()
        ref = io.BytesIO()
        np.save(ref, a)
        if raw != ref.getvalue():
            fail(f"{b['file']}: not byte for byte what numpy.save writes")
        if hashlib.sha256(raw).hexdigest() != b["sha256"]:
            fail(f"{b['file']}: sha256 differs from the manifest's")
        arrays[(b["name"], b["role"])] = a
    want = {("x", "input"), ("y", "input"), ("y", "output")}
    if set(arrays) != want:
        fail(f"files for {sorted(arrays)}, want {sorted(want)}")
    x0, y0 = random_floats(21, n), random_floats(22, n)
    if not np.array_equal(arrays[("x", "input")], x0) or not np.array_equal(arrays[("y", "input")], y0):
        fail("the initial contents are not SplitMix64's random(21) and random(22)")
    y1 = (np.float32(2.0) * x0 + y0).astype(np.float32)
    got = arrays[("y", "output")]
    if not np.array_equal(got, y1):
        k = int(np.flatnonzero(got != y1)[0])
        fail(f"y[{k}] = {got[k]!r}, want 2x + y = {y1[k]!r}")
    print(f"npy_check: {len(arrays)} files of {folder} load in NumPy {np.__version__}, match numpy.save byte for byte, "
          f"and hold 2x + y for N = {n}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in ("simulator", "gpu")):
        print(__doc__, file=sys.stderr)
        sys.exit(1)
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else "simulator"))
