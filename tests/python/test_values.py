# Elements are values: integers, float64 and lists are converted into the operand's type (cvt.rn,
# one rounding), encodings need bits=True; a leading batch dimension; the namespace and reprs.
import numpy as np
import pytest

import ptxmma

F16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
S8 = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
U4 = "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32"
E4M3 = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"
TF32 = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
ONES = np.ones((16, 8))


def test_integer_arrays_are_values():
    a = np.arange(256).reshape(16, 16)
    d = ptxmma.mma(F16, a, ONES)
    assert d[0, 0] == 120.0  # 0 + 1 + ... + 15
    assert np.array_equal(d, (a @ ONES).astype(np.float32))  # every value and sum exact in f16/f32


def test_bits_true_takes_encodings():
    a = np.arange(256).reshape(16, 16)
    got = ptxmma.mma(F16, a, ONES.astype(np.float16), bits=True)
    # The encodings 0..15 are f16 subnormals k * 2^-24: row 0 sums to 120 * 2^-24.
    assert got[0, 0] == np.float32(120 * 2.0 ** -24)
    same = ptxmma.mma(F16, a.astype(np.float16).view(np.uint16), ONES.astype(np.float16).view(np.uint16), bits=True)
    assert np.array_equal(same, ptxmma.mma(F16, a, ONES))


def test_unsigned_array_for_a_float_type_must_say_which():
    with pytest.raises(ValueError, match=r"^A: a uint16 array for f16 elements: pass bits=True if it holds f16 "
                                         r"encodings, or a signed or float array"):
        ptxmma.mma(F16, np.zeros((16, 16), np.uint16), ONES)
    with pytest.raises(ValueError, match=r"^A: f16 encodings are unsigned integers, not float32 \(without bits=True"):
        ptxmma.mma(F16, np.zeros((16, 16), np.float32), ONES, bits=True)


def test_float64_is_rounded_once_to_nearest_even():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((16, 16)) * 3
    b = rng.standard_normal((16, 8))
    want = ptxmma.mma(F16, ptxmma.convert(a.view(np.uint64), "f64", "f16").view(np.float16),
                      ptxmma.convert(b.view(np.uint64), "f64", "f16").view(np.float16))
    assert np.array_equal(ptxmma.mma(F16, a, b).view(np.uint32), want.view(np.uint32))
    # 1 + 2^-11 is halfway between two f16 values: ties to even gives 1.0; 1 + 3 * 2^-11 gives 1 + 2^-9.
    x = np.zeros((16, 16))
    x[0, 0], x[1, 0] = 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11
    e = np.zeros((16, 8))
    e[0, 0] = 1
    d = ptxmma.mma(F16, x, e)
    assert (d[0, 0], d[1, 0]) == (1.0, 1 + 2.0 ** -9)


def test_float_types_narrower_than_the_input_saturate_as_ptx_cvt_does():
    # cvt.rn.satfinite.e4m3: 1000 beyond 448 gives 448; 0.3 rounds to 0.3125.
    a = np.zeros((16, 32))
    a[0, 0], a[1, 0] = 1000.0, 0.3
    b = np.zeros((32, 8))
    b[0, 0] = 1
    d = ptxmma.mma(E4M3, a, b)
    assert (d[0, 0], d[1, 0]) == (448.0, 0.3125)


def test_float32_is_the_tf32_container_and_float64_is_rounded():
    a = np.zeros((16, 8))
    a[0, 0] = 1 + 2.0 ** -11 + 2.0 ** -20  # above the tie: rounds up to 1 + 2^-10
    b = np.zeros((8, 8))
    b[0, 0] = 1
    assert ptxmma.mma(TF32, a, b)[0, 0] == 1 + 2.0 ** -10
    assert ptxmma.mma(TF32, a.astype(np.float32), b.astype(np.float32))[0, 0] == 1.0  # low 13 bits ignored


def test_lists_are_accepted():
    a = [[float(r == c) for c in range(16)] for r in range(16)]
    b = [[r * 8 + c for c in range(8)] for r in range(16)]
    assert np.array_equal(ptxmma.mma(F16, a, b), np.array(b, np.float32))


def test_integer_types_take_values_and_check_their_range():
    rng = np.random.default_rng(4)
    a, b = rng.integers(-128, 128, (16, 32)), rng.integers(-128, 128, (32, 8))
    assert np.array_equal(ptxmma.mma(S8, a, b), a @ b)
    assert np.array_equal(ptxmma.mma(S8, a.astype(np.float64), b.tolist()), a @ b)
    bad = a.copy()
    bad[3, 5] = 128
    with pytest.raises(ValueError, match=r"^A: s8 values are -128..127: A\[3\]\[5\] = 128 is outside"):
        ptxmma.mma(S8, bad, b)
    with pytest.raises(ValueError, match=r"^B: s8 elements are integers: B\[0\]\[1\] = 0.5 is not one"):
        ptxmma.mma(S8, a, np.where(np.arange(8) == 1, 0.5, b))
    u = rng.integers(0, 16, (16, 64))
    assert np.array_equal(ptxmma.mma(U4, u.astype(np.uint8), np.ones((64, 8), np.uint8)), np.repeat(u.sum(1)[:, None], 8, axis=1))
    with pytest.raises(ValueError, match=r"^A: u4 values are 0..15: A\[0\]\[0\] = -1 is outside"):
        ptxmma.mma(U4, -np.ones((16, 64), int), np.ones((64, 8), int))


def test_batches():
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 5, (3, 16, 16))
    b = rng.integers(-4, 5, (3, 16, 8))
    c = rng.integers(-4, 5, (3, 16, 8))
    d = ptxmma.mma(F16, a, b, c)
    assert d.shape == (3, 16, 8) and d.dtype == np.float32
    assert np.array_equal(d, (a @ b + c).astype(np.float32))
    for i in range(3):
        assert np.array_equal(d[i], ptxmma.mma(F16, a[i], b[i], c[i]))
    shared_b = ptxmma.mma(F16, a, b[0])  # a 2-D operand goes with every element
    assert np.array_equal(shared_b, (a @ b[0]).astype(np.float32))
    with pytest.raises(ValueError, match=r"^B: a batch of 2, but A has a batch of 3"):
        ptxmma.mma(F16, a, b[:2])
    with pytest.raises(ValueError, match=r"^A: expected shape \(16, 16\) or \(batch, 16, 16\)"):
        ptxmma.mma(F16, a[None], b)
    w = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
    wa, wb = rng.integers(-4, 5, (2, 64, 16)), rng.integers(-4, 5, (16, 8))
    assert np.array_equal(ptxmma.wgmma(w, wa, wb), (wa @ wb).astype(np.float32))


def test_namespace_is_the_api():
    public = {n for n in dir(ptxmma) if not n.startswith("_")}
    assert public == set(ptxmma.__all__)
    for name in ("np", "os", "functools", "Path", "SimpleNamespace", "annotations"):
        assert not hasattr(ptxmma, name)


def test_reprs_are_short():
    lay = ptxmma.layout(F16)
    assert repr(lay["A"]).startswith("OperandLayout(m16n8k16.a.16bit: 16x16; 32 lanes x 4 regs x 2 elems;")
    assert "\n" not in repr(lay["A"]) and len(repr(lay)) < 1000
    table = lay["A"].table().splitlines()
    assert len(table) == 2 + 16 and table[2].split()[:3] == ["0", "0:0.0", "0:0.1"]
    w = ptxmma.Warp()
    w["%r1"] = 5
    assert repr(w) == "Warp(arch='sm_90a', threads=32, registers=[%r1])"
    assert repr(ptxmma.Warpgroup()).startswith("Warpgroup(arch='sm_90a', threads=128")
    r = ptxmma.Record(ok=True, a=np.zeros((100, 32, 4), np.uint32))
    assert repr(r) == "Record(ok=True, a=<uint32 array 100x32x4>)"
