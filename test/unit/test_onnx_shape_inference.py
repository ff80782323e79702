"""ONNX shape inference runs on the model without its weights' bytes (`onnx_import.infer_shapes`):
the import is the same as with the whole model, the caller's model is left as it was, and a model
whose inference reads a stripped initializer is inferred whole instead."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers import onnx_import
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module


def reshape_then_add(weight_rows: int) -> onnx.ModelProto:
    """y = reshape(x, [rows, 2]) + w; the shape is an initializer inference must read, and the
    output's shape is left to inference."""
    rows = weight_rows
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, rows])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    shape = numpy_helper.from_array(np.array([rows, 2], np.int64), "shape")
    weight = numpy_helper.from_array(np.random.default_rng(0).standard_normal((rows, 2)).astype(np.float32), "w")
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"]), helper.make_node("Add", ["r", "w"], ["y"])]
    graph = helper.make_graph(nodes, "g", [x], [y], [shape, weight])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def imported(model: onnx.ModelProto) -> str:
    return print_module(import_onnx(model))


@pytest.mark.parametrize("weight_bytes", [0, onnx_import.WEIGHT_BYTES])
def test_import_is_the_same_as_inferring_the_whole_model(monkeypatch, weight_bytes: int):
    """0: every initializer is stripped, the shape too, so the light inference fails and the
    whole model is inferred; the default strips the 8 KB weight only."""
    model = reshape_then_add(1024)
    original = model.SerializeToString()
    monkeypatch.setattr(onnx_import, "WEIGHT_BYTES", 1 << 40)
    whole = imported(model)
    monkeypatch.setattr(onnx_import, "WEIGHT_BYTES", weight_bytes)
    assert imported(model) == whole
    assert model.SerializeToString() == original


def test_inference_never_sees_the_weights(monkeypatch):
    seen: list[int] = []
    infer = onnx.shape_inference.infer_shapes

    def recording(model, *args, **kwargs):
        seen.append(max(len(t.raw_data) for t in model.graph.initializer))
        return infer(model, *args, **kwargs)

    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", recording)
    model = reshape_then_add(1024)
    weight = model.graph.initializer[1].raw_data
    printed = imported(model)
    assert seen == [16]  # the shape's two int64s; the weight's 8 KB stayed in Python
    assert f'dense<"0x{weight.hex().upper()}">' in printed  # and came back


def test_a_model_read_from_a_file_imports_the_same(tmp_path):
    """From a path the model is the importer's own: its weights stay apart (not put back in
    either model) and are read as views; the module is the one the ModelProto gives."""
    model = reshape_then_add(1024)
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    assert print_module(import_onnx(str(path))) == imported(model)


@pytest.mark.parametrize("dtype, onnx_type", [(np.uint8, TensorProto.UINT8), (np.bool_, TensorProto.BOOL)])
def test_weights_of_other_element_types_are_converted_by_onnx(dtype, onnx_type):
    """An initializer over WEIGHT_BYTES whose bytes are not its array as they are (uint8 has no
    view here, bool is stored as i1) goes back into its tensor and through numpy_helper."""
    values = (np.arange(8192) % 3 == 1).astype(dtype)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8192])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [8192])
    table = numpy_helper.from_array(values, "t")
    nodes = [helper.make_node("Cast", ["t"], ["c"], to=TensorProto.FLOAT), helper.make_node("Add", ["x", "c"], ["y"])]
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [table]), opset_imports=[helper.make_opsetid("", 17)])
    assert table.data_type == onnx_type and len(table.raw_data) > onnx_import.WEIGHT_BYTES
    from fusionopt.interpreter.runner import run_function

    xs = np.linspace(-1, 1, 8192, dtype=np.float32)
    (out,) = run_function(import_onnx(model), [xs])
    np.testing.assert_array_equal(np.asarray(out), xs + values.astype(np.float32))
