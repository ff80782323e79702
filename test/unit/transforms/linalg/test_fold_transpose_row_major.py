"""`linalg-fold-transpose-into-matmul{row-major-activations=true}` (the llvm-cpu pipelines): a
conv's channels-first output transposed to time-major into a matmul over a constant weight (an
LSTM's input projection, EnCodec's) keeps the transpose as a copy and the matmul reads it
row-major, its weight packed; the fold alone would read the activation K-major. The lit cases
(test/lit/transforms/linalg/linalg-fold-transpose-into-matmul.mlir) are judged for values in
test_dispatch_passes.py; here a model is built by IREE from the CPU pipeline and agrees with a
float64 run and onnxruntime on every input family."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.iree_tools import iree_available
from fusionopt import pass_statistics
from fusionopt.testing import apply_pipeline
from support.onnx_family_runs import assert_model_agrees

PIPELINE = "graph-to-dispatch-llvm-cpu"
STATISTIC = "activation transposes kept for a row-major matmul"


def conv_into_projection(channels: int = 32, frames: int = 150, hidden: int = 128):
    """A strided 1-D conv ([1, C, T/2] out), transposed to [T/2, 1, C] and flattened to
    [T/2, C], times a constant [C, H] weight, as torch exports an LSTM's input projection."""
    rng = np.random.default_rng(2)
    weights = {"w": rng.standard_normal((channels, 16, 4)) / 8, "b": rng.standard_normal(channels),
               "proj": rng.standard_normal((channels, hidden)) / np.sqrt(channels), "shape": np.array([-1, channels])}
    inits = [numpy_helper.from_array(np.asarray(v, np.int64 if k == "shape" else np.float32), k) for k, v in weights.items()]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], strides=[2], pads=[1, 1]),
             helper.make_node("Transpose", ["c"], ["t"], perm=[2, 0, 1]),
             helper.make_node("Reshape", ["t", "shape"], ["r"]),
             helper.make_node("MatMul", ["r", "proj"], ["y"])]
    steps = frames // 2
    graph = helper.make_graph(nodes, "conv_into_projection", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, frames])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [steps, hidden])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_the_cpu_pipeline_keeps_the_transpose_and_reads_the_activation_row_major():
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(PIPELINE, stats):
        formed = apply_pipeline(import_onnx(conv_into_projection()), PIPELINE)
    assert sum(counters.get(STATISTIC, 0) for _, counters in stats.runs) == 1
    k_major = [op for op in formed.walk() if op.name == "linalg.matmul"
               and "(d0, d1, d2) -> (d2, d0)" in str(op.properties.get("indexing_maps"))]
    assert not k_major


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_iree_build_agrees_with_float64_and_onnxruntime(tmp_path):
    pytest.importorskip("onnxruntime")
    assert_model_agrees(conv_into_projection(), PIPELINE, tmp_path)
