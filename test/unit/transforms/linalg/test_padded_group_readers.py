"""`linalg-pad-conv-filters` with a grouped conv after the padded conv
(`padded_group_readers`): RegNetX's 7x7 block at its real size, a 1x1 conv of 400 filters
(computed as 416) feeding a grouped 3x3 conv of 25 groups of 16, through
`dispatch-creation-llvm-cpu`: the im2col op reads the padded conv's 26 groups, no region copies
the slice (with the pipeline's tap sums, their slices read them in the conv's region), and IREE
builds it both ways and computes what its own build of the input program computes
(random and offset images); a group width whole panels do not divide (RegNetX-3.2GF's 21 groups
of 48) pads to whole groups instead (1056, not 1024). The lit cases `grouped_im2col_*` in linalg-pad-conv-filters.mlir
check the semantics on every input family (test_pad_conv_filters.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline
from support.cpu_pipeline_cases import CPU, dense, without_grouped_taps
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu

GROUPS, WIDTH, SIZE = 25, 16, 7
RELU = """linalg.generic {{indexing_maps = [{m}, {m}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins({src} : {t}) outs({dst} : {t}) {{
  ^bb0(%a{n}: f32, %o{n}: f32):
    %r{n} = arith.maximumf %a{n}, %z : f32
    linalg.yield %r{n} : f32
  }} -> {t}"""


def regnet_block(groups: int = GROUPS, width: int = WIDTH) -> str:
    """1x1 conv (400 -> 400) + ReLU, pad, grouped 3x3 conv (25 x 16) + ReLU, NCHW as imported
    (other `groups` x `width` alike)."""
    rng = np.random.default_rng(0)
    c, s, p = groups * width, SIZE, SIZE + 2
    w1 = rng.standard_normal((c, c, 1, 1)) * 0.05
    wg = rng.standard_normal((groups, width, width, 3, 3)) * 0.1
    image, padded = f"tensor<1x{c}x{s}x{s}xf32>", f"tensor<1x{c}x{p}x{p}xf32>"
    split, grouped = f"tensor<1x{groups}x{width}x{p}x{p}xf32>", f"tensor<1x{groups}x{width}x{s}x{s}xf32>"
    m = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @main(%x: {image}) -> {image} {{
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant {dense(w1)} : tensor<{c}x{c}x1x1xf32>
  %wg = arith.constant {dense(wg)} : tensor<{groups}x{width}x{width}x3x3xf32>
  %e1 = tensor.empty() : {image}
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : {image}) -> {image}
  %c1 = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w1 : {image}, tensor<{c}x{c}x1x1xf32>) outs(%f1 : {image}) -> {image}
  %r1 = {RELU.format(m=m, src="%c1", dst="%e1", t=image, n=1)}
  %p = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {image} to {padded}
  %xg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, {groups}, {width}, {p}, {p}] : {padded} into {split}
  %eg = tensor.empty() : {grouped}
  %fg = linalg.fill ins(%z : f32) outs(%eg : {grouped}) -> {grouped}
  %y = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%xg, %wg : {split}, tensor<{groups}x{width}x{width}x3x3xf32>) outs(%fg : {grouped}) -> {grouped}
  %yc = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : {grouped} into {image}
  %e2 = tensor.empty() : {image}
  %r2 = {RELU.format(m=m, src="%yc", dst="%e2", t=image, n=2)}
  func.return %r2 : {image}
}}
"""


IM2COL = without_grouped_taps(CPU)  # the form of grouped convs the tap sums leave


def test_the_im2col_op_reads_the_padded_groups():
    ours = print_module(apply_pipeline(regnet_block(), IM2COL))
    padded = f"tensor<{SIZE + 2}x{SIZE + 2}x{GROUPS + 1}x{WIDTH}xf32>"
    [im2col] = [line for line in ours.splitlines() if "iree_linalg_ext.im2col" in line]
    assert f": {padded})" in im2col and f"output_sizes = [[{GROUPS}]" in im2col
    assert "tensor.extract_slice" not in ours


def test_the_tap_slices_read_the_padded_groups_in_their_region():
    ours = apply_pipeline(regnet_block(), CPU)
    slices = [op for op in ours.walk() if op.name == "tensor.extract_slice"]
    padded = f"tensor<1x{SIZE + 2}x{SIZE + 2}x{GROUPS + 1}x{WIDTH}xf32>"
    assert len({op.parent_op() for op in slices}) == 1 and slices[0].parent_op().name == "flow.dispatch.region"
    assert any(str(op.operands[0].type) == padded for op in slices)


def test_a_group_width_the_panels_do_not_divide_pads_to_whole_groups():
    """RegNetX-3.2GF's 7x7 stage: 1008 filters, 21 groups of 48. Whole panels would be 1024, which
    48 does not divide: the slice would stay above the group split, a reshaped strided read of
    4 KB pixels in the taps' region. 1056 (33 panels of 32) is 22 groups: the slice moves onto
    them, as RegNetX-400MF's does."""
    ours = apply_pipeline(regnet_block(21, 48), CPU)
    types = {str(op.operands[0].type) for op in ours.walk() if op.name == "tensor.extract_slice"}
    assert f"tensor<1x{SIZE + 2}x{SIZE + 2}x22x48xf32>" in types
    assert not any("x1024xf32" in t or "x1056xf32" in t for t in types)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
@pytest.mark.parametrize(("pipeline", "groups", "width"), [(CPU, GROUPS, WIDTH), (IM2COL, GROUPS, WIDTH), (CPU, 21, 48)],
                         ids=["taps", "im2col", "taps-48-wide"])
def test_iree_builds_the_block_and_agrees_with_its_own_build(pipeline: str, groups: int, width: int, tmp_path: Path):
    text = regnet_block(groups, width)
    vmfbs = build_llvm_cpu({"ours": print_module(apply_pipeline(text, pipeline)), "reference": print_module(parse_module(text))},
                           tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "main", (1, groups * width, SIZE, SIZE))
