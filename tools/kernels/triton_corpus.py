"""Compiles the Triton kernels of the real-kernel corpus (tests/kernels/, docs/kernels.md) to PTX.
Triton need not see a GPU: it compiles for a named target.

    python tools/kernels/triton_corpus.py tests     # writes kernels/triton-*/NAME_smXX.ptx

and prints each kernel's dynamic shared memory in bytes (tools/kernels/capture.sh passes it on).

Every kernel reads one input buffer and writes one output buffer (snippet_capture's `in` and `out`),
its other parameters are 32-bit sizes, and Triton appends two scratch pointers, which the capture
passes null: kernel(in, out, sizes..., null, null). Loops run over runtime sizes, so Triton
pipelines them (cp.async, and wgmma where the target has it).
"""
import os
import pathlib
import sys

# Reproducible output: no source lines or paths in the PTX; FP fusion on (Triton 3.9's default).
os.environ.setdefault("TRITON_DISABLE_LINE_INFO", "1")
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

# PTX ISA 8.8 (CUDA 12.9): Triton 3.9 would write 9.4 for sm_90a, newer than the lent GPU's driver
# (580, PTX ISA 9.0) JIT-compiles; nothing in these kernels needs more than 8.0.
PTX_VERSION = 88


@triton.jit
def attention(q_ptr, o_ptr, seq, HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Fused attention forward, one head: Q, K, V (f16, [seq, HEAD]) one after the other; O f32.
    Softmax in base 2 (exp2 -> ex2.approx), online over key blocks."""
    k_ptr = q_ptr + seq * HEAD
    v_ptr = k_ptr + seq * HEAD
    start = tl.program_id(0) * BLOCK_M
    rows = start + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, HEAD)
    q = tl.load(q_ptr + rows[:, None] * HEAD + cols[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD], tl.float32)
    scale = 0.125 * 1.4426950408889634  # 1/sqrt(HEAD) * log2(e)
    for n in tl.range(0, seq, BLOCK_N):
        keys = n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + keys[None, :] * HEAD + cols[:, None])  # K^T block: [HEAD, BLOCK_N]
        s = tl.dot(q, k) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + keys[:, None] * HEAD + cols[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rows[:, None] * HEAD + cols[None, :], acc)


@triton.jit
def matmul(a_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
           ACC: tl.constexpr, TANH: tl.constexpr):
    """C = A B: A [M, K] then B [K, N] row-major in the input (f16, bf16, fp8, f32 as tf32 or s8 by
    the pointer's type), C [M, N] in ACC (f32 or s32); one BLOCK_M x BLOCK_N tile per program, the
    K loop pipelined. TANH: an epilogue tanh.approx.f32 (inline PTX, as fast-math kernels write it)."""
    b_ptr = a_ptr + M * K
    pm = tl.program_id(0) // tl.cdiv(N, BLOCK_N)
    pn = tl.program_id(0) % tl.cdiv(N, BLOCK_N)
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], ACC)
    for k in tl.range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    if TANH:
        acc = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [acc], dtype=tl.float32,
                                        is_pure=True, pack=1)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_tma(a_desc, b_desc, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C = A B through host-side tensor descriptors (TMA): A [M, K] and B [K, N] f16, C [M, N] f32.
    Each descriptor is a 128-byte CUtensorMap kernel parameter (then its shape and strides) that
    the launcher encodes with cuTensorMapEncodeTiled; the loads become cp.async.bulk.tensor into
    swizzled shared memory, completed on mbarriers, feeding wgmma."""
    pm = tl.program_id(0) // tl.cdiv(N, BLOCK_N)
    pn = tl.program_id(0) % tl.cdiv(N, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in tl.range(0, K, BLOCK_K):
        a = a_desc.load([pm * BLOCK_M, k])
        b = b_desc.load([k, pn * BLOCK_N])
        acc = tl.dot(a, b, acc)
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def softmax(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    """Row-wise softmax of f32 rows of `cols` elements (one row per program): exp and division."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=float("-inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(y_ptr + row * cols + offs, e / tl.sum(e, 0), mask=offs < cols)


@triton.jit
def layernorm(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    """Row-wise layer normalisation of f32 rows (one row per program): mean, variance, rsqrt."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
    mean = tl.sum(x, 0) / cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, 0) / cols + 1e-5)
    tl.store(y_ptr + row * cols + offs, d * rstd, mask=mask)


def aligned(signature):
    """Pointers 16-byte aligned and sizes multiples of 16, as Triton's launcher would specialise them."""
    return {(i,): [["tt.divisibility", 16]] for i, t in enumerate(signature.values()) if t[0] == "*" or t == "i32"}


MATMUL = {"M": "i32", "N": "i32", "K": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
          "ACC": "constexpr", "TANH": "constexpr"}
F32_TILES = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "ACC": tl.float32, "TANH": False}
ROWS = {"cols": "i32", "BLOCK": "constexpr"}

# folder, file name (the entry is the function's name), function, argument types, constexprs,
# targets, warps, stages
KERNELS = [
    ("kernels/triton-attention", "attention", attention,
     {"q_ptr": "*fp16", "o_ptr": "*fp32", "seq": "i32", "HEAD": "constexpr", "BLOCK_M": "constexpr",
      "BLOCK_N": "constexpr"}, {"HEAD": 64, "BLOCK_M": 64, "BLOCK_N": 32}, (80, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_f16", matmul, {"a_ptr": "*fp16", "c_ptr": "*fp32", **MATMUL},
     F32_TILES, (80, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_bf16", matmul, {"a_ptr": "*bf16", "c_ptr": "*fp32", **MATMUL},
     F32_TILES, (80, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_e4m3", matmul, {"a_ptr": "*fp8e4nv", "c_ptr": "*fp32", **MATMUL},
     {**F32_TILES, "BLOCK_K": 64}, (89, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_tf32", matmul, {"a_ptr": "*fp32", "c_ptr": "*fp32", **MATMUL},
     F32_TILES, (80, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_s8", matmul, {"a_ptr": "*i8", "c_ptr": "*i32", **MATMUL},
     {**F32_TILES, "BLOCK_K": 64, "ACC": tl.int32}, (80, 90), 4, 3),
    ("kernels/triton-matmul", "matmul_f16_tanh", matmul, {"a_ptr": "*fp16", "c_ptr": "*fp32", **MATMUL},
     {**F32_TILES, "TANH": True}, (80,), 4, 3),
    ("kernels/triton-tma", "matmul_tma_f16", matmul_tma,
     {"a_desc": "tensordesc<fp16[64, 32]>", "b_desc": "tensordesc<fp16[32, 64]>", "c_ptr": "*fp32", "M": "i32",
      "N": "i32", "K": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"},
     {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, (90,), 4, 3),
    ("kernels/triton-rows", "softmax", softmax, {"x_ptr": "*fp32", "y_ptr": "*fp32", **ROWS}, {"BLOCK": 128}, (80,), 4, 1),
    ("kernels/triton-rows", "layernorm", layernorm, {"x_ptr": "*fp32", "y_ptr": "*fp32", **ROWS}, {"BLOCK": 128}, (80,), 4, 1),
]


def compile_for(fn, signature, constexprs, capability, warps, stages):
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=aligned(signature))
    compiled = triton.compile(src, target=GPUTarget("cuda", capability, 32),
                              options={"num_warps": warps, "num_stages": stages, "ptx_version": PTX_VERSION})
    meta = getattr(compiled.metadata, "tensordesc_meta", None)
    if meta:  # the maps the launcher must encode (tools/kernels/capture.sh passes them on)
        print(f"{fn.__name__} sm{capability}: tensor maps {meta}")
    return compiled.asm["ptx"], compiled.metadata.shared


def main() -> None:
    root = pathlib.Path(sys.argv[1])
    for folder, name, fn, signature, constexprs, targets, warps, stages in KERNELS:
        (root / folder).mkdir(parents=True, exist_ok=True)
        for cap in targets:
            ptx, shared = compile_for(fn, signature, constexprs, cap, warps, stages)
            path = root / folder / f"{name}_sm{cap}{'a' if cap == 90 else ''}.ptx"
            path.write_text(ptx)
            print(f"{path}: {shared} bytes of dynamic shared memory")


if __name__ == "__main__":
    main()
