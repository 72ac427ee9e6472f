#!/usr/bin/env python3
"""Cases of tcgen05.mma computed by Microsoft's MMA-Sim, for replaying against sm_100a's models.

Runs MMA-Sim's tcgen05 instructions (mmasim.simulator.nv_ptx.tcgen05mma, tcgen05mma_block_scale;
github microsoft/MMA-Sim, needs PyTorch) on random and adversarial inputs and writes every kept
output element as one case in the format of tests/data/matlab-tc (one CSV file per kind and types,
a manifest.csv; tests/data/mmasim-tcgen05/README.md describes it). `ptxmma replay DIR` replays them
through configs/models/sm_100a.yaml.

    python3 tools/mmasim/make_tcgen05_cases.py --mmasim PATH/TO/MMA-Sim [--out tests/data/mmasim-tcgen05]
        [--cases 400] [--seed 1]

Cases whose block exponent MMA-Sim and the model decide differently (MMA-Sim counts every zero
factor as 2^-126, docs/tcgen05.md §3.2) are left out and counted in the manifest's `excluded`.
Runs on the CPU in a few minutes; it is not part of the build or of CI.
"""
import argparse
import math
import os
import random
import struct
import sys

# Element formats: (exponent bits, fraction bits, bias, has Inf, NaN rule, code bits, hex digits).
# NaN rule: "ieee" (all-ones exponent, nonzero fraction), "s1111111" (e4m3), "none".
FORMATS = {
    "fp16": (5, 10, 15, True, "ieee", 16, 4),
    "bf16": (8, 7, 127, True, "ieee", 16, 4),
    "tf32": (8, 10, 127, True, "ieee", 19, 8),
    "fp32": (8, 23, 127, True, "ieee", 32, 8),
    "e4m3": (4, 3, 7, False, "s1111111", 8, 2),
    "e5m2": (5, 2, 15, True, "ieee", 8, 2),
    "e2m1": (2, 1, 1, False, "none", 4, 1),
}
# MMA-Sim's type names (qualifiers) for the manifest's.
QUALIFIER = {"fp16": "f16", "bf16": "bf16", "tf32": "tf32", "fp32": "f32", "e4m3": "e4m3", "e5m2": "e5m2",
             "e2m1": "e2m1"}

# (file, a, b, acc, K, scale format, k per scale, PTX instruction). K picks MMA-Sim's kind.
FILES = [
    ("f16/fp16_f32.csv", "fp16", "fp16", "fp32", 16, None, 0, "tcgen05.mma.cta_group::1.kind::f16"),
    ("f16/bf16_f32.csv", "bf16", "bf16", "fp32", 16, None, 0, "tcgen05.mma.cta_group::1.kind::f16"),
    ("f16/fp16_f16.csv", "fp16", "fp16", "fp16", 16, None, 0, "tcgen05.mma.cta_group::1.kind::f16"),
    ("tf32/tf32_f32.csv", "tf32", "tf32", "fp32", 8, None, 0, "tcgen05.mma.cta_group::1.kind::tf32"),
] + [
    (f"f8f6f4/{a}_{b}_{QUALIFIER[acc]}.csv", a, b, acc, 32, None, 0, "tcgen05.mma.cta_group::1.kind::f8f6f4")
    for acc in ("fp32", "fp16") for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2")
] + [
    (f"mxf8f6f4/{a}_{b}_f32.csv", a, b, "fp32", 32, "ue8m0", 32,
     "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X") for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2")
] + [
    ("mxf4/e2m1_ue8m0_f32.csv", "e2m1", "e2m1", "fp32", 64, "ue8m0", 32,
     "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X"),
    ("mxf4nvf4/e2m1_ue8m0_x2_f32.csv", "e2m1", "e2m1", "fp32", 64, "ue8m0", 32,
     "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X"),
    ("mxf4nvf4/e2m1_ue8m0_x4_f32.csv", "e2m1", "e2m1", "fp32", 64, "ue8m0", 16,
     "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"),
    ("mxf4nvf4/e2m1_ue4m3_x4_f32.csv", "e2m1", "e2m1", "fp32", 64, "ue4m3", 16,
     "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"),
]

# Input families (../shared/golden/README.md names most of them): each shapes A, B and C by type.
FAMILIES = ["bits", "narrow", "wide", "special", "cancel", "intlike", "align", "bigsmall", "subnormal",
            "overflow", "cbig", "ctiny", "zeros", "zerogroup", "scalespread", "zerobig", "cancelgroups",
            "tinyscale"]
# Families aimed at one parameter each (the rest shape inputs as ../shared/golden/README.md says):
#   zerobig       zero elements paired with elements 2^40 and more larger than the rest: where zeros
#                 take part in the maximum (bf16, tf32) they set E and cut the small products
#   zerogroup     one group of 16 k of A's row zero, its scales the largest (mxf4*: the zero group
#                 still sets E), or a zero row
#   cancelgroups  group 1 (k 16..31) the exact negative of group 0 under the same scales, the other
#                 groups and C far smaller: the F = 35 cut decides what is left
#   tinyscale     ue8m0 scales near 2^-73 each, C zero or tiny: products near 2^-147, where the floor
#                 of E (2^-126, cut at 2^-151) and the f32 subnormal grid (2^-149) meet
#   scalespread   scales 2^20 to 2^40 apart


def code(fmt, sign, exp, frac):
    e, m = FORMATS[fmt][0], FORMATS[fmt][1]
    return (sign << (e + m)) | (exp << m) | frac


def is_nan(fmt, c):
    e, m, _, _, rule, _, _ = FORMATS[fmt]
    body = c & ((1 << (e + m)) - 1)
    if rule == "ieee":
        return (body >> m) == (1 << e) - 1 and (body & ((1 << m) - 1)) != 0
    return rule == "s1111111" and body == (1 << (e + m)) - 1


def is_inf(fmt, c):
    e, m, _, inf, _, _, _ = FORMATS[fmt]
    return inf and (c & ((1 << (e + m)) - 1)) == ((1 << e) - 1) << m


def max_exp_field(fmt):
    e, _, _, inf, rule, _, _ = FORMATS[fmt]
    return (1 << e) - 2 if inf or rule == "ieee" else (1 << e) - 1


def finite(fmt, c, rng):
    """c, or a random finite code where c is NaN or Inf (families that promise finite values)."""
    while is_nan(fmt, c) or is_inf(fmt, c):
        c = rng.getrandbits(FORMATS[fmt][5])
    return c


def element(fmt, fam, rng, role):
    """One code of `fmt` for an A/B element (role "ab") or C (role "c") of family `fam`."""
    e, m, bias, inf, _, bits, _ = FORMATS[fmt]
    top = max_exp_field(fmt)
    sign = rng.getrandbits(1)
    frac = rng.getrandbits(m)
    clamp = lambda x: min(max(x, 1), top)
    if fam == "bits":
        return rng.getrandbits(bits)
    if fam == "tinyscale" and role == "c":
        return code(fmt, sign, 0, 0) if rng.getrandbits(1) else code(fmt, sign, 0, frac or 1)
    if fam in ("narrow", "cbig", "ctiny", "zerogroup", "scalespread", "cancelgroups", "tinyscale") or (
            fam == "zeros" and role == "c"):
        if role == "c" and fam == "cbig":
            return code(fmt, sign, clamp(bias + rng.randint(8, 40)), frac)
        if role == "c" and fam == "ctiny":
            return code(fmt, sign, clamp(bias - rng.randint(8, 40)), frac)
        return code(fmt, sign, clamp(bias + rng.randint(-3, 3)), frac)
    if fam == "zerobig":
        return code(fmt, sign, clamp(bias - rng.randint(10, 20)), frac)
    if fam == "wide":
        return code(fmt, sign, rng.randint(1, top), frac)
    if fam == "special":
        pick = rng.randrange(8)
        if pick == 0:
            return code(fmt, sign, 0, 0)
        if pick == 1:
            return code(fmt, sign, 0, 1) if m else code(fmt, sign, 0, 0)
        if pick == 2:
            return code(fmt, sign, 0, frac)
        if pick == 3:  # Inf where the format has one, else NaN (or the largest value: e2m1)
            return code(fmt, sign, top + 1, 0) if inf else (rng.getrandbits(bits) | ((1 << (e + m)) - 1) if fmt == "e4m3"
                                                            else code(fmt, sign, top, (1 << m) - 1))
        if pick == 4:
            return finite(fmt, code(fmt, sign, top, (1 << m) - 1), rng)
        if pick == 5:
            return code(fmt, sign, 1, 0)
        return code(fmt, sign, clamp(bias + rng.randint(-3, 3)), frac)
    if fam == "cancel":
        return code(fmt, sign, clamp(bias + rng.randint(-1, 1)), rng.choice([0, 1 << (m - 1)]) if m else 0)
    if fam == "intlike":
        v = rng.randint(0, 7 if fmt != "e2m1" else 4)
        if v == 0:
            return code(fmt, sign, 0, 0)
        ex = v.bit_length() - 1
        return code(fmt, sign, bias + ex, ((v - (1 << ex)) << m >> ex) if m else 0)
    if fam == "align":
        return code(fmt, sign, clamp(bias + rng.randint(-24, 24)), frac)
    if fam == "bigsmall":
        return code(fmt, sign, clamp(bias + (6 if rng.randrange(8) == 0 else -6)), frac)
    if fam == "subnormal":
        return code(fmt, sign, 0, frac or 1) if rng.getrandbits(1) else code(fmt, sign, clamp(rng.randint(1, 2)), frac)
    if fam == "overflow":
        return code(fmt, sign, clamp(top - rng.randint(0, 2)), frac)
    if fam == "zeros":  # mostly zeros: rows or columns whose products are all zero
        return code(fmt, sign, 0, 0) if rng.randrange(8) else code(fmt, sign, clamp(bias + rng.randint(-3, 3)), frac)
    raise ValueError(fam)


def scale_code(fmt, fam, rng):
    if fmt == "ue8m0":
        if fam in ("bits", "wide", "align"):
            return rng.randrange(256) if fam == "bits" else rng.randrange(255)
        if fam == "special":
            return rng.choice([0, 1, 126, 127, 128, 253, 254, 255])
        if fam in ("overflow", "cbig"):
            return rng.randint(200, 254)
        if fam in ("subnormal", "ctiny"):
            return rng.randint(0, 40)
        if fam in ("zerogroup", "scalespread", "cancelgroups"):  # blocks 2^20 to 2^40 apart
            return 127 + rng.randint(-30, 40)
        if fam == "tinyscale":  # products near 2^-147: D subnormal, its grid 2^-149 just above the cut
            return 127 - rng.randint(72, 75)
        return 127 + rng.randint(-3, 3)
    # ue4m3: 7 bits (MMA-Sim takes the magnitude of an e4m3 value); 0x7F is NaN
    if fam in ("bits", "special", "subnormal", "zerogroup", "scalespread"):
        c = rng.randrange(128)
        return c if fam != "subnormal" else c & 0x07
    return ((7 + rng.randint(-3, 3)) << 3) | rng.getrandbits(3)


def value(fmt, c):
    """The exact value of a finite code (a Python float holds every one of these formats)."""
    e, m, bias, _, _, _, _ = FORMATS[fmt]
    sign = -1.0 if c >> (e + m) & 1 else 1.0
    ex, fr = (c >> m) & ((1 << e) - 1), c & ((1 << m) - 1)
    if ex == 0:
        return sign * math.ldexp(fr, 1 - bias - m)
    return sign * math.ldexp((1 << m) | fr, ex - bias - m)


def scale_value(fmt, c):
    if fmt == "ue8m0":
        return math.ldexp(1.0, c - 127)
    return value("e4m3", c)


def exponent(v, emin):
    return max(math.frexp(v)[1] - 1, emin)


EMIN = {"fp16": -14, "bf16": -126, "tf32": -126, "fp32": -126, "e4m3": -6, "e5m2": -14, "ue8m0": -127, "ue4m3": -6}


def exponents_differ(spec, a, b, sa, sb, c):
    """Whether MMA-Sim's block exponent and the model's differ for this finite case (a, b, sa, sb,
    c: codes). MMA-Sim: every term takes part, a zero factor counting as 2^-126. The model
    (sm_100a.yaml): where zeros_set_exponent is true, zero terms take part with the type's emin;
    else zero terms are left out and E is floored at -126."""
    name, fa, fb, acc, k, sfmt, sk, ptx = spec
    zeros_set = fa in ("tf32", "bf16", "e2m1")

    def ex(fmt, v, zero):  # the exponent of a factor, `zero` for a zero one
        return exponent(v, EMIN[fmt]) if v else zero

    cv = value(acc, c)
    ms = [ex(acc, cv, -126)]
    model = [ex(acc, cv, EMIN[acc])] if zeros_set else ([ex(acc, cv, 0)] if cv else []) + [-126]
    if fa == "e2m1":  # a group's term has the scales' exponent, whatever its sum
        for g in range(k // 16):
            x, y = scale_value(sfmt, sa[g * 16 // sk]), scale_value(sfmt, sb[g * 16 // sk])
            ms.append(ex(sfmt, x, -126) + ex(sfmt, y, -126))
            model.append(ex(sfmt, x, EMIN[sfmt]) + ex(sfmt, y, EMIN[sfmt]))
        return max(ms) != max(model)
    shift = (sa[0] - 127) + (sb[0] - 127) if sfmt else 0  # ue8m0 scales: powers of two
    for x, y in zip(a, b):
        xv, yv = value(fa, x), value(fb, y)
        ms.append(ex(fa, xv, -126) + ex(fb, yv, -126) + shift)
        if zeros_set:
            model.append(ex(fa, xv, EMIN[fa]) + ex(fb, yv, EMIN[fb]) + shift)
        elif xv and yv:
            model.append(ex(fa, xv, 0) + ex(fb, yv, 0) + shift)
    return max(ms) != max(model)


def special(spec, a, b, sa, sb, c):
    """NaN or Inf anywhere: decided before any alignment, by either side."""
    name, fa, fb, acc, k, sfmt, sk, ptx = spec
    bad = any(is_nan(fa, x) or is_inf(fa, x) for x in a) or any(is_nan(fb, y) or is_inf(fb, y) for y in b)
    bad = bad or is_nan(acc, c) or is_inf(acc, c)
    if sfmt == "ue8m0":
        bad = bad or 255 in sa or 255 in sb
    if sfmt == "ue4m3":
        bad = bad or 127 in sa or 127 in sb
    return bad


def tensors(torch, np, fmt, codes, shape):
    """Codes (row-major, shape) as the tensor MMA-Sim takes for this format."""
    if fmt == "e2m1":  # two per byte, element 2i in the low nibble
        flat = [codes[i] | (codes[i + 1] << 4) for i in range(0, len(codes), 2)]
        return torch.tensor(flat, dtype=torch.uint8).reshape(shape[0], shape[1] // 2)
    if fmt in ("e4m3", "e5m2", "ue8m0", "ue4m3"):
        dtype = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "ue8m0": torch.float8_e8m0fnu,
                 "ue4m3": torch.float8_e4m3fn}[fmt]
        return torch.tensor(codes, dtype=torch.uint8).view(dtype).reshape(shape)
    if fmt in ("fp16", "bf16"):
        arr = np.array(codes, dtype=np.uint16).view(np.int16)
        return torch.from_numpy(arr.copy()).view(torch.float16 if fmt == "fp16" else torch.bfloat16).reshape(shape)
    words = [c << 13 for c in codes] if fmt == "tf32" else codes
    return torch.from_numpy(np.array(words, dtype=np.uint32).view(np.int32).copy()).view(torch.float32).reshape(shape)


def d_codes(torch, acc, D):
    if acc == "fp16":
        return [x & 0xFFFF for x in D.view(torch.int16).flatten().tolist()]
    return [x & 0xFFFFFFFF for x in D.view(torch.int32).flatten().tolist()]


def run_file(torch, np, sim, spec, cases, rng):
    name, fa, fb, acc, k, sfmt, sk, ptx = spec
    m, n = (128, 8) if sfmt else (64, 8)
    if sfmt:
        block = "block32" if sk == 32 else "block16"
        op = sim.tcgen05mma_block_scale("Blackwell", f"m{m}n{n}k{k}.{block}.f32.{QUALIFIER[fa]}.{QUALIFIER[fb]}.{sfmt}")
    else:
        op = sim.tcgen05mma("Blackwell", f"m{m}n{n}k{k}.{QUALIFIER[acc]}.{QUALIFIER[fa]}.{QUALIFIER[fb]}")
    kept, excluded, call = [], 0, 0
    per_call = -(-cases // len(FAMILIES))  # one call per family
    while len(kept) < cases:
        fam = FAMILIES[call % len(FAMILIES)]
        call += 1
        A = [[element(fa, fam, rng, "ab") for _ in range(k)] for _ in range(m)]
        B = [[element(fb, fam, rng, "ab") for _ in range(n)] for _ in range(k)]
        if fam == "zerogroup":  # one group of 16 k zero in A's row (the whole row when K <= 16), or
            for row in A:       # the two groups that share a scale (one scale per 32)
                width = 32 if sfmt and sk == 32 and k > 32 else 16
                g = rng.randrange(max(1, k // width))
                for kk in range(g * width, min(k, g * width + width)):
                    row[kk] = 0
        if fam == "zerobig":  # every other k: A zero, B 2^40 and more above the small products
            for kk in range(0, k, 2):
                for row in A:
                    row[kk] = 0
                for j in range(n):
                    B[kk][j] = code(fb, rng.getrandbits(1), max_exp_field(fb) - rng.randint(0, 3), 0) if fb != "e2m1" else 7
        if fam == "cancelgroups" and k >= 32:  # k 16..31 = -(k 0..15), B repeated
            for row in A:
                for kk in range(16):
                    row[16 + kk] = row[kk] ^ (1 << (FORMATS[fa][0] + FORMATS[fa][1]))
            for kk in range(16):
                for j in range(n):
                    B[16 + kk][j] = B[kk][j]
        C = [[element(acc, fam, rng, "c") for _ in range(n)] for _ in range(m)]
        SA = SB = None
        if sfmt:
            SA = [[scale_code(sfmt, fam, rng) for _ in range(k // sk)] for _ in range(m)]
            SB = [[scale_code(sfmt, fam, rng) for _ in range(n)] for _ in range(k // sk)]
            if fam == "cancelgroups" and sk == 16:  # group 1 under group 0's scales, the rest far below
                for row in SA:
                    row[1] = row[0]
                    row[2:] = [max(0, x - (40 if sfmt == "ue8m0" else 0x38)) for x in row[2:]]
                SB[1] = list(SB[0])
            if fam == "zerogroup" and fa == "e2m1":  # the zero groups' scales the largest
                for i, row in enumerate(A):
                    g = next((v for v in range(k // sk) if not any(row[v * sk:(v + 1) * sk])), None)
                    if g is not None:
                        SA[i][g] = 127 + rng.randint(30, 60) if sfmt == "ue8m0" else rng.randint(0x70, 0x7e)
            # MMA-Sim's group path cannot take an infinite C (math.trunc(inf)): those stay out.
            if fa == "e2m1":
                C = [[finite(acc, c, rng) for c in row] for row in C]
        # B's e2m1 pairs run along k (down a column): packed as B transposed, then turned back
        b_arg = (tensors(torch, np, fb, [B[kk][j] for j in range(n) for kk in range(k)], (n, k)).T if fb == "e2m1"
                 else tensors(torch, np, fb, [y for row in B for y in row], (k, n)))
        args = [tensors(torch, np, fa, [x for row in A for x in row], (m, k)), b_arg,
                tensors(torch, np, acc, [c for row in C for c in row], (m, n))]
        if sfmt:
            args += [tensors(torch, np, sfmt, [s for row in SA for s in row], (m, k // sk)),
                     tensors(torch, np, sfmt, [s for row in SB for s in row], (k // sk, n))]
        D = d_codes(torch, acc, op(*args))
        for idx in rng.sample(range(m * n), per_call):
            i, j = divmod(idx, n)
            a = A[i]
            b = [B[kk][j] for kk in range(k)]
            sa = SA[i] if sfmt else []
            sb = [SB[v][j] for v in range(k // sk)] if sfmt else []
            if not special(spec, a, b, sa, sb, C[i][j]) and exponents_differ(spec, a, b, sa, sb, C[i][j]):
                excluded += 1
                continue
            kept.append((a, b, sa, sb, C[i][j], D[idx]))
            if len(kept) == cases:
                break
    return kept, excluded


def hexes(fmt, codes):
    digits = FORMATS[fmt][6] if fmt in FORMATS else 2
    shift = 13 if fmt == "tf32" else 0
    return " ".join(f"{c << shift:0{digits}x}" for c in codes)


def c_src_f32(acc, c):
    if acc == "fp32":
        return f"{c:08x}"
    return struct.pack(">f", value("fp16", c) if not is_nan("fp16", c) else float("nan")).hex()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mmasim", required=True, help="a checkout of github microsoft/MMA-Sim")
    p.add_argument("--out", default="tests/data/mmasim-tcgen05")
    p.add_argument("--cases", type=int, default=400, help="per file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="only the files whose name contains this text (the manifest lists those alone)")
    a = p.parse_args()
    sys.path.insert(0, a.mmasim)
    import numpy as np
    import torch
    from mmasim.simulator import nv_ptx as sim

    manifest = ["file,gpu,arch,in_fmt,b_fmt,acc_fmt,k,path,ptx,k_instr,rows,scale_fmt,scale_k,excluded"]
    for spec in (f for f in FILES if not a.only or a.only in f[0]):
        name, fa, fb, acc, k, sfmt, sk, ptx = spec
        rng = random.Random(f"{a.seed}/{name}")
        kept, excluded = run_file(torch, np, sim, spec, a.cases, rng)
        path = os.path.join(a.out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("row,a,b,scale_a,scale_b,c_src_f32,c,d\n" if sfmt else "row,a,b,c_src_f32,c,d\n")
            for row, (ca, cb, sa, sb, c, d) in enumerate(kept):
                scales = f"{hexes(sfmt, sa)},{hexes(sfmt, sb)}," if sfmt else ""
                f.write(f"{row},{hexes(fa, ca)},{hexes(fb, cb)},{scales}{c_src_f32(acc, c)},{hexes(acc, [c])},"
                        f"{hexes(acc, [d])}\n")
        manifest.append(f"{name},none (MMA-Sim),sm_100,{fa},{fb},{acc},{k},tcgen05.mma,{ptx},{k},{len(kept)},"
                        f"{sfmt or ''},{sk or ''},{excluded}")
        print(f"{name}: {len(kept)} cases, {excluded} excluded", flush=True)
    with open(os.path.join(a.out, "manifest.csv"), "w") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
