"""tensor ops in the numpy interpreter, on small hand-computed cases."""

from __future__ import annotations

import numpy as np

from fusionopt.testing import run_module


def run(text: str, *inputs) -> list[np.ndarray]:
    return run_module(text, [np.asarray(x) for x in inputs])


A = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_extract_slice_with_strides_and_rank_reduction() -> None:
    text = """
    func.func @f(%a: tensor<3x4xf32>) -> (tensor<2x2xf32>, tensor<4xf32>) {
      %s = tensor.extract_slice %a[0, 1] [2, 2] [2, 2] : tensor<3x4xf32> to tensor<2x2xf32>
      %row = tensor.extract_slice %a[1, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
      return %s, %row : tensor<2x2xf32>, tensor<4xf32>
    }"""
    s, row = run(text, A)
    assert s.tolist() == [[1, 3], [9, 11]]
    assert row.tolist() == [4, 5, 6, 7]


def test_insert_slice_with_dynamic_offset_leaves_dest_unchanged() -> None:
    text = """
    func.func @f(%a: tensor<3x4xf32>, %u: tensor<2xf32>, %i: index) -> tensor<3x4xf32> {
      %r = tensor.insert_slice %u into %a[%i, 1] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x4xf32>
      return %r : tensor<3x4xf32>
    }"""
    (out,) = run(text, A, np.array([-1, -2], np.float32), np.int64(2))
    expected = A.copy()
    expected[2, 1:3] = [-1, -2]
    assert out.tolist() == expected.tolist()
    assert A[2, 1] == 9  # the input was not modified in place


def test_pad_collapse_expand_concat() -> None:
    text = """
    func.func @f(%a: tensor<3x4xf32>) -> (tensor<4x5xf32>, tensor<12xf32>, tensor<3x2x2xf32>, tensor<3x8xf32>) {
      %cst = arith.constant 7.0 : f32
      %p = tensor.pad %a low[1, 0] high[0, 1] {
      ^bb0(%i: index, %j: index):
        tensor.yield %cst : f32
      } : tensor<3x4xf32> to tensor<4x5xf32>
      %c = tensor.collapse_shape %a [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
      %e = tensor.expand_shape %a [[0], [1, 2]] output_shape [3, 2, 2] : tensor<3x4xf32> into tensor<3x2x2xf32>
      %k = tensor.concat dim(1) %a, %a : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
      return %p, %c, %e, %k : tensor<4x5xf32>, tensor<12xf32>, tensor<3x2x2xf32>, tensor<3x8xf32>
    }"""
    p, c, e, k = run(text, A)
    assert p[0].tolist() == [7] * 5 and p[:, 4].tolist() == [7] * 4 and p[1:, :4].tolist() == A.tolist()
    assert c.tolist() == list(range(12))
    assert e[2].tolist() == [[8, 9], [10, 11]]
    assert k.tolist() == np.concatenate([A, A], axis=1).tolist()


def test_pad_value_can_depend_on_the_index() -> None:
    text = """
    func.func @f(%a: tensor<2xi64>) -> tensor<4xi64> {
      %p = tensor.pad %a low[1] high[1] {
      ^bb0(%i: index):
        %v = arith.index_cast %i : index to i64
        tensor.yield %v : i64
      } : tensor<2xi64> to tensor<4xi64>
      return %p : tensor<4xi64>
    }"""
    assert run(text, np.array([10, 20]))[0].tolist() == [0, 10, 20, 3]


def test_extract_insert_from_elements_empty() -> None:
    text = """
    func.func @f(%a: tensor<3x4xf32>, %x: f32) -> (f32, tensor<2xf32>, tensor<3x4xf32>, tensor<2x2xf32>) {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = tensor.extract %a[%c2, %c1] : tensor<3x4xf32>
      %f = tensor.from_elements %v, %x : tensor<2xf32>
      %i = tensor.insert %x into %a[%c1, %c2] : tensor<3x4xf32>
      %e = tensor.empty() : tensor<2x2xf32>
      return %v, %f, %i, %e : f32, tensor<2xf32>, tensor<3x4xf32>, tensor<2x2xf32>
    }"""
    v, f, i, e = run(text, A, np.float32(-5))
    assert float(v) == 9.0 and f.tolist() == [9, -5]
    assert i[1, 2] == -5 and i[0, 0] == 0 and e.shape == (2, 2)


def test_out_of_bounds_extract_is_an_error_not_a_wraparound() -> None:
    import pytest

    from fusionopt.diagnostics import FusionError

    text = """
    func.func @f(%a: tensor<3x4xf32>, %i: index) -> f32 {
      %c0 = arith.constant 0 : index
      %v = tensor.extract %a[%i, %c0] : tensor<3x4xf32>
      return %v : f32
    }"""
    assert float(run(text, A, np.int64(2))[0]) == 8.0
    for bad in (-1, 3):
        with pytest.raises(FusionError, match="out of bounds") as info:
            run(text, A, np.int64(bad))
        assert info.value.location is not None and info.value.location.line == 4


def test_reshape_follows_the_shape_operand_even_through_unranked_tensors():
    from fusionopt.ir_io import parse_module as _parse
    from fusionopt.testing import run_module as _run

    text = """func.func @main(%t: tensor<2x6xf32>, %s1: tensor<1xi32>, %s2: tensor<3xi64>) -> tensor<?x?x?xf32> {
      %u = tensor.cast %t : tensor<2x6xf32> to tensor<*xf32>
      %v = tensor.reshape %u(%s1) : (tensor<*xf32>, tensor<1xi32>) -> tensor<?xf32>
      %w = tensor.reshape %v(%s2) : (tensor<?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
      return %w : tensor<?x?x?xf32>
    }"""
    t = np.arange(12, dtype=np.float32).reshape(2, 6)
    t[0, 0] = -np.inf
    (w,) = _run(_parse(text), [t, np.array([12], np.int32), np.array([3, 2, 2], np.int64)])
    np.testing.assert_array_equal(w, t.reshape(3, 2, 2))
