"""Writes the input set of tests/data/probes-sp-sm90 (docs/hardware/mma-sp-sm90.md): does mma.sp read
the rows of B that A's metadata does not select? Run it on a GPU with
    python3 tools/capture/sparse_unread_b_probe.py DIR && mma_capture --rerun DIR --out OUT

mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, selector 0: A = 1.0 everywhere, C = 0, and
B rows k with k % 4 in {2, 3} are +Inf, the others 1.0 (m16n8k16.b.16bit: lane t holds rows 2t,
2t+1 in b0 and 2t+8, 2t+9 in b1). Case 0 selects columns 0, 1 of every 4 (metadata 0x44444444):
if the unselected Inf rows were multiplied by A's implicit zeros, D would be NaN. Case 1 selects
columns 2, 3 (0xeeeeeeee): D = +Inf. Case 2 mixes the two per chunk (0x84848484).
"""
import json
import os
import struct
import sys


def lane_words(meta):
    out = []
    for lane in range(32):
        t = lane % 4
        b = []
        for r in (0, 1):
            k0 = 2 * t + 8 * r
            lo = 0x7C00 if k0 % 4 >= 2 else 0x3C00
            hi = 0x7C00 if (k0 + 1) % 4 >= 2 else 0x3C00
            b.append(lo | (hi << 16))
        out += [0x3C003C00, 0x3C003C00] + b + [0, 0, 0, 0] + [meta] + [0, 0, 0, 0]
    return out


def main(out):
    os.makedirs(out, exist_ok=True)
    name = "sp.m16n8k16.row.col.f32.f16.f16.f32.sel0.bin"
    cases = [lane_words(m) for m in (0x44444444, 0xEEEEEEEE, 0x84848484)]
    with open(os.path.join(out, name), "wb") as f:
        for w in cases:
            f.write(struct.pack("<%dI" % len(w), *w))
    manifest = {"format": "ptxmma-golden-regs-v1", "set": "probe-sp-unread-b", "device": "none", "sm": "none",
                "seed": 0, "families": ["probe"], "inputs_only": True,
                "variants": [{"ptx": "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "file": name,
                              "cases": len(cases), "words": {"a": 2, "b": 2, "c": 4, "e": 1, "d": 4},
                              "types": {"a": "f16", "b": "f16", "c": "f32", "e": "b32", "d": "f32"},
                              "sparse": {"selector": 0}}]}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: sparse_unread_b_probe.py OUT_DIR")
    main(sys.argv[1])
