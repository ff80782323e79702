"""`linalg-fold-unit-reshapes{constants-into-reductions=false}` (the CUDA pipelines): a reduction
keeps reading a unit-dim collapse instead of its source at constant indices. The lit case
computes the same numbers under both settings (the numpy interpreter, random and adversarial
input families); ConvNeXt's head LayerNorm (768 channels of a 1 x 1 image, read channels last)
goes through `graph-to-dispatch-cuda` and builds for CUDA sm_80, where the folded form fails to
distribute in IREE 3.13 (convnext_tiny did not build for CUDA)."""

from __future__ import annotations

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.testing import assert_pass_preserves_semantics
from support.graph_norms import normalised_lines
from support.iree_pairs import assert_cuda_rule_needed, cuda_pipeline_without
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "linalg" / "linalg-fold-unit-reshapes.mlir"
RULE = "linalg-fold-unit-reshapes{constants-into-reductions=false}"

# ConvNeXt's head: LayerNorm2d over the pooled 1 x 768 x 1 x 1 features, channels last.
HEAD_LAYER_NORM = f"""
func.func @main(%x: tensor<1x768x1x1xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<1x1x1x768xf32> {{
  %t = graph.transpose %x perm = [0, 2, 3, 1] : tensor<1x768x1x1xf32> -> tensor<1x1x1x768xf32>
{normalised_lines("%t", (1, 1, 1, 768), 1e-6)}  %wb = graph.broadcast %w dims = [3] : tensor<768xf32> -> tensor<1x1x1x768xf32>
  %y2 = graph.mul %y, %wb : tensor<1x1x1x768xf32>
  %bb = graph.broadcast %b dims = [3] : tensor<768xf32> -> tensor<1x1x1x768xf32>
  %y3 = graph.add %y2, %bb : tensor<1x1x1x768xf32>
  return %y3 : tensor<1x1x1x768xf32>
}}
"""


@pytest.mark.parametrize("pipeline", ["linalg-fold-unit-reshapes", RULE])
def test_lit_case_preserves_semantics(pipeline: str):
    assert_pass_preserves_semantics(lit_functions(LIT)["reduction_reads_collapse"], pipeline, seeds=(0, 1))


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
def test_convnext_head_layer_norm_builds_for_sm80_with_the_rule_only(tmp_path):
    assert_cuda_rule_needed(HEAD_LAYER_NORM, "graph-to-dispatch-cuda",
                            cuda_pipeline_without("constants-into-reductions=false ", ""), tmp_path,
                            "failed to distribute")
