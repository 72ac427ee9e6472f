"""Writes the inputs of a sparse wgmma set (wgmma.mma_async.sp, docs/hardware/wgmma-sp-sm90.md) from a
dense one (ptxmma-golden-wgmma-v1): every entry but b1 becomes the sparse instruction of twice its K
with the same shared image, descriptors, A words (the compressed 64 x K/2 A has the dense A's
size and layout), C words and scale-d, plus an sp-meta word per thread and sp-sel. Run it on a GPU:
    python3 tools/capture/make_wgmma_sparse.py DENSE_DIR IN && mma_capture --rerun IN --out OUT

The sparse B reads 2K rows through the dense B descriptor, past the dense image: the shared
allocation is raised to 227 KiB, all zero outside the image, as the simulator's is.
Metadata: every nibble defined (two different indices; tf32 0b0100 / 0b1110); entries at even
positions keep index pairs increasing, odd ones take either order (unsorted pairs are not
documented for wgmma). sp-sel alternates 0 / 1 where it may (f16, bf16, tf32).
"""
import json
import os
import random
import re
import struct
import sys

ALLOC = 227 * 1024


def metadata(rng, tf32, any_order):
    w = 0
    for q in range(8):
        if tf32:
            nib = rng.choice((0x4, 0xE))
        else:
            i0, i1 = rng.sample(range(4), 2)
            if not any_order and i0 > i1:
                i0, i1 = i1, i0
            nib = i0 | (i1 << 2)
        w |= nib << (4 * q)
    return w


def main(src, out):
    m = json.load(open(os.path.join(src, "manifest.json")))
    os.makedirs(out, exist_ok=True)
    rng = random.Random(2026)
    entries = []
    for v in m["variants"]:
        a = v["types"]["a"]
        if a == "b1":
            continue
        i = len(entries)
        mt = re.match(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k(\d+)\.(.*)", v["ptx"])
        n, k, rest = int(mt.group(1)), int(mt.group(2)), mt.group(3)
        sel = i % 2 if a in ("f16", "bf16", "tf32") else 0
        e = dict(v)
        e["ptx"] = f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{2 * k}.{rest}"
        e["file"] = "sp." + v["file"]
        words = dict(v["words"])
        wa, wc, wd = words["a"], words["c"], words["d"]
        e["words"] = {"a": wa, "c": wc, "e": 1, "d": wd}
        e["sparse"] = {"selector": sel}
        data = open(os.path.join(src, v["file"]), "rb").read()
        rec = 32 + v["smem_bytes"] + 128 * 4 * (wa + wc + wd)
        assert len(data) == rec * v["cases"], v["file"]
        outb = bytearray()
        for c in range(v["cases"]):
            r = data[c * rec:(c + 1) * rec]
            outb += r[:32 + v["smem_bytes"]]
            t0 = 32 + v["smem_bytes"]
            for t in range(128):
                th = r[t0 + t * 4 * (wa + wc + wd):t0 + (t + 1) * 4 * (wa + wc + wd)]
                outb += th[:4 * (wa + wc)]
                outb += struct.pack("<I", metadata(rng, a == "tf32", i % 2 == 1))
                outb += bytes(4 * wd)
        open(os.path.join(out, e["file"]), "wb").write(outb)
        entries.append(e)
    man = {"format": m["format"], "set": "wgmma-sp-inputs", "device": "none", "sm": "none", "seed": 2026,
           "smem_alloc_bytes": ALLOC, "families": m["families"], "inputs_only": True,
           "derived_from": m.get("set", ""), "variants": entries}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        f.write("{\n" + ",\n".join(f'  {json.dumps(k)}: {json.dumps(x)}' for k, x in man.items() if k != "variants"))
        f.write(',\n  "variants": [\n' + ",\n".join("    " + json.dumps(x) for x in entries) + "\n  ]\n}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_wgmma_sparse.py DENSE_SET_DIR OUT_DIR")
    main(sys.argv[1], sys.argv[2])
