#!/usr/bin/env python3
"""configs/tcgen05/tmem_copy.yaml against CUTLASS's TMEM copy layouts.

Reads every Copy_Traits<SM100_TMEM_LOAD_*> and <SM100_TMEM_STORE_*> of CUTLASS's
include/cute/atom/copy_traits_sm100.hpp, evaluates its CuTe layouts (ValID: the atom's logical
bits -> TMEM bit address, with TMEM::DP_b the bit stride of a lane; DstLayout of a load,
SrcLayout of a store: (thread, register bit) -> logical bit), and compares, bit by bit, where
each thread's register bit lies in tensor memory with what the YAML's shape gives for the same
.num and .pack::16b (the _16b atoms; 16x32bx2 with immHalfSplitoff = the columns of one half, as
CUTLASS issues it). Nothing of CUTLASS is copied: its text is parsed each run.

    python3 tools/tcgen05/tmem_copy_vs_cutlass.py --cutlass PATH/TO/cutlass [--yaml configs/tcgen05/tmem_copy.yaml]

Exit status 0 when every atom agrees.
"""
import argparse
import os
import re
import sys

import yaml

DP = 1 << 20  # a stand-in for TMEM::DP_b: larger than any atom's bits in one lane

CUTLASS_SHAPE = {"32dp32b": "32x32b", "16dp64b": "16x64b", "16dp128b": "16x128b", "16dp256b": "16x256b",
                 "16dp32b": "16x32bx2"}


# ---- CuTe layouts: nested Shape/Stride, colexicographic coordinates -------------------------

def parse_tuple(text, pos):
    """Parses `Shape <...>` / `Stride<...>` / `_N` / `TMEM::DP_b` at pos: (value, next pos)."""
    m = re.compile(r"\s*(Shape|Stride)\s*<").match(text, pos)
    if m:
        items, pos = [], m.end()
        while True:
            v, pos = parse_tuple(text, pos)
            items.append(v)
            m2 = re.compile(r"\s*([,>])").match(text, pos)
            pos = m2.end()
            if m2.group(1) == ">":
                return tuple(items), pos
    m = re.compile(r"\s*(?:_(\d+)|TMEM::DP_b)").match(text, pos)
    if not m:
        raise ValueError(f"cannot read a layout at: {text[pos:pos + 40]!r}")
    return (int(m.group(1)) if m.group(1) else DP), m.end()


def parse_layout(text):
    """`Layout<Shape<...>, Stride<...>>` or `Layout<_N>` -> (shape, stride)."""
    m = re.match(r"\s*Layout\s*<", text)
    shape, pos = parse_tuple(text, m.end())
    m2 = re.compile(r"\s*,").match(text, pos)
    if not m2:
        return shape, 1
    stride, _ = parse_tuple(text, m2.end())
    return shape, stride


def size(shape):
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= size(s)
        return n
    return shape


def apply(shape, stride, index):
    """The layout's value at a 1-D index (CuTe: colexicographic over the nested shape)."""
    if not isinstance(shape, tuple):
        return (index % shape) * stride
    out = 0
    for s, d in zip(shape, stride):
        out += apply(s, d, index % size(s))
        index //= size(s)
    return out


def evaluate(shape, stride, t, v):
    """A rank-2 (thread, value) layout at (t, v)."""
    return apply(shape[0], stride[0], t) + apply(shape[1], stride[1], v)


def atoms(header):
    """{name: {"ValID": text, "SrcLayout": text, "DstLayout": text}} of the SM100 TMEM atoms."""
    out = {}
    for m in re.finditer(r"struct Copy_Traits<(SM100_TMEM_(?:LOAD|STORE)_\w+)>\s*\{(.*?)\n\};", header, re.S):
        body = re.sub(r"//[^\n]*", "", m.group(2))
        defs = {}
        for d in re.finditer(r"using (\w+)\s*=\s*(Layout<.*?>)\s*;", body, re.S):
            defs[d.group(1)] = d.group(2)
        # A store's layouts name its load's: `using SrcLayout = typename Copy_Traits<LOAD>::DstLayout;`
        for d in re.finditer(r"using (\w+)\s*=\s*typename Copy_Traits<(\w+)>::(\w+)\s*;", body):
            defs[d.group(1)] = (d.group(2), d.group(3))
        out[m.group(1)] = defs
    for defs in out.values():
        for k, v in list(defs.items()):
            while isinstance(v, tuple):
                v = out.get(v[0], {}).get(v[1])  # None: an alias this script does not need (RefLayout)
            defs[k] = v
    return out


# ---- the YAML ---------------------------------------------------------------------------------

def yaml_cell(shape, lane, reg):
    env = {"lane": lane, "r": reg % shape["regs"]}
    ev = lambda e: int(eval(e.replace("/", "//"), {"__builtins__": {}}, env))  # noqa: E731 (the YAML's integer expressions)
    row, col = ev(shape["row"]), ev(shape["col"]) + (reg // shape["regs"]) * shape["repeat"]
    half = ev(shape["half"]) if "half" in shape else 0
    return row, col, half


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True, help="a CUTLASS checkout (or its include/cute/atom/copy_traits_sm100.hpp)")
    ap.add_argument("--yaml", default=os.path.join(os.path.dirname(__file__), "../../configs/tcgen05/tmem_copy.yaml"))
    a = ap.parse_args()
    path = a.cutlass if a.cutlass.endswith(".hpp") else os.path.join(a.cutlass, "include/cute/atom/copy_traits_sm100.hpp")
    header = open(path).read()
    shapes = yaml.safe_load(open(a.yaml))["shapes"]
    checked = failed = 0
    for name, defs in sorted(atoms(header).items()):
        m = re.fullmatch(r"SM100_TMEM_(LOAD|STORE)_(\d+dp\d+b)(\d+)x(_16b)?", name)
        if not m or m.group(2) not in CUTLASS_SHAPE:
            continue  # the reductions and statistics atoms (LOAD_STAT) have no YAML shape
        shape = shapes[CUTLASS_SHAPE[m.group(2)]]
        num, pack = int(m.group(3)), m.group(4) is not None
        val = parse_layout(defs["ValID"])
        regs_layout = parse_layout(defs["DstLayout" if m.group(1) == "LOAD" else "SrcLayout"])
        nregs = shape["regs"] * num
        split = num * shape["repeat"] * (2 if pack else 1)  # the columns of one half, as CUTLASS passes it
        bad = []
        if size(regs_layout[0][1]) != 32 * nregs:
            bad.append(f"{size(regs_layout[0][1])} register bits a thread, the YAML {32 * nregs}")
        for t in range(32):
            for reg in range(nregs):
                row, col, half = yaml_cell(shape, t, reg)
                for b in range(32):
                    addr = apply(val[0], val[1], evaluate(regs_layout[0], regs_layout[1], t, 32 * reg + b))
                    got = (addr // DP, (addr % DP) // 32, addr % 32)
                    if pack:
                        want = (row, 2 * col + b // 16 + half * split, b % 16)
                    else:
                        want = (row, col + half * split, b)
                    if got != want and len(bad) < 3:
                        bad.append(f"lane {t} register {reg} bit {b}: CUTLASS lane {got[0]} column {got[1]} bit "
                                   f"{got[2]}, the YAML lane {want[0]} column {want[1]} bit {want[2]}")
        checked += 1
        if bad:
            failed += 1
            print(f"{name}: " + "; ".join(bad))
    print(f"{checked} CUTLASS TMEM atoms compared bit by bit with {os.path.relpath(a.yaml)}: {checked - failed} agree, "
          f"{failed} differ")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
