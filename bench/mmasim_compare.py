#!/usr/bin/env python3
"""ptxmma against Microsoft's MMA-Sim (github microsoft/MMA-Sim, Python + PyTorch), side by side.

Every instruction both model, on random inputs, some rounds each: the (architecture, qualifier)
pairs MMA-Sim's catalogue lists (`mmasim.isa.nv_ptx`: mma, mma with block scale, and wgmma, whose
legal types MMA-Sim checks but lists nowhere: one N, --wgmma-n, per type) written as ptxmma's PTX
on the matching target. A pair is compared when MMA-Sim runs it and `ptxmma bench` accepts it;
the others are listed after the table with the reason. The medians of instructions per CPU
second (this process's CPU time for MMA-Sim, `ptxmma bench`'s own threads' CPU time for ptxmma)
are printed as a Markdown table with the ratio and ptxmma's CPU nanoseconds per multiply-add.

    python3 bench/mmasim_compare.py --mmasim PATH/TO/MMA-Sim [--ptxmma build/ptxmma] [--rounds 3]
        [--seconds 2] [--only TEXT] [--json FILE]

Needs PyTorch (the CPU build is enough) importable by this Python.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

# MMA-Sim's architecture names and the ptxmma targets whose models describe the same GPUs.
TARGETS = {
    "Volta": "sm_70",
    "Turing": "sm_75",
    "Ampere": "sm_80",
    "Ada Lovelace": "sm_89",
    "Hopper": "sm_90a",
    "Blackwell": "sm_100a",
    "RTX Blackwell": "sm_120a",
}

# wgmma's (D, A, B) types as MMA-Sim's nv_wgmma checks them (K follows from A).
WGMMA_TYPES = [("f32", "tf32", "tf32"), ("f32", "f16", "f16"), ("f16", "f16", "f16"), ("f32", "bf16", "bf16")] + [
    (d, a, b) for d in ("f32", "f16") for a in ("e5m2", "e4m3") for b in ("e5m2", "e4m3")]
WGMMA_K = {"tf32": 8, "f16": 16, "bf16": 16, "e5m2": 32, "e4m3": 32}


def block_scale_ptx(qualifier):
    """MMA-Sim's block-scale qualifier (shape.blockNN.d.a.b.c.scale) as PTX: K = 32 is
    kind::mxf8f6f4 (one scale per 32), K = 64 kind::mxf4 for ue8m0 per 32, else kind::mxf4nvf4."""
    shape, block, d, a, b, c, s = qualifier.split(".")
    if shape.endswith("k32"):
        kind, vec = "mxf8f6f4", "1X"
    else:
        kind = "mxf4" if (block, s) == ("block32", "ue8m0") else "mxf4nvf4"
        vec = "2X" if block == "block32" else "4X"
    return f"mma.sync.aligned.{shape}.row.col.kind::{kind}.block_scale.scale_vec::{vec}.{d}.{a}.{b}.{c}.{s}"


def pairs(nv, wgmma_n):
    """(MMA-Sim architecture, class, qualifier, ptxmma instruction, target), each once."""
    out, seen = [], set()
    for arch, qualifiers in nv.nv_mma.arch_mma_qualifiers.items():
        for q in qualifiers:
            if (arch, q) in seen:  # RTX Blackwell lists the Ada FP8 m16n8k32 qualifiers twice
                continue
            seen.add((arch, q))
            shape, d, a, b, c = q.split(".")
            # RTX Blackwell's own list is mma.sync.kind::f8f6f4 (MMA-Sim's comment "sm_120a f8f6f4").
            kind = "kind::f8f6f4." if arch == "RTX Blackwell" and q in nv.nv_mma.rtx_blackwell_mma_qualifiers else ""
            out.append((arch, "mma", q, f"mma.sync.aligned.{shape}.row.col.{kind}{d}.{a}.{b}.{c}", TARGETS[arch]))
    for arch, qualifiers in nv.nv_mma.arch_mma_block_scale_qualifiers.items():
        out += [(arch, "mma_block_scale", q, block_scale_ptx(q), TARGETS[arch]) for q in qualifiers]
    for d, a, b in WGMMA_TYPES:
        shape = f"m64n{wgmma_n}k{WGMMA_K[a]}"
        out.append(("Hopper", "wgmma", f"{shape}.{d}.{a}.{b}", f"wgmma.mma_async.sync.aligned.{shape}.{d}.{a}.{b}",
                    "sm_90a"))
    return out


def random_tensor(torch, shape, dtype):
    if dtype == torch.uint8:  # two e2m1 per byte
        return torch.randint(0, 256, shape, dtype=torch.uint8)
    if dtype == torch.float8_e8m0fnu:
        return torch.ones(shape, dtype=torch.float32).to(dtype)
    if dtype.itemsize == 1:  # FP8 elements, ue4m3 scales: positive, no NaN
        return (torch.rand(shape, dtype=torch.float32) + 0.5).to(dtype)
    return torch.randn(shape).to(dtype)


class MmaSimRun:
    """One MMA-Sim instruction object with its inputs; building it and the first call (the
    warm-up) raise what MMA-Sim does not model."""

    def __init__(self, torch, sim, arch, cls, qualifier):
        self.op = getattr(sim, cls)(arch, qualifier)
        m, n, k = self.op.m, self.op.n, self.op.k
        packing = getattr(self.op, "packing", 1)
        self.args = [random_tensor(torch, (m, k // packing), self.op.a_type),
                     random_tensor(torch, (k // packing, n), self.op.b_type),
                     random_tensor(torch, (m, n), self.op.c_type)]
        if cls == "mma_block_scale":
            self.args += [random_tensor(torch, (m, k // self.op.block_size), self.op.s_type),
                          random_tensor(torch, (k // self.op.block_size, n), self.op.s_type)]
        self.op(*self.args)

    def rate(self, seconds):
        count, start = 0, time.process_time()
        while True:
            self.op(*self.args)
            count += 1
            used = time.process_time() - start
            if used >= seconds:
                return count / used


def ptxmma_bench(exe, ptx, arch, seconds):
    """(per CPU second, ns per multiply-add), or the error ptxmma gives."""
    r = subprocess.run([exe, "bench", ptx, "--arch", arch, "--seconds", str(seconds), "--json"],
                       capture_output=True, text=True)
    doc = json.loads(r.stdout) if r.stdout.strip() else {"error": r.stderr.strip()}
    if r.returncode != 0 or isinstance(doc, dict):
        raise RuntimeError(doc.get("error", r.stderr.strip()) if isinstance(doc, dict) else r.stderr.strip())
    return doc[0]["per_cpu_second"], doc[0]["ns_per_mnk"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mmasim", required=True, help="a checkout of github microsoft/MMA-Sim")
    p.add_argument("--ptxmma", default="build/ptxmma")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=2.0, help="per instruction, simulator and round")
    p.add_argument("--wgmma-n", type=int, default=256, help="the N of the wgmma instructions")
    p.add_argument("--only", help="only the pairs whose ptxmma instruction or target contains this text")
    p.add_argument("--json", help="also write every pair's rounds and the skipped pairs to this file")
    a = p.parse_args()
    sys.path.insert(0, a.mmasim)
    try:
        import torch
        from mmasim.isa import nv_ptx as nv
        from mmasim.simulator import nv_ptx as sim
    except ImportError as e:
        sys.exit(f"mmasim_compare: {e} (MMA-Sim needs PyTorch; `pip install torch` gives a build that runs on the CPU)")

    todo = [t for t in pairs(nv, a.wgmma_n) if not a.only or a.only in t[3] or a.only == t[4]]
    runs, skipped = [], []
    for arch, cls, qualifier, ptx, target in todo:
        try:
            run = MmaSimRun(torch, sim, arch, cls, qualifier)
        except Exception as e:  # MMA-Sim asserts or fails inside its arithmetic
            skipped.append((arch, qualifier, ptx, target, f"MMA-Sim: {type(e).__name__} {e}".strip()))
            continue
        try:
            ptxmma_bench(a.ptxmma, ptx, target, 0.01)
        except RuntimeError as e:
            skipped.append((arch, qualifier, ptx, target, f"ptxmma: {e}"))
            continue
        runs.append((arch, qualifier, ptx, target, run))

    print("| instruction | target | MMA-Sim (arch, qualifier) | MMA-Sim / CPU s | ptxmma / CPU s | ratio | ptxmma ns per multiply-add |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |", flush=True)
    results = []
    for arch, qualifier, ptx, target, run in runs:
        sims, ours, ns = [], [], []
        for _ in range(a.rounds):
            sims.append(run.rate(a.seconds))
            rate, per_mnk = ptxmma_bench(a.ptxmma, ptx, target, a.seconds)
            ours.append(rate)
            ns.append(per_mnk)
        s, o = statistics.median(sims), statistics.median(ours)
        results.append({"instruction": ptx, "arch": target, "mmasim": [arch, qualifier], "mmasim_per_cpu_second": sims,
                        "ptxmma_per_cpu_second": ours, "ptxmma_ns_per_mnk": ns, "ratio": o / s})
        print(f"| `{ptx}` | {target} | {arch} `{qualifier}` | {s:,.2f} | {o:,.0f} | {o / s:,.0f}x | "
              f"{statistics.median(ns):.3f} |", flush=True)
    if skipped:
        print("\nNot compared (one of the two does not model it):\n")
        for arch, qualifier, ptx, target, why in skipped:
            print(f"* {arch} `{qualifier}` (`{ptx}`, {target}): {why.splitlines()[0] if why else ''}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"compared": results, "skipped": [
                {"mmasim": [arch, q], "instruction": ptx, "arch": t, "why": why} for arch, q, ptx, t, why in skipped]},
                f, indent=2)


if __name__ == "__main__":
    main()
