#!/usr/bin/env python3
"""Issue 19's whole-grid benchmark: the corpus's Triton fp16 matmuls (tests/kernels) at M = N = K
= SIZE, run by `ptxmma run` on every CTA of the grid, in CPU seconds.

    python3 bench/triton_matmul.py build/ptxmma [--size 1024] [--kernels sm80,sm90a,tma] [--jobs 1,2] [--keep DIR]

Kernels: `sm80` (cp.async + mma.sync), `sm90a` (wgmma), `tma` (TMA + mbarrier + wgmma, with the
driver's tensor maps written by ptxmma from STATE.yaml). A and B are f16 in [-1, 1) from a fixed
seed, given to the run as a binary file; C comes back through --save-global and a few of its
elements are checked against a float64 dot product (a check that the run computed the product,
not of bits: the corpus tests check bits). Prints one line per kernel: CTAs, CPU seconds (user +
system of the ptxmma process), wall seconds. --jobs runs each kernel with each number of threads
(`ptxmma run -j N`) and checks that C is the same, byte for byte, for all of them. --keep writes
the inputs (ab.bin, KERNEL.yaml) into DIR, keeps them, and prints each `ptxmma run` command line
before its result, to run again by hand (with `taskset`, `perf stat`, ...) from the repository.
"""
import argparse
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
A_ADDR, C_ADDR = 0x10000000, 0x20000000
# Tile sizes and dynamic shared memory the PTX was compiled for (tools/kernels/triton_corpus.py;
# the shared sizes are those of the corpus's launches).
KERNELS = {
    "sm80": ("tests/kernels/triton-matmul/matmul_f16_sm80.ptx", 16384),
    "sm90a": ("tests/kernels/triton-matmul/matmul_f16_sm90a.ptx", 24576),
    "tma": ("tests/kernels/triton-tma/matmul_tma_f16_sm90a.ptx", 24600),
}
BLOCK_M = BLOCK_N = 64
BLOCK_K = 32


def params(kernel, n):
    if kernel != "tma":  # matmul(a_ptr, c_ptr, M, N, K) and Triton's two trailing pointers
        return [hex(A_ADDR), hex(C_ADDR), n, n, n, 0, 0]
    # matmul_tma(a_desc, b_desc, c_ptr, M, N, K): each descriptor is a tensor map, then its shape
    # and strides, as Triton's launcher passes them (tests/kernels/triton-tma's capture command).
    def tmap(address, box, swizzle):
        return ("{tensor_map: {type: f16, address: %s, dims: [%d, %d], strides: [%d], box: [%d, %d], "
                "swizzle: %s, l2_promotion: 128B}}" % (hex(address), n, n, 2 * n, box[0], box[1], swizzle))
    return [tmap(A_ADDR, (BLOCK_K, BLOCK_M), "64B"), n, n, n, 1,
            tmap(A_ADDR + 2 * n * n, (BLOCK_N, BLOCK_K), "128B"), n, n, n, 1,
            hex(C_ADDR), n, n, n, 0, 0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ptxmma")
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--kernels", default="sm80,sm90a,tma")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", default="1", help="threads of ptxmma run, comma-separated: each is run")
    ap.add_argument("--keep", help="write the inputs into this folder, keep them, print the commands")
    args = ap.parse_args()
    n = args.size
    # The commands run from the repository (the kernels' paths); a path to ptxmma from here.
    ptxmma = os.path.abspath(args.ptxmma) if os.sep in args.ptxmma else args.ptxmma
    if n % 64:
        sys.exit("--size must be a multiple of 64 (the kernels' tiles)")
    rng = random.Random(args.seed)
    a = [rng.uniform(-1, 1) for _ in range(2 * n * n)]  # A [n, n] then B [n, n], row-major
    with tempfile.TemporaryDirectory() as scratch:
        tmp = os.path.abspath(args.keep) if args.keep else scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        data = Path(tmp, "ab.bin")
        data.write_bytes(struct.pack("<%de" % len(a), *a))
        a = list(struct.unpack("<%de" % len(a), data.read_bytes()))  # the f16 values
        for kernel in args.kernels.split(","):
            ptx, shared = KERNELS[kernel]
            ctas = (n // BLOCK_M) * (n // BLOCK_N)
            state = Path(tmp, kernel + ".yaml")
            state.write_text(
                "ntid: [128, 1, 1]\nnctaid: [%d, 1, 1]\ndynamic_shared: %d\nparams: [%s]\n"
                "global:\n  - {address: %s, file: ab.bin}\n"
                % (ctas, shared, ", ".join(str(p) for p in params(kernel, n)), hex(A_ADDR)))
            first = None
            for jobs in args.jobs.split(","):
                out = Path(tmp, "c.bin")
                command = [ptxmma, "run", ptx, "--init", str(state), "--no-registers",
                           "--max-steps", str(1 << 30), "--jobs", jobs,
                           "--save-global", "%s:%d=%s" % (hex(C_ADDR), 4 * n * n, out)]
                if args.keep:
                    print(" ".join(command), flush=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.monotonic()
                r = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
                wall = time.monotonic() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if r.returncode:
                    sys.exit("%s: ptxmma run failed:\n%s%s" % (kernel, r.stdout[-2000:], r.stderr[-2000:]))
                raw = out.read_bytes()
                if first is None:
                    first = raw
                elif raw != first:
                    sys.exit("%s: C with --jobs %s differs from C with --jobs %s" % (kernel, jobs, args.jobs.split(",")[0]))
                c = struct.unpack("<%df" % (n * n), raw)
                for _ in range(16):
                    i, j = rng.randrange(n), rng.randrange(n)
                    want = sum(a[i * n + k] * a[n * n + k * n + j] for k in range(n))
                    if abs(c[i * n + j] - want) > 1e-3 * (1 + abs(want)):
                        sys.exit("%s: C[%d, %d] = %r, not the product %r" % (kernel, i, j, c[i * n + j], want))
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                print("%-6s %dx%dx%d, %d CTAs, --jobs %s: %.2f s of CPU, %.2f s wall"
                      % (kernel, n, n, n, ctas, jobs, cpu, wall), flush=True)


if __name__ == "__main__":
    main()
