"""Hand-computed cases for fusionopt.graph_numpy (the semantics interpreter and folding share)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    IntegerType,
    TensorType,
    f32,
    f64,
    i1,
    i32,
    i64,
)

from fusionopt.dialects import graph
from fusionopt.graph_numpy import _round_to_bf16, evaluate_graph_op, numpy_dtype
from fusionopt.special_functions import erf


def arg(shape, element=f32):
    """An SSA value of the given tensor type (graph builders infer result types from it)."""
    return xdsl_test.TestOp(result_types=[TensorType(element, list(shape))]).results[0]


def run(op, *values):
    op.verify()
    return evaluate_graph_op(op, [np.asarray(v) for v in values])


def test_numpy_dtype_maps_every_element_type():
    assert numpy_dtype(Float16Type()) == np.float16
    assert numpy_dtype(f32) == np.float32
    assert numpy_dtype(i1) == np.bool_
    assert numpy_dtype(i32) == np.int32
    assert numpy_dtype(i64) == np.int64
    assert numpy_dtype(BFloat16Type()).itemsize == 2  # ml_dtypes.bfloat16 is installed with onnx
    with pytest.raises(ValueError, match="unsupported"):
        numpy_dtype(IntegerType(8))


def test_integer_div_truncates_toward_zero_and_div_by_zero_is_zero():
    a, b = arg([5], i32), arg([5], i32)
    out = run(graph.DivOp(a, b), np.array([7, -7, 7, -7, 3], np.int32), np.array([2, 2, -2, -2, 0], np.int32))
    assert out.tolist() == [3, -3, -3, 3, 0]
    assert out.dtype == np.int32


def test_integer_add_wraps():
    a = arg([1], i32)
    out = run(graph.AddOp(a, a), np.array([2**31 - 1], np.int32), np.array([1], np.int32))
    assert out.tolist() == [-(2**31)]


def test_max_min_relu_propagate_nan():
    a = arg([3])
    x = np.array([np.nan, -1.0, 2.0], np.float32)
    y = np.array([0.0, np.nan, 1.0], np.float32)
    mx = run(graph.MaxOp(a, a), x, y)
    mn = run(graph.MinOp(a, a), x, y)
    assert np.isnan(mx[0]) and np.isnan(mx[1]) and mx[2] == 2.0
    assert np.isnan(mn[0]) and np.isnan(mn[1]) and mn[2] == 1.0
    r = run(graph.ReluOp(a), x)
    assert np.isnan(r[0]) and r[1] == 0.0 and r[2] == 2.0


def test_sigmoid_is_stable_for_large_magnitudes():
    a = arg([5])
    out = run(graph.SigmoidOp(a), np.array([-1000.0, -1.0, 0.0, 1.0, 1000.0], np.float32))
    expected = [0.0, 1 / (1 + math.e), 0.5, 1 / (1 + math.exp(-1)), 1.0]
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert np.all(np.isfinite(out))


def test_erf_matches_math_erf_in_double_precision():
    a = arg([4], f64)
    xs = np.array([-2.0, -0.5, 0.1, 3.0])
    out = run(graph.ErfOp(a), xs)
    assert out.tolist() == [math.erf(x) for x in xs]


def test_vectorised_erf_within_one_ulp_of_math_erf():
    """`special_functions.erf` over every interval of its piecewise form, the interval edges,
    subnormals and specials: at most 1 ulp from `math.erf` (libm's erf is not correctly
    rounded either), exact at the specials and signed zeros."""
    rng = np.random.default_rng(0)
    edges = [0.84375, 1.25, 1 / 0.35, 2.8571434, 6.0, 2.0**-28, 2.0**-1015]
    xs = np.concatenate([
        rng.normal(0, 1, 20000), rng.uniform(-7, 7, 20000),
        np.exp(rng.uniform(-745, 3, 20000)) * rng.choice([-1, 1], 20000),
        np.array([np.nextafter(e, d) for e in edges for d in (0, 10)] + edges),
        np.array([5e-324, -5e-324, 1e300, -1e300]),
    ])
    got = erf(xs)
    expected = np.array([math.erf(x) for x in xs.tolist()])
    ulps = np.abs(got.view(np.int64) - expected.view(np.int64))
    assert ulps.max() <= 1
    specials = erf(np.array([0.0, -0.0, np.inf, -np.inf, np.nan]))
    assert specials[:4].tolist() == [0.0, -0.0, 1.0, -1.0] and np.signbit(specials[1])
    assert np.isnan(specials[4])
    assert erf(np.zeros((2, 3))).shape == (2, 3)


def test_unary_math_hand_values():
    a = arg([2])
    x = np.array([4.0, 0.25], np.float32)
    assert run(graph.RsqrtOp(a), x).tolist() == [0.5, 2.0]
    assert run(graph.RecipOp(a), x).tolist() == [0.25, 4.0]
    assert run(graph.Exp2Op(a), np.array([3.0, -1.0], np.float32)).tolist() == [8.0, 0.5]
    assert run(graph.AbsOp(a), np.array([-3.0, 2.0], np.float32)).tolist() == [3.0, 2.0]


def test_f16_stays_f16_and_rounds_once():
    a = arg([2], Float16Type())
    out = run(graph.AddOp(a, a), np.array([1.0, 2048.0], np.float16), np.array([2.0**-11, 1.0], np.float16))
    assert out.dtype == np.float16
    # 1 + 2^-11 is a tie between 1 and 1+2^-10 -> even (1.0); 2048 + 1 -> 2048 (spacing 2).
    assert out.tolist() == [1.0, 2048.0]


def test_bf16_rounding_to_nearest_even():
    bits = _round_to_bf16(np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, np.nan], np.float32))
    assert bits[0] == 1.0 and bits[1] == 1.0 + 2.0**-6 and np.isnan(bits[2])
    out = run(graph.ConvertOp(arg([1]), BFloat16Type()), np.array([1.0 + 2.0**-8], np.float32))
    assert float(out[0]) == 1.0 and out.dtype == numpy_dtype(BFloat16Type())


def test_convert_float_to_int_truncates_and_saturates():
    out = run(graph.ConvertOp(arg([5]), i32), np.array([2.7, -2.7, np.nan, 1e20, -1e20], np.float32))
    assert out.tolist() == [2, -2, 0, 2**31 - 1, -(2**31)]
    big = run(graph.ConvertOp(arg([3]), i64), np.array([1e30, -1e30, -3.9], np.float32))
    assert big.tolist() == [2**63 - 1, -(2**63), -3]
    assert run(graph.ConvertOp(arg([3]), i1), np.array([0.0, -0.5, 2.0], np.float32)).tolist() == [False, True, True]


def test_compare_and_where():
    a = arg([3])
    x, y = np.array([1.0, 2.0, 3.0], np.float32), np.array([2.0, 2.0, 2.0], np.float32)
    m = run(graph.GreaterOp(a, a), x, y)
    assert m.tolist() == [False, False, True] and m.dtype == np.bool_
    assert run(graph.EqualOp(a, a), x, y).tolist() == [False, True, False]
    assert run(graph.LessOp(a, a), x, y).tolist() == [True, False, False]
    assert run(graph.WhereOp(arg([3], i1), a, a), m, x, y).tolist() == [2.0, 2.0, 3.0]


def test_broadcast_maps_operand_dims_to_result_dims():
    op = graph.BroadcastOp(arg([3]), [1], TensorType(f32, [2, 3]))
    assert run(op, np.array([1, 2, 3], np.float32)).tolist() == [[1, 2, 3], [1, 2, 3]]
    op = graph.BroadcastOp(arg([2, 1]), [0, 2], TensorType(f32, [2, 2, 3]))
    out = run(op, np.array([[5], [6]], np.float32))
    assert out.tolist() == [[[5] * 3] * 2, [[6] * 3] * 2]


def test_shape_ops_hand_values():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = arg([2, 3])
    assert run(graph.TransposeOp(a, [1, 0]), x).tolist() == [[0, 3], [1, 4], [2, 5]]
    assert run(graph.ReshapeOp(a, TensorType(f32, [3, 2])), x).tolist() == [[0, 1], [2, 3], [4, 5]]
    assert run(graph.SliceOp(a, [1], [1], [3]), x).tolist() == [[1, 2], [4, 5]]
    assert run(graph.ConcatOp([a, a], 0), x, x).shape == (4, 3)
    assert run(graph.ConcatOp([a, a], 1), x, x)[0].tolist() == [0, 1, 2, 0, 1, 2]
    padded = run(graph.PadOp(a, [1, 0], [0, 1], -1.0), x)
    assert padded.tolist() == [[-1, -1, -1, -1], [0, 1, 2, -1], [3, 4, 5, -1]]


def test_dot_is_batched_matmul():
    lhs, rhs = arg([2, 1, 2]), arg([2, 2, 1])
    a = np.array([[[1, 2]], [[3, 4]]], np.float32)
    b = np.array([[[5], [6]], [[7], [8]]], np.float32)
    assert run(graph.DotOp(lhs, rhs), a, b).tolist() == [[[17]], [[53]]]


def test_reductions_keep_dims():
    x = np.array([[1, 2, 3], [4, 5, 9]], np.float32)
    a = arg([2, 3])
    assert run(graph.ReduceSumOp(a, [1]), x).tolist() == [[6], [18]]
    assert run(graph.ReduceMaxOp(a, [0]), x).tolist() == [[4, 5, 9]]
    assert run(graph.ReduceMeanOp(a, [0, 1]), x).tolist() == [[4.0]]
    xi = np.array([[-7, 0]], np.int32)
    assert run(graph.ReduceMeanOp(arg([1, 2], i32), [1]), xi).tolist() == [[-3]]


def test_gather_follows_onnx():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    op = graph.GatherOp(arg([4, 3]), arg([1, 2], i64), 0)
    assert op.result.type == TensorType(f32, [1, 2, 3])
    assert run(op, table, np.array([[3, -4]])).tolist() == [[[9, 10, 11], [0, 1, 2]]]
    op1 = graph.GatherOp(arg([4, 3]), arg([2], i64), 1)
    assert run(op1, table, np.array([2, 0])).tolist() == [[2, 0], [5, 3], [8, 6], [11, 9]]
    with pytest.raises(IndexError):
        run(op, table, np.array([[4, 0]]))
