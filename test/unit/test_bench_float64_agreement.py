"""bench/float64_agreement.py: onnxruntime, the float32 interpreter and an IREE build of our
pipeline's output measured against a float64 run: exact where every step is exact (x * 2),
and a cancelling model (x - mean(x) on offset rows) shows the float32 runs' own error."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from fusionopt.ir_io import print_module
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.iree_tools import compile_vmfb, iree_available, target_flags
from fusionopt.testing import apply_pipeline

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "float64_agreement.py"
sys.path.insert(0, str(SCRIPT.parent))

import float64_agreement  # noqa: E402


def model(path: Path, centred: bool) -> Path:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4096])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    nodes = ([helper.make_node("ReduceMean", ["x", "axes"], ["m"]), helper.make_node("Sub", ["x", "m"], ["y"])]
             if centred else [helper.make_node("Mul", ["x", "two"], ["y"])])
    graph = helper.make_graph(nodes, "g", [x], [y], [two, axes])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    return path


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_exact_model_is_exact_everywhere(tmp_path):
    path = model(tmp_path / "double.onnx", centred=False)
    source = tmp_path / "double.mlir"
    source.write_text(print_module(apply_pipeline(print_module(import_onnx(onnx.load(str(path)))),
                                                  "graph-to-dispatch-llvm-cpu")))
    vmfb = compile_vmfb(source, tmp_path / "double.vmfb", target_flags("llvm-cpu"))
    found = float64_agreement.errors(path, [vmfb], "offset", seed=0)
    assert found == {"float32 interpreter": 0.0, "onnxruntime": 0.0, "double.vmfb": 0.0}


def test_cancelling_model_shows_float32_error(tmp_path):
    found = float64_agreement.errors(model(tmp_path / "centred.onnx", centred=True), [], "offset", seed=0)
    assert set(found) == {"float32 interpreter", "onnxruntime"}
    assert all(0.0 < error < 1.0 for error in found.values()), found
    assert float64_agreement.relative_error(np.array([1.0, 3.0]), np.array([1.0, 2.0])) == 0.5
