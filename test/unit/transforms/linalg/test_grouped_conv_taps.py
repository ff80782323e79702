"""Grouped convs as sums over their taps (`linalg-conv-channels-last{grouped-taps=true}`, the CPU
pipelines' form, `grouped_conv_taps`): they compute what the NCHW grouped conv computes (random
and adversarial inputs against a float64 run), the target-neutral pipeline keeps the im2col
form, and IREE builds every RegNetX-400MF and ResNeXt50 grouped conv shape the form takes at
224x224 (and RegNetY's odd counts of 8-wide groups, RegNetX-1.6GF's 24-wide ones, and batch 2) as
one dispatch each, computing what its own build of the grouped conv computes. Where the lines a
register tile keeps live exceed the L1 sets the padded image's pixels start on, the pad appends
spare groups no slice reads. Groups of more than 64 filters keep the im2col form."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.grouped_conv_taps import L1_WAYS, pixel_sets, spare_groups, window_lines
from support.cpu_pipeline_cases import CPU
from support.grouped_conv_blocks import grouped_block
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

TAPS = "linalg-conv-channels-last{grouped-taps=true}"
CASES = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-conv-channels-last-grouped-taps.mlir")
# (groups, filters a group, input size, stride): RegNetX-400MF's grouped 3x3 convs, then
# ResNeXt50's groups of 8 (paired), 16 and 32, strided and not, RegNetY-400MF's odd counts of
# groups of 8 and RegNetX-1.6GF's groups of 24
SHAPES = [(2, 16, 112, 2), (4, 16, 56, 2), (4, 16, 28, 1), (10, 16, 28, 2), (10, 16, 14, 1), (25, 16, 14, 2),
          (25, 16, 7, 1), (32, 8, 56, 2), (32, 8, 28, 1), (32, 16, 28, 2), (32, 16, 14, 1), (32, 32, 14, 2),
          (32, 32, 7, 1), (13, 8, 28, 1), (55, 8, 7, 1), (7, 24, 56, 2), (17, 24, 14, 1)]


def ops_named(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_form_computes_the_grouped_conv(name: str):
    assert_pass_preserves_semantics(CASES[name], TAPS)


@pytest.mark.parametrize(("groups", "width", "size", "stride"),
                         [(2, 16, 7, 1), (2, 32, 16, 2), (4, 8, 14, 1), (3, 8, 7, 1), (2, 24, 16, 2)])
def test_the_cpu_pipeline_sums_the_taps_in_one_region(groups: int, width: int, size: int, stride: int):
    after = assert_pass_preserves_semantics(grouped_block(groups, size, stride, width=width), CPU)
    assert not ops_named(after, "linalg.conv_2d_ngchw_gfchw") and not ops_named(after, "iree_linalg_ext.im2col")
    (conv,) = [op for op in ops_named(after, "linalg.generic") if any(o.name == "math.fma" for o in op.walk())]
    region = conv.parent_op()
    assert region.name == "flow.dispatch.region"
    assert sum(op.name == "tensor.extract_slice" for op in region.walk()) >= 9
    assert "compilation_info" in conv.attributes


@pytest.mark.parametrize(("width", "taps"), [(64, True), (128, False)])
def test_groups_wider_than_64_filters_are_not_summed_over_taps(width: int, taps: bool):
    """A group of more than MAX_GROUP_FILTERS filters is a matmul of its own: the taps tile (one
    channel a step) ran SqueezeBERT's 4 groups of 192 -> 768 at 5 GFLOP/s, 4.5x IREE's build."""
    after = assert_pass_preserves_semantics(grouped_block(2, 8, 1, width=width), CPU, seeds=(0,))
    fma = [op for op in ops_named(after, "linalg.generic") if any(o.name == "math.fma" for o in op.walk())]
    assert bool(fma) == taps


def test_pixels_on_too_few_l1_sets_get_spare_groups():
    # ResNeXt50's 32 groups of 16 and 32 (2 and 4 KB pixels) take one at either stride, its
    # groups of 8 (1 KB) at stride 2 only; RegNetX's 4, 10 and 25 groups of 16, RegNetY's 13
    # of 8 and 8 groups of 16 (512 bytes) none
    window = (3, 3)
    assert [spare_groups(32, w, window, s, 1) for w in (16, 32) for s in (1, 2)] == [1, 1, 1, 1]
    assert [spare_groups(32, 8, window, s, 1) for s in (1, 2)] == [0, 1]
    assert [spare_groups(g, w, window, 2, 1) for g, w in ((4, 16), (10, 16), (25, 16), (13, 8), (8, 16))] == [0] * 5
    for groups in range(1, 130):
        for width in (8, 16, 24, 32, 64):
            for stride in (1, 2):
                spare = spare_groups(groups, width, window, stride, 1)
                assert window_lines(window, stride, 1) <= pixel_sets((groups + spare) * width) * L1_WAYS
    # a window so dilated that no layout fits its lines takes none (and does not fail)
    assert spare_groups(32, 16, window, 1, 100) == 0


def test_the_cpu_pipeline_pads_2_kb_pixels_with_a_spare_group():
    after = assert_pass_preserves_semantics(grouped_block(32, 7, 1), CPU)
    (pad,) = ops_named(after, "tensor.pad")
    assert pad.results[0].type.get_shape()[-1] == 33 * 16
    slices = ops_named(after, "tensor.extract_slice")
    assert len(slices) == 9 and all(s.results[0].type.get_shape()[-2:] == (32, 16) for s in slices)


def test_the_target_neutral_pipeline_keeps_the_im2col_form():
    after = apply_pipeline(grouped_block(2, 7, 1), "dispatch-creation")
    assert ops_named(after, "iree_linalg_ext.im2col") and not any(
        op.name == "math.fma" for op in after.walk())


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_each_shape_as_one_dispatch_and_agrees(tmp_path: Path):
    names = [f"g{g}_w{w}_s{size}_x{stride}" for g, w, size, stride in SHAPES]
    text = "\n".join(grouped_block(g, size, stride, width=w, name=name)
                     for (g, w, size, stride), name in zip(SHAPES, names))
    ours = apply_pipeline(text, CPU)
    (tmp_path / "ours.mlir").write_text(print_module(ours))
    dispatches = flow_dispatch_names(tmp_path / "ours.mlir", cpu_flags("host"))
    for (g, w, size, stride), name in zip(SHAPES, names):
        out = size // stride
        own = [d for d in dispatches if d.startswith(f"{name}_")]
        assert sum(f"reduction_1x{out}x{out}x{g}x{w}x{w}_" in d for d in own) == 1, own
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "reference": print_module(parse_module(text))}, tmp_path)
    for (g, w, size, _), name in zip(SHAPES, names):
        assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], name, (1, g * w, size, size))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
@pytest.mark.parametrize(("groups", "width", "size", "stride"), [(4, 16, 14, 1), (4, 8, 28, 2)])
def test_iree_builds_batch_2_and_agrees(groups: int, width: int, size: int, stride: int, tmp_path: Path):
    """At batch 2 the slices keep the batch dim (no rank-reduced load)."""
    text = grouped_block(groups, size, stride, batch=2, width=width)
    ours = apply_pipeline(text, CPU)
    assert any(op.name == "math.fma" for op in ours.walk())
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "reference": print_module(parse_module(text))}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "block", (2, groups * width, size, size))
