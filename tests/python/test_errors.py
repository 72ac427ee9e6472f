# Bad input from Python raises ValueError naming the argument (or carrying the CLI's message), a
# missing path FileNotFoundError; nothing crashes the interpreter.
import numpy as np
import pytest

import ptxmma

F16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
A = np.zeros((16, 16), np.float16)
B = np.zeros((16, 8), np.float16)


def raises(match, f, *args, **kw):
    with pytest.raises(ValueError, match=match):
        f(*args, **kw)


def test_unknown_instruction_carries_cli_message(cli):
    bad = "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f32"
    err = cli("layout", bad, check=False).stderr.strip()
    assert err.startswith("ptxmma: error: ")
    with pytest.raises(ValueError) as e:
        ptxmma.mma(bad, A, B)
    assert str(e.value) == "instr: " + err.removeprefix("ptxmma: error: ")


@pytest.mark.parametrize("instr", ["mma.sync.aligned.m16n8k99.row.col.f32.f16.f16.f32", "nonsense", ""])
def test_unknown_instruction(instr):
    raises(r"^instr: ", ptxmma.mma, instr, A, B)
    raises(r"^instr: ", ptxmma.layout, instr)


def test_not_a_string():
    raises(r"^instr: an instruction string", ptxmma.mma, 42, A, B)


def test_wrong_shape():
    raises(r"^A: expected shape \(16, 16\)", ptxmma.mma, F16, np.zeros((16, 8), np.float16), B)
    raises(r"^B: expected shape \(16, 8\)", ptxmma.mma, F16, A, A)
    raises(r"^C: expected shape \(16, 8\)", ptxmma.mma, F16, A, B, np.zeros(3, np.float32))


def test_wrong_dtype():
    raises(r"^B: complex128 arrays cannot hold f16", ptxmma.mma, F16, A, B.astype(complex))
    raises(r"^A: bit patterns of f16 are 16-bit unsigned values \(A\[0\]\[0\] = 65536\)", ptxmma.mma, F16,
           np.full((16, 16), 1 << 16, np.uint32), B, bits=True)
    raises(r"^dtype: A of this instruction is f16, not bf16", ptxmma.mma, F16, A.view(np.uint16), B, dtype="bf16",
           bits=True)
    raises(r"^dtype: unknown type", ptxmma.mma, F16, A, B, dtype="f17")
    raises(r"^A: s8 values are -128..127: A\[0\]\[0\] = 300 is outside", ptxmma.mma,
           "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", np.full((16, 32), 300), np.zeros((32, 8), np.int8))
    raises(r"^A: not an array", ptxmma.mma, F16, [[1, 2], [3]], B)


def test_bad_arch():
    raises(r"^arch: unknown target 'sm_91'", ptxmma.mma, F16, A, B, arch="sm_91")
    raises(r"^arch: ", ptxmma.Warp, arch="sm_1")


def test_illegal_on_target():
    raises(r"^instr: .*needs sm_80 or later; the target is sm_75", ptxmma.mma,
           "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", A.view(np.uint16), B.view(np.uint16), arch="sm_75")


def test_explain_out_of_range():
    raises(r"D has 16 rows and 8 columns", ptxmma.explain, F16, A, B, row=16, col=0)


def test_wgmma_arguments():
    w = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
    a, b = np.zeros((64, 16), np.float16), np.zeros((16, 8), np.float16)
    raises(r"^A: expected shape \(64, 16\)", ptxmma.wgmma, w, a[:8], b)
    raises(r"^scale_a: 1 or -1", ptxmma.wgmma, w, a, b, scale_a=2)
    raises(r"^desc_b: required", ptxmma.wgmma, w, smem=np.zeros(16, np.uint8), desc_a=0)
    raises(r"^smem: a 1-D uint8 array", ptxmma.wgmma, w, smem=np.zeros(16), desc_a=0, desc_b=0)
    raises(r"matrix descriptor 0x", ptxmma.wgmma, w, smem=np.zeros(16, np.uint8), desc_a=1 << 47, desc_b=0)
    raises(r"^instr: .*wgmma", ptxmma.wgmma, "wgmma.mma_async.sync.aligned.m64n20k16.f32.f16.f16", a, b)


def test_convert_arguments():
    raises(r"^from_: unknown type 'f33'", ptxmma.convert, 1, "f33", "f16")
    raises(r"unknown rounding mode 'rx'", ptxmma.convert, 1, "f32", "f16", round="rx")
    raises(r"^bits: bit patterns of e4m3 are 8-bit", ptxmma.convert, 256, "e4m3", "f32")
    raises(r"b1 cannot be converted", ptxmma.convert, 1, "b1", "f32")


def test_ptx_errors():
    w = ptxmma.Warp()
    raises(r"<ptx>:1:\d+: error: ", w.run, "frobnicate.u32 %r1;")
    raises(r"^ptx: PTX text", w.run, b"mov.u32 %r1, 1;")
    raises(r"^%r1: expected one value per thread", w.__setitem__, "%r1", np.zeros(5, np.uint32))
    raises(r"^%r1: complex", w.__setitem__, "%r1", np.zeros(32, complex))
    raises(r"step limit|max", ptxmma.Warp(max_steps=10).run, ".reg .pred %p;\nL: bra L;")


def test_missing_path_is_file_not_found(tmp_path):
    for f in (ptxmma.replay, ptxmma.golden):
        with pytest.raises(FileNotFoundError) as e:
            f(tmp_path / "no-such-set")
        assert e.value.filename == str(tmp_path / "no-such-set")
    with pytest.raises(FileNotFoundError):
        ptxmma.golden_cases(tmp_path / "no-such-set", 0)
