#!/usr/bin/env python3
"""ptxmma against Microsoft's MMA-Sim (github microsoft/MMA-Sim, Python + PyTorch), side by side.

Every instruction both model runs on random inputs in one process run, some rounds each; the
medians of instructions per CPU second (this process's CPU time for MMA-Sim, `ptxmma bench`'s
own threads' CPU time for ptxmma) are printed as a Markdown table with the ratio and ptxmma's
CPU nanoseconds per multiply-add.

    python3 bench/mmasim_compare.py --mmasim PATH/TO/MMA-Sim [--ptxmma build/ptxmma] [--rounds 3]

Needs PyTorch (the CPU build is enough) importable by this Python.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

# (MMA-Sim architecture, class, qualifier) and the same instruction for ptxmma (text, --arch).
PAIRS = [
    ("Hopper", "mma", "m16n8k16.f32.f16.f16.f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_90a"),
    ("Hopper", "mma", "m16n8k16.f32.bf16.bf16.f32", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a"),
    ("Hopper", "mma", "m16n8k8.f32.tf32.tf32.f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "sm_90a"),
    ("Ada Lovelace", "mma", "m16n8k32.f32.e4m3.e4m3.f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "sm_89"),
    ("Hopper", "mma", "m8n8k4.f64.f64.f64.f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "sm_90a"),
    ("Hopper", "mma", "m16n8k16.f64.f64.f64.f64", "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", "sm_90a"),
    ("Hopper", "wgmma", "m64n256k16.f32.f16.f16", "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", "sm_90a"),
    ("RTX Blackwell", "mma_block_scale", "m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0",
     "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0", "sm_120a"),
    ("RTX Blackwell", "mma_block_scale", "m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0",
     "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0", "sm_120a"),
    ("RTX Blackwell", "mma_block_scale", "m16n8k64.block16.f32.e2m1.e2m1.f32.ue8m0",
     "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0", "sm_120a"),
    ("RTX Blackwell", "mma_block_scale", "m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3",
     "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3", "sm_120a"),
]


def random_tensor(torch, shape, dtype):
    if dtype == torch.uint8:  # two e2m1 per byte
        return torch.randint(0, 256, shape, dtype=torch.uint8)
    if dtype in (torch.float8_e8m0fnu,):
        return torch.ones(shape, dtype=torch.float32).to(dtype)
    return (torch.rand(shape, dtype=torch.float32) + 0.5).to(dtype) if dtype.itemsize == 1 else torch.randn(shape).to(dtype)


def mmasim_rate(torch, sim, arch, cls, qualifier, seconds):
    op = getattr(sim, cls)(arch, qualifier)
    m, n, k = op.m, op.n, op.k
    packing = getattr(op, "packing", 1)
    args = [random_tensor(torch, (m, k // packing), op.a_type), random_tensor(torch, (k // packing, n), op.b_type),
            random_tensor(torch, (m, n), op.c_type)]
    if cls == "mma_block_scale":
        args += [random_tensor(torch, (m, k // op.block_size), op.s_type),
                 random_tensor(torch, (k // op.block_size, n), op.s_type)]
    op(*args)  # warm up
    count, start = 0, time.process_time()
    while True:
        op(*args)
        count += 1
        used = time.process_time() - start
        if used >= seconds:
            return count / used


def ptxmma_rate(exe, ptx, arch, seconds):
    out = subprocess.run([exe, "bench", ptx, "--arch", arch, "--seconds", str(seconds), "--json"], check=True,
                         capture_output=True, text=True).stdout
    r = json.loads(out)[0]
    return r["per_cpu_second"], r["ns_per_mnk"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mmasim", required=True, help="a checkout of github microsoft/MMA-Sim")
    p.add_argument("--ptxmma", default="build/ptxmma")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=2.0, help="per instruction, model and round")
    a = p.parse_args()
    sys.path.insert(0, a.mmasim)
    try:
        import torch
        from mmasim.simulator import nv_ptx as sim
    except ImportError as e:
        sys.exit(f"mmasim_compare: {e} (MMA-Sim needs PyTorch; `pip install torch` gives a build that runs on the CPU)")
    print("| instruction | MMA-Sim | ptxmma | ratio | ptxmma ns per multiply-add |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for arch, cls, qualifier, ptx, target in PAIRS:
        sims, ours, ns = [], [], []
        for _ in range(a.rounds):
            sims.append(mmasim_rate(torch, sim, arch, cls, qualifier, a.seconds))
            rate, per_mnk = ptxmma_rate(a.ptxmma, ptx, target, a.seconds)
            ours.append(rate)
            ns.append(per_mnk)
        s, o = statistics.median(sims), statistics.median(ours)
        print(f"| `{ptx}` ({target}) | {s:,.1f} | {o:,.0f} | {o / s:,.0f}x | {statistics.median(ns):.3f} |", flush=True)


if __name__ == "__main__":
    main()
