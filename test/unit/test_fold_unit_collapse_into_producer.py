"""`linalg-fold-unit-reshapes{collapses-into-producers=true}`: an elementwise generic whose result
is collapsed by its unit dims and split again computes the collapsed tensor itself. The rewrite
only renames loops of extent 1, so it must give identical values on every input family."""

from __future__ import annotations

import pytest

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import assert_pass_preserves_semantics
from support.iree_pairs import assert_cuda_rule_needed, cuda_pipeline_without

PASS = "linalg-fold-unit-reshapes{collapses-into-producers=true}"

# A quantize (divide, round, shift, clamp) over [4, 1, 64] with a per-channel scale read through
# the unit dim, split into 8 x 8 heads and transposed.
HEAD_SPLIT = """
func.func @main(%x: tensor<1x4x1x64xf32>, %scale: tensor<1x64xf32>) -> tensor<8x4x8xf32> {
  %e0 = tensor.empty() : tensor<4x1x64xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %scale : tensor<1x4x1x64xf32>, tensor<1x64xf32>) outs(%e0 : tensor<4x1x64xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %d = arith.divf %a, %s : f32
    %r = math.roundeven %d : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %m = arith.mulf %c1, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x1x64xf32>
  %c = tensor.collapse_shape %q [[0], [1, 2]] : tensor<4x1x64xf32> into tensor<4x64xf32>
  %h = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 8, 8] : tensor<4x64xf32> into tensor<4x8x8xf32>
  %e1 = tensor.empty() : tensor<8x4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h : tensor<4x8x8xf32>) outs(%e1 : tensor<8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8x4x8xf32>
  func.return %t : tensor<8x4x8xf32>
}
"""


def test_head_split_producer_computes_the_collapsed_tensor_with_identical_values():
    after = assert_pass_preserves_semantics(HEAD_SPLIT, PASS, seeds=(0, 1, 2), rtol=0)
    text = print_module(after)
    assert "tensor.collapse_shape" not in text
    assert "outs(%0 : tensor<4x64xf32>)" in text
    assert "affine_map<(d0, d1) -> (0, d0, 0, d1)>, affine_map<(d0, d1) -> (0, d1)>" in text


def test_by_default_the_collapse_stays():
    after = assert_pass_preserves_semantics(HEAD_SPLIT, "linalg-fold-unit-reshapes", seeds=(0,), rtol=0)
    assert "tensor.collapse_shape" in print_module(after)


# A quantized ViT's head split at its real size, at graph level: quantize-dequantize over
# [197, 1, 384], reshaped to 197 x 6 x 64 heads and transposed.
HEAD_SPLIT_GRAPH = """
func.func @main(%x: tensor<197x1x384xf32>) -> tensor<6x197x64xf32> {
  %s = arith.constant dense<0.0339> : tensor<197x1x384xf32>
  %d = graph.div %x, %s : tensor<197x1x384xf32>
  %r = graph.round %d : tensor<197x1x384xf32>
  %q = graph.mul %r, %s : tensor<197x1x384xf32>
  %h = graph.reshape %q : tensor<197x1x384xf32> -> tensor<197x6x64xf32>
  %t = graph.transpose %h perm = [1, 0, 2] : tensor<197x6x64xf32> -> tensor<6x197x64xf32>
  %y = graph.mul %t, %t : tensor<6x197x64xf32>
  return %y : tensor<6x197x64xf32>
}
"""


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
def test_head_split_builds_for_sm80_with_the_rule_only(tmp_path):
    assert_cuda_rule_needed(HEAD_SPLIT_GRAPH, "graph-to-dispatch-cuda",
                            cuda_pipeline_without(" collapses-into-producers=true", ""), tmp_path,
                            "exceeded the limit of 166912 bytes")
