#!/usr/bin/env python3
"""The interpreter's speed in two builds: `ptxmma bench --kernel` of the ALU loop
(bench/interpreter/alu_loop.ptx) and of a whole Triton matmul (the corpus's sm_80 fp16 one at
M = N = K = 128, bench/interpreter/matmul_f16_sm80.yaml), the builds run alternately in each
round so that the machine's load falls on both; a kernel's figure is the median over the rounds
of its warp-instructions per CPU second. --instructions counts instead: host instructions per
warp-instruction under valgrind's callgrind (Machine::run only, so set-up and parsing do not
count), the same on every run; the printed ratio is then old/new instructions.

    python3 bench/compare_interpreter.py OLD_PTXMMA NEW_PTXMMA [--seconds 2] [--rounds 3] [--instructions]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = {
    "alu_loop": ("bench/interpreter/alu_loop.ptx", "bench/interpreter/alu_loop.yaml"),
    "matmul_f16_sm80": ("tests/kernels/triton-matmul/matmul_f16_sm80.ptx", "bench/interpreter/matmul_f16_sm80.yaml"),
}


def per_cpu_second(ptxmma, ptx, state, seconds):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([ptxmma, "bench", "--kernel", f"{ROOT / ptx}={ROOT / state}", "--seconds", str(seconds),
                        "--json", f.name], check=True, stdout=subprocess.DEVNULL)
        return json.load(open(f.name))[0]["per_cpu_second"]


def host_instructions(ptxmma, ptx, state):
    """Host instructions per warp-instruction of one run (callgrind, Machine::run alone)."""
    with tempfile.TemporaryDirectory() as tmp:
        out, doc = os.path.join(tmp, "callgrind.out"), os.path.join(tmp, "run.json")
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=ptxmma::Machine::run*",
                        f"--callgrind-out-file={out}", ptxmma, "run", str(ROOT / ptx), "--init", str(ROOT / state),
                        "--no-registers", "--max-steps", str(1 << 40), "--json", doc],
                       check=True, capture_output=True)
        total = next(int(line.split()[1]) for line in open(out) if line.startswith("totals:"))
        return total / json.load(open(doc))["instructions"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--instructions", action="store_true")
    a = ap.parse_args()
    for name, (ptx, state) in KERNELS.items():
        if a.instructions:
            old, new = host_instructions(a.old, ptx, state), host_instructions(a.new, ptx, state)
            print(f"{name:<16} host instructions per warp-instruction: old {old:,.0f}  new {new:,.0f}  "
                  f"old/new {old / new:.2f}")
            continue
        figures = {a.old: [], a.new: []}
        for r in range(a.rounds):
            for build in (a.old, a.new) if r % 2 == 0 else (a.new, a.old):
                figures[build].append(per_cpu_second(build, ptx, state, a.seconds))
        old, new = statistics.median(figures[a.old]), statistics.median(figures[a.new])
        print(f"{name:<16} warp-instructions per CPU second: old {old:,.0f}  new {new:,.0f}  new/old {new / old:.2f}"
              f"  (rounds: old {', '.join(f'{x:,.0f}' for x in figures[a.old])}; "
              f"new {', '.join(f'{x:,.0f}' for x in figures[a.new])})")


if __name__ == "__main__":
    main()
