"""`form-dispatch-regions{reduction-forks=false}` (the CUDA pipelines): a reduction's region ends
in one op. Every lit case computes the same numbers under both settings (the numpy interpreter,
random and adversarial input families); GPT-NeoX's parallel block (two LayerNorms of one input,
each feeding a matmul) goes through `graph-to-dispatch-cuda` and builds for CUDA sm_80, where the
forked region it formed before fails IREE 3.13 ("failed to distribute"); the regions kept out
are counted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from fusionopt import pass_statistics
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import COMPILE, compile_vmfb, cuda_flags, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_cuda_rule_needed, cuda_pipeline_without

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "dispatch" / "form-dispatch-regions-reduction-forks.mlir"
OPTIONS = ("form-dispatch-regions", "form-dispatch-regions{reduction-forks=false}")
CASES = [chunk for chunk in LIT.read_text().split("// -----") if "func.func" in chunk]


@pytest.mark.parametrize("pipeline", OPTIONS)
@pytest.mark.parametrize("index", range(len(CASES)))
def test_lit_case_preserves_semantics(pipeline: str, index: int):
    assert_pass_preserves_semantics(CASES[index], pipeline, seeds=(0, 1))


def parallel_layer_norms(width: int = 64, rows: int = 8) -> onnx.ModelProto:
    """GPT-NeoX's parallel block: attention and MLP inputs are two LayerNorms of one x (our
    import shares their normalisation), each read by a matmul, the two sums added."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(width).astype(np.float32), n) for n in ("w1", "b1", "w2", "b2")]
    inits += [numpy_helper.from_array(0.1 * rng.standard_normal((width, width)).astype(np.float32), n) for n in ("m1", "m2")]
    nodes = [helper.make_node("LayerNormalization", ["x", "w1", "b1"], ["y1"], axis=-1, epsilon=1e-5),
             helper.make_node("LayerNormalization", ["x", "w2", "b2"], ["y2"], axis=-1, epsilon=1e-5),
             helper.make_node("MatMul", ["y1", "m1"], ["p1"]), helper.make_node("MatMul", ["y2", "m2"], ["p2"]),
             helper.make_node("Add", ["p1", "p2"], ["z"])]
    graph = helper.make_graph(nodes, "parallel_layer_norms",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, rows, width])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, rows, width])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def forked_pipeline() -> str:
    """graph-to-dispatch-cuda as it was: reduction regions may fork."""
    return cuda_pipeline_without("reduction-forks=false", "reduction-forks=true")


def regions(module) -> int:
    return sum(op.name == "flow.dispatch.region" for op in module.walk())


def test_cuda_pipeline_keeps_one_end_and_counts_it():
    graph = print_module(import_onnx(parallel_layer_norms()))
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting("graph-to-dispatch-cuda", stats):
        ours = assert_pass_preserves_semantics(graph, "graph-to-dispatch-cuda", seeds=(0, 1))
    forked = apply_pipeline(graph, forked_pipeline())
    assert regions(ours) == regions(forked) + 1
    assert stats.runs[0][1].get("reduction region ends kept out (reduction-forks=false)") == 1


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_cuda_pipeline_builds_where_the_fork_does_not(tmp_path: Path):
    graph = print_module(import_onnx(parallel_layer_norms()))
    assert_cuda_rule_needed(graph, "graph-to-dispatch-cuda", forked_pipeline(), tmp_path, "failed to distribute")


def channels_last_layer_norm(channels: int = 96, size: int = 56) -> onnx.ModelProto:
    """ConvNeXt's LayerNorm2d: NCHW -> NHWC, LayerNorm over the channels, back to NCHW (the
    normalisation writes transposed, so it cannot join the statistics' region), plus the input."""
    rng = np.random.default_rng(1)
    inits = [numpy_helper.from_array(rng.standard_normal(channels).astype(np.float32), n) for n in ("w", "b")]
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 3, 1]),
             helper.make_node("LayerNormalization", ["t", "w", "b"], ["n"], axis=-1, epsilon=1e-6),
             helper.make_node("Transpose", ["n"], ["u"], perm=[0, 3, 1, 2]),
             helper.make_node("Add", ["u", "x"], ["y"])]
    shape = [1, channels, size, size]
    graph = helper.make_graph(nodes, "channels_last_layer_norm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_cuda_pipeline_leaves_a_chain_whose_link_escapes_unchained():
    """The centred rows are read by the transposing normalisation, which cannot join: with
    reduction-forks=false the mean and the sum of squares are not chained into one region
    (two regions more), and the result is the same."""
    graph = print_module(import_onnx(channels_last_layer_norm(channels=8, size=4)))
    ours = assert_pass_preserves_semantics(graph, "graph-to-dispatch-cuda", seeds=(0, 1))
    assert regions(ours) > regions(apply_pipeline(graph, forked_pipeline()))


@pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
def test_cuda_pipeline_builds_convnext_layer_norm(tmp_path: Path):
    """At convnext_tiny's stem size (96 channels, 56x56): builds for sm_80; the chained region
    returning its centred link besides the sum of squares does not ("failed to distribute")."""
    graph = print_module(import_onnx(channels_last_layer_norm()))
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(graph, "graph-to-dispatch-cuda")))
    compile_vmfb(ours, tmp_path / "ours.vmfb", cuda_flags("sm_80"))
    chained = tmp_path / "chained.mlir"
    chained.write_text(print_module(apply_pipeline(graph, forked_pipeline())))
    result = subprocess.run([COMPILE, str(chained), *cuda_flags("sm_80"), "-o", str(tmp_path / "chained.vmfb")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode != 0 and "failed to distribute" in result.stderr
