#!/usr/bin/env python3
"""hmma-chain-fit.py - judges tensor-core accumulation rules against the H200's chained record of
scripts/gpu-hmma-chain.sh (tests/gpu/hmma_chain_probe.cu), step by step: the C of step s is the
GPU's D of step s - 1 (C0 at step 0), so a rule is scored on every recorded output without one
differing step spoiling the rest of its chain. The probe makes its inputs from hashes, so the A, B
and C0 records come from a `warpscope sim --save` run of the same kernels here; their sha256 must
equal the GPU manifest's (checked).

Rules (numpy, vectorised; products of f16/bf16/tf32 operands are exact in double):
  window sum  C and the K products aligned to the largest exponent E (a product's: the sum of its
              operands' exponent fields), each truncated toward zero to a multiple of 2^(E-25),
              summed exactly (results/h200-hmma-rule)
  old         f32 D: the window sum truncated to f32; f16 D: that f32 rounded to nearest f16;
              wmma m16n16k8 tf32 one k8 sum; zeros keep the truncation's sign (the simulator before)
  +0          old, a zero result +0
  +0,f16-once +0, and an f16 D the window sum rounded once to nearest f16 (not through f32)
  f16-rna     new but an f16 D the window sum rounded to nearest, ties away
  new         +0,f16-once and wmma m16n16k8 tf32 as two k4 sums in turn (sim/interp/exec_mma.c)
  new,tf32-rn new with tf32 operands rounded to nearest even instead of their low 13 bits dropped
Usage: python3 scripts/hmma-chain-fit.py GPU_DIR SIM_DIR
  GPU_DIR: the two tarballs unpacked (GPU_DIR/<kernel>/D.npy, manifest.json)
  SIM_DIR: for k in <kernels>; do warpscope sim tests/gpu/hmma_chain_probe.cu:$k --save SIM_DIR/$k; done
Prints a markdown table: per kernel and rule, the outputs the rule misses, overall and per family."""
import json
import sys

import numpy as np

KS = {  # kernel: (operand type, C/D type, M, N, K, memory layout of the wmma records)
    "chain_f16_k16": ("f16", "f16", 16, 8, 16, None),
    "chain_f16_k8": ("f16", "f16", 16, 8, 8, None),
    "chain_f16f32_k16": ("f16", "f32", 16, 8, 16, None),
    "chain_bf16_k16": ("bf16", "f32", 16, 8, 16, None),
    "chain_tf32_k8": ("tf32", "f32", 16, 8, 8, None),
    "chain_tf32_k4": ("tf32", "f32", 16, 8, 4, None),
    "chain_wmma_tf32_rc": ("tf32", "f32", 16, 16, 8, "rc"),
    "chain_wmma_tf32_cr": ("tf32", "f32", 16, 16, 8, "cr"),
}
FAM = ["gemm0", "gemm", "bigC", "ties", "cancel", "big", "sub", "mixed"]
NEG = -100000
RULES = {
    "old": dict(zero=False, once=False, split=False),
    "+0": dict(zero=True, once=False, split=False),
    "+0,f16-once": dict(zero=True, once=True, split=False),
    "f16-rna": dict(zero=True, once="rna", split=True),
    "new": dict(zero=True, once=True, split=True),
    "new,tf32-rn": dict(zero=True, once=True, split=True, tf32="rne"),
}


def dec(bits, t, tf32="trunc"):
    bits = bits.astype(np.uint32)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "bf16":
        return (bits << 16).view(np.float32).astype(np.float64)
    if t == "tf32":
        if tf32 == "rne":
            fin = (bits & 0x7f800000) != 0x7f800000
            bits = np.where(fin, bits + np.uint32(0xfff) + ((bits >> 13) & 1), bits)
        bits = bits & np.uint32(0xffffe000)
    return bits.view(np.float32).astype(np.float64)


def enc(v, t):
    if t == "f16":
        return v.astype(np.float16).view(np.uint16).astype(np.uint32)
    return v.astype(np.float32).view(np.uint32)


def field(x, emin):
    e = np.frexp(x)[1]
    return np.where(x == 0, NEG, np.maximum(e - 1, emin))


def f32_rz(x):
    m, e = np.frexp(x)
    q = np.maximum(e, -125)
    r = np.ldexp(np.trunc(np.ldexp(x, 24 - q)), q - 24)
    with np.errstate(invalid="ignore"):
        r = np.where(np.abs(r) >= 2.0**128, np.sign(x) * np.inf, r)
    return np.where(np.isfinite(x) & (x != 0), r, x)


def f16_rna(x):
    ax = np.abs(x)
    e = np.maximum(np.frexp(ax)[1], -13)
    v = np.ldexp(np.floor(np.ldexp(ax, 11 - e) + 0.5), e - 11)
    return np.copysign(np.where(v >= 65520, np.inf, v), x)


def hmma(a, b, c, it, ct, zero, once):
    """One sum: a (..., M, K), b (..., K, N), c (..., M, N) values -> D values."""
    emin, cemin = (-14 if it == "f16" else -126), (-14 if ct == "f16" else -126)
    P = a[..., :, None, :] * np.swapaxes(b, -1, -2)[..., None, :, :]
    pe = np.where(P != 0, field(a, emin)[..., :, None, :] + np.swapaxes(field(b, emin), -1, -2)[..., None, :, :], NEG)
    E = np.maximum(pe.max(-1), field(c, cemin))
    Es = np.where(E == NEG, 0, E)
    sc = np.ldexp(1.0, 25 - Es)
    s = np.ldexp(np.trunc(P * sc[..., None]).sum(-1) + np.trunc(c * sc), Es - 25)
    with np.errstate(invalid="ignore", over="ignore"):
        plain = c + P.sum(-1)
        if ct == "f16" and once == "rna":
            r = f16_rna(s)
        elif ct == "f16" and once:
            r = s.astype(np.float16).astype(np.float64)
        else:
            r = f32_rz(s)
            r = r.astype(np.float16).astype(np.float64) if ct == "f16" else r
        if zero:
            r = np.where(r == 0, 0.0, r)
        r = np.where(np.isfinite(plain), r, plain)
        return np.where(E == NEG, plain, r)


def load(k, gdir, sdir):
    it, ct, M, N, K, lay = KS[k]
    sm, gm = (json.load(open("%s/%s/manifest.json" % (d, k))) for d in (sdir, gdir))
    digest = lambda m: {b["name"]: b.get("sha256") for b in m["buffers"]}
    for name in ("A", "B", "C0"):
        if digest(sm)[name] != digest(gm)[name]:
            sys.exit("hmma-chain-fit: %s: the simulator's %s is not the GPU's (sha256 differs)" % (k, name))
    NCH, S = gm["params"]["NCH"], gm["params"]["S"]
    A, B = (np.load("%s/%s/%s.npy" % (sdir, k, n)).reshape(NCH, S, -1) for n in ("A", "B"))
    C0 = np.load("%s/%s/C0.npy" % (sdir, k)).reshape(NCH, -1)
    D = np.load("%s/%s/D.npy" % (gdir, k)).reshape(NCH, S, -1)
    if lay == "rc":   # B col-major
        B = B.reshape(NCH, S, N, K).swapaxes(2, 3).reshape(NCH, S, -1)
    elif lay == "cr":  # A col-major, C0 and D col-major
        A = A.reshape(NCH, S, K, M).swapaxes(2, 3).reshape(NCH, S, -1)
        C0 = C0.reshape(NCH, N, M).swapaxes(1, 2).reshape(NCH, -1)
        D = D.reshape(NCH, S, N, M).swapaxes(2, 3).reshape(NCH, S, -1)
    return A, B, C0, D, NCH, S


def misses(k, data, rule, chunk=128):
    it, ct, M, N, K, lay = KS[k]
    A, B, C0, D, NCH, S = data
    tf = rule.get("tf32", "trunc")
    out = np.zeros((NCH, S, M * N), bool)
    for c0 in range(0, NCH, chunk):
        sl = slice(c0, c0 + chunk)
        a = dec(A[sl], it, tf).reshape(-1, S, M, K)
        b = dec(B[sl], it, tf).reshape(-1, S, K, N)
        c = dec(np.concatenate([C0[sl][:, None, :], D[sl][:, :-1, :]], 1), ct).reshape(-1, S, M, N)
        ks = 4 if (rule["split"] and lay) else K
        for k0 in range(0, K, ks):
            c = hmma(a[..., k0:k0 + ks], b[..., k0:k0 + ks, :], c, it, ct, rule["zero"], rule["once"])
        out[sl] = enc(c, ct).reshape(-1, S, M * N) != D[sl].astype(np.uint32)
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    print("| kernel | rule | missed | " + " | ".join(FAM) + " |")
    print("|---|---|---:|" + "---:|" * len(FAM))
    for k in KS:
        data = load(k, argv[1], argv[2])
        fam = np.arange(data[4]) % 8
        for name, rule in RULES.items():
            m = misses(k, data, rule)
            per = " | ".join(str(int(m[fam == f].sum())) for f in range(8))
            print("| %s | %s | %d / %d | %s |" % (k, name, int(m.sum()), m.size, per))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
