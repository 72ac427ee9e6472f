#!/usr/bin/env python3
"""tma_replace vectors (tools/capture/tma/capture_modes.sh): out[0..1] hold the modified tensor map's
global address, which on the GPU is the real input buffer's (2 MiB-aligned by cuMemAlloc) plus an
offset, and in the vector the simulated one (0x100000, snippet_capture's input address). Rewrites
those two expected words of each file from the first to the second, in place, and says so in the
file's header; every other word stays the GPU's.

    tools/capture/tma/map_address.py FILE.test.yaml...
"""
import re
import sys

IN_ADDRESS = 0x100000


def translate(path):
    text = open(path).read()
    expect = text.index("    expect:")
    m = re.compile(r"values: \[(0x[0-9a-f]{8}), (0x[0-9a-f]{8})").search(text, expect)
    gpu = int(m.group(1), 16) | int(m.group(2), 16) << 32
    sim = IN_ADDRESS + (gpu & 0x1FFFFF)
    words = "values: [0x%08x, 0x%08x" % (sim & 0xFFFFFFFF, sim >> 32)
    text = text[: m.start()] + words + text[m.end():]
    note = ("# out[0..1]: the map's address, the GPU's %#x translated to the simulated buffer's %#x "
            "(tools/capture/tma/map_address.py).\n" % (gpu, sim))
    text = text.replace("# Expected values are the words", note + "# Expected values are the words", 1)
    open(path, "w").write(text)


for f in sys.argv[1:]:
    translate(f)
