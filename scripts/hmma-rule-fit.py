#!/usr/bin/env python3
"""hmma-rule-fit.py - judges candidate tensor-core accumulation rules against a record of
scripts/gpu-hmma-rule.sh (inputs.tsv + hmma.tsv), in exact rational arithmetic, as
results/h200-wgmma/FP8-RULE.md found the fp8 rule. For every form (f16.f32, bf16.f32, f16.f16,
tf32.f32) and candidate it prints how many of the recorded outputs the rule reproduces, overall and
per case family (tests/gpu/hmma_rule.cu), so the rule that reproduces all can go into
sim/interp/exec_mma.c.

Candidates (p = the result's significand bits, 24 for f32, 11 for f16):
  exact-rn     C + the K exact products, rounded once to nearest even (the simulator now)
  exact-rz     the same, truncated toward zero
  seq-rn       C, then each product in k order, rounded to nearest after each add
  align(n,g)   per group of g products in k order: every term of the group and the accumulator
               truncated toward zero to multiples of 2^(E - p + 1 - n) (E the largest exponent among
               them), summed exactly, then the sum truncated (rz) or rounded (rn) to the result type
  field(n)     align(n, K) with rz, but a product's exponent is the sum of its operands' exponents
               (the hardware's field, not renormalised); an f16 result is that rule at f32 (p = 24)
               rounded to nearest f16. With n = 2 it reproduces every output of results/h200-hmma-rule
               (the rule in sim/interp/exec_mma.c); n = 1 and 3 do not
Usage: python3 scripts/hmma-rule-fit.py DIR   (DIR holds inputs.tsv and hmma.tsv)
       python3 scripts/hmma-rule-fit.py --selftest INPUTS.tsv   (a record made by exact-rn must fit it)"""
import sys
from fractions import Fraction
from collections import defaultdict

FAMILIES = {0: "equal", 1: "one", 2: "neg", 3: "thirds", 4: "split", 5: "cancel", 6: "mixed"}


def fam(case):
    return FAMILIES.get(case, "random")


def decode(bits, ebits, mbits):
    """A binary float of ebits exponent and mbits fraction bits as a Fraction (no inf/nan here)."""
    sign = -1 if bits >> (ebits + mbits) & 1 else 1
    e = bits >> mbits & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == 0:
        return sign * Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)


def f32(b): return decode(b, 8, 23)
def f16(b): return decode(b, 5, 10)
def bf16(b): return decode(b, 8, 7)


IN = {"f16.f32": f16, "bf16.f32": bf16, "f16.f16": f16, "tf32.f32": f32}
OUTF = {"f16.f32": (24, -126), "bf16.f32": (24, -126), "f16.f16": (11, -14), "tf32.f32": (24, -126)}
OUTDEC = {"f16.f32": f32, "bf16.f32": f32, "f16.f16": f16, "tf32.f32": f32}


def expo(x):
    """floor(log2 |x|) for x != 0."""
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    elif Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def to_grid(x, q, mode):
    """x on the grid of multiples of q: rz toward zero, rn to nearest even."""
    n = x / q
    t = n.numerator // n.denominator if n >= 0 else -((-n.numerator) // n.denominator)
    if mode == "rn":
        r = n - t
        if abs(r) > Fraction(1, 2) or (abs(r) == Fraction(1, 2) and t % 2):
            t += 1 if n > 0 else -1
    return t * q


def round_fmt(x, p, emin, mode):
    if x == 0:
        return Fraction(0)
    e = max(expo(x), emin)
    return to_grid(x, Fraction(2) ** (e - p + 1), mode)


def rule(name, prods, c, p, emin, pexp=None):
    if name.startswith("field:"):
        n = int(name.split(":")[1])
        if p == 11:                                 # f16 D: the f32 datapath, then nearest f16
            return round_fmt(rule(name, prods, c, 24, -126, pexp), p, emin, "rn")
        es = [pe for x, pe in zip(prods, pexp) if x != 0] + ([expo(c)] if c != 0 else [])
        if not es:
            return Fraction(0)
        q = Fraction(2) ** (max(es) - p + 1 - n)
        return round_fmt(to_grid(c, q, "rz") + sum(to_grid(x, q, "rz") for x in prods), p, emin, "rz")
    if name == "exact-rn":
        return round_fmt(c + sum(prods), p, emin, "rn")
    if name == "exact-rz":
        return round_fmt(c + sum(prods), p, emin, "rz")
    if name == "seq-rn":
        d = c
        for x in prods:
            d = round_fmt(d + x, p, emin, "rn")
        return d
    _, n, g, mode = name.split(":")
    n, g = int(n), int(g)
    d = c
    for s in range(0, len(prods), g):
        terms = [d] + prods[s:s + g]
        nz = [t for t in terms if t != 0]
        if not nz:
            continue
        q = Fraction(2) ** (max(expo(t) for t in nz) - p + 1 - n)
        d = round_fmt(sum(to_grid(t, q, "rz") for t in terms), p, emin, mode)
    return d


def candidates(K):
    out = ["exact-rn", "exact-rz", "seq-rn", "field:1", "field:2", "field:3"]
    for g in (4, 8, 16):
        if g > K:
            continue
        for n in (0, 1, 2, 3, 4):
            for mode in ("rz", "rn"):
                out.append("align:%d:%d:%s" % (n, g, mode))
    return out


def read_inputs(path):
    mats = defaultdict(dict)  # (form, case) -> {(m, r, c): bits}
    with open(path) as f:
        next(f)
        for line in f:
            form, case, m, r, c, bits = line.split()
            mats[(form, int(case))][(m, int(r), int(c))] = int(bits, 16)
    return mats


def dots(mats, form, case):
    """For each (i, j): the K exact products in k order and C."""
    M = mats[(form, case)]
    K = 1 + max(k for (m, _, k) in M if m == "A")
    dec = IN[form]
    cdec = f16 if form == "f16.f16" else f32
    for i in range(16):
        for j in range(8):
            a = [dec(M[("A", i, k)]) for k in range(K)]
            b = [dec(M[("B", k, j)]) for k in range(K)]
            prods = [x * y for x, y in zip(a, b)]
            pexp = [expo(x) + expo(y) if x * y != 0 else None for x, y in zip(a, b)]
            yield i, j, prods, cdec(M[("C", i, j)]), pexp


def main(argv):
    if len(argv) == 3 and argv[1] == "--selftest":
        mats = read_inputs(argv[2])
        rec = {}
        for (form, case) in mats:
            p, emin = OUTF[form]
            for i, j, prods, c, _ in dots(mats, form, case):
                rec[(form, case, i, j)] = rule("exact-rn", prods, c, p, emin)
    elif len(argv) == 2:
        mats = read_inputs(argv[1] + "/inputs.tsv")
        rec = {}
        with open(argv[1] + "/hmma.tsv") as f:
            next(f)
            for line in f:
                form, case, i, j, bits = line.split()
                rec[(form, int(case), int(i), int(j))] = OUTDEC[form](int(bits, 16))
    else:
        print(__doc__)
        return 2
    forms = sorted({k[0] for k in rec})
    for form in forms:
        p, emin = OUTF[form]
        K = 16 if form != "tf32.f32" else 8
        cases = sorted({k[1] for k in rec if k[0] == form})
        print("## %s (%d outputs)" % (form, sum(1 for k in rec if k[0] == form)))
        fams = sorted({fam(c) for c in cases})
        print("| rule | all | " + " | ".join(fams) + " |")
        print("|---|---:|" + "---:|" * len(fams))
        for name in candidates(K):
            ok = defaultdict(int)
            tot = defaultdict(int)
            for case in cases:
                for i, j, prods, c, pexp in dots(mats, form, case):
                    hit = rule(name, prods, c, p, emin, pexp) == rec[(form, case, i, j)]
                    ok[fam(case)] += hit
                    tot[fam(case)] += 1
            a, t = sum(ok.values()), sum(tot.values())
            print("| %s | %d/%d | " % (name, a, t) + " | ".join("%d/%d" % (ok[x], tot[x]) for x in fams) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
