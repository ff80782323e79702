"""ONNX importer: `ReduceSum(Cast(bool -> int64))`, a count of true entries, is summed in i32 and
widened after (fusionopt/importers/onnx_ops_nn.py, `_widened_bools`): the same integers as
onnxruntime's on rows all true, all false and mixed; IREE's CUDA codegen builds Mask2Former's
masked softmax with its count of masked entries a row (with an i64 sum it fails to distribute,
as IREE's own import of the model does); an int64 sum of other values stays int64."""

from __future__ import annotations

import shutil

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.testing import apply_pipeline, run_module
from support.f16_checks import assert_builds_for_cuda
from support.onnx_single_node import check, make_model

ort = pytest.importorskip("onnxruntime")


def count_below(heads: int = 8, queries: int = 100, keys: int = 576) -> onnx.ModelProto:
    """Mask2Former's masked attention: mask = probs < 0.5 [Q, K]; rows masked whole (the count
    of masked entries equals K) are let through; the mask is added to the scores of every head
    as -inf, then softmax."""
    inits = [numpy_helper.from_array(np.array(0.5, np.float32), "half"),
             numpy_helper.from_array(np.array([-1], np.int64), "last"),
             numpy_helper.from_array(np.array(keys, np.int64), "keys"),
             numpy_helper.from_array(np.array(-np.inf, np.float32), "minus_inf"),
             numpy_helper.from_array(np.array(0.0, np.float32), "zero")]
    nodes = [helper.make_node("Less", ["probs", "half"], ["mask"]),
             helper.make_node("Cast", ["mask"], ["mask64"], to=TensorProto.INT64),
             helper.make_node("ReduceSum", ["mask64", "last"], ["count"], keepdims=1),
             helper.make_node("Equal", ["count", "keys"], ["whole"]),
             helper.make_node("Not", ["whole"], ["partial"]),
             helper.make_node("And", ["mask", "partial"], ["masked"]),
             helper.make_node("Where", ["masked", "minus_inf", "zero"], ["bias"]),
             helper.make_node("Add", ["scores", "bias"], ["biased"]),
             helper.make_node("Softmax", ["biased"], ["y"], axis=-1)]
    probs = helper.make_tensor_value_info("probs", TensorProto.FLOAT, [queries, keys])
    scores = helper.make_tensor_value_info("scores", TensorProto.FLOAT, [heads, queries, keys])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [heads, queries, keys])
    graph = helper.make_graph(nodes, "count_below", [probs, scores], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def flags(rows: int, width: int) -> np.ndarray:
    x = np.random.default_rng(0).random((rows, width)) < 0.5
    x[0], x[1] = True, False  # a row all true, a row all false
    return x


@pytest.mark.parametrize("keepdims", [0, 1])
def test_counts_match_onnxruntime(keepdims: int):
    x = flags(5, 37)
    nodes = [helper.make_node("Cast", ["x"], ["x64"], to=TensorProto.INT64),
             helper.make_node("ReduceSum", ["x64", "axes"], ["y"], keepdims=keepdims)]
    inits = [numpy_helper.from_array(np.array([1], np.int64), "axes")]
    graph = helper.make_graph(nodes, "count", [helper.make_tensor_value_info("x", TensorProto.BOOL, [5, 37])],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    module = import_onnx(model)
    assert "graph.reduce_sum" in print_module(module) and "tensor<5x37xi32>" in print_module(module)
    got = run_module(module, [x])[0]
    want = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})[0]
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_other_int64_sums_stay_int64():
    x = np.array([[2**40, 1, -3], [5, 2**40, 7]], np.int64)
    module = import_onnx(make_model("ReduceSum", {"x": x}, {"axes": np.array([1], np.int64)}, keepdims=0))
    assert "i32" not in print_module(module)
    check(make_model("ReduceSum", {"x": x}, {"axes": np.array([1], np.int64)}, keepdims=0), {"x": x})


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile is not installed")
def test_masked_softmax_builds_for_cuda(tmp_path):
    rng = np.random.default_rng(1)
    probs = rng.random((100, 576)).astype(np.float32)
    probs[0], probs[1] = 0.0, 1.0  # one row masked whole, one not at all
    scores = rng.standard_normal((8, 100, 576)).astype(np.float32)
    model = count_below()
    module = apply_pipeline(import_onnx(model), "graph-to-dispatch-cuda")
    want = ort.InferenceSession(model.SerializeToString()).run(None, {"probs": probs, "scores": scores})[0]
    np.testing.assert_allclose(run_module(module, [probs, scores])[0], want, rtol=1e-5, atol=1e-6)
    assert_builds_for_cuda(module, tmp_path, "count_below")
