"""ONNX import of Gelu (opset 20): both approximations agree with onnxruntime, and an unknown
approximation is an import error naming it."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from fusionopt.importers.onnx_import import OnnxImportError, import_onnx
from fusionopt.testing import run_module

SHAPE = [2, 3, 64]


def gelu_model(approximate: str) -> onnx.ModelProto:
    node = helper.make_node("Gelu", ["x"], ["y"], approximate=approximate)
    graph = helper.make_graph([node], "main_graph", [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, SHAPE)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    return model


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_agrees_with_onnxruntime(approximate):
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the reference) is not installed")
    model = gelu_model(approximate)
    x = (3 * np.random.default_rng(0).standard_normal(SHAPE)).astype(np.float32)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x": x})
    (actual,) = run_module(import_onnx(model), [x])
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def test_the_two_approximations_differ():
    """The tanh form is a different function (so the test above can tell them apart)."""
    x = np.linspace(-3, 3, int(np.prod(SHAPE)), dtype=np.float32).reshape(SHAPE)
    (exact,) = run_module(import_onnx(gelu_model("none")), [x])
    (tanh,) = run_module(import_onnx(gelu_model("tanh")), [x])
    assert np.max(np.abs(exact - tanh)) > 1e-4


def test_unknown_approximation_is_an_import_error():
    with pytest.raises(OnnxImportError, match="Gelu approximate 'sigmoid' is not supported"):
        import_onnx(gelu_model("sigmoid"))
