# Formats: convert and values agree with the CLI's `format`, and with ml_dtypes where installed.
import numpy as np
import pytest

import ptxmma


def test_values():
    assert ptxmma.values(0x7E, "e4m3") == 448.0
    assert ptxmma.values(np.array([0xF, 0x8], np.uint8), "s4").tolist() == [-1.0, -8.0]
    assert ptxmma.values(np.float32([0.1]), "f32")[0] == np.float64(np.float32(0.1))


def test_convert_like_cli(cli):
    assert ptxmma.convert(0x3F800000, "f32", "e4m3") == 0x38
    out = cli("format", "f32", "1e9", "--to", "e4m3", "--satfinite").stdout
    code = ptxmma.convert(np.float32(1e9).view(np.uint32).item(), "f32", "e4m3", satfinite=True)
    assert f"{code:#04x}" in out
    assert ptxmma.convert(np.float32([1e9]), "f32", "e4m3")[0] == 0x7F  # NaN without .satfinite
    assert ptxmma.convert(0x3F800001, "f32", "f16", round="rp") == 0x3C01
    assert ptxmma.convert(0x3F800000, "f32", "tf32") == 0x3F800000  # tf32 as its b32 container


def test_convert_relu():
    assert ptxmma.convert(np.float32(-2.0).view(np.uint32).item(), "f32", "bf16", relu=True) == 0


@pytest.fixture
def ml_dtypes():
    return pytest.importorskip("ml_dtypes")


@pytest.mark.parametrize("to,ml", [("bf16", "bfloat16"), ("e4m3", "float8_e4m3fn"), ("e5m2", "float8_e5m2"),
                                   ("e2m1", "float4_e2m1fn"), ("e3m2", "float6_e3m2fn"), ("e2m3", "float6_e2m3fn")])
def test_convert_agrees_with_ml_dtypes_on_finite_values(to, ml, ml_dtypes):
    t = getattr(ml_dtypes, ml)
    x = np.random.default_rng(5).standard_normal(4000).astype(np.float32) * 4
    x = x[np.abs(x) <= float(ml_dtypes.finfo(t).max)]  # in range: no overflow conventions involved
    want = x.astype(t).view(np.uint8 if np.dtype(t).itemsize == 1 else np.uint16)
    got = ptxmma.convert(x, "f32", to)
    assert np.array_equal(got.astype(np.uint64), want.astype(np.uint64))


def test_ml_dtypes_arrays_go_into_mma(ml_dtypes):
    instr = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"
    rng = np.random.default_rng(2)
    a = rng.standard_normal((16, 32)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.standard_normal((32, 8)).astype(ml_dtypes.float8_e4m3fn)
    d = ptxmma.mma(instr, a, b)
    same = ptxmma.mma(instr, a.view(np.uint8), b.view(np.uint8), dtype="e4m3", bits=True)
    assert np.array_equal(d.view(np.uint32), same.view(np.uint32))
    assert np.allclose(d, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)
    bf = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    d = ptxmma.mma(bf, a[:, :16].astype(ml_dtypes.bfloat16), b[:16].astype(ml_dtypes.bfloat16))
    assert d.shape == (16, 8)
