# Approximate special functions: ptxmma.special gives the GPU's edge values (tests/data/special-sm90).
from collections import defaultdict

import numpy as np
import pytest

import ptxmma
from conftest import DATA


def _edges():
    by_form = defaultdict(list)
    for line in (DATA / "special-sm90" / "edges.txt").read_text().split("\n"):
        if line:
            name, *words = line.split()
            by_form[name].append([int(w, 16) for w in words])
    return by_form


EDGES = _edges()


@pytest.mark.parametrize("form", sorted(EDGES))
def test_gpu_edge_values(form):
    rows = np.array(EDGES[form], dtype=np.uint64)
    width = {"f16": np.uint16, "bf16": np.uint16, "f64": np.uint64}.get(ptxmma._c.special_info(form)["type"], np.uint32)
    args = [rows[:, i].astype(width) for i in range(rows.shape[1] - 1)]
    got = ptxmma.special(form, *args, raw=True, bits=True)
    assert got.tolist() == rows[:, -1].astype(width).tolist()


def test_values_in_values_out():
    assert ptxmma.special("ex2.approx.ftz.f32", np.float32([0, 1, -1])).tolist() == [1.0, 2.0, 0.5]
    q = ptxmma.special("div.full.f32", np.float32([[1, 6]]), np.float32([[-3, 2]]))
    assert q.dtype == np.float32 and q.shape == (1, 2) and q[0, 1] == 3.0
    assert ptxmma.special("ex2.approx.f16", np.float16([1])).dtype == np.float16


def test_errors():
    with pytest.raises(ValueError, match="unknown instruction 'ex2.approx.f64'"):
        ptxmma.special("ex2.approx.f64", np.float64([1]))
    with pytest.raises(ValueError, match="y: div.full.f32 takes two operands"):
        ptxmma.special("div.full.f32", np.float32([1]))
    with pytest.raises(ValueError, match="y: sin.approx.f32 takes one operand"):
        ptxmma.special("sin.approx.f32", np.float32([1]), np.float32([1]))
    with pytest.raises(ValueError, match=r"x: a uint32 array for f32 elements: pass bits=True"):
        ptxmma.special("sin.approx.f32", np.uint32([1]))
    with pytest.raises(ValueError, match="packed pairs"):
        ptxmma.special("ex2.approx.f16x2", np.float32([1]))
