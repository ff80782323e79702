"""linalg.batch_reduce_matmul and linalg.contract (fusionopt.dialects.linalg_contraction) run by
the interpreter through their indexing maps: compared with numpy einsum in float64, on random
inputs, a large common offset, and integers at the ends of their range (wrapping as i32 does)."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.ir_io import parse_module
from fusionopt.testing import run_module

BRGEMM = """func.func @main(%a: tensor<3x4x5x{t}>, %b: tensor<3x5x2x{t}>, %c: tensor<4x2x{t}>) -> tensor<4x2x{t}> {{
  %r = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x4x5x{t}>, tensor<3x5x2x{t}>) outs(%c : tensor<4x2x{t}>) -> tensor<4x2x{t}>
  return %r : tensor<4x2x{t}>
}}"""

CONTRACT = """func.func @main(%a: tensor<5x3xf32>, %b: tensor<2x7x5xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %r = linalg.contract indexing_maps = [affine_map<(b, m, n, k) -> (k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<5x3xf32>, tensor<2x7x5xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}"""


@pytest.mark.parametrize("offset", [0.0, 1e3])
def test_batch_reduce_matmul_matches_einsum(offset):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((3, 4, 5)) + offset).astype(np.float32)
    b = rng.standard_normal((3, 5, 2)).astype(np.float32)
    c = rng.standard_normal((4, 2)).astype(np.float32)
    got = np.asarray(run_module(parse_module(BRGEMM.format(t="f32")), [a, b, c])[0])
    want = c.astype(np.float64) + np.einsum("bmk,bkn->mn", a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * (1 + offset) * 15)


def test_batch_reduce_matmul_i32_wraps_like_i32():
    a = np.full((3, 4, 5), np.iinfo(np.int32).max, np.int32)
    b = np.full((3, 5, 2), 3, np.int32)
    c = np.full((4, 2), np.iinfo(np.int32).min, np.int32)
    got = np.asarray(run_module(parse_module(BRGEMM.format(t="i32")), [a, b, c])[0])
    want = (c.astype(np.int64) + np.einsum("bmk,bkn->mn", a.astype(np.int64), b.astype(np.int64)))
    want = ((want + 2**31) % 2**32 - 2**31).astype(np.int32)
    np.testing.assert_array_equal(got, want)


def test_contract_with_transposed_lhs_and_batch_reduction():
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(s).astype(np.float32) for s in ((5, 3), (2, 7, 5), (3, 7)))
    got = np.asarray(run_module(parse_module(CONTRACT), [a, b, c])[0])
    # the batch loop b is in no output dimension: it is reduced along with k
    want = c + np.einsum("km,bnk->mn", a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
