"""iree_linalg_ext.sort / topk / gather in the interpreter against numpy: stable orders (ties
keep their positions), several operands sorted together, topk with and without index inputs,
gather with a permuted dimension_map; adversarial values (equal keys, -inf, large offsets)."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.testing import run_module

SORT = """func.func @main(%a: tensor<3x5xf32>, %b: tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%a, %b : tensor<3x5xf32>, tensor<3x5xi32>) {
  ^bb0(%l0: f32, %r0: f32, %l1: i32, %r1: i32):
    %c = arith.cmpf ogt, %l0, %r0 : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x5xf32>, tensor<3x5xi32>
  return %0#0, %0#1 : tensor<3x5xf32>, tensor<3x5xi32>
}"""

TOPK = """func.func @main(%v: tensor<2x6xf32>{IN_ARG}, %ov: tensor<2x3xf32>, %oi: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %0:2 = iree_linalg_ext.topk dimension(1) ins({INS}) outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi64>
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi64>
}"""

GATHER = """func.func @main(%s: tensor<5x4x3xf32>, %i: tensor<2x3x2xi32>, %o: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %0 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %i : tensor<5x4x3xf32>, tensor<2x3x2xi32>) outs(%o : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}"""


def test_sort_descending_is_stable_and_moves_every_operand():
    a = np.array([[3, 1, 3, -np.inf, 1e6], [0, 0, 0, 0, 0], [2, 5, 2, 5, 2]], np.float32)
    b = np.arange(15, dtype=np.int32).reshape(3, 5)
    keys, payload = (np.asarray(r) for r in run_module(SORT, [a, b]))
    order = np.argsort(-a.astype(np.float64), axis=1, kind="stable")
    np.testing.assert_array_equal(keys, np.take_along_axis(a, order, 1))
    np.testing.assert_array_equal(payload, np.take_along_axis(b, order, 1))


@pytest.mark.parametrize("with_indices", [False, True])
def test_topk_smallest_three(with_indices):
    v = np.array([[5, 1, 4, 1, -np.inf, 9], [2, 2, 2, 2, 2, 2]], np.float32) + 1e4
    zeros = [np.zeros((2, 3), np.float32), np.zeros((2, 3), np.int64)]
    if with_indices:
        text = TOPK.replace("{IN_ARG}", ", %i: tensor<2x6xi64>").replace("{INS}", "%v, %i : tensor<2x6xf32>, tensor<2x6xi64>")
        given = np.arange(100, 112, dtype=np.int64).reshape(2, 6)
        values, indices = (np.asarray(r) for r in run_module(text, [v, given, *zeros]))
    else:
        text = TOPK.replace("{IN_ARG}", "").replace("{INS}", "%v : tensor<2x6xf32>")
        values, indices = (np.asarray(r) for r in run_module(text, [v, *zeros]))
        given = np.tile(np.arange(6, dtype=np.int64), (2, 1))
    order = np.argsort(v.astype(np.float64), axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(values, np.take_along_axis(v, order, 1))
    np.testing.assert_array_equal(indices, np.take_along_axis(given, order, 1))


def test_gather_with_permuted_dimension_map():
    rng = np.random.default_rng(0)
    s = rng.standard_normal((5, 4, 3)).astype(np.float32)
    i = np.stack([rng.integers(0, 4, (2, 3)), rng.integers(0, 5, (2, 3))], axis=-1).astype(np.int32)
    got = np.asarray(run_module(GATHER, [s, i, np.zeros((2, 3, 3), np.float32)])[0])
    # dimension_map = [1, 0]: column 0 indexes source dim 1, column 1 source dim 0
    want = np.array([[s[i[b, c, 1], i[b, c, 0]] for c in range(3)] for b in range(2)])
    np.testing.assert_array_equal(got, want)


def test_gather_out_of_range_index_is_an_error():
    s = np.zeros((5, 4, 3), np.float32)
    i = np.zeros((2, 3, 2), np.int32)
    i[1, 2, 1] = 5  # source dim 0 has 5 rows
    with pytest.raises(Exception, match="outside"):
        run_module(GATHER, [s, i, np.zeros((2, 3, 3), np.float32)])


ARGMAX = """util.func public @main(%x: tensor<3x5xf32>, %v: tensor<3xf32>, %i: tensor<3xi32>, %b: index) -> (tensor<3xf32>, tensor<3xi32>) {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<3x5xf32>) outs(%v, %i : tensor<3xf32>, tensor<3xi32>) index_base(%b : index) {
    ^bb0(%a: f32, %c: f32):
      %gt = arith.cmpf ogt, %a, %c : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<3xf32>, tensor<3xi32>
  util.return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>
}"""


def test_arg_compare_is_argmax_first_index_on_ties_and_keeps_a_better_init():
    from fusionopt.ir_io import parse_module as _parse
    from fusionopt.testing import run_module as _run

    x = np.array([[1, 7, 7, -3, 0], [-np.inf, -np.inf, -np.inf, -np.inf, -np.inf], [3e38, -3e38, np.nan, 3e38, 1]], np.float32)
    init_v = np.array([-np.inf, -np.inf, 3.4e38], np.float32)
    init_i = np.array([-1, -1, -7], np.int32)
    v, i = _run(_parse(ARGMAX), [x, init_v, init_i, np.int64(10)])
    np.testing.assert_array_equal(v, np.array([7, -np.inf, 3.4e38], np.float32))
    np.testing.assert_array_equal(i, np.array([11, -1, -7], np.int32))  # ties keep the first; -inf never beats -inf
    want = np.argmax(x[0]) + 10
    assert i[0] == want
