#!/usr/bin/env python3
"""sass-count-compare.py - the simulator's per-SASS-instruction executed counts beside ncu's.

  WARPSCOPE_SASS_COUNTS=/tmp/sim.tsv build/warpscope check --replay results/h200-corpus-tensor5/h200.json K...
  tar -xzf results/h200-corpus-detail/sass.tar.gz -C /tmp/ncu
  python3 scripts/sass-count-compare.py /tmp/sim.tsv /tmp/ncu/sass-*.csv [--blocks]

ncu's source page (SourceCounters, one CSV per kernel: "Address", "Source", "Instructions Executed")
is the GPU's: its driver JIT-compiled the same PTX this machine's ptxas compiles. First the two
listings are compared opcode by opcode (the same machine code or not, and by how much); then, per SASS
basic block of the simulator's listing, its runs beside the GPU's count of the block's instructions,
and each difference is put under one cause computed from the listing and the counts:

  stand-in of several       the block shares its stand-in anchor (a PTX instruction of its line) with
                            other blocks: a switch's ladder or a remainder loop at one line, every block
                            counted as often as that instruction
  divergent reconvergence   a BSYNC (or a block) the GPU ran more often than the simulator and than
                            the block before it: each diverged part of a warp executes it
  not run on the GPU        the GPU's count is 0, the simulator's is not
  unrolled split            the block is a copy of an unrolled loop (sass_unroll.c's split)
  exact anchor              the block's anchor is exact, yet the counts differ
  line anchor               the block is anchored by line (a stand-in of its own), and none of the above
Per cause: blocks, instructions, the sum of (sim - gpu) over them, and of their ALU / FMA pipe
instructions (the pipe from the simulator's classification, sim/models/pipes.c).
"""
import csv
import difflib
import re
import sys
from collections import defaultdict

FMA_PIPES = ("FMA", "FMA-heavy")


def opcode(text):
    t = text.strip()
    t = re.sub(r"^@!?U?P[T0-9]\s+", "", t)
    return t.split()[0] if t else ""


def read_sim(path):
    """{demangled name: [dict per instruction]} from WARPSCOPE_SASS_COUNTS output (the last dump of a name wins)."""
    funcs, cur, rows = {}, None, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# function "):
            cur = line[len("# function "):]
            rows = []
            funcs[cur] = rows
            continue
        if line.startswith("#") or not line or cur is None:
            continue
        f = line.split("\t")
        rows.append(dict(index=int(f[0]), addr=int(f[1], 16), block=int(f[2]), runs=int(f[3]), pipe=f[4],
                         anchor=int(f[5]), exact=f[6] == "1", loop=int(f[7]), line=int(f[8]), text=f[9]))
    return funcs


def read_ncu(path):
    rows = list(csv.reader(open(path, newline="")))
    name = rows[0][1] if rows and len(rows[0]) > 1 else path
    head = rows[1]
    ia, isrc, iexe = head.index("Address"), head.index("Source"), head.index("Instructions Executed")
    out = []
    base = None
    for r in rows[2:]:
        if len(r) <= iexe or not r[ia].startswith("0x"):
            continue
        a = int(r[ia], 16)
        base = a if base is None else base
        out.append(dict(addr=a - base, text=r[isrc].strip(), count=int(float(r[iexe] or 0))))
    return name, out


def plain_name(demangled):
    """'void MatrixMulAsyncCopyLargeChunk<(int)16>(float *, ...)' -> 'MatrixMulAsyncCopyLargeChunk'."""
    s = re.sub(r"^void\s+", "", demangled)
    s = re.split(r"[<(]", s)[0]
    return s.split("::")[-1].strip()


def find_sim(funcs, ncu_name):
    want = plain_name(ncu_name)
    for k in funcs:
        if plain_name(k) == want:
            return k
    return None


def classify(b, rows, gpu, blocks_by_anchor, sim_prev_gpu):
    first = rows[0]
    op0 = opcode(first["text"])
    g = gpu
    s = first["runs"]
    if first["loop"] >= 0:
        return "unrolled split"
    if g == 0 and s > 0 and not first["exact"] and len(blocks_by_anchor.get(first["anchor"], ())) > 1:
        return "stand-in of several"
    if g > s and (op0 == "BSYNC" or (sim_prev_gpu is not None and g > sim_prev_gpu)):
        return "divergent reconvergence"
    if g == 0:
        return "not run on the GPU"
    if not first["exact"] and len(blocks_by_anchor.get(first["anchor"], ())) > 1:
        return "stand-in of several"
    if first["exact"]:
        return "exact anchor"
    return "line anchor"


def compare(simf, ncu_path, show_blocks):
    name, gpu = read_ncu(ncu_path)
    key = find_sim(simf, name)
    print(f"## {plain_name(name)}  ({ncu_path})")
    if key is None:
        print("   no simulator dump of this function\n")
        return None
    sim = simf[key]
    so = [opcode(r["text"]) for r in sim]
    go = [opcode(r["text"]) for r in gpu]
    sm = difflib.SequenceMatcher(a=so, b=go, autojunk=False)
    same = sum(m.size for m in sm.get_matching_blocks())
    identical = so == go
    print(f"   listing: sim {len(so)} instructions, GPU {len(go)}; opcodes "
          + ("identical" if identical else f"differ: {same} of {max(len(so), len(go))} in matching runs"
             f" ({100.0 * same / max(len(so), len(go), 1):.1f}%)"))
    # instruction i of the sim <-> j of the GPU, where the opcode runs match
    pair = {}
    for m in sm.get_matching_blocks():
        for k in range(m.size):
            pair[m.a + k] = m.b + k
    blocks = defaultdict(list)
    for r in sim:
        blocks[r["block"]].append(r)
    by_anchor = defaultdict(set)
    for b, rows in blocks.items():
        if not rows[0]["exact"] and rows[0]["anchor"] >= 0:
            by_anchor[rows[0]["anchor"]].add(b)
    tot = dict(sim=0, gpu=0, sim_alu=0, gpu_alu=0, sim_fma=0, gpu_fma=0)
    causes = defaultdict(lambda: dict(blocks=0, insns=0, d=0, d_alu=0, d_fma=0, ex=[]))
    unpaired = 0
    prev_gpu = None
    for b in sorted(blocks):
        rows = blocks[b]
        gcounts = [gpu[pair[r["index"]]]["count"] for r in rows if r["index"] in pair]
        for r in rows:
            s = r["runs"]
            tot["sim"] += s
            tot["sim_alu"] += s if r["pipe"] == "ALU" else 0
            tot["sim_fma"] += s if r["pipe"] in FMA_PIPES else 0
            if r["index"] in pair:
                g = gpu[pair[r["index"]]]["count"]
                tot["gpu"] += g
                tot["gpu_alu"] += g if r["pipe"] == "ALU" else 0
                tot["gpu_fma"] += g if r["pipe"] in FMA_PIPES else 0
            else:
                unpaired += 1
        if not gcounts:
            continue
        g = max(set(gcounts), key=gcounts.count)   # a block runs as a whole: its instructions' mode
        s = rows[0]["runs"]
        if g != s:
            c = classify(b, rows, g, by_anchor, prev_gpu)
            e = causes[c]
            e["blocks"] += 1
            e["insns"] += len(rows)
            e["d"] += (s - g) * len(rows)
            e["d_alu"] += (s - g) * sum(r["pipe"] == "ALU" for r in rows)
            e["d_fma"] += (s - g) * sum(r["pipe"] in FMA_PIPES for r in rows)
            if len(e["ex"]) < 4:
                e["ex"].append(f"b{b}@{rows[0]['addr']:#06x} line {rows[0]['line']} sim {s} gpu {g} "
                               f"({len(rows)} insns, {opcode(rows[0]['text'])}..{opcode(rows[-1]['text'])})")
            if show_blocks:
                print(f"   b{b:<4} {rows[0]['addr']:#06x} line {rows[0]['line']:<5} sim {s:>9} gpu {g:>9}  "
                      f"anchor {rows[0]['anchor']}{'' if rows[0]['exact'] else '~'}  {c}: "
                      + "; ".join(r["text"] for r in rows[:3]) + (" ..." if len(rows) > 3 else ""))
        prev_gpu = g

    def pct(a, b):
        return f"{100.0 * (a - b) / b:+.1f}%" if b else "n/a"
    print(f"   total  sim {tot['sim']:>10}  gpu {tot['gpu']:>10}  {pct(tot['sim'], tot['gpu'])}"
          + (f"  ({unpaired} sim instructions without a GPU counterpart)" if unpaired else ""))
    print(f"   ALU    sim {tot['sim_alu']:>10}  gpu {tot['gpu_alu']:>10}  {pct(tot['sim_alu'], tot['gpu_alu'])}")
    print(f"   FMA    sim {tot['sim_fma']:>10}  gpu {tot['gpu_fma']:>10}  {pct(tot['sim_fma'], tot['gpu_fma'])}")
    for c, e in sorted(causes.items(), key=lambda kv: -abs(kv[1]["d"])):
        print(f"   {c:<26} {e['blocks']:>3} blocks {e['insns']:>4} insns  sim-gpu {e['d']:>+9} "
              f"(ALU {e['d_alu']:+}, FMA {e['d_fma']:+})")
        for x in e["ex"]:
            print(f"       {x}")
    print()
    return tot, causes


def main(argv):
    show = "--blocks" in argv
    args = [a for a in argv if a != "--blocks"]
    if len(args) < 2:
        print(__doc__)
        return 1
    simf = read_sim(args[0])
    allc = defaultdict(lambda: [0, 0, 0, 0])
    for p in args[1:]:
        res = compare(simf, p, show)
        if res:
            for c, e in res[1].items():
                a = allc[c]
                a[0] += e["blocks"]; a[1] += e["d"]; a[2] += e["d_alu"]; a[3] += e["d_fma"]
    print("## all kernels, by cause")
    for c, a in sorted(allc.items(), key=lambda kv: -abs(kv[1][1])):
        print(f"   {c:<26} {a[0]:>4} blocks  sim-gpu {a[1]:>+10}  ALU {a[2]:>+9}  FMA {a[3]:>+9}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
