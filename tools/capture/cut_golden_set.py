#!/usr/bin/env python3
"""Copy an mma golden set (ptxmma-golden-regs-v1) keeping only each entry's first N cases.

The repository keeps such cuts of the large shared sets so that tests/data stays small; the
families cycle with the case index, so N = 2 x len(families) keeps two cases of every family.

usage: cut_golden_set.py SOURCE_SET OUT_SET CASES
"""
import json
import lzma
import pathlib
import sys


def read_bin(folder: pathlib.Path, name: str) -> bytes:
    plain = folder / name
    if plain.exists():
        return plain.read_bytes()
    return lzma.decompress((folder / (name + ".xz")).read_bytes())


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    source, out, keep = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
    manifest = json.loads((source / "manifest.json").read_text())
    if manifest.get("format") != "ptxmma-golden-regs-v1":
        print(f"{source}/manifest.json: not a ptxmma-golden-regs-v1 set", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    for v in manifest["variants"]:
        words = sum(v["words"].values())
        record = 32 * 4 * words
        data = read_bin(source, v["file"])
        if len(data) != v["cases"] * record:
            print(f"{source}/{v['file']}: {len(data)} bytes, expected {v['cases'] * record}", file=sys.stderr)
            return 1
        v["cases"] = min(keep, v["cases"])
        cut = data[: v["cases"] * record]
        (out / (v["file"] + ".xz")).write_bytes(lzma.compress(cut, preset=9 | lzma.PRESET_EXTREME))
    # The shared sets' manifest style: one line per entry.
    head = ",\n".join(f"  {json.dumps(k)}: {json.dumps(x)}" for k, x in manifest.items() if k != "variants")
    rows = ",\n".join("    " + json.dumps(v) for v in manifest["variants"])
    (out / "manifest.json").write_text("{\n" + head + ',\n  "variants": [\n' + rows + "\n  ]\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
