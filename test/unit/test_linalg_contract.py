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


def test_matvec_vecmat_dot_batch_matvec_match_numpy():
    text = """func.func @main(%a: tensor<4x8xf32>, %x: tensor<8xf32>, %y: tensor<4xf32>, %s: tensor<f32>, %ba: tensor<2x4x8xf32>, %bx: tensor<2x8xf32>, %by: tensor<2x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4xf32>) {
  %0 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %at = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%at : tensor<8x4xf32>) permutation = [1, 0]
  %1 = linalg.vecmat ins(%x, %t : tensor<8xf32>, tensor<8x4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.dot ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  %3 = linalg.batch_matvec ins(%ba, %bx : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%by : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4xf32>
}"""
    rng = np.random.default_rng(2)
    a, x, y = (rng.standard_normal(s).astype(np.float32) for s in ((4, 8), (8,), (4,)))
    s = np.array(1.5, np.float32)
    ba, bx, by = (rng.standard_normal(sh).astype(np.float32) for sh in ((2, 4, 8), (2, 8), (2, 4)))
    got = [np.asarray(r) for r in run_module(parse_module(text), [a, x, y, s, ba, bx, by])]
    np.testing.assert_allclose(got[0], y + a @ x, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[1], y + x @ a.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[2], s + x @ x, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[3], by + np.einsum("bmk,bk->bm", ba, bx), rtol=1e-5, atol=1e-5)


def test_batch_vecmat_matches_numpy_on_large_offsets():
    text = """func.func @main(%x: tensor<3x4xf32>, %a: tensor<3x4x5xf32>, %y: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = linalg.batch_vecmat ins(%x, %a : tensor<3x4xf32>, tensor<3x4x5xf32>) outs(%y : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}"""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 4)) + 1e3).astype(np.float32)
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    y = np.zeros((3, 5), np.float32)
    (got,) = run_module(parse_module(text), [x, a, y])
    want = np.einsum("bk,bkn->bn", x.astype(np.float64), a.astype(np.float64))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-2)
