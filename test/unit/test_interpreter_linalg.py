"""linalg in the numpy interpreter: named ops and vectorised `linalg.generic` (maps, index,
reductions through numpy, the sequential loop fallback, multi-result generics)."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.diagnostics import FusionError
from fusionopt.interpreter import linalg_generic
from fusionopt.testing import run_module


def run(text: str, *inputs) -> list[np.ndarray]:
    return run_module(text, [np.asarray(x) for x in inputs])


def f32(*values) -> np.ndarray:
    return np.array(values, np.float32)


def reduce_1d(body: str, data, init: float = 0.0, result: str = "tensor<f32>") -> np.ndarray:
    """Reduce a 1-D tensor<Nxf32> into a 0-d tensor with `body` (args %in, %out)."""
    n = len(data)
    text = f"""
    func.func @f(%a: tensor<{n}xf32>) -> {result} {{
      %init = arith.constant dense<{init:.6e}> : tensor<f32>
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                           iterator_types = ["reduction"]}}
          ins(%a : tensor<{n}xf32>) outs(%init : tensor<f32>) {{
      ^bb0(%in: f32, %out: f32):
        {body}
      }} -> tensor<f32>
      return %r : {result}
    }}"""
    return run(text, np.array(data, np.float32))[0]


def test_elementwise_generic_with_transposed_and_broadcast_maps() -> None:
    text = """
    func.func @f(%a: tensor<3x2xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
      %e = tensor.empty() : tensor<2x3xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%a, %b : tensor<3x2xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.subf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }"""
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = f32(10, 20, 30)
    (out,) = run(text, a, b)
    assert out.tolist() == [[-10, -18, -26], [-9, -17, -25]]


def test_sum_reduction_into_constant_zero_map() -> None:
    text = """
    func.func @f(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x1xf32>
      %init = linalg.fill ins(%z : f32) outs(%e : tensor<2x1xf32>) -> tensor<2x1xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%a : tensor<2x3xf32>) outs(%init : tensor<2x1xf32>) {
      ^bb0(%in: f32, %out: f32):
        %s = arith.addf %in, %out : f32
        linalg.yield %s : f32
      } -> tensor<2x1xf32>
      return %r : tensor<2x1xf32>
    }"""
    (out,) = run(text, np.arange(6, dtype=np.float32).reshape(2, 3))
    assert out.tolist() == [[3.0], [12.0]]


def test_reduction_adds_the_initial_value() -> None:
    body = "%s = arith.addf %in, %out : f32\n        linalg.yield %s : f32"
    assert float(reduce_1d(body, [1, 2, 3], init=10.0)) == 16.0


def test_maximumf_reduction_propagates_nan_and_maxnumf_ignores_it() -> None:
    data = [1.0, np.nan, 3.0]
    maximum = reduce_1d("%m = arith.maximumf %in, %out : f32\n        linalg.yield %m : f32", data, init=-1e30)
    maxnum = reduce_1d("%m = arith.maxnumf %in, %out : f32\n        linalg.yield %m : f32", data, init=-1e30)
    assert np.isnan(maximum) and float(maxnum) == 3.0


def test_nonstandard_combiner_uses_the_sequential_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = linalg_generic._loop_over_reductions
    monkeypatch.setattr(linalg_generic, "_loop_over_reductions", lambda *a: calls.append(1) or original(*a))
    body = """%h = arith.constant 0.5 : f32
        %m = arith.mulf %out, %h : f32
        %s = arith.addf %m, %in : f32
        linalg.yield %s : f32"""
    # ((0 * .5 + 1) * .5 + 2) * .5 + 3 = 4.25: order matters, so a tree reduction would be wrong
    assert float(reduce_1d(body, [1, 2, 3])) == 4.25
    assert calls, "expected the loop fallback"


def test_numpy_reduction_route_for_recognised_combiner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linalg_generic, "_loop_over_reductions", lambda *a: pytest.fail("loop fallback used"))
    body = "%sq = arith.mulf %in, %in : f32\n        %s = arith.addf %out, %sq : f32\n        linalg.yield %s : f32"
    assert float(reduce_1d(body, [1, 2, 3])) == 14.0


def test_argmax_select_pair_multi_result() -> None:
    text = """
    func.func @f(%a: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
      %ninf = arith.constant dense<-3.0e38> : tensor<2xf32>
      %zero = arith.constant dense<0> : tensor<2xi64>
      %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                              affine_map<(d0, d1) -> (d0)>],
                             iterator_types = ["parallel", "reduction"]}
          ins(%a : tensor<2x4xf32>) outs(%ninf, %zero : tensor<2xf32>, tensor<2xi64>) {
      ^bb0(%in: f32, %max: f32, %idx: i64):
        %i = linalg.index 1 : index
        %ii = arith.index_cast %i : index to i64
        %gt = arith.cmpf ogt, %in, %max : f32
        %m = arith.select %gt, %in, %max : f32
        %j = arith.select %gt, %ii, %idx : i64
        linalg.yield %m, %j : f32, i64
      } -> (tensor<2xf32>, tensor<2xi64>)
      return %r#0, %r#1 : tensor<2xf32>, tensor<2xi64>
    }"""
    a = np.array([[1, 5, 5, 2], [-3, -1, -2, -1]], np.float32)
    values, indices = run(text, a)
    assert values.tolist() == [5.0, -1.0] and indices.tolist() == [1, 1]  # first maximum wins


def test_multi_result_generic_with_two_combiners() -> None:
    text = """
    func.func @f(%a: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %z = arith.constant dense<0.0> : tensor<2xf32>
      %n = arith.constant dense<-1.0e30> : tensor<2xf32>
      %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                              affine_map<(d0, d1) -> (d0)>],
                             iterator_types = ["parallel", "reduction"]}
          ins(%a : tensor<2x3xf32>) outs(%z, %n : tensor<2xf32>, tensor<2xf32>) {
      ^bb0(%in: f32, %s: f32, %m: f32):
        %0 = arith.addf %in, %s : f32
        %1 = arith.maximumf %in, %m : f32
        linalg.yield %0, %1 : f32, f32
      } -> (tensor<2xf32>, tensor<2xf32>)
      return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
    }"""
    sums, maxes = run(text, np.array([[1, 4, 2], [0, -1, 7]], np.float32))
    assert sums.tolist() == [7.0, 6.0] and maxes.tolist() == [4.0, 7.0]


def test_linalg_index_and_gather_through_tensor_extract() -> None:
    text = """
    func.func @f(%table: tensor<4x2xf32>, %ids: tensor<3xi64>) -> tensor<3x2xf32> {
      %e = tensor.empty() : tensor<3x2xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%ids : tensor<3xi64>) outs(%e : tensor<3x2xf32>) {
      ^bb0(%id: i64, %o: f32):
        %row = arith.index_cast %id : i64 to index
        %col = linalg.index 1 : index
        %v = tensor.extract %table[%row, %col] : tensor<4x2xf32>
        %c = arith.index_cast %col : index to i64
        %cf = arith.sitofp %c : i64 to f32
        %s = arith.addf %v, %cf : f32
        linalg.yield %s : f32
      } -> tensor<3x2xf32>
      return %r : tensor<3x2xf32>
    }"""
    table = np.arange(8, dtype=np.float32).reshape(4, 2) * 10
    (out,) = run(text, table, np.array([3, 0, 3], np.int64))
    assert out.tolist() == [[60, 71], [0, 11], [60, 71]]


def test_non_projected_map_gathers() -> None:
    """1-D convolution out[i] = sum_k x[i + k] * w[k] (map d0 + d1)."""
    text = """
    func.func @f(%x: tensor<5xf32>, %w: tensor<2xf32>) -> tensor<4xf32> {
      %z = arith.constant dense<0.0> : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>,
                                            affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x, %w : tensor<5xf32>, tensor<2xf32>) outs(%z : tensor<4xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      } -> tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    (out,) = run(text, f32(1, 2, 3, 4, 5), f32(1, 10))
    assert out.tolist() == [21, 32, 43, 54]


def test_matmul_and_batch_matmul() -> None:
    text = """
    func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<3x4xf32>, %d: tensor<4x5xf32>)
        -> (tensor<2x3x5xf32>, tensor<3x5xf32>) {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x3x5xf32>
      %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
      %bm = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%i : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
      %one = arith.constant dense<1.0> : tensor<3x5xf32>
      %mm = linalg.matmul ins(%c, %d : tensor<3x4xf32>, tensor<4x5xf32>) outs(%one : tensor<3x5xf32>) -> tensor<3x5xf32>
      return %bm, %mm : tensor<2x3x5xf32>, tensor<3x5xf32>
    }"""
    rng = np.random.default_rng(0)
    a, b = rng.integers(-3, 4, (2, 3, 4)).astype(np.float32), rng.integers(-3, 4, (2, 4, 5)).astype(np.float32)
    c, d = a[0], b[1]
    bm, mm = run(text, a, b, c, d)
    assert np.array_equal(bm, a @ b)  # small integers: exact in f32
    assert np.array_equal(mm, c @ d + 1)


def test_transposed_contraction_generic_einsum_route() -> None:
    """C[n, m] += A[k, m] * B[n, k] written as a generic (transposed operands and result)."""
    text = """
    func.func @f(%a: tensor<4x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x3xf32> {
      %z = arith.constant dense<0.0> : tensor<2x3xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>,
                                            affine_map<(m, n, k) -> (n, m)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : tensor<4x3xf32>, tensor<2x4xf32>) outs(%z : tensor<2x3xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      } -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }"""
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    b = np.arange(8, dtype=np.float32).reshape(2, 4)
    (out,) = run(text, a, b)
    assert np.array_equal(out, b @ a)


def test_named_transpose_broadcast_reduce_map() -> None:
    text = """
    func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>) {
      %e32 = tensor.empty() : tensor<3x2xf32>
      %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e32 : tensor<3x2xf32>) permutation = [1, 0]
      %e23 = tensor.empty() : tensor<2x3xf32>
      %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e23 : tensor<2x3xf32>) dimensions = [0]
      %z = arith.constant dense<0.0> : tensor<2xf32>
      %r = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%z : tensor<2xf32>) dimensions = [1]
        (%in: f32, %acc: f32) {
          %s = arith.addf %in, %acc : f32
          linalg.yield %s : f32
        }
      %m = linalg.map ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e23 : tensor<2x3xf32>)
        (%x: f32, %y: f32, %o: f32) {
          %p = arith.mulf %x, %y : f32
          linalg.yield %p : f32
        }
      return %t, %b, %r, %m : tensor<3x2xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>
    }"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = f32(1, 2, 3)
    t, b, r, m = run(text, a, v)
    assert t.tolist() == a.T.tolist()
    assert b.tolist() == [[1, 2, 3], [1, 2, 3]]
    assert r.tolist() == [3, 12]
    assert m.tolist() == (a * v).tolist()


def test_failing_cf_assert_in_body_is_a_located_error() -> None:
    text = """
    func.func @f(%a: tensor<3xi64>) -> tensor<3xi64> {
      %c2 = arith.constant 2 : i64
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%a : tensor<3xi64>) outs(%a : tensor<3xi64>) {
      ^bb0(%in: i64, %o: i64):
        %ok = arith.cmpi slt, %in, %c2 : i64
        cf.assert %ok, "index must be smaller than dim size"
        linalg.yield %in : i64
      } -> tensor<3xi64>
      return %r : tensor<3xi64>
    }"""
    assert run(text, np.array([0, 1, 1]))[0].tolist() == [0, 1, 1]
    with pytest.raises(FusionError, match="index must be smaller than dim size") as info:
        run(text, np.array([0, 5, 1]))
    assert info.value.location is not None and info.value.location.line == 9


def argmax_program(predicate: str, mirrored: bool) -> str:
    cmp = f"%best, %in" if mirrored else "%in, %best"
    return f"""
    func.func @f(%a: tensor<3x6xf32>, %init: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi64>) {{
      %zero = arith.constant dense<-1> : tensor<3xi64>
      %r:2 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                              affine_map<(d0, d1) -> (d0)>],
                             iterator_types = ["parallel", "reduction"]}}
          ins(%a : tensor<3x6xf32>) outs(%init, %zero : tensor<3xf32>, tensor<3xi64>) {{
      ^bb0(%in: f32, %best: f32, %idx: i64):
        %i = linalg.index 1 : index
        %ii = arith.index_cast %i : index to i64
        %better = arith.cmpf {predicate}, {cmp} : f32
        %m = arith.select %better, %in, %best : f32
        %j = arith.select %better, %ii, %idx : i64
        linalg.yield %m, %j : f32, i64
      }} -> (tensor<3xf32>, tensor<3xi64>)
      return %r#0, %r#1 : tensor<3xf32>, tensor<3xi64>
    }}"""


ARGMAX_DATA = np.array(
    [[1, 5, np.nan, 5, 2, 0], [np.nan, np.nan, np.nan, np.nan, np.nan, np.nan], [-1, -3, -3, 4, 4, -3]], np.float32
)


@pytest.mark.parametrize(
    "predicate, mirrored, init, expected_index",
    [
        ("ogt", False, -1e30, [1, -1, 3]),  # first maximum; all-NaN row never updates
        ("oge", False, -1e30, [3, -1, 4]),  # last maximum
        ("olt", True, -1e30, [1, -1, 3]),  # best < in is in > best
        ("olt", False, 1e30, [5, -1, 1]),  # first minimum
        ("ole", False, 1e30, [5, -1, 5]),  # last minimum
        ("ogt", False, 4.0, [1, -1, -1]),  # row 2 never beats the initial 4 strictly
        ("oge", False, 4.0, [3, -1, 4]),
        ("ogt", False, np.nan, [-1, -1, -1]),  # nothing is greater than a NaN accumulator
    ],
)
def test_argmax_select_pair_is_vectorised_and_exact(monkeypatch, predicate, mirrored, init, expected_index) -> None:
    text = argmax_program(predicate, mirrored)
    inits = np.full(3, init, np.float32)
    with monkeypatch.context() as m:
        m.setattr(linalg_generic, "_loop_over_reductions", lambda *a: pytest.fail("loop fallback used"))
        values, indices = run(text, ARGMAX_DATA, inits)
    assert indices.tolist() == expected_index
    with monkeypatch.context() as m:  # the sequential loop is the reference semantics
        m.setattr(linalg_generic, "match_select_pair", lambda *a: None)
        loop_values, loop_indices = run(text, ARGMAX_DATA, inits)
    assert indices.tolist() == loop_indices.tolist()
    np.testing.assert_array_equal(values, loop_values)  # NaN == NaN here


def test_select_pair_with_unordered_predicate_falls_back_to_loop(monkeypatch) -> None:
    calls = []
    original = linalg_generic._loop_over_reductions
    monkeypatch.setattr(linalg_generic, "_loop_over_reductions", lambda *a: calls.append(1) or original(*a))
    values, indices = run(argmax_program("ugt", False), ARGMAX_DATA, np.full(3, -1e30, np.float32))
    # ugt is true when either side is NaN: row 0 takes the NaN at 2, then 5 at 3 "beats" NaN
    assert calls and indices.tolist() == [3, 5, 3]


def test_contraction_with_a_broadcast_lhs_map() -> None:
    # The LHS is indexed by K only (broadcast over M): out[m, n] = init + sum_k a[k] * b[k, n].
    text = """
    func.func @main(%a: tensor<3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>,
                                            affine_map<(d0, d1, d2) -> (d2, d1)>,
                                            affine_map<(d0, d1, d2) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : tensor<3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<2x4xf32>
      func.return %r : tensor<2x4xf32>
    }
    """
    a, b = f32(1, 2, 3), np.arange(12, dtype=np.float32).reshape(3, 4)
    c = np.array([[0, 0, 0, 0], [10, 10, 10, 10]], dtype=np.float32)
    (result,) = run(text, a, b, c)
    np.testing.assert_array_equal(result, c + (a @ b)[None, :])


def test_variadic_reduce_is_an_argmax_with_ties_to_the_first():
    from fusionopt.ir_io import parse_module as _parse
    from fusionopt.testing import run_module as _run

    text = """func.func @main(%v: tensor<3x4xf32>, %k: tensor<3x4xi64>, %s0: tensor<3xf32>, %i0: tensor<3xi64>) -> (tensor<3xf32>, tensor<3xi64>) {
      %s, %i = linalg.reduce ins(%v, %k : tensor<3x4xf32>, tensor<3x4xi64>) outs(%s0, %i0 : tensor<3xf32>, tensor<3xi64>) dimensions = [1]
        (%a: f32, %b: i64, %acc: f32, %iacc: i64) {
          %gt = arith.cmpf ogt, %a, %acc : f32
          %m = arith.select %gt, %a, %acc : f32
          %j = arith.select %gt, %b, %iacc : i64
          linalg.yield %m, %j : f32, i64
        }
      return %s, %i : tensor<3xf32>, tensor<3xi64>
    }"""
    v = np.array([[1, 5, 5, -1], [-np.inf, -np.inf, -np.inf, -np.inf], [3e38, -3e38, 0, 3e38]], np.float32)
    k = np.tile(np.arange(4, dtype=np.int64), (3, 1))
    s, i = _run(_parse(text), [v, k, np.full(3, -np.inf, np.float32), np.full(3, -1, np.int64)])
    np.testing.assert_array_equal(s, np.array([5, -np.inf, 3e38], np.float32))
    np.testing.assert_array_equal(i, [1, -1, 0])
