# Register level: Warp / Warpgroup run PTX text on registers set from numpy, and layouts map
# (lane, register, element) <-> (row, col) as the matrix-level API uses them.
import numpy as np
import pytest

import ptxmma
from conftest import ROOT

F16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"


def test_layout_maps_are_inverse():
    for instr in [F16, "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
                  "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16"]:
        for op, lay in ptxmma.layout(instr).items():
            lanes, regs, elems, _ = lay.coord.shape
            p, r, c = lay.problem, lay.row, lay.col
            rows = lay.slot.shape[1]
            assert np.array_equal(lay.lane[p * rows + r, c], np.broadcast_to(np.arange(lanes)[:, None, None], p.shape)), op
            assert np.array_equal(lay.reg[p * rows + r, c], np.broadcast_to(np.arange(regs)[None, :, None], p.shape)), op
            assert np.array_equal(lay.elem[p * rows + r, c], np.broadcast_to(np.arange(elems)[None, None, :], p.shape)), op


def test_layout_matches_cli(cli):
    # The CLI's table lists A's element (row, col) for each lane's registers; spot-check lane 5.
    lay = ptxmma.layout(F16)["A"]
    text = cli("layout", F16).stdout
    assert "A" in text
    assert lay.name in text
    assert (lay.row[5].tolist(), lay.col[5].tolist()) == ([[1, 1], [9, 9], [1, 1], [9, 9]],
                                                          [[2, 3], [2, 3], [10, 11], [10, 11]])


def test_scatter_gather_round_trip():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 1 << 16, (16, 16), dtype=np.uint16)
    words = ptxmma.scatter(F16, "A", a, dtype="f16", bits=True)
    assert words.shape == (32, 4) and words.dtype == np.uint32
    assert np.array_equal(ptxmma.gather(F16, "A", words, raw=True), a)


def test_warp_runs_mma_like_the_matrix_api():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 8)).astype(np.float16)
    c = rng.standard_normal((16, 8)).astype(np.float32)
    w = ptxmma.Warp()
    for name, m, op in (("%a", a, "A"), ("%b", b, "B"), ("%c", c, "C")):
        words = ptxmma.scatter(F16, op, m)
        for i in range(words.shape[1]):
            w[f"{name}{i}"] = words[:, i]
    res = w.run("""
        .reg .b32 %a<4>, %b<2>;
        .reg .f32 %c<4>, %d<4>;
        mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};
    """)
    assert res.warnings == []
    d = w.matrix(F16, "D", ["%d0", "%d1", "%d2", "%d3"])
    assert d.dtype == np.float32
    assert np.array_equal(d.view(np.uint32), ptxmma.mma(F16, a, b, c).view(np.uint32))
    assert w["%d0"].dtype == np.uint32 and w.get("%d0", "f32").dtype == np.float32


def test_registers_keep_values_between_runs():
    w = ptxmma.Warp()
    w["%r1"] = np.arange(32, dtype=np.uint32)
    w.run(".reg .b32 %r<3>;\nmov.u32 %r2, %laneid;\nadd.u32 %r1, %r1, %r2;")
    w.run(".reg .b32 %r<3>;\nshl.b32 %r1, %r1, 1;")
    assert np.array_equal(w["%r1"], 4 * np.arange(32))
    w["%f"] = np.float32(1.5)
    w.run(".reg .f32 %f;\nadd.f32 %f, %f, %f;")
    assert np.all(w.get("%f", "f32") == 3.0)


def test_example_snippet_runs_and_its_f64_registers_read_as_matrices():
    w = ptxmma.Warp()
    w.run((ROOT / "examples" / "mma_f64.ptx").read_text(), file="mma_f64.ptx")
    assert np.array_equal(w.get("%a", "f64")[:8], [1, 2, 3, 4, 2, 3, 4, 5])
    instr = "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"
    a, b, c = w.matrix(instr, "A", ["%a"]), w.matrix(instr, "B", ["%b"]), w.matrix(instr, "C", ["%c0", "%c1"])
    d = w.matrix(instr, "D", ["%dn0", "%dn1"])
    assert d.dtype == np.float64 and d.shape == (8, 8)
    assert np.array_equal(d.view(np.uint64), ptxmma.mma(instr, a, b, c, raw=True))


def test_warpgroup_wgmma_matches_the_matrix_api():
    instr = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
    rng = np.random.default_rng(11)
    a = rng.standard_normal((64, 16)).astype(np.float16)
    b = rng.standard_normal((16, 8)).astype(np.float16)
    desc_a, desc_b = 0x0000001000080000, 0x0000001000080080  # examples/wgmma_pipeline.ptx
    smem = np.zeros(48 * 1024, np.uint8)
    for m, op, desc in ((a, "A", desc_a), (b, "B", desc_b)):
        at = ptxmma.addresses(instr, op, desc)
        bits = m.view(np.uint16)
        smem[at.address] = (bits & 0xFF).astype(np.uint8)
        smem[at.address + 1] = (bits >> 8).astype(np.uint8)
    wg = ptxmma.Warpgroup()
    wg.shared = smem
    res = wg.run((ROOT / "examples" / "wgmma_pipeline.ptx").read_text())
    assert res.warnings == []
    lay = ptxmma.layout(instr)["D"]
    regs = np.stack([wg[f"%d{i}"] for i in range(4)], axis=1)
    got = regs[lay.lane, lay.reg].view(np.float32)
    assert np.array_equal(got.view(np.uint32), ptxmma.wgmma(instr, a, b).view(np.uint32))
    same = ptxmma.wgmma(instr, smem=smem, desc_a=desc_a, desc_b=desc_b)
    assert np.array_equal(same.view(np.uint32), got.view(np.uint32))


def test_sparse_mma_takes_the_logical_a():
    # m16n8k32 f16, 2:4: row r of A holds nonzeros in two columns of every four, which ones varying
    # by row; small integers, so D = A @ B exactly. Where every row leaves columns 2 and 3 of each
    # four empty, B's rows there hold Inf: a dense product would give NaN (0 x Inf), the sparse
    # mma does not read those rows (as measured on the H100, docs/hardware).
    instr = "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"
    rng = np.random.default_rng(3)
    a = np.zeros((16, 32))
    for r in range(16):
        keep = sorted({r % 4, (r + 1 + r // 4) % 4})
        for c in range(0, 32, 4):
            a[r, [c + k for k in keep]] = rng.integers(-4, 5, len(keep))
    b = rng.integers(-4, 5, (32, 8)).astype(np.float64)
    d = ptxmma.mma(instr, a.astype(np.float16), b.astype(np.float16))
    assert np.array_equal(d, (a @ b).astype(np.float32))
    r = ptxmma.explain(instr, a.astype(np.float16), b.astype(np.float16), row=5, col=2)
    assert r.bits == d.view(np.uint32)[5, 2]
    a[:, 2::4] = a[:, 3::4] = 0
    b_inf = b.copy()
    b_inf[2::4] = b_inf[3::4] = np.inf
    d = ptxmma.mma(instr, a.astype(np.float16), b_inf.astype(np.float16))
    assert np.array_equal(d, (a @ b).astype(np.float32))
    a[3, 4:8] = [1, 0, 1, 1]
    with pytest.raises(ValueError, match="row 3, columns 4-7 hold 3 nonzero elements; 2:4 sparsity keeps 2"):
        ptxmma.mma(instr, a.astype(np.float16), b.astype(np.float16))


@pytest.mark.parametrize("instr,k,pattern", [
    ("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, "1:2"),
    ("mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", 64, "2:4"),
    ("mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32", 128, "4:8")])
def test_sparse_mma_every_pattern_against_numpy(instr, k, pattern):
    # Random logical A of the pattern's structure (4:8: two pairs of every eight columns), small
    # integers: D = A @ B + C exactly.
    m, n = 16, 8
    rng = np.random.default_rng(11)
    group, keep = {"1:2": (1, 1), "2:4": (1, 2), "4:8": (2, 2)}[pattern]
    width = {"1:2": 2, "2:4": 4, "4:8": 8}[pattern]
    a = np.zeros((m, k), np.int64)
    for r in range(m):
        for c in range(0, k, width):
            for g in rng.choice(width // group, keep, replace=False):
                a[r, c + g * group:c + (g + 1) * group] = rng.integers(-3, 4, group)
    b = rng.integers(-3, 4, (k, n))
    c = rng.integers(-50, 51, (m, n))
    if "tf32" in instr:
        d = ptxmma.mma(instr, a.astype(np.float32), b.astype(np.float32), c.astype(np.float32))
        assert np.array_equal(d, (a @ b + c).astype(np.float32))
    else:
        d = ptxmma.mma(instr, a.astype(np.int8), b.astype(np.int8), c.astype(np.int32))
        assert np.array_equal(d, (a @ b + c).astype(np.int32))


def test_sparse_wgmma_takes_the_logical_a():
    # m64n8k32 f16, 2:4, each warp's rows compressed with its own threads' sp-meta: D = A @ B
    # exactly for small integers; a bad chunk is named by its row of the 64.
    instr = "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16"
    rng = np.random.default_rng(5)
    a = np.zeros((64, 32))
    for r in range(64):
        for c in range(0, 32, 4):
            keep = rng.choice(4, 2, replace=False)
            a[r, c + keep] = rng.integers(-4, 5, 2)
    b = rng.integers(-4, 5, (32, 8)).astype(np.float64)
    d = ptxmma.wgmma(instr, a.astype(np.float16), b.astype(np.float16))
    assert np.array_equal(d, (a @ b).astype(np.float32))
    a[19, 8:12] = [1, 1, 0, 1]
    with pytest.raises(ValueError, match="row 19, columns 8-11 hold 3 nonzero elements"):
        ptxmma.wgmma(instr, a.astype(np.float16), b.astype(np.float16))
    with pytest.raises(ValueError, match="is sparse: give sp_meta"):
        ptxmma.wgmma(instr, smem=np.zeros(4096, np.uint8), desc_a=0, desc_b=0)


def test_wgmma_matrices_in_every_layout():
    # Small integers: D = A @ B + C exactly, whatever layout (swizzle, MN-major under trans) or A
    # source places the same matrices; a sparse A likewise.
    rng = np.random.default_rng(6)
    instr = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
    a = rng.integers(-4, 5, (64, 16)).astype(np.float64)
    b = rng.integers(-4, 5, (16, 8)).astype(np.float64)
    c = rng.integers(-4, 5, (64, 8)).astype(np.float32)
    want = (a @ b + c).astype(np.float32)
    for swizzle in ("none", "32B", "64B", "128B"):
        for kw in ({}, {"trans_a": 1, "trans_b": 1}, {"a_source": "registers"}, {"a_source": "registers", "trans_b": 1}):
            d = ptxmma.wgmma(instr, a.astype(np.float16), b.astype(np.float16), C=c, swizzle=swizzle, **kw)
            assert np.array_equal(d, want), (swizzle, kw)
    sp = "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16"
    a2 = np.zeros((64, 32))
    a2[:, 1::4] = rng.integers(-4, 5, (64, 8))
    b2 = rng.integers(-4, 5, (32, 8)).astype(np.float64)
    for swizzle in ("none", "32B", "128B"):
        for src in ("descriptor", "registers"):
            d = ptxmma.wgmma(sp, a2.astype(np.float16), b2.astype(np.float16), swizzle=swizzle, a_source=src)
            assert np.array_equal(d, (a2 @ b2).astype(np.float32)), (swizzle, src)
    with pytest.raises(ValueError, match="swizzle"):
        ptxmma.wgmma(instr, a.astype(np.float16), b.astype(np.float16), swizzle="16B")
    with pytest.raises(ValueError, match="goes with matrices"):
        ptxmma.wgmma(instr, smem=np.zeros(4096, np.uint8), desc_a=0, desc_b=0, swizzle="32B")


def test_block_scaled_mma_takes_scale_matrices():
    # mxf8f6f4 m16n8k32, A = B = 1 (values; e4m3 0x38), ue8m0 scales (values): row r of A scaled by
    # 2^(r - 8), column n of B by 2^n. Hand-derived: D[r][n] = 32 * 2^(r - 8 + n), exact in f32.
    instr = "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"
    ones_a, ones_b = np.ones((16, 32)), np.ones((32, 8))
    sa = 2.0 ** (np.arange(16) - 8)[:, None]
    sb = 2.0 ** np.arange(8)[None, :]
    d = ptxmma.mma(instr, ones_a, ones_b, arch="sm_120a", dtype="e4m3", scale_a=sa, scale_b=sb)
    want = 32.0 * 2.0 ** (np.arange(16)[:, None] - 8 + np.arange(8)[None, :])
    assert np.array_equal(d, want.astype(np.float32))
    codes = ptxmma.mma(instr, np.full((16, 32), 0x38, np.uint8), np.full((32, 8), 0x38, np.uint8), arch="sm_120a",
                       scale_a=(127 - 8 + np.arange(16, dtype=np.uint8))[:, None],
                       scale_b=(127 + np.arange(8, dtype=np.uint8))[None, :], bits=True)
    assert np.array_equal(codes, d)
    with pytest.raises(ValueError, match=r"^scale_a: scale_a\[0\]\[0\] = 119 is not a ue8m0 value"):
        ptxmma.mma(instr, ones_a, ones_b, arch="sm_120a", scale_a=(127 - 8 + np.arange(16))[:, None], scale_b=sb)
    r = ptxmma.explain(instr, ones_a, ones_b, row=9, col=3, arch="sm_120a", dtype="e4m3", scale_a=sa, scale_b=sb)
    assert r.value == 512 and r.got.exact == "512" and any("scale A 0x80" in s for s in r.steps)  # 32 x 2^1 x 2^3
    with pytest.raises(ValueError, match="is block-scaled: give scale_a"):
        ptxmma.mma(instr, ones_a, ones_b, arch="sm_120a", dtype="e4m3")
    with pytest.raises(ValueError, match="takes no scale_a"):
        ptxmma.mma(F16, np.zeros((16, 16), np.float16), np.zeros((16, 8), np.float16), scale_a=sa, scale_b=sb)
