"""Grouped convs channels last at batch 1 (`linalg-conv-channels-last`, `grouped_conv_channels_last`,
the form the CPU pipelines keep for the grouped convs their tap sums leave):
the patches are IREE's `iree_linalg_ext.im2col` with the groups as its batch dim, formed into
the group-batched matmul's region; they compute what the NCHW grouped conv computes (random and
adversarial inputs against a float64 run), batch 2 keeps the gather generic, and IREE builds
every RegNetX-400MF grouped conv shape at 224x224 as one matmul dispatch each, computing what its own
build of the grouped conv computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import without_grouped_taps, regions
from support.grouped_conv_blocks import grouped_block
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu

# dispatch-creation-llvm-cpu with grouped convs in the im2col form, which the convs its tap sums
# do not take keep (`test_grouped_conv_taps.py`)
CPU = without_grouped_taps("dispatch-creation-llvm-cpu")
# RegNetX-400MF's grouped 3x3 convs (16 channels and filters per group): (groups, input size, stride)
REGNET_SHAPES = [(2, 112, 2), (4, 56, 2), (4, 28, 1), (10, 28, 2), (10, 14, 1), (25, 14, 2), (25, 7, 1)]
# ResNeXt50's 32-wide groups at 7x7: IREE 3.13 fails to build them as the im2col op (the gather stays)
RESNEXT_SHAPE = (32, 7, 1)


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
