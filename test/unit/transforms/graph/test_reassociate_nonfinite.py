"""The infinities rule of `graph-reassociate-dots` (dot_chain_nonfinite.py): with
`strict-nonfinite=true` a float chain is re-planned only when no pattern of infinities and NaNs
in its run-time operand gives NaN in one order and +-inf in the other; by default (the fast-math
contract: finite values) the rule is off."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.diagnostics import capture_diagnostics
from fusionopt.interpreter import find_entry, run_function
from fusionopt.ir_io import parse_module
from fusionopt.testing import apply_pipeline

PASS = "graph-reassociate-dots{strict-nonfinite=true}"


def chain(a: np.ndarray, c: np.ndarray, rows: int = 4) -> str:
    """x[rows, k] * A[k, l] * C[l, n] in f32."""
    (k, l), n = a.shape, c.shape[1]
    dense = lambda m: "dense<" + np.array2string(m, separator=", ", floatmode="unique").replace("\n", "") + ">"  # noqa: E731
    return f"""func.func @main(%x: tensor<{rows}x{k}xf32>) -> tensor<{rows}x{n}xf32> {{
  %a = arith.constant {dense(a)} : tensor<{k}x{l}xf32>
  %c = arith.constant {dense(c)} : tensor<{l}x{n}xf32>
  %0 = graph.dot %x, %a : (tensor<{rows}x{k}xf32>, tensor<{k}x{l}xf32>) -> tensor<{rows}x{l}xf32>
  %1 = graph.dot %0, %c : (tensor<{rows}x{l}xf32>, tensor<{l}x{n}xf32>) -> tensor<{rows}x{n}xf32>
  func.return %1 : tensor<{rows}x{n}xf32>
}}
"""


def classes(y: np.ndarray) -> np.ndarray:
    """0 finite, 2 NaN, +-3 +-inf."""
    return np.where(np.isnan(y), 2, np.where(np.isinf(y), 3 * np.sign(y), 0))


def with_infinities(rng: np.random.Generator, shape) -> np.ndarray:
    x = rng.standard_normal(shape).astype(np.float32)
    hit = rng.random(shape) < 0.3
    x[hit] = rng.choice(np.array([np.inf, -np.inf, np.nan], dtype=np.float32), hit.sum())
    return x


def rigid(rng: np.random.Generator, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Zero-free, sign(M) = rows cols^T, magnitudes multiples of 1/4 (exact products)."""
    return np.outer(rows, cols) * rng.integers(1, 9, size=(rows.size, cols.size)) / 4


def run(module, x: np.ndarray) -> np.ndarray:
    return run_function(module, [x], find_entry(module, None))[0]


@pytest.mark.parametrize("seed", range(8))
def test_sign_rigid_chains_are_replanned_and_keep_every_infinity(seed):
    rng = np.random.default_rng(seed)
    k, l, n = rng.integers(2, 6, size=3)
    shared = rng.choice([-1.0, 1.0], size=l)
    a = rigid(rng, rng.choice([-1.0, 1.0], size=k), shared)
    c = rigid(rng, shared * rng.choice([-1.0, 1.0]), rng.choice([-1.0, 1.0], size=n))
    text = chain(a, c, rows=8)
    before, after = parse_module(text), apply_pipeline(text, PASS)
    assert sum(op.name == "graph.dot" for op in after.walk()) == 1
    for _ in range(20):
        x = with_infinities(rng, (8, k))
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(classes(run(after, x)), classes(run(before, x)))


@pytest.mark.parametrize("seed", range(8))
def test_random_sign_chains_are_kept_only_when_strict(seed):
    rng = np.random.default_rng(100 + seed)
    a, c = rng.integers(-8, 9, size=(5, 6)) / 4, rng.integers(-8, 9, size=(6, 2)) / 4
    a[0] = 1.0  # not all one sign ...
    a[1, 0] = -1.0  # ... and not rank-1 in sign
    text = chain(a, c)
    with capture_diagnostics() as remarks:
        kept = apply_pipeline(text, PASS)
    assert sum(op.name == "graph.dot" for op in kept.walk()) == 2
    assert any("(inf" in d.message and d.message.startswith("kept 2-dot chain") for d in remarks)
    with capture_diagnostics():
        finite = apply_pipeline(text, "graph-reassociate-dots")
    assert sum(op.name == "graph.dot" for op in finite.walk()) == 1
