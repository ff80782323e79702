"""`linalg-conv-channels-last` through views (`channels_last_views`): the lit cases compute what
the input program computes (interpreter, every input family, against float64), alone, with
elementwise fusion and through the llvm-cpu dispatch creation; a stacked (2+1)D pair keeps no
channel transpose between its convs, a reshape splitting the channel dim keeps its transposes.
IREE's build of the R(2+1)D block at its real size is in test_block_models_build.py (`r2plus1d`).

The lit cases are the `// -----` functions of
test/lit/transforms/linalg/linalg-conv-channels-last-views.mlir.
"""

from __future__ import annotations

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.channels_last_propagation import is_nchw_transpose, is_nhwc_transpose
from support.lit_cases import LIT_TRANSFORMS, lit_functions

CASES = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-conv-channels-last-views.mlir")
PASS = "linalg-conv-channels-last"
OFF = "linalg-conv-channels-last{through-views=false}"
FUSED = "linalg-fuse-elementwise{aggressive=false}"


def channel_transposes(module) -> int:
    return sum(is_nhwc_transpose(op) or is_nchw_transpose(op) for op in module.walk())


@pytest.mark.parametrize("passes", [PASS, f"{PASS},{FUSED}", "dispatch-creation-llvm-cpu"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_views_compute_the_same(name: str, passes: str):
    assert_pass_preserves_semantics(CASES[name], passes, seeds=(0, 1))


def test_stacked_frames_keep_no_transpose_between_their_convs():
    """Fused, the input's transpose and the result's (in the last conv's epilogue) are the ones
    left; without the option the first conv's result is also transposed back to NCDHW before
    its views, and the ReLU's into channels last after them."""
    through = apply_pipeline(parse_module(CASES["stacked_frames"]), f"{PASS},{FUSED}")
    before = apply_pipeline(parse_module(CASES["stacked_frames"]), f"{OFF},{FUSED}")
    assert channel_transposes(through) == 2
    assert channel_transposes(before) == 4


def test_a_split_channel_dim_is_not_moved_through():
    through = apply_pipeline(parse_module(CASES["split_channels"]), PASS)
    before = apply_pipeline(parse_module(CASES["split_channels"]), OFF)
    assert print_module(through) == print_module(before)
    assert channel_transposes(through) == 4


LOW_RANK_VIEWS = """
func.func @low_rank(%x: tensor<6xf32>, %y: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<4x5xf32>) {
  %s = tensor.extract_slice %x[0] [2] [1] : tensor<6xf32> to tensor<2xf32>
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %y low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  func.return %s, %p : tensor<2xf32>, tensor<4x5xf32>
}
"""


def test_low_rank_views_are_left_alone():
    """Slices and pads under rank 4 are no views of an activation the pass moves (a rank-1
    slice once raised IndexError in the pass: the property run's softmax over a slice)."""
    before = print_module(parse_module(LOW_RANK_VIEWS))
    assert print_module(apply_pipeline(parse_module(LOW_RANK_VIEWS), PASS)) == before
