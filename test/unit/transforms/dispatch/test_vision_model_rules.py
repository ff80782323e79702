"""Region rules for IREE 3.13 limits found building LeViT, MobileViT, SegFormer and FocalNet
(transformers, 224x224): each block, at its model's size, goes through the llvm-cpu pipeline, builds, and agrees
with a float64 run of its import on random and adversarial inputs; where the form without the
rule fails to build, that failure is asserted too (bench/iree_limits_found.py has the minimal
modules, test_iree_limits.py pins them).

- MobileViT's unfold into 2 x 2 patches: `form-dispatch-regions` transposes on one side of a
  reshape only (the one region overflowed llvm-cpu's 32 KB stack).
- MobileViT's 1x1 conv whose output is padded for a 3x3 conv and concatenated with the block's
  input (the fewest pipeline): no second padded store through the reshape.
- LeViT's subsampled queries (every other pixel's channels, collapsed in the matmul's region):
  `dispatch-matmul-cpu-tiles` sets no lowering config on such a contraction and drops one the
  linalg stage set.
- SegFormer's 1x1 conv on 56 x 56 pixels as a matmul written NCHW and padded for a 3x3 conv (the
  fewest pipeline): the pad stays a copy (the padded store computed wrong values).
- FocalNet's modulation (the fewest pipeline): GELU of the context's mean over the pixels (kept
  [1, C, 1, 1]) times a gate, added to every pixel, starts a region of its own rather than
  joining the mean's (that region failed to build).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fusionopt.importers.onnx_import import import_onnx
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available, target_flags
from fusionopt.registry import iree_flags_of
from fusionopt.testing import apply_pipeline
from support.block_onnx_builder import BlockBuilder
from support.iree_pairs import assert_iree_build_agrees_with_float64, assert_rule_needed, cpu_pipeline_with_regions

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
import iree_limits_found  # noqa: E402

FAMILIES = ("random", "offset", "constant", "zeros")
needs_iree = pytest.mark.skipif(not iree_available(), reason="IREE is not installed")
FEWEST_REGIONS = "form-dispatch-regions{padded-concats=true padded-shared-results=true padded-results=1048576}"


def _imported(model) -> str:
    return print_module(import_onnx(model))


def mobilevit_unfold(channels: int = 144, size: int = 28) -> str:
    """transformers' MobileViTLayer.unfolding on a ReLU'd image, ReLU after: [1, C, H, W] ->
    [C * H/2, 2, W/2, 2] -> transpose(1, 2) -> [1, C, HW/4, 4] -> transpose(1, 3) -> [4, HW/4, C]."""
    half, patches = size // 2, (size // 2) ** 2
    b = BlockBuilder(0)
    x = b.node("Relu", [b.input("x", [1, channels, size, size])])
    x = b.transpose(b.reshape(x, [channels * half, 2, half, 2]), (0, 2, 1, 3))
    x = b.transpose(b.reshape(x, [1, channels, patches, 4]), (0, 3, 2, 1))
    y = b.node("Relu", [b.reshape(x, [4, patches, channels])])
    return _imported(b.block_model(y, [4, patches, channels], args=False))


def stored_twice_through_split(channels: int = 96, inputs: int = 256, side: int = 28) -> str:
    """MobileViT's block end as linalg: a 1x1 conv as a [C, K] . [K, HW] matmul, its result split
    to an image that is padded for a 3x3 conv and also concatenated (after a second such conv's
    image) and padded for another."""
    hw, pad = side * side, side + 2
    return f"""func.func @main(%x: tensor<{inputs}x{hw}xf32>, %w: tensor<{channels}x{inputs}xf32>, %v: tensor<{channels}x{inputs}xf32>) -> (tensor<1x{channels}x{pad}x{pad}xf32>, tensor<1x{2 * channels}x{pad}x{pad}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{channels}x{hw}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{channels}x{hw}xf32>) -> tensor<{channels}x{hw}xf32>
  %m = linalg.matmul ins(%w, %x : tensor<{channels}x{inputs}xf32>, tensor<{inputs}x{hw}xf32>) outs(%f : tensor<{channels}x{hw}xf32>) -> tensor<{channels}x{hw}xf32>
  %img = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, {channels}, {side}, {side}] : tensor<{channels}x{hw}xf32> into tensor<1x{channels}x{side}x{side}xf32>
  %m2 = linalg.matmul ins(%v, %x : tensor<{channels}x{inputs}xf32>, tensor<{inputs}x{hw}xf32>) outs(%f : tensor<{channels}x{hw}xf32>) -> tensor<{channels}x{hw}xf32>
  %img2 = tensor.expand_shape %m2 [[0, 1], [2, 3]] output_shape [1, {channels}, {side}, {side}] : tensor<{channels}x{hw}xf32> into tensor<1x{channels}x{side}x{side}xf32>
  %p1 = tensor.pad %img low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : tensor<1x{channels}x{side}x{side}xf32> to tensor<1x{channels}x{pad}x{pad}xf32>
  %cat = tensor.concat dim(1) %img2, %img : (tensor<1x{channels}x{side}x{side}xf32>, tensor<1x{channels}x{side}x{side}xf32>) -> tensor<1x{2 * channels}x{side}x{side}xf32>
  %p2 = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : tensor<1x{2 * channels}x{side}x{side}xf32> to tensor<1x{2 * channels}x{pad}x{pad}xf32>
  func.return %p1, %p2 : tensor<1x{channels}x{pad}x{pad}xf32>, tensor<1x{2 * channels}x{pad}x{pad}xf32>
}}
"""


def segformer_mix_ffn(tokens: int = 3136, hidden: int = 32, wide: int = 128) -> str:
    """SegFormer's Mix-FFN start: the tokens' dense layer (MatMul + bias), transposed and viewed as
    a [1, wide, H, W] image, then the 3x3 depthwise conv over it (padded by one)."""
    side = int(tokens ** 0.5)
    b = BlockBuilder(4)
    x = b.linear(b.node("Relu", [b.input("x", [1, tokens, hidden])]), hidden, wide)
    image = b.reshape(b.transpose(x, (0, 2, 1)), [1, wide, side, side])
    return _imported(b.block_model(b.conv2d(image, wide, wide, 3, group=wide), [1, wide, side, side], args=False))


def focalnet_modulation(tokens_side: int = 56, channels: int = 96) -> str:
    """transformers' FocalNetModulation at level 1: a dense layer over the pixels' channels gives
    the query, the context and two gates (channels-first after a transpose); the context is
    gated, and its global mean (over H, then W, dims kept) through GELU, gated, is added."""
    side, c = tokens_side, channels
    b = BlockBuilder(5)
    x = b.linear(b.node("Relu", [b.input("x", [1, side, side, c])]), c, 2 * c + 2)
    x = b.transpose(x, (0, 3, 1, 2))
    ctx, gate0, gate1 = b.slice(x, 1, c, 2 * c), b.slice(x, 1, 2 * c, 2 * c + 1), b.slice(x, 1, 2 * c + 1, 2 * c + 2)
    mean = b.node("ReduceMean", [b.node("ReduceMean", [ctx, b.const([2])], keepdims=1), b.const([3])], keepdims=1)
    out = b.node("Add", [b.node("Mul", [ctx, gate0]), b.node("Mul", [b.gelu(mean), gate1])])
    return _imported(b.block_model(out, [1, c, side, side], args=False))


def _cpu_flags(pipeline: str) -> list[str]:
    return [*target_flags("llvm-cpu"), *iree_flags_of(pipeline)]


@needs_iree
def test_mobilevit_unfold_builds_in_two_regions(tmp_path: Path):
    graph, pipeline = mobilevit_unfold(), "graph-to-dispatch-llvm-cpu"
    without = cpu_pipeline_with_regions("transposes-across-reshapes=true")
    assert_rule_needed(graph, pipeline, without, tmp_path, "exceeded stack allocation limit", _cpu_flags(pipeline))
    assert_iree_build_agrees_with_float64(graph, print_module(apply_pipeline(graph, pipeline)), tmp_path, FAMILIES,
                                          flags=iree_flags_of(pipeline))


@needs_iree
@pytest.mark.parametrize("name", ["config_over_strided_collapse", "strided_collapse_without_config"])
def test_levit_subsample_matmul_left_to_iree(name: str, tmp_path: Path):
    text = iree_limits_found.CASES[name]
    formed = print_module(apply_pipeline(text, "dispatch-matmul-cpu-tiles"))
    assert "compilation_info" not in formed
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, FAMILIES)


@needs_iree
def test_mobilevit_conv_padded_and_concatenated_builds(tmp_path: Path):
    text = stored_twice_through_split()
    formed = print_module(apply_pipeline(text, FEWEST_REGIONS))
    assert formed.count("tensor.insert_slice") == 1
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, FAMILIES)


@needs_iree
def test_segformer_transposed_dense_keeps_its_pad_and_agrees(tmp_path: Path):
    graph, pipeline = segformer_mix_ffn(), "graph-to-dispatch-llvm-cpu-fewest"
    formed = print_module(apply_pipeline(graph, pipeline))
    assert "tensor.insert_slice" not in formed and "tensor.pad" in formed
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, FAMILIES, flags=iree_flags_of(pipeline))


@needs_iree
def test_focalnet_context_mean_broadcast_builds(tmp_path: Path):
    graph, pipeline = focalnet_modulation(), "graph-to-dispatch-llvm-cpu-fewest"
    formed = print_module(apply_pipeline(graph, pipeline))
    assert "-> (d0, d1, 0)>" not in formed
    assert_iree_build_agrees_with_float64(graph, formed, tmp_path, FAMILIES, flags=iree_flags_of(pipeline))
