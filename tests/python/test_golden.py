# The module agrees with the CLI on the golden sets of tests/data: the same replay reports, and
# every case reproduced bit for bit through the matrix-level API (registers -> matrices -> mma).
import json
import math

import numpy as np
import pytest

import ptxmma
from conftest import DATA

SETS = ["mma-sm90-h200", "mma-sm90-adversarial", "mma-sm90-f64-directed", "probes-sm90", "wgmma-sm90",
        "mma-sp-sm90", "probes-sp-sm90", "wgmma-sp-sm90", "wmma-sm90"]


@pytest.mark.parametrize("name", SETS)
def test_replay_passes(name):
    r = ptxmma.replay(DATA / name)
    assert r.ok, [v.first_failure for v in r.variants if v.failed_cases][:1]
    assert r.failed_cases == 0 and r.passed_cases > 0
    assert all(v.supported for v in r.variants)


@pytest.mark.parametrize("name", SETS)
def test_replay_matches_cli(name, cli, tmp_path):
    out = tmp_path / "r.json"
    cli("replay", DATA / name, "--json", out)
    want = json.loads(out.read_text())
    got = ptxmma.replay(DATA / name)
    assert (got.passed_cases, got.failed_cases) == (want["passed"], want["failed"])
    assert [(v.instruction, v.cases, v.failed_cases, v.mismatched_values) for v in got.variants] == [
        (v["instruction"], v["cases"], v["failed_cases"], v["mismatched_values"]) for v in want["variants"]]


def test_matlab_tc_matches_cli(cli, tmp_path):
    out = tmp_path / "r.json"
    cli("replay", DATA / "matlab-tc", "--json", out)
    want = json.loads(out.read_text())
    got = ptxmma.replay(DATA / "matlab-tc")
    assert got.ok and (got.passed_cases, got.failed_cases) == (want["passed"], want["failed"])
    assert [(f.name, f.cases, f.failed_cases) for f in got.files] == [
        (f["file"], f["cases"], f["failed"]) for f in want["files"]]


@pytest.mark.parametrize("name", ["mma-sm90-h200", "mma-sm90-adversarial", "probes-sm90", "wmma-sm90"])
def test_mma_matrices_reproduce_every_case(name):
    path = DATA / name
    for i, v in enumerate(ptxmma.golden(path).variants):
        instr = v.instruction
        cs = ptxmma.golden_cases(path, i)
        for n in range(cs.a.shape[0]):
            m = {op: ptxmma.gather(instr, op, getattr(cs, op.lower())[n], raw=True) for op in "ABCD"}
            # Alternate the two ways in: typed arrays (float16, int8, ml_dtypes...) and bit patterns
            # (also where ml_dtypes is missing: gather then gives bf16, e4m3... as bit patterns).
            typed = {op: ptxmma.gather(instr, op, getattr(cs, op.lower())[n]) for op in "ABC"}
            as_bits = any(ptxmma.TYPES[t]["is_float"] and typed[op].dtype.kind == "u"
                          for op, t in (("A", v.types.a), ("B", v.types.b)))
            if n % 2 or as_bits:
                d = ptxmma.mma(instr, m["A"], m["B"], m["C"], raw=True, dtype={"A": v.types.a, "B": v.types.b},
                               bits=True)
            else:
                d = ptxmma.mma(instr, typed["A"], typed["B"], typed["C"], raw=True)
            bad = np.argwhere(d != m["D"])
            assert bad.size == 0, f"{instr} case {n}: D{bad[0].tolist()} {d[tuple(bad[0])]:#x} != {m['D'][tuple(bad[0])]:#x}"


def _accumulator(instr, d_type, words):
    """A 64 x N matrix from 128 threads' accumulator words, through the D layout."""
    lay = ptxmma.layout(instr)["D"]
    bits = 16 if d_type == "f16" else 32
    w = words[lay.lane, lay.reg].astype(np.uint64)
    return (w >> (bits * lay.elem).astype(np.uint64)) & np.uint64((1 << bits) - 1)


@pytest.mark.parametrize("name", ["wgmma-sm90", "wgmma-sp-sm90"])
def test_wgmma_shared_images_reproduce_cases(name):
    path = DATA / name
    entries = ptxmma.golden(path).variants
    # One case of every entry: each shape, type and form (SS/RS, scales, transposes; sparse: with
    # the case's sp-meta words and sp-sel).
    for i, e in enumerate(entries):
        cs = ptxmma.golden_cases(path, i)
        n = i % cs.desc_a.shape[0]
        c = _accumulator(e.instruction, e.types.d, cs.c[n])
        regs = cs.a[n] if e.a_source == "registers" else None
        sparse = {"sp_meta": cs.e[n].reshape(-1), "sp_sel": cs.selector} if hasattr(cs, "e") else {}
        d = ptxmma.wgmma(e.instruction, C=c, smem=cs.image[n], smem_base=int(cs.smem_base[n]),
                         desc_a=None if regs is not None else int(cs.desc_a[n]), a_regs=regs,
                         desc_b=int(cs.desc_b[n]), scale_d=bool(cs.scale_d[n]), scale_a=e.scale_a,
                         scale_b=e.scale_b, trans_a=e.trans_a, trans_b=e.trans_b, raw=True, bits=True, **sparse)
        want = _accumulator(e.instruction, e.types.d, cs.d[n])
        assert np.array_equal(d, want), f"{e.label} case {n}"


def test_explain_matches_cli(cli):
    instr = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    r = ptxmma.explain(DATA / "mma-sm90-h200", instr, case=1, row=0, col=2)
    text = cli("explain", DATA / "mma-sm90-h200", instr, "--case", 1, "--row", 0, "--col", 2).stdout
    assert r.same and r.bits == r.expected.bits
    assert [f"  {s}" for s in r.steps] == text.splitlines()[1:-1]
    assert text.splitlines()[-1].startswith(f"result {r.got.bits:#010x} = {r.got.exact};")
    # Values are numbers: the terms of A's row 0 and B's column 2, k by k, with exact products.
    m = {op: ptxmma.gather(instr, op, getattr(ptxmma.golden_cases(DATA / "mma-sm90-h200", instr), op.lower())[1])
         for op in "ABC"}
    assert [t.k for t in r.terms] == list(range(16))
    for t in r.terms:
        assert t.a.value == float(m["A"][0, t.k]) and t.b.value == float(m["B"][t.k, 2])
        assert t.product.value == t.a.value * t.b.value  # f16 x f16 is exact in float64
        assert isinstance(t.a.bits, int) and isinstance(t.product.exact, str)
    assert r.accumulator.value == float(m["C"][0, 2])
    assert r.rounding.mode == "rz" and "truncate" in r.rounding.rule
    assert isinstance(r.blocks[0].largest_exponent, int)
    assert all(isinstance(x.dropped_bits, int) for x in r.blocks[0].terms)
    assert isinstance(r.value, float) and r.value == r.expected.value


def test_sparse_cases_carry_metadata_and_explain_uses_it(cli):
    path = DATA / "probes-sp-sm90"
    cs = ptxmma.golden_cases(path, 0)
    assert cs.selector == 0 and cs.e.shape == (3, 32, 1)
    assert int(cs.e[0, 0, 0]) == 0x44444444
    # Elements of mma-sp-sm90 entries as the GPU gave them, through each entry's own metadata
    # words and selector (an instruction has an entry per selector); one against the CLI's explain.
    path = DATA / "mma-sp-sm90"
    for v in ptxmma.golden(path).variants[::7]:
        for row, col in [(0, 0), (9, 5), (15, 7)]:
            r = ptxmma.explain(path, v.instruction, row=row, col=col, selector=v.selector)
            assert r.same, (v.instruction, v.selector, row, col, r.steps)
    instr = "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"
    r = ptxmma.explain(path, instr, case=2, row=9, col=5, selector=3)
    text = cli("explain", path, instr, "--case", 2, "--row", 9, "--col", 5, "--selector", 3).stdout
    assert text.startswith(f"{instr} selector 3 case 2")
    assert [f"  {s}" for s in r.steps] == text.splitlines()[1:-1]
    assert ptxmma.golden_cases(path, instr, selector=3).selector == 3
    with pytest.raises(ValueError, match=r"has no entry with selector 5 \(it has \[0, 1, 2, 3\]\)"):
        ptxmma.golden_cases(path, instr, selector=5)


def test_explain_names_the_nan_operand_and_gives_exact_values():
    instr = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    A = np.zeros((16, 16), np.float16)
    B = np.zeros((16, 8), np.float16)
    A[2, 0], B[0, 4], A[2, 3] = 1.5, -2.5, np.nan
    r = ptxmma.explain(instr, A, B, row=2, col=4)
    assert r.blocks[0].special == "NaN, because A[k=3] 0x7e00 is NaN"
    assert math.isnan(r.value) and r.got.exact == "NaN"
    A[2, 3] = 0
    r = ptxmma.explain(instr, A, B, np.full((16, 8), 0.1, np.float32), row=2, col=4)
    assert r.terms[0].k == 0 and r.terms[0].a.value == 1.5 and r.terms[0].a.bits == 0x3E00
    assert r.terms[0].product.value == -3.75
    assert r.accumulator.exact == "0.100000001490116119384765625"  # f32 0.1, exactly
    assert r.rounding.mode == "rz" and r.got.exact == "-3.6499998569488525390625"  # truncated: terms, then sum
