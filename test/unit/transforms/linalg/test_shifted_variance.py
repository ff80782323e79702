"""`linalg-merge-sibling-reductions{rewrite-variance=true}`: the shifted one-reduction variance
stays within its stated error bound against a float64 reference on adversarial rows, where the
textbook one-pass `E[x^2] - E[x]^2` does not.

The bound (module docstring of the pass): with `u` the unit roundoff, `k = x_0` the row's first
element, `y = x - k`, `d = m - k`, the computed `v` satisfies
`|v - v_ref| <= (2N+8) u (sum(y^2) + N d^2) + N e_d^2`, where `e_d` bounds the rounding of `d`
(the rounded mean's own error, `(N+1) u sum|x| / N`, plus `u |d|`): the two-pass input program
carries that last term too, since it also subtracts the rounded mean.
"""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.testing import apply_pipeline, run_module

ROWS, N = 6, 128
U = float(np.finfo(np.float32).eps) / 2


def layer_norm_stats(rows: int, n: int) -> str:
    """`v = sum((x - sum(x)/n)^2)` per row, as torch-mlir lowers a layer norm's statistics."""
    row, full = f"tensor<{rows}xf32>", f"tensor<{rows}x{n}xf32>"
    red = 'iterator_types = ["parallel", "reduction"]'
    par = 'iterator_types = ["parallel", "parallel"]'
    m2, m1 = "affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0)>"
    return f"""
func.func @stats(%x: {full}) -> {row} {{
  %zero = arith.constant 0.0 : f32
  %n = arith.constant {float(n)} : f32
  %e1 = tensor.empty() : {row}
  %f = linalg.fill ins(%zero : f32) outs(%e1 : {row}) -> {row}
  %s = linalg.generic {{indexing_maps = [{m2}, {m1}], {red}}} ins(%x : {full}) outs(%f : {row}) {{
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }} -> {row}
  %e2 = tensor.empty() : {full}
  %d = linalg.generic {{indexing_maps = [{m2}, {m1}, {m2}], {par}}} ins(%x, %s : {full}, {row}) outs(%e2 : {full}) {{
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %m = arith.divf %sum, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  }} -> {full}
  %q = linalg.generic {{indexing_maps = [{m2}, {m2}, {m2}], {par}}} ins(%d, %d : {full}, {full}) outs(%e2 : {full}) {{
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  }} -> {full}
  %v = linalg.generic {{indexing_maps = [{m2}, {m1}], {red}}} ins(%q : {full}) outs(%f : {row}) {{
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }} -> {row}
  func.return %v : {row}
}}
"""


def adversarial_rows(family: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    noise = rng.standard_normal((ROWS, N))
    rows = {
        "random": noise,
        "constant": np.full((ROWS, N), 0.01),
        "offset": 1000.5 + 0.01 * noise,
        "large-offset": 1.0e6 + noise,
        "zeros": np.zeros((ROWS, N)),
        "extreme": 1.0e17 * noise,  # squares near 1e36, close to the f32 limit
        "first-element-outlier": np.where(np.arange(N) == 0, 1.0e4, noise),
        "tiny": 1.0e-18 * noise,
    }[family]
    return rows.astype(np.float32)


def error_bound(x: np.ndarray) -> np.ndarray:
    """The module docstring's bound, evaluated in float64 on the f32 inputs, per row."""
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    y, d = x - x[:, :1], (mean - x[:, :1])[:, 0]
    e_d = (N + 1) * U * np.abs(x).sum(axis=1) / N + U * np.abs(d)
    return (2 * N + 8) * U * ((y * y).sum(axis=1) + N * d * d) + N * e_d * e_d


def reference(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return ((x - x.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)


@pytest.fixture(scope="module")
def shifted_module():
    return apply_pipeline(layer_norm_stats(ROWS, N), "linalg-merge-sibling-reductions{rewrite-variance=true}")


FAMILIES = ["random", "constant", "offset", "large-offset", "zeros", "extreme", "first-element-outlier", "tiny"]


def test_rewrite_makes_one_reduction(shifted_module):
    reductions = [op for op in shifted_module.walk() if op.name == "linalg.generic"
                  and "reduction" in str(op.properties["iterator_types"])]
    assert len(reductions) == 1 and len(reductions[0].results) == 3


@pytest.mark.parametrize("family", FAMILIES)
def test_shifted_variance_within_bound(shifted_module, family: str):
    x = adversarial_rows(family)
    (computed,) = run_module(shifted_module, [x])
    assert np.all(np.isfinite(computed)), computed
    error = np.abs(computed.astype(np.float64) - reference(x))
    bound = error_bound(x)
    assert np.all(error <= bound), f"{family}: error {error.max():.3e} > bound {bound[error.argmax()]:.3e}"


@pytest.mark.parametrize("family", ["constant", "zeros"])
def test_constant_rows_give_the_input_programs_variance(shifted_module, family: str):
    """No cancellation: the shifted sums are exactly 0, so v = N*d^2, like the two-pass program."""
    x = adversarial_rows(family)
    (two_pass,) = run_module(layer_norm_stats(ROWS, N), [x])
    (computed,) = run_module(shifted_module, [x])
    np.testing.assert_array_equal(computed, two_pass)


@pytest.mark.parametrize("family", ["offset", "large-offset"])
def test_textbook_one_pass_variance_breaks_the_bound(family: str):
    """The bound has teeth: E[x^2] - E[x]^2 in f32 (the rewrite this pass used to make) fails it."""
    x = adversarial_rows(family)
    s, ss = x.sum(axis=1, dtype=np.float32), (x * x).sum(axis=1, dtype=np.float32)
    textbook = ss - s * (s / np.float32(N))
    assert np.any(np.abs(textbook.astype(np.float64) - reference(x)) > error_bound(x))
