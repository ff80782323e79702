"""ONNX importer, op by op: single-node models built with `onnx.helper`, imported and run with
the numpy interpreter, compared with onnxruntime on the same inputs.

Each case gives the node, its runtime inputs (graph inputs -> function arguments) and its
constant inputs (initializers -> import-time constants), so both the SSA path and the constant
path (broadcast splats, import-time transposes/reshapes) are exercised, with broadcasting cases.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import run_module
from support.onnx_single_node import finish, make_model

ort = pytest.importorskip("onnxruntime")

def check_against_ort(model: onnx.ModelProto, runtime: dict[str, np.ndarray]):
    module = import_onnx(model)
    parse_module(print_module(module))  # the printed IR re-parses and verifies
    expected = ort.InferenceSession(model.SerializeToString(),
                                    providers=["CPUExecutionProvider"]).run(None, runtime)
    actual = run_module(module, list(runtime.values()))
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, a.dtype, e.shape, e.dtype)
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)
    return module


rng = np.random.default_rng(0)


def f32(*shape, positive=False):
    x = rng.standard_normal(shape).astype(np.float32)
    return np.abs(x) + 0.5 if positive else x


def i64(*values, shape=None):
    return np.array(values, dtype=np.int64).reshape(shape if shape is not None else (len(values),))


# (id, op, runtime inputs, constant inputs, n_outputs, attrs)
CASES = [
    ("add-bcast-rank", "Add", {"a": f32(2, 3, 4), "b": f32(4)}, {}, 1, {}),
    ("sub-bcast-both", "Sub", {"a": f32(2, 1, 4), "b": f32(3, 1)}, {}, 1, {}),
    ("mul-const-scalar", "Mul", {"a": f32(2, 3)}, {"s": np.array(1.5, np.float32)}, 1, {}),
    ("div-const-row", "Div", {"a": f32(2, 3)}, {"r": f32(1, 3, positive=True)}, 1, {}),
    ("add-int", "Add", {"a": i64(1, 2, 3), "b": i64(4, 5, 6)}, {}, 1, {}),
    ("pow-const-exp", "Pow", {"a": f32(2, 3)}, {"e": np.array(3.0, np.float32)}, 1, {}),
    ("pow-bcast", "Pow", {"a": f32(2, 3, positive=True), "e": f32(3)}, {}, 1, {}),
    ("max-variadic", "Max", {"a": f32(2, 3), "b": f32(3), "c": f32(2, 1)}, {}, 1, {}),
    ("min", "Min", {"a": f32(2, 3), "b": f32(2, 3)}, {}, 1, {}),
    *[(op.lower(), op, {"a": f32(2, 5, positive=op in ("Sqrt", "Log"))}, {}, 1, {})
      for op in ("Sigmoid", "Relu", "Tanh", "Erf", "Sqrt", "Exp", "Neg", "Reciprocal", "Log",
                 "Abs")],
    ("where-bcast", "Where", {"c": rng.random((3, 1)) > 0.5, "x": f32(1, 4)},
     {"y": np.array(-2.0, np.float32)}, 1, {}),
    *[(f"{op.lower()}-bcast", op, {"a": f32(2, 3), "b": np.round(f32(3))}, {}, 1, {})
      for op in ("Equal", "Greater", "Less")],
    ("and", "And", {"a": rng.random((2, 3)) > 0.5, "b": rng.random((3,)) > 0.5}, {}, 1, {}),
    ("or", "Or", {"a": rng.random((2, 3)) > 0.5, "b": rng.random((2, 3)) > 0.5}, {}, 1, {}),
    ("not", "Not", {"a": rng.random((4,)) > 0.5}, {}, 1, {}),
    ("isnan", "IsNaN", {"a": np.array([[0.0, np.nan, -np.inf], [np.inf, -0.0, np.nan]], np.float32)},
     {}, 1, {}),
    ("isnan-f16", "IsNaN", {"a": np.array([np.nan, 1.0, 65504.0], np.float16)}, {}, 1, {}),
    ("cast-f32-f16", "Cast", {"a": f32(2, 3)}, {}, 1, {"to": TensorProto.FLOAT16}),
    ("cast-i64-f32", "Cast", {"a": i64(1, -2, 3)}, {}, 1, {"to": TensorProto.FLOAT}),
    ("cast-i64-bool", "Cast", {"a": i64(0, 1, 0, 5)}, {}, 1, {"to": TensorProto.BOOL}),
    ("cast-f32-i64", "Cast", {"a": f32(6) * 4}, {}, 1, {"to": TensorProto.INT64}),
    ("identity", "Identity", {"a": f32(3)}, {}, 1, {}),
    ("reshape-0-and-minus1", "Reshape", {"a": f32(2, 3, 4)}, {"s": i64(0, -1)}, 1, {}),
    ("reshape-allowzero", "Reshape", {"a": f32(2, 3, 4)}, {"s": i64(4, 6)}, 1, {"allowzero": 1}),
    ("transpose-default", "Transpose", {"a": f32(2, 3, 4)}, {}, 1, {}),
    ("transpose-perm", "Transpose", {"a": f32(2, 3, 4)}, {}, 1, {"perm": [0, 2, 1]}),
    ("unsqueeze", "Unsqueeze", {"a": f32(3, 4)}, {"ax": i64(0, -1)}, 1, {}),
    ("squeeze", "Squeeze", {"a": f32(1, 3, 1, 4)}, {"ax": i64(2)}, 1, {}),
    ("squeeze-all-ones", "Squeeze", {"a": f32(1, 3, 1, 4)}, {}, 1, {}),
    ("flatten", "Flatten", {"a": f32(2, 3, 4)}, {}, 1, {"axis": 2}),
    ("concat-with-const", "Concat", {"a": f32(2, 3)}, {"b": f32(2, 2)}, 1, {"axis": -1}),
    ("slice-negative-and-max", "Slice", {"a": f32(4, 6)},
     {"st": i64(-3, 1), "en": i64(2**63 - 1, 5), "ax": i64(1, 0), "sp": i64(1, 1)}, 1, {}),
    ("slice-default-axes", "Slice", {"a": f32(4, 6)}, {"st": i64(1), "en": i64(3)}, 1, {}),
    ("slice-step-2-view", "Slice", {"a": f32(1, 8, 6, 3)},
     {"st": i64(0, 1), "en": i64(2**63 - 1, 2**63 - 1), "ax": i64(1, 2), "sp": i64(2, 2)}, 1, {}),
    ("slice-step-3-past-the-dim", "Slice", {"a": f32(2, 7)},
     {"st": i64(0), "en": i64(7), "ax": i64(1), "sp": i64(3)}, 1, {}),
    ("slice-step-and-unit", "Slice", {"a": f32(5, 9)},
     {"st": i64(1, 2), "en": i64(4, 9), "ax": i64(0, 1), "sp": i64(1, 3)}, 1, {}),
    ("slice-reversed", "Slice", {"a": f32(4, 6)},
     {"st": i64(-1), "en": i64(-2**63), "ax": i64(1), "sp": i64(-1)}, 1, {}),
    ("slice-negative-step-2", "Slice", {"a": f32(4, 6)},
     {"st": i64(5), "en": i64(0), "ax": i64(-1), "sp": i64(-2)}, 1, {}),
    ("slice-step-keeps-one", "Slice", {"a": f32(4, 6)},
     {"st": i64(1), "en": i64(3), "ax": i64(1), "sp": i64(4)}, 1, {}),
    ("split-num-outputs", "Split", {"a": f32(2, 7)}, {}, 3, {"axis": 1, "num_outputs": 3}),
    ("split-sizes", "Split", {"a": f32(6, 2)}, {"sz": i64(1, 5)}, 2, {"axis": 0}),
    ("gather-const-neg-idx", "Gather", {"t": f32(3, 5)}, {"i": i64(-1, 0, 2, shape=(3,))}, 1,
     {"axis": 1}),
    ("gather-runtime-idx", "Gather", {"t": f32(10, 4), "i": i64(3, 0, 9, 9, shape=(2, 2))}, {},
     1, {}),
    ("gather-scalar-idx", "Gather", {"t": f32(5, 4)}, {"i": np.array(2, np.int64)}, 1, {}),
    ("gathernd-const", "GatherND", {"d": f32(3, 4, 2)}, {"i": i64(0, 1, 2, 3, shape=(2, 2))}, 1,
     {}),
    # runtime indices (CLIP's pooled token): negative entries wrap, depth 1, 2 and the full rank
    ("gathernd-runtime-rows", "GatherND", {"d": f32(3, 4, 2), "i": i64(0, -1, 2, 3, -3, 0, shape=(3, 2))},
     {}, 1, {}),
    ("gathernd-runtime-depth1", "GatherND", {"d": f32(3, 4), "i": i64(2, -1, 0, 1, shape=(2, 2, 1))}, {}, 1,
     {}),
    ("gathernd-runtime-scalars", "GatherND", {"d": f32(2, 3, 4), "i": i64(1, 2, 3, 0, -1, -4, shape=(2, 3))},
     {}, 1, {}),
    ("softmax-last", "Softmax", {"a": f32(2, 3, 5)}, {}, 1, {}),
    ("softmax-axis1", "Softmax", {"a": f32(2, 3, 5)}, {}, 1, {"axis": 1}),
    ("layernorm-last", "LayerNormalization", {"a": f32(2, 3, 8)},
     {"w": f32(8), "b": f32(8)}, 1, {"epsilon": 1e-5}),
    ("layernorm-axis1-runtime-scale", "LayerNormalization", {"a": f32(2, 3, 4), "w": f32(3, 4)},
     {}, 1, {"axis": 1}),
    ("reduce-mean-keep", "ReduceMean", {"a": f32(2, 3, 4)}, {"ax": i64(1, -1)}, 1, {}),
    ("reduce-sum-nokeep", "ReduceSum", {"a": f32(2, 3, 4)}, {"ax": i64(1)}, 1, {"keepdims": 0}),
    ("reduce-max-all", "ReduceMax", {"a": f32(2, 3)}, {}, 1, {"keepdims": 0}),
    ("expand", "Expand", {"a": f32(3, 1)}, {"s": i64(2, 3, 4)}, 1, {}),
    ("gemm-plain", "Gemm", {"a": f32(3, 4), "b": f32(4, 5)}, {}, 1, {}),
    ("gemm-trans-alpha-beta-bias-vector", "Gemm", {"a": f32(4, 3), "b": f32(5, 4), "c": f32(5)},
     {}, 1, {"transA": 1, "transB": 1, "alpha": 0.5, "beta": 2.0}),
    ("gemm-const-weight-row-bias", "Gemm", {"a": f32(3, 4)}, {"b": f32(5, 4), "c": f32(1, 5)},
     1, {"transB": 1, "beta": 0.5}),
    ("gemm-full-bias", "Gemm", {"a": f32(3, 4), "b": f32(4, 5), "c": f32(3, 5)}, {}, 1, {}),
    ("gemm-scalar-bias", "Gemm", {"a": f32(3, 4), "b": f32(4, 5)},
     {"c": np.array([0.25], np.float32)}, 1, {}),
    ("matmul-batch-x-2d", "MatMul", {"a": f32(2, 3, 4, 5), "b": f32(5, 6)}, {}, 1, {}),
    ("matmul-batch-bcast", "MatMul", {"a": f32(2, 1, 4, 5), "b": f32(3, 5, 6)}, {}, 1, {}),
    ("matmul-batched", "MatMul", {"a": f32(2, 4, 5), "b": f32(2, 5, 3)}, {}, 1, {}),
    ("matmul-1d-lhs", "MatMul", {"a": f32(5), "b": f32(2, 5, 3)}, {}, 1, {}),
    ("matmul-1d-rhs", "MatMul", {"a": f32(4, 5)}, {"b": f32(5)}, 1, {}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_op_matches_onnxruntime(case) -> None:
    _, op, runtime, const, n_outputs, attrs = case
    check_against_ort(make_model(op, runtime, const, n_outputs, **attrs), runtime)


def test_layernorm_optional_outputs_mean_and_inv_std() -> None:
    runtime = {"a": f32(2, 6)}
    model = make_model("LayerNormalization", runtime, {"w": f32(6)}, n_outputs=3)
    check_against_ort(model, runtime)


def test_shape_constant_of_shape_chain_folds_to_a_constant() -> None:
    """Shape(x) -> ConstantOfShape -> Add(x, .): only the add reaches the IR."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("ConstantOfShape", ["s"], ["c"], name="fill",
                              value=helper.make_tensor("v", TensorProto.FLOAT, [1], [2.5])),
             helper.make_node("Constant", [], ["k"], name="k",
                              value=numpy_helper.from_array(np.float32([1, 2, 3]))),
             helper.make_node("Add", ["c", "k"], ["ck"], name="fold_add"),
             helper.make_node("Add", ["x", "ck"], ["y"], name="add")]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    module = check_against_ort(finish(helper.make_graph(nodes, "g", [x], [y])), {"x": f32(2, 3)})
    names = [op.name for op in module.walk() if op.name.startswith("graph.")]
    assert names == ["graph.add"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.lists(st.integers(1, 3), min_size=1, max_size=4))
def test_matmul_shape_is_numpys(sa, sb):
    """MatMul's result shape from the shapes alone is numpy's, incompatible shapes included
    (ranks 1-4, dims 1-3: broadcast batch dims, 1-D operands, K mismatches)."""
    from fusionopt.importers.onnx_ops_nn import matmul_shape

    try:
        expected = np.matmul(np.empty(sa, np.int8), np.empty(sb, np.int8)).shape
    except ValueError:
        expected = None
    assert matmul_shape(tuple(sa), tuple(sb)) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9), st.integers(-12, 12), st.integers(-12, 12),
       st.integers(-4, 4).filter(bool))
def test_slice_axis_indices_are_onnx_reference(dim, start, end, step):
    """Slice's kept indices follow ONNX's reference implementation (numpy slicing after the
    clamps of its operator spec), for any start, end and nonzero step."""
    from fusionopt.importers.onnx_ops import _axis_indices

    if step > 0:
        s, e = (min(max(v + dim if v < 0 else v, 0), dim) for v in (start, end))
    else:
        s, e = (min(max(v + dim if v < 0 else v, -1), dim - 1) for v in (start, end))
    expected = [i for i in range(s, e, step)]
    assert list(_axis_indices(start, end, step, dim)) == expected


def test_strided_slice_forms():
    """A forward step whose span fits is a view (slice, reshape, slice, reshape: no gather); a
    step running past the dim and a reversed axis gather constant indices."""
    def ops(case_id):
        _, op, runtime, const, n, attrs = next(c for c in CASES if c[0] == case_id)
        module = import_onnx(make_model(op, runtime, const, n, **attrs))
        return [o.name for o in module.walk() if o.name.startswith("graph.")]

    assert ops("slice-step-2-view") == ["graph.reshape", "graph.slice", "graph.reshape",
                                        "graph.reshape", "graph.slice", "graph.reshape"]
    assert ops("slice-step-and-unit") == ["graph.slice", "graph.reshape", "graph.slice", "graph.reshape"]
    assert ops("slice-step-3-past-the-dim") == ["graph.gather"]
    assert ops("slice-reversed") == ["graph.gather"]
    assert ops("slice-step-keeps-one") == ["graph.slice"]


def test_strided_slice_of_a_constant_folds():
    """A constant's strided and reversed slices are taken at import time: only the add remains."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2])
    table = np.arange(28, dtype=np.float32).reshape(7, 4)
    nodes = [helper.make_node("Constant", [], ["t"], name="t", value=numpy_helper.from_array(table)),
             helper.make_node("Slice", ["t", "st", "en", "ax", "sp"], ["s"], name="s"),
             helper.make_node("Add", ["x", "s"], ["y"], name="add")]
    inits = [numpy_helper.from_array(i64(*v), n) for n, v in
             (("st", (-1, 5)), ("en", (-2**63, -2**63)), ("ax", (1, 0)), ("sp", (-2, -2)))]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    module = check_against_ort(finish(helper.make_graph(nodes, "g", [x], [y], inits)), {"x": f32(3, 2)})
    assert [op.name for op in module.walk() if op.name.startswith("graph.")] == ["graph.add"]
