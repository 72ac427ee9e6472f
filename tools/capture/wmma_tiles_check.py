"""Checks a wmma golden set (tests/data/wmma-sm90) against the reading in docs/hardware/wmma-sm90.md:
on sm_90 each wmma.mma is mma.sync tiles over the logical matrices that the fragments' first copies
hold (the layouts: tests/data/wmma-sm90-layouts.txt), tf32 m16n16k8 as two chained k = 4 steps, and
f16 with mixed accumulators through the f32 form (C widened, D rounded to f16). Uses the Python
module (ptxmma.mma, ptxmma.convert) as the tile model.

    python tools/capture/wmma_tiles_check.py tests/data/wmma-sm90 tests/data/wmma-sm90-layouts.txt
"""
import json
import lzma
import sys

import numpy as np

import ptxmma

BITS = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "f64": 64, "s8": 8, "u8": 8, "s4": 4, "u4": 4, "b1": 1,
        "s32": 32}


def read_layouts(path):
    """load form -> (rows, cols, element index of every lane's slots)."""
    lay = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        head, nums = line.split(":")
        _, ptx, rows, cols, _, _ = head.split()
        lay[ptx] = (int(rows), int(cols), np.array(nums.split(), dtype=np.int64))
    return lay


def fragment(lay, op, shape, t):
    key = f"wmma.load.{op}.sync.aligned.row.{shape}.global.{t}"  # the fragment does not depend on the layout
    return lay[key] if key in lay else lay[key.replace(".row.", ".col.")]


def slots(words, t):
    """32 lanes x words -> 32 lanes x slots (element codes, low bits first)."""
    b = BITS[t]
    w = words.astype(np.uint64)
    if b == 64:
        return w[:, 0::2] | (w[:, 1::2] << np.uint64(32))
    per = 32 // b
    out = np.zeros((32, w.shape[1] * per), np.uint64)
    for i in range(per):
        out[:, i::per] = (w >> np.uint64(i * b)) & np.uint64((1 << b) - 1)
    return out


def matrix(lay, words, op, shape, t):
    """The logical matrix a fragment holds, each element from its first slot."""
    rows, cols, where = fragment(lay, op, shape, t)
    s = slots(words, t).reshape(-1)
    m = np.zeros(rows * cols, np.uint64)
    first = np.full(rows * cols, -1)
    for i in range(len(where) - 1, -1, -1):
        first[where[i]] = i
    m[:] = s[first]
    return m.reshape(rows, cols)


def tile_instruction(ptx, tc, td):
    sat = ".satfinite" if "satfinite" in ptx else ""
    for ab in ("bf16", "s8", "u8", "s4", "u4", "tf32", "f64", "b1"):
        if f".{ab}." in ptx:
            break
    else:
        ab = "f16"
    if ab == "f16":
        return f"mma.sync.aligned.m16n8k16.row.col.{td}.f16.f16.{tc}", 16, 8, ab
    if ab == "bf16":
        return "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, ab
    if ab in ("s8", "u8"):
        return f"mma.sync.aligned.m16n8k16.row.col{sat}.s32.{ab}.{ab}.s32", 16, 8, ab
    if ab == "tf32":
        return "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, ab
    if ab == "f64":
        rnd = next((f".{r}" for r in ("rn", "rz", "rm", "rp") if f".{r}." in ptx), "")
        return f"mma.sync.aligned.m8n8k4.row.col{rnd}.f64.f64.f64.f64", 8, 8, ab
    if ab in ("s4", "u4"):
        return f"mma.sync.aligned.m8n8k32.row.col{sat}.s32.{ab}.{ab}.s32", 8, 8, ab
    op = "xor" if ".xor." in ptx else "and"
    return f"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.{op}.popc", 8, 8, ab


def tiles(instr, tm, tn, A, B, C, ab, tc):
    """D = A B + C by tiles of the mma (rows padded to the tile with zeros), K in steps of the tile's K."""
    M, K = A.shape
    N = B.shape[1]
    tk = K if ab != "tf32" else 4
    Mp = max(M, tm)
    Ap = np.zeros((Mp, K), np.uint64)
    Ap[:M] = A
    D = np.zeros((Mp, N), np.uint64)
    D[:M] = C
    for k in range(0, K, tk):
        for i in range(0, Mp, tm):
            for j in range(0, N, tn):
                D[i:i + tm, j:j + tn] = np.asarray(ptxmma.mma(instr, Ap[i:i + tm, k:k + tk], B[k:k + tk, j:j + tn],
                                                              D[i:i + tm, j:j + tn], dtype={"A": ab, "B": ab, "C": tc},
                                                              bits=True, raw=True), np.uint64)
    return D[:M]


def main():
    root, layouts = sys.argv[1], sys.argv[2]
    lay = read_layouts(layouts)
    manifest = json.load(open(f"{root}/manifest.json"))
    failed = 0
    for v in manifest["variants"]:
        ptx, w, t = v["ptx"], v["words"], v["types"]
        shape = next(x for x in ptx.split(".") if x.startswith("m") and "n" in x and "k" in x)
        data = np.frombuffer(lzma.open(f"{root}/{v['file']}.xz").read(), np.uint32)
        data = data.reshape(v["cases"], 32, w["a"] + w["b"] + w["c"] + w["d"])
        instr, tm, tn, ab = tile_instruction(ptx, t["c"], t["d"])
        bad = 0
        for case in data:
            a, b = case[:, :w["a"]], case[:, w["a"]:w["a"] + w["b"]]
            c, d = case[:, w["a"] + w["b"]:w["a"] + w["b"] + w["c"]], case[:, -w["d"]:]
            A, B = matrix(lay, a, "a", shape, ab), matrix(lay, b, "b", shape, ab)
            C = matrix(lay, c, "c", shape, t["c"])
            if ab == "f16" and t["c"] != t["d"]:  # mixed accumulators: the f32 form, D rounded to f16
                if t["c"] == "f16":
                    C = ptxmma.convert(C.astype(np.uint16), "f16", "f32").astype(np.uint64)
                D = tiles(instr.replace(f".{t['d']}.f16.f16.{t['c']}", ".f32.f16.f16.f32"), tm, tn, A, B, C, ab, "f32")
                if t["d"] == "f16":
                    D = ptxmma.convert(D.astype(np.uint32), "f32", "f16").astype(np.uint64)
            else:
                D = tiles(instr, tm, tn, A, B, C, ab, t["c"])
            bad += int((D != matrix(lay, d, "c", shape, t["d"])).any())
        failed += bad
        print(f"{ptx:72s} cases {v['cases']:3d} failed {bad}")
    print(f"wmma_tiles_check: {len(manifest['variants'])} variants, {failed} cases failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
