"""bench/pin_dims.py: one static copy of a symbolic-dim ONNX model per size, named after it,
whose inputs and outputs carry the size and which onnxruntime runs as the symbolic one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

ort = pytest.importorskip("onnxruntime")

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "pin_dims.py"


def symbolic_relu(path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "seq"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "seq"])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def dims(info: onnx.ValueInfoProto) -> list:
    return [d.dim_value or d.dim_param for d in info.type.tensor_type.shape.dim]


def test_each_size_its_own_static_model(tmp_path: Path):
    model = tmp_path / "m.dynamic.onnx"
    symbolic_relu(model)
    printed = subprocess.run([sys.executable, str(SCRIPT), str(model), "seq=5", "seq=7"], check=True,
                             capture_output=True, text=True).stdout.split()
    assert printed == [str(tmp_path / "m.seq5.onnx"), str(tmp_path / "m.seq7.onnx")]
    for size, out in zip((5, 7), printed, strict=True):
        pinned = onnx.load(out)
        assert dims(pinned.graph.input[0]) == dims(pinned.graph.output[0]) == [1, size]
        x = np.linspace(-1, 1, size, dtype=np.float32)[None]
        (y,) = ort.InferenceSession(out, providers=["CPUExecutionProvider"]).run(None, {"x": x})
        np.testing.assert_array_equal(y, np.maximum(x, 0))
    assert dims(onnx.load(str(model)).graph.input[0]) == [1, "seq"]
