"""Quantized ONNX models as onnxruntime's tools write them (test/data/onnx/qdq_cnn.onnx: QDQ,
per-channel int8 weights; dynamic_mlp.onnx: DynamicQuantizeLinear + MatMulInteger; built by
test/support/quantized_onnx_models.py), through each CPU pipeline and IREE, on every input
family: the build agrees with onnxruntime and with a float64 run of the import to 1e-5 of the
output's magnitude, NaN where they are NaN (a -inf mask makes DynamicQuantizeLinear's scale
infinite: NaN everywhere, in onnxruntime too). A flipped rounding would move an output by a
whole quantization step, far above that bound."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from support.iree_pairs import assert_cuda_rule_needed, cuda_pipeline_without
from support.onnx_family_runs import CPU_PIPELINES, assert_model_agrees

pytest.importorskip("onnxruntime")

DATA = Path(__file__).resolve().parents[1] / "data" / "onnx"


@pytest.mark.parametrize("pipeline", CPU_PIPELINES)
@pytest.mark.parametrize("name", ["qdq_cnn", "dynamic_mlp"])
def test_quantized_model_builds_and_agrees(name, pipeline, tmp_path):
    assert_model_agrees(onnx.load(DATA / f"{name}.onnx"), pipeline, tmp_path)


def dynamic_quantize_model(rows: int, cols: int) -> onnx.ModelProto:
    """x -> DynamicQuantizeLinear -> DequantizeLinear, at a BERT activation's size."""
    from onnx import TensorProto, helper

    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, rows, cols])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, rows, cols])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
def test_cuda_pipeline_keeps_the_range_reduction_alone(tmp_path):
    """IREE's sm_80 codegen cannot distribute DynamicQuantizeLinear's reduction to one element
    of a [1, 128, 768] activation with its consumers in one region ("failed to distribute";
    IREE's own build of a dynamically quantized BERT fails alike); graph-to-dispatch-cuda leaves
    the reduction alone (`full-reduction-consumers=false`) and builds (no GPU needed)."""
    graph = print_module(import_onnx(dynamic_quantize_model(128, 768)))
    without = cuda_pipeline_without("full-reduction-consumers=false ", "")
    assert_cuda_rule_needed(graph, "graph-to-dispatch-cuda", without, tmp_path, "failed to distribute")
