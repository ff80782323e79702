"""`graph-drop-padding-taps`: a constant conv filter sliced to the taps that can read the image
computes what the input program computes (random and adversarial inputs against a float64 run),
for any 1-D window (size, output, kernel, stride, dilation, pads drawn by hypothesis, the kept
taps checked against a brute-force scan); the lit cases; DeepLabV3's ASPP branch at its 224x224
size; the statistic; graph-simplify runs it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.graph.graph_drop_padding_taps import axis_taps, image_taps
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "graph-drop-padding-taps"
LIT = LIT_TRANSFORMS / "graph" / "graph-drop-padding-taps.mlir"
# case -> conv filters left with fewer taps
SLICED = {"dilated_centre_only": 1, "rows_only": 1, "every_tap_reads": 0, "not_dropped": 0}


def filter_shapes(module) -> list[tuple[int, ...]]:
    return [tuple(op.operands[1].type.get_shape()) for op in module.walk() if op.name == "graph.conv"]


@pytest.mark.parametrize("name", sorted(SLICED))
def test_lit_cases_compute_the_same(name: str):
    text = lit_functions(LIT)[name]
    before = filter_shapes(apply_pipeline(text, "cse"))
    after = filter_shapes(assert_pass_preserves_semantics(text, PASS))
    assert sum(a != b for a, b in zip(after, before, strict=True)) == SLICED[name]


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 12), st.integers(1, 4), st.integers(1, 3), st.integers(1, 8), st.integers(0, 20),
       st.integers(0, 20))
def test_kept_taps_are_every_tap_that_reads_the_image(size, kernel, stride, dilation, begin, end):
    """The kept interval runs from the first to the last tap a brute-force scan finds reading the
    image (with a stride > 1 a tap between them may read only padding: it stays), and the new
    pads, dilation and output size give every output the same input indices, tap by tap."""
    out = (size + begin + end - dilation * (kernel - 1) - 1) // stride + 1
    if out < 1:
        return
    reads = [k for k in range(kernel) if any(0 <= o * stride + k * dilation - begin < size for o in range(out))]
    found = image_taps(size, out, kernel, stride, dilation, begin)
    assert found == ((reads[0], reads[-1]) if reads else None)
    axis = axis_taps(size, out, kernel, stride, dilation, begin, end)
    kept = axis.last - axis.first + 1
    assert (size + axis.pad_begin + axis.pad_end - axis.dilation * (kept - 1) - 1) // stride + 1 == out
    for o in range(out):
        for k in range(axis.first, axis.last + 1):
            old = o * stride + k * dilation - begin
            new = o * stride + (k - axis.first) * axis.dilation - axis.pad_begin
            assert old == new


def _conv_program(size: int, channels: int, filters: int, dilation: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((filters, channels, 3, 3)).astype(np.float32)
    dense = "dense<" + np.array2string(w, separator=", ", threshold=10**9, floatmode="unique").replace("\n", "") + ">"
    t = f"tensor<1x{channels}x{size}x{size}xf32>"
    return (f"func.func @main(%x: {t}) -> tensor<1x{filters}x{size}x{size}xf32> {{\n"
            f"  %w = arith.constant {dense} : tensor<{filters}x{channels}x3x3xf32>\n"
            f"  %y = graph.conv %x, %w strides = [1, 1] dilations = [{dilation}, {dilation}] "
            f"pads = [{dilation}, {dilation}, {dilation}, {dilation}] group = 1 : ({t}, tensor<{filters}x{channels}x3x3xf32>)"
            f" -> tensor<1x{filters}x{size}x{size}xf32>\n"
            f"  func.return %y : tensor<1x{filters}x{size}x{size}xf32>\n}}\n")


@pytest.mark.parametrize(("dilation", "kept"), [(12, (3, 3)), (24, (1, 1)), (36, (1, 1))])
def test_aspp_branches_at_224(dilation: int, kept: tuple[int, int]):
    """DeepLabV3's ASPP rates over the 14x14 map of a 224x224 input (fewer channels): rate 12
    keeps its 3x3 taps, 24 and 36 become 1x1 convs; the same values on every family."""
    after = assert_pass_preserves_semantics(_conv_program(14, 8, 4, dilation, dilation), PASS)
    assert filter_shapes(after) == [(4, 8, *kept)]


def test_graph_simplify_runs_it():
    assert PASS in PIPELINES["graph-simplify"].spec.split(",")
