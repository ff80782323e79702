"""`convert-graph-to-linalg` on `graph.conv` / `graph.pool`: equivalence on random and
adversarial input families (vs the float64 reference), the named ops chosen, and the corpus
CNNs through `graph-to-dispatch` (verifying IR, IREE's region count, onnxruntime's numbers)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fusionopt.corpus import CORPUS_MISSING, corpus_dir
from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module

CONV_POOL = """
func.func @main(%x: tensor<1x4x9x9xf32>, %w: tensor<8x2x3x3xf32>, %dw: tensor<4x1x3x3xf32>,
                %w1: tensor<6x4x3xf32>, %x1: tensor<2x4x11xf32>, %wf: tensor<4x4x1x1xf32>)
    -> (tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>,
        tensor<2x6x4xf32>, tensor<1x4x5x5xf32>, tensor<2x4x6xf32>, tensor<1x4x5x5xf32>) {
  %y = graph.conv %x, %w strides = [2, 2] dilations = [1, 1] pads = [1, 1, 1, 1] group = 2 : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x5xf32>
  %d = graph.conv %x, %dw strides = [2, 2] dilations = [2, 1] pads = [2, 0, 2, 2] group = 4 : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  %p = graph.pool %x kind = "max" kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %a = graph.pool %x kind = "avg" kernel = [3, 2] strides = [2, 2] pads = [1, 0, 1, 1] dilations = [1, 1] ceil_mode = true count_include_pad = false : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %c = graph.conv %x1, %w1 strides = [2] dilations = [2] pads = [1, 0] group = 1 : (tensor<2x4x11xf32>, tensor<6x4x3xf32>) -> tensor<2x6x4xf32>
  %b = graph.pool %x kind = "avg" kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] ceil_mode = true count_include_pad = true : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %e = graph.pool %x1 kind = "max" kernel = [2] strides = [2] pads = [0, 0] dilations = [1] ceil_mode = true count_include_pad = false : tensor<2x4x11xf32> -> tensor<2x4x6xf32>
  %f = graph.conv %x, %wf strides = [2, 2] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x4x9x9xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  return %y, %d, %p, %a, %c, %b, %e, %f : tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<2x6x4xf32>, tensor<1x4x5x5xf32>, tensor<2x4x6xf32>, tensor<1x4x5x5xf32>
}
"""

CONV_F16 = """
func.func @main(%x: tensor<1x4x6x6xf16>, %w: tensor<4x1x3x3xf16>) -> (tensor<1x4x6x6xf16>, tensor<1x4x3x3xf16>) {
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 4 : (tensor<1x4x6x6xf16>, tensor<4x1x3x3xf16>) -> tensor<1x4x6x6xf16>
  %p = graph.pool %y kind = "avg" kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x6x6xf16> -> tensor<1x4x3x3xf16>
  return %y, %p : tensor<1x4x6x6xf16>, tensor<1x4x3x3xf16>
}
"""


def names(module) -> list[str]:
    return [op.name for op in module.walk()]


def test_conv_and_pool_lower_equivalently() -> None:
    after = assert_pass_preserves_semantics(CONV_POOL, "convert-graph-to-linalg", seeds=(0, 1, 2))
    ops = names(after)
    assert not [n for n in ops if n.startswith("graph.")]
    for expected, count in (("linalg.conv_2d_nchw_fchw", 2), ("linalg.conv_2d_ngchw_gfchw", 1),
                            ("linalg.depthwise_conv_2d_nchw_chw", 1), ("linalg.pooling_nchw_max", 2),
                            ("linalg.pooling_nchw_sum", 2)):
        assert ops.count(expected) == count, expected
    assert "tensor.pad" in ops


def test_f16_conv_accumulates_in_f32() -> None:
    after = assert_pass_preserves_semantics(CONV_F16, "convert-graph-to-linalg", rtol=1e-2)
    assert "tensor<1x4x6x6xf32>" in print_module(after)  # the f32 accumulator


def test_avg_pool_divides_by_counted_positions() -> None:
    text = """
func.func @main(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %p = graph.pool %x kind = "avg" kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode = true count_include_pad = false : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  return %p : tensor<1x1x2x2xf32>
}"""
    x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
    expected = np.array([[[[2.0, 3.5], [6.5, 8.0]]]], np.float32)
    [before] = run_module(parse_module(text), [x])
    [after] = run_module(apply_pipeline(text, "convert-graph-to-linalg"), [x])
    np.testing.assert_array_equal(before, expected)
    np.testing.assert_array_equal(after, expected)


# With every conv, depthwise conv and pool channels last (linalg-conv-channels-last: all 15 of
# resnet_mini, 44 of mobilenet_mini's 52), one region per conv with its epilogue and one per
# filter transpose (the weights are arguments), plus the image's transpose, the head and, in
# mobilenet_mini, the layout changes around its 2x2-pixel 1x1 convs (NCHW matmuls).
CNN_REGIONS = {"resnet_mini": 33, "mobilenet_mini": 102}


@pytest.mark.skipif(not corpus_dir().is_dir(), reason=CORPUS_MISSING)
@pytest.mark.parametrize("name", sorted(CNN_REGIONS))
def test_cnn_graph_to_dispatch_verifies_and_agrees_with_onnxruntime(name: str) -> None:
    ort = pytest.importorskip("onnxruntime")
    directory = corpus_dir() / "cnn" / name
    build = json.loads((directory / f"{name}.build.json").read_text())
    rng = np.random.default_rng(0)
    values = {k: rng.standard_normal(s).astype(np.float32) for k, (s, _) in build["inputs"].items()}
    for _, onnx_name, shape, dtype in build["initializers_moved_to_inputs"]:
        values[onnx_name] = (0.1 * rng.standard_normal(shape)).astype(dtype)
    imported = print_module(import_onnx(directory / f"{name}.args.onnx"))
    dispatched = parse_module(print_module(apply_pipeline(imported, "graph-to-dispatch")))
    ops = names(dispatched)
    assert not [n for n in ops if n.startswith("graph.")]
    assert ops.count("flow.dispatch.region") == CNN_REGIONS[name]
    expected = ort.InferenceSession(str(directory / f"{name}.args.onnx"),
                                    providers=["CPUExecutionProvider"]).run(None, values)
    [actual] = run_module(dispatched, list(values.values()))
    np.testing.assert_allclose(actual, expected[0], rtol=1e-4, atol=1e-5)
