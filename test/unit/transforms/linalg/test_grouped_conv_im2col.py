"""Grouped convs channels last at batch 1 (`linalg-conv-channels-last`, `grouped_conv_channels_last`):
the patches are IREE's `iree_linalg_ext.im2col` with the groups as its batch dim, formed into
the group-batched matmul's region; they compute what the NCHW grouped conv computes (random and
adversarial inputs against a float64 run), batch 2 keeps the gather generic, and IREE builds
every RegNetX-400MF grouped conv shape at 224x224 as one matmul dispatch each, computing what its own
build of the grouped conv computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, dense, regions
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu

# RegNetX-400MF's grouped 3x3 convs (16 channels and filters per group): (groups, input size, stride)
REGNET_SHAPES = [(2, 112, 2), (4, 56, 2), (4, 28, 1), (10, 28, 2), (10, 14, 1), (25, 14, 2), (25, 7, 1)]
# ResNeXt50's 32-wide groups at 7x7: IREE 3.13 fails to build them as the im2col op (the gather stays)
RESNEXT_SHAPE = (32, 7, 1)


def grouped_block(groups: int, size: int, stride: int, batch: int = 1, width: int = 16, name: str = "block",
                  seed: int = 0) -> str:
    """A padded grouped 3x3 conv over an NCHW image (`width` channels and filters per group, a
    constant filter) and a ReLU: the form the ONNX import writes."""
    w = np.random.default_rng(seed).standard_normal((groups, width, width, 3, 3)) * 0.1
    g, c, s, out = groups, groups * width, size + 2, size // stride
    image, split = f"tensor<{batch}x{c}x{size}x{size}xf32>", f"tensor<{batch}x{g}x{width}x{s}x{s}xf32>"
    grouped, result = f"tensor<{batch}x{g}x{width}x{out}x{out}xf32>", f"tensor<{batch}x{c}x{out}x{out}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @{name}(%x: {image}) -> {result} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<{g}x{width}x{width}x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {image} to tensor<{batch}x{c}x{s}x{s}xf32>
  %xg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [{batch}, {g}, {width}, {s}, {s}] : tensor<{batch}x{c}x{s}x{s}xf32> into {split}
  %e = tensor.empty() : {grouped}
  %f = linalg.fill ins(%z : f32) outs(%e : {grouped}) -> {grouped}
  %y = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} ins(%xg, %w : {split}, tensor<{g}x{width}x{width}x3x3xf32>) outs(%f : {grouped}) -> {grouped}
  %yc = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : {grouped} into {result}
  %er = tensor.empty() : {result}
  %r = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%yc : {result}) outs(%er : {result}) {{
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }} -> {result}
  func.return %r : {result}
}}
"""


def count_ops(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


@pytest.mark.parametrize("stride", [1, 2])
def test_batch_1_patches_are_the_im2col_op_in_the_matmul_region(stride: int):
    after = assert_pass_preserves_semantics(grouped_block(2, 6, stride), CPU)
    assert count_ops(after, "iree_linalg_ext.im2col") == 1 and count_ops(after, "linalg.conv_2d_ngchw_gfchw") == 0
    (region,) = [op for op in after.walk() if op.name == "flow.dispatch.region"
                 and any(inner.name == "iree_linalg_ext.im2col" for inner in op.walk())]
    assert any(inner.name == "linalg.generic" and "reduction" in str(inner.iterator_types) for inner in region.walk())


def test_wide_groups_keep_the_gather():
    after = assert_pass_preserves_semantics(grouped_block(2, 5, 1, width=32), CPU)
    assert count_ops(after, "iree_linalg_ext.im2col") == 0 and count_ops(after, "linalg.conv_2d_ngchw_gfchw") == 0


def test_batch_2_keeps_the_gather():
    after = assert_pass_preserves_semantics(grouped_block(2, 6, 1, batch=2), CPU)
    assert count_ops(after, "iree_linalg_ext.im2col") == 0 and count_ops(after, "linalg.conv_2d_ngchw_gfchw") == 0
    assert regions(after) >= 2  # the gather is a region of its own


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_regnet_grouped_convs_as_one_matmul_dispatch_each_and_agrees(tmp_path: Path):
    names = [f"g{g}_s{size}_x{stride}" for g, size, stride in REGNET_SHAPES]
    text = "\n".join(grouped_block(g, size, stride, name=name)
                     for (g, size, stride), name in zip(REGNET_SHAPES, names))
    ours = apply_pipeline(text, CPU)
    (tmp_path / "ours.mlir").write_text(print_module(ours))
    dispatches = flow_dispatch_names(tmp_path / "ours.mlir", cpu_flags("host"))
    for (g, size, stride), name in zip(REGNET_SHAPES, names):
        pixels = (size // stride) ** 2
        own = [d for d in dispatches if d.startswith(f"{name}_")]
        # the conv is one matmul dispatch computing its patches; no patch gather is written out
        # (the others move the NCHW image in and out: transposes, the pad's copy)
        assert sum(f"matmul_like_{g}x{pixels}x16x144_" in d for d in own) == 1, own
        assert not any("x3x3x16_" in d for d in own), own
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "reference": print_module(parse_module(text))}, tmp_path)
    for (g, size, _), name in zip(REGNET_SHAPES, names):
        assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], name, (1, g * 16, size, size))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_resnext_wide_groups_as_the_gather_and_agrees(tmp_path: Path):
    g, size, stride = RESNEXT_SHAPE
    text = grouped_block(g, size, stride, width=32)
    vmfbs = build_llvm_cpu({"ours": print_module(apply_pipeline(text, CPU)), "reference": print_module(parse_module(text))},
                           tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "block", (1, g * 32, size, size))
