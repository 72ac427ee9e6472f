"""Compare a real GPU's tensor-core results with ptxmma, bit for bit (docs/python.md).

Needs an NVIDIA GPU (sm_80 or later), PyTorch with CUDA, and nvcc for torch's load_inline:

    pip install . torch && python docs/torch_compare.py [--instr INSTR] [--trials N]

1. A one-instruction kernel: each lane's registers come from `ptxmma.scatter` (the matrices
   through the fragment layouts), the GPU runs one `mma.sync`, and `ptxmma.gather` reads its D
   registers back; every element must equal `ptxmma.mma` on the same matrices. Inputs are drawn
   with widely spread exponents and cancellations, where rounding and truncation show.
2. For information: `torch.matmul` (cuBLAS) of the same f16 matrices, whose kernel and
   accumulation order are cuBLAS's choice, against ptxmma's single mma rounded to f16.
Exits 1 if any element of part 1 differs.
"""
import argparse
import sys

import numpy as np
import torch
from torch.utils.cpp_extension import load_inline

import ptxmma

CUDA = r"""
#include <torch/extension.h>

// One warp: lane l's A, B, C registers are words [l * n, (l + 1) * n) of a, b, c; D likewise.
// C and D are .f32 ("f") or .s32 ("r") registers, as the instruction's types say (PTXMMA_ACC,
// PTXMMA_REG; the macros carry a prefix because torch's headers use short names such as K).
__global__ void mma_kernel(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* d) {
  const int l = threadIdx.x;
  unsigned ra[4], rb[2];
  PTXMMA_ACC rc[4], rd[4];
  for (int i = 0; i < 4; ++i) ra[i] = a[l * 4 + i];
  for (int i = 0; i < 2; ++i) rb[i] = b[l * 2 + i];
  for (int i = 0; i < 4; ++i) rc[i] = PTXMMA_TO_ACC(c[l * 4 + i]);
  asm volatile(PTXMMA_INSTR " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
               : "=" PTXMMA_REG(rd[0]), "=" PTXMMA_REG(rd[1]), "=" PTXMMA_REG(rd[2]), "=" PTXMMA_REG(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                 PTXMMA_REG(rc[0]), PTXMMA_REG(rc[1]), PTXMMA_REG(rc[2]), PTXMMA_REG(rc[3]));
  for (int i = 0; i < 4; ++i) d[l * 4 + i] = PTXMMA_FROM_ACC(rd[i]);
}

torch::Tensor run_mma(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  auto d = torch::empty_like(c);
  mma_kernel<<<1, 32>>>(reinterpret_cast<const unsigned*>(a.data_ptr<int>()),
                        reinterpret_cast<const unsigned*>(b.data_ptr<int>()),
                        reinterpret_cast<const unsigned*>(c.data_ptr<int>()),
                        reinterpret_cast<unsigned*>(d.data_ptr<int>()));
  return d;
}
"""


def kernel_source(instr, d_type):
    """The CUDA text for `instr`: its accumulator registers as float ("f") or int ("r")."""
    f = d_type == "f32"
    head = (f'#define PTXMMA_INSTR "{instr}"\n#define PTXMMA_ACC {"float" if f else "int"}\n'
            f'#define PTXMMA_REG(x) "{"f" if f else "r"}"(x)\n'
            f'#define PTXMMA_TO_ACC(x) {"__uint_as_float(x)" if f else "int(x)"}\n'
            f'#define PTXMMA_FROM_ACC(x) {"__float_as_uint(x)" if f else "unsigned(x)"}\n')
    return head + CUDA

# Instructions with 4 A, 2 B and 4 C/D 32-bit registers per lane (the kernel's operand lists).
SHAPES_4_2_4 = {
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
}


def inputs(rng, instr, arch):
    """A, B, C as ptxmma takes them, with exponents spread so that alignment drops bits."""
    info = ptxmma._mma_info(instr, arch)["operands"]

    def floats(op, kind):
        rows, cols = info[op]["rows"], info[op]["cols"]
        x = rng.standard_normal((rows, cols)) * np.exp2(rng.integers(-12, 12, (rows, cols)))
        return x.astype(kind)

    ta = info["A"]["type"]
    if ta == "s8":
        return (rng.integers(-128, 128, (16, 32), dtype=np.int8), rng.integers(-128, 128, (32, 8), dtype=np.int8),
                rng.integers(-2**20, 2**20, (16, 8), dtype=np.int32))
    if ta == "f16":
        return floats("A", np.float16), floats("B", np.float16), floats("C", np.float32)
    if ta == "tf32":
        return floats("A", np.float32), floats("B", np.float32), floats("C", np.float32)
    # bf16 / e4m3: float32 values, which ptxmma rounds into the type (cvt.rn; e4m3 .satfinite, clamped).
    return floats("A", np.float32), floats("B", np.float32), floats("C", np.float32)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--instr", action="append", help="instruction(s) to check (default: all of SHAPES_4_2_4)")
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--arch", default=None, help="ptxmma target (default: from the GPU, e.g. sm_90a)")
    args = p.parse_args()
    major, minor = torch.cuda.get_device_capability()
    arch = args.arch or {(9, 0): "sm_90a", (10, 0): "sm_100a", (12, 0): "sm_120a"}.get((major, minor),
                                                                                       f"sm_{major}{minor}")
    print(f"GPU {torch.cuda.get_device_name()} ({arch})")
    rng = np.random.default_rng(2024)
    failed = 0
    for instr in args.instr or sorted(SHAPES_4_2_4):
        if instr not in SHAPES_4_2_4:
            sys.exit(f"{instr}: the kernel takes 4 A, 2 B and 4 C/D registers per lane")
        try:
            ptxmma._mma_info(instr, arch)
        except ValueError as e:
            print(f"skip {instr}: {e}")
            continue
        ext = load_inline(name="ptxmma_mma_" + instr.replace(".", "_"), cpp_sources=(
            "torch::Tensor run_mma(torch::Tensor a, torch::Tensor b, torch::Tensor c);"),
            cuda_sources=kernel_source(instr, ptxmma._mma_info(instr, arch)["operands"]["D"]["type"]),
            functions=["run_mma"],
            extra_cuda_cflags=[f"-arch=sm_{major}{minor}"])
        dt = {op: v["type"] for op, v in ptxmma._mma_info(instr, arch)["operands"].items()}
        bad = 0
        for _ in range(args.trials):
            a, b, c = inputs(rng, instr, arch)
            regs = [torch.from_numpy(ptxmma.scatter(instr, op, m, arch, dtype=dt[op]).view(np.int32)).cuda()
                    for op, m in (("A", a), ("B", b), ("C", c))]
            d_gpu = ext.run_mma(*regs).cpu().numpy().view(np.uint32)
            got = ptxmma.gather(instr, "D", d_gpu, arch, raw=True)
            want = ptxmma.mma(instr, a, b, c, arch=arch, dtype={"A": dt["A"], "B": dt["B"]}, raw=True)
            if not np.array_equal(got, want):
                bad += 1
                r, col = map(int, np.argwhere(got != want)[0])
                if bad == 1:
                    print(f"  first difference: D[{r}][{col}] GPU {int(got[r, col]):#x}, ptxmma {int(want[r, col]):#x}")
        failed += bad
        print(f"{'ok  ' if not bad else 'FAIL'} {instr}: {args.trials - bad}/{args.trials} trials bit-identical")

    # For information: cuBLAS's f16 matmul of one 16 x 16 x 8 product against one mma rounded to f16.
    f16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    same = 0
    for _ in range(args.trials):
        a, b, _ = inputs(rng, f16, arch)
        d_torch = (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).cpu().numpy()
        d_sim = ptxmma.convert(ptxmma.mma(f16, a, b, arch=arch, raw=True), "f32", "f16")
        same += int(np.array_equal(d_torch.view(np.uint16), d_sim))
    print(f"info torch.matmul f16 (cuBLAS): {same}/{args.trials} trials equal to one mma + cvt.rn.f16.f32")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
