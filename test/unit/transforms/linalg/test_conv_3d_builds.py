"""Video models' 3-D convs at a real frame size: the llvm-cpu pipelines' output builds with
IREE and agrees with a float64 run of the input program.

r3d_18's 3x7x7 stem (stride 1x2x2 over 112x112 frames) with its bias and ReLU in one region
overflowed IREE 3.13's 32 KB CPU stack as a named `linalg.conv_3d_ncdhw_fcdhw` ("Got 802816
bytes"); generalized (`linalg-generalize-grouped-convs`) it builds. With `-fewest`, the next
conv's pad written by the stem's region (`padded_results`) failed to build ("slice along
dimension 4 runs out-of-bounds"): generalized convs keep the pad apart. Four frames instead of
sixteen keep the float64 reference quick; the stack tile is per frame.
"""

from __future__ import annotations

import pytest

from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline
from support.iree_pairs import assert_iree_build_agrees_with_float64

# The stem, then a depthwise 3x3x3 conv over its padded output (the pad between the two).
STEM_THEN_DEPTHWISE = """
func.func @main(%x: tensor<1x3x4x112x112xf32>, %w: tensor<16x3x3x7x7xf32>, %b: tensor<16xf32>, %d: tensor<16x1x3x3x3xf32>) -> tensor<1x16x4x56x56xf32> {
  %c = graph.conv %x, %w strides = [1, 2, 2] dilations = [1, 1, 1] pads = [1, 3, 3, 1, 3, 3] group = 1 : (tensor<1x3x4x112x112xf32>, tensor<16x3x3x7x7xf32>) -> tensor<1x16x4x56x56xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<16xf32> -> tensor<1x16x4x56x56xf32>
  %s = graph.add %c, %bb : tensor<1x16x4x56x56xf32>
  %r = graph.relu %s : tensor<1x16x4x56x56xf32>
  %g = graph.conv %r, %d strides = [1, 1, 1] dilations = [1, 1, 1] pads = [1, 1, 1, 1, 1, 1] group = 16 : (tensor<1x16x4x56x56xf32>, tensor<16x1x3x3x3xf32>) -> tensor<1x16x4x56x56xf32>
  return %g : tensor<1x16x4x56x56xf32>
}
"""
# `extreme` draws values near FLT_MAX: the conv's f32 sums overflow where float64 does not.
FAMILIES_FINITE = tuple(f for f in FAMILIES if f not in ("extreme", "mask", "ids-edge"))


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("pipeline", ["graph-to-dispatch-llvm-cpu", "graph-to-dispatch-llvm-cpu-fewest"])
def test_3d_convs_build_and_agree_with_float64(pipeline, tmp_path):
    formed = print_module(apply_pipeline(STEM_THEN_DEPTHWISE, pipeline))
    assert "linalg.conv_3d" not in formed and "linalg.depthwise_conv_3d" not in formed
    assert_iree_build_agrees_with_float64(STEM_THEN_DEPTHWISE, formed, tmp_path, FAMILIES_FINITE, seed=3)
