"""ONNX InstanceNormalization, CumSum and GatherElements (met in wav2vec2, RoBERTa and DeBERTa-v2
exports): imported, run by the numpy interpreter and compared with onnxruntime; on adversarial
inputs (a large common offset, infinities, negative and end-of-range indices, integer sums
at the int64 ends) with a float64 or exact numpy run; unsupported forms fail naming the node."""

from __future__ import annotations

import numpy as np
import pytest

from fusionopt.importers.onnx_context import OnnxImportError
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.testing import run_module
from test_onnx_import_ops import check_against_ort, f32, make_model

rng = np.random.default_rng(1)


def run_one(model, runtime):
    (out,) = run_module(import_onnx(model), list(runtime.values()))
    return out


@pytest.mark.parametrize("x_shape", [(1, 4, 7), (2, 3, 5, 6)])
def test_instance_norm_matches_onnxruntime(x_shape):
    c = x_shape[1]
    runtime = {"x": f32(*x_shape)}
    check_against_ort(make_model("InstanceNormalization", runtime, {"s": f32(c), "b": f32(c)}, epsilon=1e-3),
                      runtime)


def test_instance_norm_is_right_on_a_large_common_offset():
    x = (1000.5 + 0.01 * rng.standard_normal((1, 3, 3199))).astype(np.float32)
    x[0, 1] = 7.0  # a constant row: variance exactly 0
    scale, bias = f32(3), f32(3)
    out = run_one(make_model("InstanceNormalization", {"x": x}, {"s": scale, "b": bias}, epsilon=1e-5), {"x": x})
    wide = x.astype(np.float64)
    mean = wide.mean(axis=2, keepdims=True)
    var = ((wide - mean) ** 2).mean(axis=2, keepdims=True)
    ref = (wide - mean) / np.sqrt(var + 1e-5) * scale[None, :, None] + bias[None, :, None]
    np.testing.assert_allclose(out, ref, rtol=0, atol=2e-3 * np.abs(ref).max())
    np.testing.assert_array_equal(out[0, 1], np.full(3199, bias[1], np.float32))


FLAGS = [(0, 0), (1, 0), (0, 1), (1, 1)]


@pytest.mark.parametrize("exclusive,reverse", FLAGS)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_matches_onnxruntime(exclusive, reverse, axis):
    runtime = {"x": f32(3, 5, 4)}
    check_against_ort(make_model("CumSum", runtime, {"axis": np.array(axis, np.int64)},
                                 exclusive=exclusive, reverse=reverse), runtime)


@pytest.mark.parametrize("exclusive,reverse", FLAGS)
def test_cumsum_of_int64_is_exact_at_the_range_ends(exclusive, reverse):
    top, bottom = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    runtime = {"x": np.array([[top, bottom, 1, 0, -1, top - 5]], np.int64)}
    check_against_ort(make_model("CumSum", runtime, {"axis": np.array([1], np.int64)},
                                 exclusive=exclusive, reverse=reverse), runtime)


def test_cumsum_keeps_a_later_infinity_out():
    x = np.array([1.0, 2.0, np.inf, 4.0, -np.inf], np.float32)
    out = run_one(make_model("CumSum", {"x": x}, {"axis": np.array(0, np.int64)}), {"x": x})
    np.testing.assert_array_equal(out, np.cumsum(x.astype(np.float64)).astype(np.float32))


def test_roberta_position_ids_match_onnxruntime():
    """RoBERTa's position ids: cumsum of (ids != pad) times the mask, plus the pad id."""
    from onnx import TensorProto, helper

    from test_onnx_import_ops import finish

    nodes = [helper.make_node("Equal", ["ids", "pad"], ["is_pad"]), helper.make_node("Not", ["is_pad"], ["keep"]),
             helper.make_node("Cast", ["keep"], ["mask"], to=TensorProto.INT64),
             helper.make_node("CumSum", ["mask", "axis"], ["count"], name="node_cumsum"),
             helper.make_node("Mul", ["count", "mask"], ["pos0"]), helper.make_node("Add", ["pos0", "pad"], ["pos"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 9])],
                              [helper.make_tensor_value_info("pos", TensorProto.INT64, None)],
                              [helper.make_tensor("pad", TensorProto.INT64, [], [1]),
                               helper.make_tensor("axis", TensorProto.INT64, [], [1])])
    ids = np.array([[0, 5, 1, 1, 7, 999, 1, 3, 1]], np.int64)
    check_against_ort(finish(graph), {"ids": ids})


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_gather_elements_matches_onnxruntime(axis):
    data = f32(4, 5, 6)
    ts = [3, 4, 5]
    ts[axis] = 7
    dim = data.shape[axis]
    indices = rng.integers(-dim, dim, size=ts).astype(np.int64)
    indices.reshape(-1)[:2] = [dim - 1, -dim]  # the range ends
    runtime = {"data": data, "indices": indices}
    check_against_ort(make_model("GatherElements", runtime, {}, axis=axis), runtime)


def test_gather_elements_with_constant_int32_indices_matches_onnxruntime():
    runtime = {"data": f32(6, 4)}
    indices = rng.integers(-6, 6, size=(2, 4)).astype(np.int32)
    check_against_ort(make_model("GatherElements", runtime, {"indices": indices}, axis=0), runtime)


def test_gather_elements_with_runtime_int32_indices_matches_onnxruntime():
    runtime = {"data": f32(3, 8), "indices": rng.integers(-8, 8, size=(3, 8)).astype(np.int32)}
    check_against_ort(make_model("GatherElements", runtime, {}, axis=1), runtime)


@pytest.mark.parametrize("op,runtime,const,message", [
    ("GatherElements", {"data": f32(3, 4)}, {"indices": np.zeros((3,), np.int64)}, "do not fit data"),
    ("GatherElements", {"data": f32(3, 4)}, {"indices": np.full((3, 4), 3, np.int64)}, "out of range"),
    ("InstanceNormalization", {"x": f32(3, 4)}, {"s": f32(4), "b": f32(4)}, "rank >= 3"),
])
def test_unsupported_forms_name_the_node(op, runtime, const, message):
    with pytest.raises(OnnxImportError, match=f"node_{op.lower()}") as error:
        import_onnx(make_model(op, runtime, const))
    assert message in str(error.value)
