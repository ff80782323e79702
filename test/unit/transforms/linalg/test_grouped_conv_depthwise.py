"""Narrow grouped convs as chained channels-last depthwise convs (`linalg-conv-channels-last`,
`grouped_conv_depthwise`): they compute what the NCHW grouped conv computes (random and
adversarial inputs but `extreme` against a float64 run of the input: fast-math reassociation),
alone and through the CPU pipeline; strided, too small or too wide groups keep the other forms; IREE builds ResNeXt50's stride-1
narrow grouped convs at 224x224 sizes as depthwise dispatches with no patch gather and computes
what its own build of the grouped conv computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import FAMILIES, apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, without_grouped_taps
from support.grouped_conv_blocks import grouped_block
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-conv-channels-last"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-conv-channels-last.mlir"
# ResNeXt50's stride-1 narrow grouped 3x3 convs: (groups, input size, channels per group)
RESNEXT_SHAPES = [(32, 56, 4), (32, 28, 8)]
# Not `extreme`: the split sums over (c, kh, kw) c by c, and near the f32 limits a partial sum
# overflows where the input's order does not; contractions are reassociated under the fast-math
# contract (finite values), as any conv kernel's order is its own.
FINITE = tuple(f for f in FAMILIES if f != "extreme")


def count_ops(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


@pytest.mark.parametrize("name, depthwise", [("narrow_groups_as_depthwise", 4), ("strided_narrow_groups", 0),
                                             ("narrow_groups", 0)])
def test_lit_cases_compute_the_same(name: str, depthwise: int):
    """The filter an argument: its transposed copy sliced per channel."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, families=FINITE)
    assert count_ops(after, "linalg.depthwise_conv_2d_nhwc_hwc") == depthwise
    assert count_ops(after, "linalg.conv_2d_ngchw_gfchw") == (depthwise == 0)


@pytest.mark.parametrize("width", [4, 8])
def test_constant_filter_blocks_compute_the_same_through_the_cpu_pipeline(width: int):
    """A constant filter (one numpy slice per channel), the pad and the ReLU epilogue, as
    regions: no grouped conv and no patch gather is left (the CPU pipeline sums the 8-wide
    groups' taps instead of splitting them)."""
    text = grouped_block(128 // width, 28, 1, width=width)
    alone = assert_pass_preserves_semantics(text, PASS, families=FINITE)
    assert count_ops(alone, "linalg.depthwise_conv_2d_nhwc_hwc") == width
    after = assert_pass_preserves_semantics(text, CPU, families=FINITE)
    assert count_ops(after, "linalg.conv_2d_ngchw_gfchw") == 0
    assert count_ops(after, "iree_linalg_ext.im2col") == 0
    assert not any(op.name == "linalg.generic" and len(op.iterator_types) == 7 for op in after.walk())


@pytest.mark.parametrize("groups, size, stride, width", [(32, 28, 2, 4), (8, 28, 1, 4), (32, 14, 1, 4), (8, 28, 1, 16)])
def test_strided_small_or_wide_groups_are_not_split(groups: int, size: int, stride: int, width: int):
    """Stride 2; 32 output channels; 14x14 outputs; 16 filters a group (the matmul form's)."""
    after = apply_pipeline(grouped_block(groups, size, stride, width=width), PASS)
    assert count_ops(after, "linalg.depthwise_conv_2d_nhwc_hwc") == 0


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_resnext_narrow_groups_as_depthwise_dispatches_and_agrees(tmp_path: Path):
    names = [f"g{g}_s{size}_w{width}" for g, size, width in RESNEXT_SHAPES]
    text = "\n".join(grouped_block(g, size, 1, width=width, name=name)
                     for (g, size, width), name in zip(RESNEXT_SHAPES, names))
    # without the tap sums, which take the 8-wide groups (an even count of them) in the CPU pipelines
    ours = apply_pipeline(text, without_grouped_taps(CPU))
    (tmp_path / "ours.mlir").write_text(print_module(ours))
    dispatches = flow_dispatch_names(tmp_path / "ours.mlir", cpu_flags("host"))
    for (g, size, width), name in zip(RESNEXT_SHAPES, names):
        own = [d for d in dispatches if d.startswith(f"{name}_")]
        assert sum("depthwise_conv" in d or "conv_" in d for d in own) == width, own
        assert not any(f"{g}x{width}x3x3" in d for d in own), own  # no patch gather
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "reference": print_module(parse_module(text))}, tmp_path)
    for (g, size, width), name in zip(RESNEXT_SHAPES, names):
        assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], name, (1, g * width, size, size))
