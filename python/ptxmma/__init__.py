"""ptxmma: a bit-exact simulator of NVIDIA tensor-core instructions (mma.sync, wgmma).

Matrix level: ``mma(instr, A, B, C)`` and ``wgmma(instr, A, B, C)`` take numpy arrays in the
logical shapes (A: M x K, B: K x N, C: M x N) and return D. Register level: ``Warp`` and
``Warpgroup`` hold per-lane registers and run PTX text; ``layout(instr)`` gives the fragment maps.
``replay``, ``explain``, ``convert`` and ``values`` return Python objects. Bad input raises
ValueError whose message names the argument (or element), or carries the CLI's message; a
missing golden-set path raises FileNotFoundError.

Elements are values: numpy float16/float32/float64 arrays, ml_dtypes arrays (bfloat16,
float8_e4m3fn, ...) where installed, signed integer and bool arrays, Python lists. A value not of
the operand's PTX type is rounded into it once, to nearest even, as ``cvt.rn`` does
(``cvt.rn.satfinite`` into e4m3/e5m2/e3m2/e2m3/e2m1, PTX's only form); a float32 array is the
container of tf32 (bits 31:13, the low 13 ignored as the tensor cores ignore them). Integer types
(s32, s8, u8, s4, u4, b1) take integers and check their range. Encodings need ``bits=True``
(unsigned integer arrays; ``dtype=`` may name their PTX type to check it); an unsigned array for a
float type without it is an error. docs/python.md has the table.
"""
import errno as _errno
import functools as _functools
import json as _json
import os as _os
from pathlib import Path as _Path
from types import SimpleNamespace as _SimpleNamespace

import numpy as _np

# The installed package carries its YAML data; a PTXMMA_CONFIG_DIR set by the user wins.
_CONFIGS = _Path(__file__).with_name("configs")
if _CONFIGS.is_dir():
    _os.environ.setdefault("PTXMMA_CONFIG_DIR", str(_CONFIGS))

from . import _ptxmma as _c  # noqa: E402  (after the config directory is known)

try:
    import ml_dtypes as _ml
except ImportError:  # optional: bit patterns and numpy's own types still work
    _ml = None

__version__ = "0.1.0"
__all__ = ["mma", "wgmma", "layout", "Warp", "Warpgroup", "replay", "explain", "convert", "values", "special",
           "golden", "golden_cases", "scatter", "gather", "addresses", "Record", "Value", "OperandLayout", "TYPES",
           "ARCHS"]

TYPES = {t["name"]: t for t in _c.types()}
ARCHS = tuple(_c.targets())
_ML_NAMES = {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2", "float6_e3m2fn": "e3m2",
             "float6_e2m3fn": "e2m3", "float4_e2m1fn": "e2m1", "float8_e8m0fnu": "ue8m0"}
_NUMPY_FLOATS = {"float16": "f16", "float32": "f32", "float64": "f64"}
# PTX cvt into FP8/FP6/FP4 exists only with .satfinite (docs/numerics.md §1.3).
_SATFINITE = {"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"}


class Record(_SimpleNamespace):
    """A result object: attributes for the fields; nested dicts become Records too. Its repr shows
    arrays of more than a few elements by dtype and shape (the attribute holds the whole array)."""

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={_short(v)}' for k, v in vars(self).items())})"

    @classmethod
    def of(cls, x):
        if isinstance(x, dict):
            return cls(**{k: cls.of(v) for k, v in x.items()})
        if isinstance(x, list):
            return [cls.of(v) for v in x]
        return x


def _short(v):
    if isinstance(v, _np.ndarray) and v.size > 8:
        return f"<{v.dtype} array {'x'.join(map(str, v.shape))}>"
    if isinstance(v, list) and len(v) > 4:
        return f"[{', '.join(_short(x) for x in v[:3])}, ... ({len(v)} items)]"
    return repr(v)


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
    return _np.uint8 if bits <= 8 else _np.uint16 if bits <= 16 else _np.uint32 if bits <= 32 else _np.uint64


def _array(x, arg):
    try:
        return _np.asarray(x)
    except Exception as e:  # ragged lists and the like
        raise _arg_error(arg, f"not an array ({e})") from None


def _first(arg, a, bad):
    """'A[3][5] = 300': the first element of `a` where `bad` holds, named by its index."""
    idx = tuple(int(i) for i in _np.argwhere(bad)[0]) if a.ndim else ()
    return f"{arg}{''.join(f'[{i}]' for i in idx)} = {a[idx].item()!r}"


def _check_shape(a, arg, ptx, shape, batch):
    shape = tuple(shape)
    if a.shape == shape or (batch and a.ndim == len(shape) + 1 and a.shape[1:] == shape):
        return
    also = f" or (batch, {', '.join(map(str, shape))})" if batch else ""
    raise _arg_error(arg, f"expected shape {shape}{also} (a {shape[0]}x{shape[1]} matrix of {ptx}), got {a.shape}")


def _float_source(a):
    """The PTX type whose values a float array holds (float16 -> f16, ml_dtypes bfloat16 -> bf16...)."""
    return _NUMPY_FLOATS.get(a.dtype.name) or _ML_NAMES.get(a.dtype.name)


def _bit_view(a):
    return _np.ascontiguousarray(a.view(_unsigned(8 * a.dtype.itemsize)), dtype=_np.uint64)


def _encodings(a, ptx, arg):
    """bits=True: an integer array of encodings (the container's bits), range-checked."""
    t = TYPES[ptx]
    width = _container_bits(t)
    src = _float_source(a)
    if src == ptx or (src == "f32" and ptx == "tf32") or (a.dtype == _np.bool_ and ptx == "b1"):
        return _bit_view(a) if src else _np.ascontiguousarray(a, dtype=_np.uint64)  # the same bits either way
    if a.dtype.kind not in "iu":
        hint = "" if arg == "bits" else f" (without bits=True, {a.dtype} elements are values, rounded into {ptx})"
        raise _arg_error(arg, f"{ptx} encodings are unsigned integers, not {a.dtype}{hint}")
    bad = (a < 0) if a.dtype.kind == "i" else _np.zeros(a.shape, bool)
    if width < 64:
        bad = bad | (a > (1 << width) - 1)
    if bad.any():
        raise _arg_error(arg, f"bit patterns of {ptx} are {width}-bit unsigned values ({_first(arg, a, bad)})")
    return _np.ascontiguousarray(a, dtype=_np.uint64)


def _integer_codes(a, ptx, arg):
    """Values of an integer PTX type (s32, s8, u8, s4, u4, b1): integers, range-checked."""
    t = TYPES[ptx]
    b = t["bits"]
    lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if t["is_signed"] else (0, (1 << b) - 1)
    if _float_source(a) is not None:
        f = a.astype(_np.float64)
        bad = ~_np.isfinite(f) | (f != _np.round(f))
        if bad.any():
            raise _arg_error(arg, f"{ptx} elements are integers: {_first(arg, a, bad)} is not one")
        a = f
    elif a.dtype.kind == "b":
        a = a.astype(_np.int64)
    elif a.dtype.kind not in "iu":
        raise _arg_error(arg, f"{a.dtype} arrays cannot hold {ptx} elements")
    bad = (a > hi) if a.dtype.kind == "u" else (a < lo) | (a > hi)
    if bad.any():
        raise _arg_error(arg, f"{ptx} values are {lo}..{hi}: {_first(arg, a, bad)} is outside")
    return _np.ascontiguousarray(a.astype(_np.int64).view(_np.uint64) & _np.uint64((1 << b) - 1))


def _rounded(codes, src, ptx):
    """cvt.rn (.satfinite where PTX has no other form) of `src` codes into `ptx`, one rounding."""
    if src == ptx or (src == "f32" and ptx == "tf32"):  # a float32 is the container of a tf32
        return codes
    out = _c.convert(codes.reshape(-1), src, ptx, "rn", ptx in _SATFINITE, False)
    return _np.ascontiguousarray(out.reshape(codes.shape), dtype=_np.uint64)


def _codes(x, ptx, arg, shape=None, dtype=None, bits=False, batch=False):
    """Element codes (uint64, the container's bits) of `x` for an operand of PTX type `ptx`.

    Values by default: float arrays (numpy, ml_dtypes), signed integers and bool are numbers,
    rounded into `ptx` by cvt.rn (float types) or range-checked (integer types). bits=True: integer
    arrays are the encodings. An unsigned array for a float type must say which it is."""
    t = TYPES[ptx]
    if dtype is not None:
        _check_type(dtype, "dtype")
        if dtype != ptx:
            raise _arg_error("dtype", f"{arg} of this instruction is {ptx}, not {dtype}")
    a = _array(x, arg)
    if shape is not None:
        _check_shape(a, arg, ptx, shape, batch)
    if bits:
        return _encodings(a, ptx, arg)
    if not t["is_float"]:
        return _integer_codes(a, ptx, arg)
    src = _float_source(a)
    if src is not None:
        return _rounded(_bit_view(a), src, ptx)
    if a.dtype.kind == "u":
        raise _arg_error(arg, f"a {a.dtype} array for {ptx} elements: pass bits=True if it holds {ptx} encodings, "
                              f"or a signed or float array (e.g. {arg}.astype(np.int64)) if it holds values")
    if a.dtype.kind in "ib":
        f = a.astype(_np.float64)
        bad = (a > 1 << 53) | (a < -(1 << 53)) if a.dtype.kind == "i" else _np.zeros(a.shape, bool)
        if bad.any():
            raise _arg_error(arg, f"integers beyond 2^53 are not converted exactly: {_first(arg, a, bad)} "
                                  f"(pass float64 values, rounded once into {ptx})")
        return _rounded(_bit_view(f), "f64", ptx)
    raise _arg_error(arg, f"{a.dtype} arrays cannot hold {ptx} elements")


def _typed(codes, ptx, raw):
    """Codes as a numpy array of the type's natural dtype (bit-identical view), or bit patterns."""
    t = TYPES[ptx]
    u = codes.astype(_unsigned(_container_bits(t)))
    if raw:
        return u
    name = ptx
    if name in ("f16", "f32", "tf32", "f64"):
        return u.view({"f16": _np.float16, "f32": _np.float32, "tf32": _np.float32, "f64": _np.float64}[name])
    if name == "b1":
        return u.astype(_np.bool_)
    if not t["is_float"]:
        if t["is_signed"]:
            b = t["bits"]
            s = codes.astype(_np.int64)
            s = _np.where(s >= (1 << (b - 1)), s - (1 << b), s)
            return s.astype(_np.int32 if b > 8 else _np.int8)
        return u
    ml = {v: k for k, v in _ML_NAMES.items()}.get(name)
    if _ml is not None and ml and hasattr(_ml, ml):
        return u.view(getattr(_ml, ml))
    return u


def _instr(instr):
    if not isinstance(instr, str):
        raise _arg_error("instr", f"an instruction string, not {type(instr).__name__}")
    return instr


@_functools.lru_cache(maxsize=256)
def _mma_info(instr, arch):
    _check_arch(arch)
    try:
        return _c.mma_info(_instr(instr), arch)
    except ValueError as e:
        raise _arg_error("instr", str(e)) from None


@_functools.lru_cache(maxsize=256)
def _wgmma_info(instr, arch):
    _check_arch(arch)
    try:
        return _c.wgmma_info(_instr(instr), arch)
    except ValueError as e:
        raise _arg_error("instr", str(e)) from None


def _per_operand(dtype, op):
    return dtype.get(op) if isinstance(dtype, dict) else dtype


def _mma_operands(instr, arch, A, B, C, dtype, bits=False, batch=False):
    info = _mma_info(instr, arch)
    ops = info["operands"]
    out = []
    for name, x in (("A", A), ("B", B), ("C", C)):
        if x is None and name == "C":
            out.append(None)
            continue
        o = ops[name]
        shape = (o["rows"], info["shape"][2]) if name == "A" and info["sparse"] else (o["rows"], o["cols"])
        out.append(_codes(x, o["type"], name, shape, _per_operand(dtype, name), bits, batch))
    return info, out


def _scale_codes(x, stype, arg, bits):
    """A block-scale matrix as its codes: values that the scale type holds exactly (ue8m0: powers
    of 2 from 2^-127 to 2^127; ue4m3: the positive e4m3 values), or codes with bits=True."""
    if stype is None:  # not block-scaled: the simulator says so
        return _np.ascontiguousarray(_array(x, arg), dtype=_np.uint64)
    codes = _codes(x, stype, arg, bits=bits)
    if not bits:
        a = _array(x, arg)
        bad = _c.values(codes.reshape(-1), stype).reshape(codes.shape) != a.astype(_np.float64)
        if bad.any():
            raise _arg_error(arg, f"{_first(arg, a, bad)} is not a {stype} value (ue8m0: a power of 2, 2^-127..2^127; "
                                  f"ue4m3: a positive e4m3 value); scale factors are not rounded (bits=True: codes)")
    return codes


def _scales(info, scale_a, scale_b, bits):
    """Scale matrices as uint64 arrays of their codes (ue8m0 / ue4m3 bytes), or None."""
    last = info["instruction"].rsplit(".", 1)[-1]
    stype = last if info["block_scale"] and last in ("ue8m0", "ue4m3") else None
    return tuple(None if x is None else _scale_codes(x, stype, arg, bits)
                 for arg, x in (("scale_a", scale_a), ("scale_b", scale_b)))


def _batched(run, operands):
    """run(*arrays) once, or once per batch element where an operand (name, array or None, its
    ndim without a batch) has a leading batch dimension; the others go with every element."""
    batched = [(name, x) for name, x, nd in operands if x is not None and x.ndim == nd + 1]
    if not batched:
        return run(*(x for _, x, _ in operands))
    first, n = batched[0][0], batched[0][1].shape[0]
    for name, x in batched:
        if x.shape[0] != n:
            raise _arg_error(name, f"a batch of {x.shape[0]}, but {first} has a batch of {n}")
    if n == 0:
        raise _arg_error(first, "an empty batch")

    def element(i):
        return [x if x is None or x.ndim == nd else _np.ascontiguousarray(x[i]) for _, x, nd in operands]

    return _np.stack([run(*element(i)) for i in range(n)])


def mma(instr, A, B, C=None, arch="sm_90a", dtype=None, raw=False, scale_a=None, scale_b=None, bits=False):
    """D = A*B + C of one warp-level mma.sync instruction, bit for bit.

    A is M x K, B is K x N, C (default zeros) M x N; m8n8k4 .f16 stacks its four problems (4M rows).
    A leading batch dimension (A: b x M x K, B: b x K x N, C: b x M x N, any of them; a 2-D operand
    goes with every element) runs one mma per element and gives D as b x M x N.

    Elements are values (numpy or ml_dtypes floats, signed integers, bool, lists): a value not of the
    operand's type is rounded into it once, to nearest even, as ``cvt.rn`` does (``cvt.rn.satfinite``
    for e4m3/e5m2/e3m2/e2m3/e2m1, PTX's only form: beyond the largest finite value gives it, NaN
    stays NaN); a float32 is a tf32's container (its low 13 bits ignored, as the tensor cores do).
    Integer types (s8, u8, s4, u4, b1, s32) take integers and check their range. ``bits=True``:
    unsigned integer arrays are the encodings (tf32: the b32 container); ``dtype`` names their PTX
    type as a check (one name, or a dict per operand "A".."C"). An unsigned array for a float type
    without bits=True is an error (values or encodings: say which).
    Block-scaled kinds take ``scale_a`` (M x V) and ``scale_b`` (V x N), V the .scale_vec, as values
    the scale type holds exactly (ue8m0: powers of 2; ue4m3: positive e4m3 values; not rounded), or
    with bits=True as its codes (ue8m0: 127 is 2^0; ue4m3: 0x38 is 1.0).
    Sparse variants (mma.sp) take A as its logical M x K matrix: of every 4 columns at most 2 hold
    nonzero elements (tf32: 1 of 2; s4/u4: 2 pairs of 8); the metadata is made from where
    they sit (sparsity selector 0), and the B rows it does not pick are not read.
    D comes back as float32/float16/float64/int32 (bit-identical), or as bit patterns with raw=True.
    """
    instr = _instr(instr)
    info, (a, b, c) = _mma_operands(instr, arch, A, B, C, dtype, bits, batch=True)
    sa, sb = _scales(info, scale_a, scale_b, bits)
    d = _batched(lambda *x: _c.mma_run(instr, arch, *x),
                 [("A", a, 2), ("B", b, 2), ("C", c, 2), ("scale_a", sa, 2), ("scale_b", sb, 2)])
    return _typed(d, info["operands"]["D"]["type"], raw)


def wgmma(instr, A=None, B=None, C=None, arch="sm_90a", *, smem=None, desc_a=None, desc_b=None, a_regs=None,
          smem_base=0, scale_d=True, scale_a=1, scale_b=1, trans_a=0, trans_b=0, sp_meta=None, sp_sel=0, dtype=None,
          raw=False, swizzle="none", a_source="descriptor", bits=False):
    """D (64 x N) of one wgmma.mma_async.

    Elements (A, B, C) as for ``mma``: values rounded into the operand's type by cvt.rn, or
    encodings with ``bits=True``. With matrices, a leading batch dimension as for ``mma``.

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
    c = None if C is None else _codes(C, td, "C", (64, n), _per_operand(dtype, "C"), bits, smem is None)
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
        a = _codes(A, ta, "A", (64, k), _per_operand(dtype, "A"), bits, True)
        b = _codes(B, tb, "B", (k, n), _per_operand(dtype, "B"), bits, True)
        d = _batched(lambda a, b, c: _c.wgmma_matrices(instr, arch, a, b, c, bool(scale_d), scale_a, scale_b, trans_a,
                                                       trans_b, swizzle, a_source == "registers"),
                     [("A", a, 2), ("B", b, 2), ("C", c, 2)])
        return _typed(d, td, raw)
    if A is not None or B is not None:
        raise _arg_error("A" if A is not None else "B", "with smem=, A comes from desc_a or a_regs and B from desc_b")
    if swizzle != "none" or a_source != "descriptor":
        raise _arg_error("swizzle" if swizzle != "none" else "a_source",
                         "goes with matrices; with smem= the descriptors (or a_regs) say where A and B are")
    image = _np.asarray(smem)
    if image.dtype != _np.uint8 or image.ndim != 1:
        raise _arg_error("smem", f"a 1-D uint8 array, not {image.dtype} of shape {image.shape}")
    if desc_b is None:
        raise _arg_error("desc_b", "required with smem=")
    if (desc_a is None) == (a_regs is None):
        raise _arg_error("desc_a", "give desc_a (A in shared memory) or a_regs (A in registers), one of them")
    regs = None if a_regs is None else _words(a_regs, "a_regs", (128, info["a_regs"]))
    meta = None if sp_meta is None else _words(sp_meta, "sp_meta", (128,))
    d = _c.wgmma_shared(instr, arch, _np.ascontiguousarray(image), _u64(smem_base, "smem_base"),
                        _u64(desc_a or 0, "desc_a"), regs, _u64(desc_b, "desc_b"), c, bool(scale_d),
                        scale_a, scale_b, trans_a, trans_b, meta, _int(sp_sel, "sp_sel"))
    return _typed(d, td, raw)


def _int(x, arg, lo=-(1 << 31), hi=(1 << 31) - 1):
    if isinstance(x, (bool, _np.bool_)) or not isinstance(x, (int, _np.integer)):
        raise _arg_error(arg, f"an integer, not {x!r}")
    if not lo <= x <= hi:
        raise _arg_error(arg, f"{x} is outside {lo}..{hi}")
    return int(x)


def _words(x, arg, shape):
    """Register words: an integer array of `shape`, as uint32 (the low 32 bits of each)."""
    w = _np.asarray(x)
    if w.shape != shape or w.dtype.kind not in "ui":
        raise _arg_error(arg, f"expected a {shape} integer array, got {w.dtype} of shape {w.shape}")
    return _np.ascontiguousarray(w.astype(_np.int64) & 0xFFFFFFFF, dtype=_np.uint32)


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
    (rows, cols) arrays (problems stacked) and ``row``, ``col`` (lanes, regs, elems) arrays.
    Its repr is a one-line summary; ``table()`` gives the whole map as text."""

    def __repr__(self):
        problems, rows, cols, _ = self.slot.shape
        lanes, regs, elems, _ = self.coord.shape
        stacked = f", problems={problems}" if problems > 1 else ""
        return (f"OperandLayout({self.name}: {rows}x{cols}{stacked}; {lanes} lanes x {regs} regs x {elems} elems; "
                f"arrays coord, slot, lane, reg, elem, problem, row, col; table() for the map)")

    def table(self):
        """The map as text: a line per row (problems stacked), a cell per column, ``lane:reg.elem``."""
        cells = [[f"{lane}:{reg}.{elem}" for lane, reg, elem in zip(*r)] for r in zip(self.lane, self.reg, self.elem)]
        width = max(len(c) for r in cells for c in r)
        head = f"{self.name} (cell = lane:reg.elem)\n" + " " * 5 + " ".join(f"{c:>{width}}" for c in range(len(cells[0])))
        return "\n".join([head] + [f"{i:>4} " + " ".join(f"{c:>{width}}" for c in r) for i, r in enumerate(cells)])


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


def scatter(instr, operand, matrix, arch="sm_90a", dtype=None, bits=False):
    """The registers (32 lanes x words, uint32) that hold `matrix` as an mma's `operand` (elements as
    for ``mma``: values, or encodings with bits=True)."""
    info = _mma_info(_instr(instr), arch)
    o = info["operands"].get(str(operand).upper())
    if o is None:
        raise _arg_error("operand", f"unknown operand '{operand}' (A, B, C or D)")
    return _c.mma_scatter(instr, arch, operand, _codes(matrix, o["type"], str(operand).upper(),
                                                       (o["rows"], o["cols"]), dtype, bits))


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
    array of the same shape). An array of the `from_` type's own float dtype (float32 for f32,
    ml_dtypes' for theirs) gives its bits."""
    _check_type(from_, "from_")
    _check_type(to, "to")
    scalar = isinstance(bits, (int, _np.integer))
    shape = _np.shape(bits)
    a = _codes(_np.asarray(bits), from_, "bits", bits=True)
    out = _c.convert(a.reshape(-1), from_, to, str(round), bool(satfinite), bool(relu))
    out = out.reshape(shape).astype(_unsigned(_container_bits(TYPES[to])))
    return int(out) if scalar else out


def values(bits, type):  # noqa: A002  (the PTX word)
    """Exact values of element codes as float64 (integers as numbers)."""
    _check_type(type, "type")
    scalar = isinstance(bits, (int, _np.integer))
    shape = _np.shape(bits)
    a = _codes(_np.asarray(bits), type, "bits", bits=True)
    out = _c.values(a.reshape(-1), type).reshape(shape)
    return float(out) if scalar else out


def _special_operand(x, t, arg, bits):
    """Bit patterns (uint64) of an approximate function's operand of type `t`; packed x2 forms take
    their b32 words as unsigned integers."""
    if t in ("f16x2", "bf16x2"):
        a = _np.asarray(x)
        if a.dtype.kind not in "ui" or (a.size and (int(a.min()) < 0 or int(a.max()) >> 32)):
            raise _arg_error(arg, f"{t} operands are packed pairs: 32-bit unsigned words")
        return _np.ascontiguousarray(a, dtype=_np.uint64)
    return _codes(x, t, arg, bits=bits)


def special(instr, x, y=None, raw=False, bits=False):
    """An approximate special-function instruction (``ex2``/``lg2``/``rcp``/``rsqrt``/``sqrt``/``sin``/
    ``cos``/``tanh`` ``.approx``, ``div.approx``/``div.full`` of x by y) on every element, as the
    H100/H200 computes it (docs/hardware/special-functions-sm90.md): e.g.
    ``special("ex2.approx.ftz.f32", np.float32([1, -1]))``. Elements as for ``mma``: values (rounded
    into the type by cvt.rn), or encodings with ``bits=True``; the f16x2/bf16x2 forms take packed
    uint32 words. Returns an array of the operand's shape, typed like it (``raw=True``: bit patterns)."""
    if not isinstance(instr, str):
        raise _arg_error("instr", "expected the instruction as a string, e.g. 'ex2.approx.f32'")
    info = _c.special_info(instr)
    t = info["type"]
    if (y is None) != (info["arity"] == 1):
        raise _arg_error("y", f"{instr} takes {'one operand' if info['arity'] == 1 else 'two operands, x / y'}")
    a = _special_operand(x, t, "x", bits)
    b = a
    if y is not None:
        b = _special_operand(y, t, "y", bits)
        if b.shape != a.shape:
            raise _arg_error("y", f"shape {b.shape} differs from x's {a.shape}")
    out = _c.special_eval(instr, a.reshape(-1), b.reshape(-1)).reshape(a.shape)
    if t in ("f16x2", "bf16x2"):
        return out.astype(_np.uint32)
    return _typed(out, t, raw)


# ---- golden sets ----

def _path(p):
    try:
        p = _os.fspath(p)
    except TypeError:
        raise _arg_error("path", f"a path, not {p!r}") from None
    if not _os.path.exists(p):
        raise FileNotFoundError(_errno.ENOENT, "path: no such file or directory", p)
    return p


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


class Value(Record):
    """A number of an explanation: ``value`` (a float), ``exact`` (its exact decimal text: a binary
    value always has a finite one) and, for an encoded value, ``bits`` (the encoding)."""


_VALUE_KEYS = {"hex", "value", "type", "what"}


def _explained(doc):
    """The JSON document of an explanation (``ptxmma explain --json``) as Records: every
    {"hex", "value"} or {"value"} object becomes a Value, numbers stay numbers."""
    if isinstance(doc, dict):
        if isinstance(doc.get("value"), str) and set(doc) <= _VALUE_KEYS:
            v = Value(value=float(doc["value"]), exact=doc["value"],
                      bits=int(doc["hex"], 16) if "hex" in doc else None)
            for k in ("type", "what"):
                if k in doc:
                    setattr(v, k, doc[k])
            return v
        return Record(**{k: _explained(v) for k, v in doc.items()})
    if isinstance(doc, list):
        return [_explained(v) for v in doc]
    return doc


def _explanation(text):
    r = _explained(_json.loads(text))
    r.bits, r.value = r.got.bits, r.got.value
    return r


def explain(*args, row, col, problem=0, case=0, arch="sm_90a", dtype=None, C=None, scale_a=None, scale_b=None,
            selector=None, bits=False):
    """The steps of one output element D[row][col], as numbers.

    ``explain(instr, A, B, C=None, row=, col=)`` for matrices (block-scaled: ``scale_a=``,
    ``scale_b=`` as for ``mma``), or ``explain(set_dir, instr, case=,
    row=, col=)`` for a golden case as ``ptxmma explain`` does (then ``expected`` and ``same`` say
    what the GPU gave; ``selector=`` picks a sparse instruction's entry, as ``--selector``).
    A Record with the keys of ``ptxmma explain --json``: instruction, model, lane, register,
    element; terms (each with k, a, b, product), accumulator (C), blocks (each aligned term with
    its alignment_shift, kept, dropped and dropped_bits; sum, rounding, result), rounding (mode,
    rule, overflow), special (which operands made a NaN or Inf), steps (the text), got; a value is
    a Value (value, exact, bits). ``bits`` and ``value`` repeat got's.
    """
    if len(args) >= 1 and isinstance(args[0], str) and args[0].lstrip().startswith("mma"):
        if len(args) not in (3, 4):
            raise _arg_error("explain", "explain(instr, A, B[, C], row=, col=)")
        instr, A, B = args[:3]
        C = args[3] if len(args) == 4 else C
        info, (a, b, c) = _mma_operands(instr, arch, A, B, C, dtype, bits)
        return _explanation(_c.mma_explain(instr, arch, a, b, c, _int(problem, "problem"), _int(row, "row"),
                                           _int(col, "col"), *_scales(info, scale_a, scale_b, bits)))
    if len(args) != 2:
        raise _arg_error("explain", "explain(instr, A, B[, C], row=, col=) or explain(set_dir, instr, case=, row=, col=)")
    path, instr = _path(args[0]), _instr(args[1])
    info = _mma_info(instr, arch)
    row, col, problem, case = _int(row, "row"), _int(col, "col"), _int(problem, "problem"), _int(case, "case")
    cases = golden_cases(path, instr, selector)
    n = cases.a.shape[0]
    if not 0 <= case < n:
        raise _arg_error("case", f"{case} is out of range: {instr} has cases 0..{n - 1}")
    m = {op: _c.mma_gather(instr, arch, op, _np.ascontiguousarray(getattr(cases, op.lower())[case]))
         for op in "ABCD"}
    meta = None
    if info["sparse"]:
        meta = _np.ascontiguousarray(cases.e[case].reshape(-1), dtype=_np.uint32)
    r = _explanation(_c.mma_explain(instr, arch, m["A"], m["B"], m["C"], problem, row, col, None, None, meta,
                                    int(cases.selector) if info["sparse"] else 0))
    rows = info["operands"]["D"]["rows"] // info["problems"]
    r.case = case
    r.selector = int(cases.selector) if info["sparse"] else None
    r.expected = _explained(_json.loads(_c.value_json(info["operands"]["D"]["type"],
                                                      int(m["D"][problem * rows + row, col]))))
    r.same = r.expected.bits == r.bits
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

    def __repr__(self):
        regs = self.registers
        shown = ", ".join(regs[:8]) + (f", ... ({len(regs)} in all)" if len(regs) > 8 else "")
        shared = "" if self.shared is None else f", shared={len(self.shared)} bytes"
        return (f"{type(self).__name__}(arch={self.arch!r}, threads={self.threads}, registers=[{shown}]{shared}"
                f"{', strict' if self.strict else ''})")

    @property
    def registers(self):
        return list(self._regs)

    def __contains__(self, name):
        return name in self._regs

    def __setitem__(self, name, values):
        a = _np.asarray(values)
        if a.dtype.kind == "f" or a.dtype.name in _ML_NAMES:
            a = a.view(_unsigned(8 * a.dtype.itemsize))
        elif a.dtype.kind not in "uib":
            raise _arg_error(name, f"{a.dtype} values cannot go into a register")
        if a.ndim == 0:
            a = _np.full(self.threads, a)
        if a.shape != (self.threads,):
            raise _arg_error(name, f"expected one value per thread ({self.threads}), got shape {a.shape}")
        if a.dtype.kind == "i":
            a = a.astype(_np.int64).view(_np.uint64)
        self._regs[name] = _np.ascontiguousarray(a, dtype=_np.uint64)

    def __getitem__(self, name):
        if name not in self._regs:
            raise KeyError(name)
        v, bits = self._regs[name], self._bits.get(name, 64)
        return v.astype(_np.bool_) if bits == 1 else v.astype(_unsigned(bits))

    def get(self, name, type):  # noqa: A002
        """A register's values as elements of PTX type `type` (f32: float32 ...)."""
        _check_type(type, "type")
        t = TYPES[type]
        return _typed(self[name].astype(_np.uint64) & _np.uint64((1 << _container_bits(t)) - 1), type, False)

    def run(self, ptx, file="<ptx>"):
        """Runs PTX text (a kernel or a bare snippet); returns a Record with ``warnings`` and
        ``instructions`` (warp instructions issued). Errors (syntax, a runtime fault) raise
        ValueError with the CLI's "file:line:col: error: ..." lines."""
        if not isinstance(ptx, str):
            raise _arg_error("ptx", f"PTX text, not {type(ptx).__name__}")
        shared = None
        if self.shared is not None:
            shared = _np.ascontiguousarray(self.shared, dtype=_np.uint8).reshape(-1)
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
        words = _np.stack([self[r].astype(_np.uint64) for r in regs], axis=1)
        info = _mma_info(_instr(instr), self.arch)
        if info["operands"][str(operand).upper()]["type"] == "f64":
            words = _np.stack([words & 0xFFFFFFFF, words >> _np.uint64(32)], axis=2).reshape(32, -1)
        return gather(instr, operand, words, self.arch, raw)


class Warpgroup(Warp):
    """Four warps (128 threads, thread = 32 * warp + lane) sharing one shared memory: the
    registers are arrays of 128 values. wgmma runs on it."""

    threads = 128
