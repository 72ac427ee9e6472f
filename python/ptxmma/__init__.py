"""ptxmma: a bit-exact simulator of NVIDIA tensor-core instructions (mma.sync, wgmma).

Matrix level: ``mma(instr, A, B, C)`` and ``wgmma(instr, A, B, C)`` take numpy arrays in the
logical shapes (A: M x K, B: K x N, C: M x N) and return D. Register level: ``Warp`` and
``Warpgroup`` hold per-lane registers and run PTX text; ``layout(instr)`` gives the fragment maps.
``replay``, ``explain``, ``convert`` and ``values`` return Python objects. Bad input raises
ValueError whose message names the argument, or carries the CLI's message.

Element arrays: numpy float16/float32/float64 for f16/f32(tf32)/f64, ml_dtypes arrays (bfloat16,
float8_e4m3fn, float8_e5m2, float6_e3m2fn, float6_e2m3fn, float4_e2m1fn, float8_e8m0fnu) where
installed, integer arrays for the integer types (values), bool for b1, and unsigned arrays of any
type as bit patterns (``dtype=`` may name the PTX type to check it). tf32 elements are 32-bit
patterns (bits 31:13; a float32 array holds them), as the registers hold them.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np

# The installed package carries its YAML data; a PTXMMA_CONFIG_DIR set by the user wins.
_CONFIGS = Path(__file__).with_name("configs")
if _CONFIGS.is_dir():
    os.environ.setdefault("PTXMMA_CONFIG_DIR", str(_CONFIGS))

from . import _ptxmma as _c  # noqa: E402  (after the config directory is known)

try:
    import ml_dtypes as _ml
except ImportError:  # optional: bit patterns and numpy's own types still work
    _ml = None

__version__ = "0.1.0"
__all__ = ["mma", "wgmma", "layout", "Warp", "Warpgroup", "replay", "explain", "convert", "values", "special",
           "golden", "golden_cases", "scatter", "gather", "addresses", "TYPES", "ARCHS"]

TYPES = {t["name"]: t for t in _c.types()}
ARCHS = tuple(_c.targets())
_ML_NAMES = {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2", "float6_e3m2fn": "e3m2",
             "float6_e2m3fn": "e2m3", "float4_e2m1fn": "e2m1", "float8_e8m0fnu": "ue8m0"}
_NUMPY_FLOATS = {"float16": ("f16",), "float32": ("f32", "tf32"), "float64": ("f64",)}


class Record(SimpleNamespace):
    """A result object: attributes for the fields; nested dicts become Records too."""

    @classmethod
    def of(cls, x):
        if isinstance(x, dict):
            return cls(**{k: cls.of(v) for k, v in x.items()})
        if isinstance(x, list):
            return [cls.of(v) for v in x]
        return x


def _arg_error(arg, msg):
    return ValueError(f"{arg}: {msg}")


def _check_arch(arch):
    if arch not in ARCHS:
        raise _arg_error("arch", f"unknown target '{arch}' (known: {', '.join(ARCHS)})")


def _check_type(name, arg):
    if not isinstance(name, str) or name not in TYPES:
        raise _arg_error(arg, f"unknown type '{name}' (known: {', '.join(TYPES)})")
    return TYPES[name]


def _container_bits(t):
    return 32 if t["name"] == "tf32" else t["bits"]


def _unsigned(bits):
    return np.uint8 if bits <= 8 else np.uint16 if bits <= 16 else np.uint32 if bits <= 32 else np.uint64


def _codes(x, ptx, arg, shape=None, dtype=None):
    """Element codes (uint64, the container's bits) of array `x` for an operand of PTX type `ptx`."""
    t = TYPES[ptx]
    if dtype is not None:
        _check_type(dtype, "dtype")
        if dtype != ptx:
            raise _arg_error("dtype", f"{arg} of this instruction is {ptx}, not {dtype}")
    try:
        a = np.asarray(x)
    except Exception as e:  # ragged lists and the like
        raise _arg_error(arg, f"not an array ({e})") from None
    if shape is not None and a.shape != tuple(shape):
        raise _arg_error(arg, f"expected shape {tuple(shape)} (a {shape[0]}x{shape[1]} matrix of {ptx}), "
                              f"got {a.shape}")
    bits = _container_bits(t)
    kind = a.dtype.name
    if kind in _ML_NAMES:
        if _ML_NAMES[kind] != ptx:
            raise _arg_error(arg, f"{kind} elements are {_ML_NAMES[kind]}, the instruction's {arg} is {ptx}")
        return np.ascontiguousarray(a.view(_unsigned(8 * a.dtype.itemsize)), dtype=np.uint64)
    if kind in _NUMPY_FLOATS:
        if ptx not in _NUMPY_FLOATS[kind]:
            raise _arg_error(arg, f"{kind} elements are {'/'.join(_NUMPY_FLOATS[kind])}, the instruction's {arg} "
                                  f"is {ptx} (convert first, e.g. with ptxmma.convert)")
        return np.ascontiguousarray(a.view(_unsigned(8 * a.dtype.itemsize)), dtype=np.uint64)
    if a.dtype == np.bool_:
        if ptx != "b1":
            raise _arg_error(arg, f"bool elements are b1, the instruction's {arg} is {ptx}")
        return np.ascontiguousarray(a, dtype=np.uint64)
    if a.dtype.kind == "u" or (a.dtype.kind == "i" and t["is_float"]):
        # Bit patterns of the container.
        if a.size and (int(a.min()) < 0 or int(a.max()) >> bits):
            raise _arg_error(arg, f"bit patterns of {ptx} are {bits}-bit unsigned values "
                                  f"(found {int(a.min())}..{int(a.max())})")
        return np.ascontiguousarray(a, dtype=np.uint64)
    if a.dtype.kind == "i":
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t["is_signed"] else (0, (1 << bits) - 1)
        if a.size and (int(a.min()) < lo or int(a.max()) > hi):
            raise _arg_error(arg, f"{ptx} values are {lo}..{hi} (found {int(a.min())}..{int(a.max())})")
        return np.ascontiguousarray(a.astype(np.int64).view(np.uint64) & np.uint64((1 << bits) - 1))
    raise _arg_error(arg, f"{a.dtype} arrays cannot hold {ptx} elements")


def _typed(codes, ptx, raw):
    """Codes as a numpy array of the type's natural dtype (bit-identical view), or bit patterns."""
    t = TYPES[ptx]
    u = codes.astype(_unsigned(_container_bits(t)))
    if raw:
        return u
    name = ptx
    if name in ("f16", "f32", "tf32", "f64"):
        return u.view({"f16": np.float16, "f32": np.float32, "tf32": np.float32, "f64": np.float64}[name])
    if name == "b1":
        return u.astype(np.bool_)
    if not t["is_float"]:
        if t["is_signed"]:
            b = t["bits"]
            s = codes.astype(np.int64)
            s = np.where(s >= (1 << (b - 1)), s - (1 << b), s)
            return s.astype(np.int32 if b > 8 else np.int8)
        return u
    ml = {v: k for k, v in _ML_NAMES.items()}.get(name)
    if _ml is not None and ml and hasattr(_ml, ml):
        return u.view(getattr(_ml, ml))
    return u


def _instr(instr):
    if not isinstance(instr, str):
        raise _arg_error("instr", f"an instruction string, not {type(instr).__name__}")
    return instr


@functools.lru_cache(maxsize=256)
def _mma_info(instr, arch):
    _check_arch(arch)
    try:
        return _c.mma_info(_instr(instr), arch)
    except ValueError as e:
        raise _arg_error("instr", str(e)) from None


@functools.lru_cache(maxsize=256)
def _wgmma_info(instr, arch):
    _check_arch(arch)
    try:
        return _c.wgmma_info(_instr(instr), arch)
    except ValueError as e:
        raise _arg_error("instr", str(e)) from None


def _per_operand(dtype, op):
    return dtype.get(op) if isinstance(dtype, dict) else dtype


def _mma_operands(instr, arch, A, B, C, dtype):
    info = _mma_info(instr, arch)
    ops = info["operands"]
    out = []
    for name, x in (("A", A), ("B", B), ("C", C)):
        if x is None and name == "C":
            out.append(None)
            continue
        o = ops[name]
        shape = (o["rows"], info["shape"][2]) if name == "A" and info["sparse"] else (o["rows"], o["cols"])
        out.append(_codes(x, o["type"], name, shape, _per_operand(dtype, name)))
    return info, out


def _scales(scale_a, scale_b):
    """Scale matrices as uint64 arrays of their codes (ue8m0 / ue4m3 bytes), or None."""
    return tuple(None if x is None else np.ascontiguousarray(np.asarray(x), dtype=np.uint64)
                 for x in (scale_a, scale_b))


def mma(instr, A, B, C=None, arch="sm_90a", dtype=None, raw=False, scale_a=None, scale_b=None):
    """D = A*B + C of one warp-level mma.sync instruction, bit for bit.

    A is M x K, B is K x N, C (default zeros) M x N; m8n8k4 .f16 stacks its four problems (4M rows).
    ``dtype`` names the PTX type of bit-pattern arrays (one name, or a dict per operand "A".."C").
    Block-scaled kinds take ``scale_a`` (M x V) and ``scale_b`` (V x N), V the .scale_vec, as the
    codes of the scale type (ue8m0: 127 is 2^0; ue4m3: 0x38 is 1.0).
    Sparse variants (mma.sp) take A as its logical M x K matrix: of every 4 columns at most 2 hold
    nonzero elements (tf32: 1 of 2; s4/u4: 2 pairs of 8); the metadata is made from where
    they sit (sparsity selector 0), and the B rows it does not pick are not read.
    D comes back as float32/float16/float64/int32 (bit-identical), or as bit patterns with raw=True.
    """
    instr = _instr(instr)
    info, (a, b, c) = _mma_operands(instr, arch, A, B, C, dtype)
    d = _c.mma_run(instr, arch, a, b, c, *_scales(scale_a, scale_b))
    return _typed(d, info["operands"]["D"]["type"], raw)


def wgmma(instr, A=None, B=None, C=None, arch="sm_90a", *, smem=None, desc_a=None, desc_b=None, a_regs=None,
          smem_base=0, scale_d=True, scale_a=1, scale_b=1, trans_a=0, trans_b=0, sp_meta=None, sp_sel=0, dtype=None,
          raw=False, swizzle="none", a_source="descriptor"):
    """D (64 x N) of one wgmma.mma_async.

    Matrices: A (64 x K) and B (K x N) are placed in shared memory in the layout a compiler uses
    for ``swizzle`` ("none", "32B", "64B", "128B"; K-major, MN-major where trans_a/trans_b is 1)
    and read through descriptors made for them, as ``ptxmma test`` places them
    (docs/test-vectors.md); ``a_source="registers"`` puts A in the threads' registers instead
    (the RS form). Shared memory: ``smem`` (uint8 image at ``smem_base``) with
    ``desc_b`` and either ``desc_a`` or ``a_regs`` (128 threads x 4 uint32, the register form),
    and the immediates scale_a/scale_b (+-1), trans_a/trans_b (0/1). C (default zeros) is 64 x N;
    scale_d=False ignores it. Sparse (wgmma.mma_async.sp): with matrices A is its logical 64 x K
    matrix, compressed as for ``mma`` (each warp's 16 rows, sparsity selector 0); with ``smem`` give
    ``sp_meta`` (the 128 threads' sp-meta words) and ``sp_sel``.
    """
    instr = _instr(instr)
    info = _wgmma_info(instr, arch)
    _, n, k = info["shape"]
    ta, tb, td = info["types"]
    c = None if C is None else _codes(C, td, "C", (64, n), _per_operand(dtype, "C"))
    for arg, v in (("scale_a", scale_a), ("scale_b", scale_b)):
        if v not in (1, -1):
            raise _arg_error(arg, f"1 or -1, not {v!r}")
    for arg, v in (("trans_a", trans_a), ("trans_b", trans_b)):
        if v not in (0, 1):
            raise _arg_error(arg, f"0 or 1, not {v!r}")
    if smem is None:
        if A is None or B is None:
            raise _arg_error("A" if A is None else "B", "give A and B, or smem with descriptors")
        if desc_a is not None or desc_b is not None or a_regs is not None:
            raise _arg_error("desc_a" if desc_a is not None else "desc_b" if desc_b is not None else "a_regs",
                             "descriptors and registers go with smem=")
        if swizzle not in ("none", "32B", "64B", "128B"):
            raise _arg_error("swizzle", f'"none", "32B", "64B" or "128B", not {swizzle!r}')
        if a_source not in ("descriptor", "registers"):
            raise _arg_error("a_source", f'"descriptor" or "registers", not {a_source!r}')
        if sp_meta is not None:
            raise _arg_error("sp_meta", "with matrices the metadata is made from A; sp_meta goes with smem=")
        a = _codes(A, ta, "A", (64, k), _per_operand(dtype, "A"))
        b = _codes(B, tb, "B", (k, n), _per_operand(dtype, "B"))
        d = _c.wgmma_matrices(instr, arch, a, b, c, bool(scale_d), scale_a, scale_b, trans_a, trans_b, swizzle,
                              a_source == "registers")
        return _typed(d, td, raw)
    if A is not None or B is not None:
        raise _arg_error("A" if A is not None else "B", "with smem=, A comes from desc_a or a_regs and B from desc_b")
    if swizzle != "none" or a_source != "descriptor":
        raise _arg_error("swizzle" if swizzle != "none" else "a_source",
                         "goes with matrices; with smem= the descriptors (or a_regs) say where A and B are")
    image = np.asarray(smem)
    if image.dtype != np.uint8 or image.ndim != 1:
        raise _arg_error("smem", f"a 1-D uint8 array, not {image.dtype} of shape {image.shape}")
    if desc_b is None:
        raise _arg_error("desc_b", "required with smem=")
    if (desc_a is None) == (a_regs is None):
        raise _arg_error("desc_a", "give desc_a (A in shared memory) or a_regs (A in registers), one of them")
    regs = None if a_regs is None else _words(a_regs, "a_regs", (128, info["a_regs"]))
    meta = None if sp_meta is None else _words(sp_meta, "sp_meta", (128,))
    d = _c.wgmma_shared(instr, arch, np.ascontiguousarray(image), _u64(smem_base, "smem_base"),
                        _u64(desc_a or 0, "desc_a"), regs, _u64(desc_b, "desc_b"), c, bool(scale_d),
                        scale_a, scale_b, trans_a, trans_b, meta, _int(sp_sel, "sp_sel"))
    return _typed(d, td, raw)


def _int(x, arg, lo=-(1 << 31), hi=(1 << 31) - 1):
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise _arg_error(arg, f"an integer, not {x!r}")
    if not lo <= x <= hi:
        raise _arg_error(arg, f"{x} is outside {lo}..{hi}")
    return int(x)


def _words(x, arg, shape):
    """Register words: an integer array of `shape`, as uint32 (the low 32 bits of each)."""
    w = np.asarray(x)
    if w.shape != shape or w.dtype.kind not in "ui":
        raise _arg_error(arg, f"expected a {shape} integer array, got {w.dtype} of shape {w.shape}")
    return np.ascontiguousarray(w.astype(np.int64) & 0xFFFFFFFF, dtype=np.uint32)


def _u64(x, arg):
    try:
        v = int(x)
    except (TypeError, ValueError):
        raise _arg_error(arg, f"an integer, not {x!r}") from None
    if not 0 <= v < 1 << 64:
        raise _arg_error(arg, f"{v} does not fit in 64 bits")
    return v


def addresses(instr, operand, desc, trans=0, arch="sm_90a"):
    """Shared byte address (and b1 bit) of every element of a wgmma's A (64 x K) or B (K x N) under
    descriptor `desc`: a Record with arrays ``address`` and ``bit``."""
    _wgmma_info(instr, arch)
    if trans not in (0, 1):
        raise _arg_error("trans", f"0 or 1, not {trans!r}")
    addr, bit = _c.wgmma_addresses(instr, arch, str(operand), _u64(desc, "desc"), trans)
    return Record(address=addr, bit=bit)


class OperandLayout(Record):
    """One operand's fragment layout. ``coord[lane, reg, elem]`` = (problem, row, col) and
    ``slot[problem, row, col]`` = (lane, reg, elem); ``lane``, ``reg``, ``elem`` are
    (rows, cols) arrays (problems stacked) and ``row``, ``col`` (lanes, regs, elems) arrays."""


def _operand_layout(d):
    coord, slot = d["coord"], d["slot"]
    problems, rows, cols, _ = slot.shape
    flat = slot.reshape(problems * rows, cols, 3)
    return OperandLayout(name=d["name"], coord=coord, slot=slot, lane=flat[..., 0], reg=flat[..., 1],
                         elem=flat[..., 2], problem=coord[..., 0], row=coord[..., 1], col=coord[..., 2])


def layout(instr, arch="sm_90a"):
    """The fragment layouts of an mma (A, B, C, D) or wgmma (A in registers, C, D) instruction."""
    instr = _instr(instr)
    if instr.lstrip().startswith("wgmma"):
        _wgmma_info(instr, arch)
        maps = _c.wgmma_layout(instr, arch)
    else:
        _mma_info(instr, arch)
        maps = _c.mma_layout(instr, arch)
    return {k: _operand_layout(v) for k, v in maps.items()}


def scatter(instr, operand, matrix, arch="sm_90a", dtype=None):
    """The registers (32 lanes x words, uint32) that hold `matrix` as an mma's `operand`."""
    info = _mma_info(_instr(instr), arch)
    o = info["operands"].get(str(operand).upper())
    if o is None:
        raise _arg_error("operand", f"unknown operand '{operand}' (A, B, C or D)")
    return _c.mma_scatter(instr, arch, operand, _codes(matrix, o["type"], str(operand).upper(),
                                                       (o["rows"], o["cols"]), dtype))


def gather(instr, operand, words, arch="sm_90a", raw=False):
    """The matrix an mma's `operand` registers (32 lanes x words) hold."""
    info = _mma_info(_instr(instr), arch)
    o = info["operands"].get(str(operand).upper())
    if o is None:
        raise _arg_error("operand", f"unknown operand '{operand}' (A, B, C or D)")
    m = _c.mma_gather(instr, arch, operand, _words(words, "words", (32, o["words_per_lane"])))
    return _typed(m, o["type"], raw)


# ---- numbers ----

def convert(bits, from_, to, round="rn", satfinite=False, relu=False):
    """PTX cvt of element codes: `bits` (an int or an array; container bits, tf32 as a b32) in type
    `from_` to type `to` with rounding rn/rna/rz/rm/rp. Returns the codes (an int, or an unsigned
    array of the same shape). Arrays of a float type (float32, ml_dtypes...) are taken as values."""
    _check_type(from_, "from_")
    _check_type(to, "to")
    scalar = isinstance(bits, (int, np.integer))
    shape = np.shape(bits)
    a = _codes(np.asarray(bits), from_, "bits")
    out = _c.convert(a.reshape(-1), from_, to, str(round), bool(satfinite), bool(relu))
    out = out.reshape(shape).astype(_unsigned(_container_bits(TYPES[to])))
    return int(out) if scalar else out


def values(bits, type):  # noqa: A002  (the PTX word)
    """Exact values of element codes as float64 (integers as numbers)."""
    _check_type(type, "type")
    scalar = isinstance(bits, (int, np.integer))
    shape = np.shape(bits)
    a = _codes(np.asarray(bits), type, "bits")
    out = _c.values(a.reshape(-1), type).reshape(shape)
    return float(out) if scalar else out


def _special_operand(x, t, arg):
    """Bit patterns (uint64) of an approximate function's operand of type `t`; packed x2 forms take
    their b32 words as unsigned integers."""
    if t in ("f16x2", "bf16x2"):
        a = np.asarray(x)
        if a.dtype.kind not in "ui" or (a.size and (int(a.min()) < 0 or int(a.max()) >> 32)):
            raise _arg_error(arg, f"{t} operands are packed pairs: 32-bit unsigned words")
        return np.ascontiguousarray(a, dtype=np.uint64)
    return _codes(x, t, arg)


def special(instr, x, y=None, raw=False):
    """An approximate special-function instruction (``ex2``/``lg2``/``rcp``/``rsqrt``/``sqrt``/``sin``/
    ``cos``/``tanh`` ``.approx``, ``div.approx``/``div.full`` of x by y) on every element, as the
    H100/H200 computes it (docs/hardware/special-functions-sm90.md): e.g.
    ``special("ex2.approx.ftz.f32", np.float32([1, -1]))``. Elements as for the matrix functions
    (floats as values, unsigned arrays as bit patterns; f16x2/bf16x2 forms: uint32 words). Returns
    an array of the operand's shape, typed like it (``raw=True``: bit patterns)."""
    if not isinstance(instr, str):
        raise _arg_error("instr", "expected the instruction as a string, e.g. 'ex2.approx.f32'")
    info = _c.special_info(instr)
    t = info["type"]
    if (y is None) != (info["arity"] == 1):
        raise _arg_error("y", f"{instr} takes {'one operand' if info['arity'] == 1 else 'two operands, x / y'}")
    a = _special_operand(x, t, "x")
    b = a
    if y is not None:
        b = _special_operand(y, t, "y")
        if b.shape != a.shape:
            raise _arg_error("y", f"shape {b.shape} differs from x's {a.shape}")
    out = _c.special_eval(instr, a.reshape(-1), b.reshape(-1)).reshape(a.shape)
    if t in ("f16x2", "bf16x2"):
        return out.astype(np.uint32)
    return _typed(out, t, raw)


# ---- golden sets ----

def _path(p):
    try:
        return os.fspath(p)
    except TypeError:
        raise _arg_error("path", f"a path, not {p!r}") from None


def replay(path, arch=None, jobs=1):
    """Replays a golden set (mma or wgmma; or recorded dot products: tests/data/matlab-tc) as
    ``ptxmma replay`` does; a Record with ``ok``, ``passed_cases``, ``failed_cases`` and per-variant
    results (``variants``, or ``files`` for recorded dot products). arch: default sm_90a (recorded
    dot products: each file's own)."""
    if arch is not None:
        _check_arch(arch)
    return Record.of(_c.replay(_path(path), arch or "", _int(jobs, "jobs")))


def golden(path):
    """The manifest of a golden set: format, set, device, sm and its variants (instruction, cases, types;
    mma sets also selector: the sparsity selector of a sparse entry, else None)."""
    return Record.of(_c.golden_manifest(_path(path)))


def golden_cases(path, variant, selector=None):
    """Every case of one variant (its index or instruction) as arrays: mma sets a, b, c, d of shape
    (cases, 32, words), sparse entries also e (the metadata words) and selector; wgmma sets also
    desc_a, desc_b, scale_d, smem_base and image. A sparse instruction has an entry per sparsity
    selector captured: ``selector`` picks one (default: the first)."""
    path = _path(path)
    if isinstance(variant, str):
        entries = [(v["instruction"], v.get("selector")) for v in _c.golden_manifest(path)["variants"]]
        found = [i for i, (name, sel) in enumerate(entries) if name == variant and selector in (None, sel)]
        if not found:
            have = [sel for name, sel in entries if name == variant]
            if not have:
                raise _arg_error("variant", f"no variant '{variant}' in {path}")
            raise _arg_error("selector", f"'{variant}' is not sparse" if None in have else
                             f"'{variant}' has no entry with selector {selector} (it has {have})")
        variant = found[0]
    elif selector is not None:
        raise _arg_error("selector", "picks among the entries of an instruction: give the instruction, not an index")
    return Record.of(_c.golden_cases(path, _int(variant, "variant")))


def explain(*args, row, col, problem=0, case=0, arch="sm_90a", dtype=None, C=None, scale_a=None, scale_b=None,
            selector=None):
    """The steps of one output element D[row][col].

    ``explain(instr, A, B, C=None, row=, col=)`` for matrices (block-scaled: ``scale_a=``,
    ``scale_b=`` as for ``mma``), or ``explain(set_dir, instr, case=,
    row=, col=)`` for a golden case as ``ptxmma explain`` does (then ``gpu_bits`` and ``same`` say
    what the GPU gave; ``selector=`` picks a sparse instruction's entry, as ``--selector``).
    A Record: instruction, model, lane, reg, elem, steps (lines), bits, value.
    """
    if len(args) >= 1 and isinstance(args[0], str) and args[0].lstrip().startswith("mma"):
        if len(args) not in (3, 4):
            raise _arg_error("explain", "explain(instr, A, B[, C], row=, col=)")
        instr, A, B = args[:3]
        C = args[3] if len(args) == 4 else C
        _, (a, b, c) = _mma_operands(instr, arch, A, B, C, dtype)
        return Record.of(_c.mma_explain(instr, arch, a, b, c, _int(problem, "problem"), _int(row, "row"),
                                        _int(col, "col"), *_scales(scale_a, scale_b)))
    if len(args) != 2:
        raise _arg_error("explain", "explain(instr, A, B[, C], row=, col=) or explain(set_dir, instr, case=, row=, col=)")
    path, instr = _path(args[0]), _instr(args[1])
    info = _mma_info(instr, arch)
    row, col, problem, case = _int(row, "row"), _int(col, "col"), _int(problem, "problem"), _int(case, "case")
    cases = golden_cases(path, instr, selector)
    n = cases.a.shape[0]
    if not 0 <= case < n:
        raise _arg_error("case", f"{case} is out of range: {instr} has cases 0..{n - 1}")
    m = {op: _c.mma_gather(instr, arch, op, np.ascontiguousarray(getattr(cases, op.lower())[case]))
         for op in "ABCD"}
    meta = None
    if info["sparse"]:
        meta = np.ascontiguousarray(cases.e[case].reshape(-1), dtype=np.uint32)
    r = Record.of(_c.mma_explain(instr, arch, m["A"], m["B"], m["C"], problem, row, col, None, None, meta,
                                 int(cases.selector) if info["sparse"] else 0))
    rows = info["operands"]["D"]["rows"] // info["problems"]
    r.gpu_bits = int(m["D"][problem * rows + row, col])
    r.gpu_value = _c.format_value(info["operands"]["D"]["type"], r.gpu_bits)
    r.same = r.gpu_bits == r.bits
    return r


# ---- register level ----

class Warp:
    """32 lanes of named registers (and a shared memory) that PTX text runs on.

    ``w["%r1"] = values`` sets a register in every lane (a scalar or one value per lane; float
    arrays as their bits); ``w["%r1"]`` reads it (unsigned, of the declared width; a predicate as
    bool), ``w.get("%f1", "f32")`` as a type. ``run(ptx)`` declares what the text declares, sets
    the registers this object holds, runs, and keeps every register the text declares.
    """

    threads = 32

    def __init__(self, arch="sm_90a", shared_bytes=0, strict=False, max_steps=1_000_000):
        _check_arch(arch)
        self.arch = arch
        self.shared_bytes = _int(shared_bytes, "shared_bytes", 0, 1 << 62)
        self.strict = strict
        self.max_steps = _int(max_steps, "max_steps", 0, 1 << 62)
        self.shared = None  # uint8 array after a run (or set by the caller before one)
        self.warnings = []
        self._regs = {}
        self._bits = {}

    @property
    def registers(self):
        return list(self._regs)

    def __contains__(self, name):
        return name in self._regs

    def __setitem__(self, name, values):
        a = np.asarray(values)
        if a.dtype.kind == "f" or a.dtype.name in _ML_NAMES:
            a = a.view(_unsigned(8 * a.dtype.itemsize))
        elif a.dtype.kind not in "uib":
            raise _arg_error(name, f"{a.dtype} values cannot go into a register")
        if a.ndim == 0:
            a = np.full(self.threads, a)
        if a.shape != (self.threads,):
            raise _arg_error(name, f"expected one value per thread ({self.threads}), got shape {a.shape}")
        if a.dtype.kind == "i":
            a = a.astype(np.int64).view(np.uint64)
        self._regs[name] = np.ascontiguousarray(a, dtype=np.uint64)

    def __getitem__(self, name):
        if name not in self._regs:
            raise KeyError(name)
        v, bits = self._regs[name], self._bits.get(name, 64)
        return v.astype(np.bool_) if bits == 1 else v.astype(_unsigned(bits))

    def get(self, name, type):  # noqa: A002
        """A register's values as elements of PTX type `type` (f32: float32 ...)."""
        _check_type(type, "type")
        t = TYPES[type]
        return _typed(self[name].astype(np.uint64) & np.uint64((1 << _container_bits(t)) - 1), type, False)

    def run(self, ptx, file="<ptx>"):
        """Runs PTX text (a kernel or a bare snippet); returns a Record with ``warnings`` and
        ``instructions`` (warp instructions issued). Errors (syntax, a runtime fault) raise
        ValueError with the CLI's "file:line:col: error: ..." lines."""
        if not isinstance(ptx, str):
            raise _arg_error("ptx", f"PTX text, not {type(ptx).__name__}")
        shared = None
        if self.shared is not None:
            shared = np.ascontiguousarray(self.shared, dtype=np.uint8).reshape(-1)
        r = _c.run_ptx(ptx, file, self.threads, self.arch, self._regs, shared, self.shared_bytes,
                       bool(self.strict), self.max_steps)
        for name, (bits, v) in r["registers"].items():
            self._regs[name] = v
            self._bits[name] = bits
        self.shared = r["shared"]
        self.warnings = list(r["warnings"])
        return Record(warnings=self.warnings, instructions=r["instructions"])

    layout = staticmethod(layout)

    def matrix(self, instr, operand, regs, raw=False):
        """The matrix an mma operand's registers (names, in PTX order) hold in this warp."""
        if self.threads != 32:
            raise _arg_error("instr", "a warp-level mma operand; use wgmma layouts on a Warpgroup")
        words = np.stack([self[r].astype(np.uint64) for r in regs], axis=1)
        info = _mma_info(_instr(instr), self.arch)
        if info["operands"][str(operand).upper()]["type"] == "f64":
            words = np.stack([words & 0xFFFFFFFF, words >> np.uint64(32)], axis=2).reshape(32, -1)
        return gather(instr, operand, words, self.arch, raw)


class Warpgroup(Warp):
    """Four warps (128 threads, thread = 32 * warp + lane) sharing one shared memory: the
    registers are arrays of 128 values. wgmma runs on it."""

    threads = 128
