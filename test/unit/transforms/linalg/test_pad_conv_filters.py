"""`linalg-pad-conv-filters`: convs over constant filters padded to a multiple of 16 filters, the
result sliced back, compute what the input program computes (fill and bias inits, an epilogue,
a pad and a pool, two readers) on random and adversarial inputs against a float64 run of the input
program, alone and through `dispatch-creation-llvm-cpu` (with the same number of regions as
without the pass) and `dispatch-creation` (16 lanes, no panels); the pass fires where it should only; IREE builds a ShuffleNetV2 unit at its
real size with 128-filter convs and computes what its own build of the unpadded unit computes,
and an R(2+1)D (1, 3, 3) conv over stacked depth slices at its real size likewise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, dense, pass_names, pipeline_with_and_without, regions, runs_on_cpu_only
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-pad-conv-filters"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-pad-conv-filters.mlir"
# case -> (filter counts of the convs over constant filters, slices of their results) after the pass
PADDED = {"conv_epilogue_pad_pool": ([16], 1), "bias_init_two_readers": ([16], 2), "residual_epilogue": ([9], 0),
          "left_alone": ([9, 16], 0), "panel_residual": ([416], 1), "panel_left_alone": ([144, 200], 0),
          "panel_in_place_epilogue": ([400], 0), "depthwise_reader": ([4, 16], 1),
          "grouped_im2col_reader": ([16], 0), "grouped_im2col_uneven_groups": ([12], 0),
          "panel_residual_of_two_convs": ([416, 416], 1), "group_width_no_panel_divides": ([1056], 2),
          "group_width_panels_divide": ([1024], 2), "kxk_stacked_crop": ([32], 2), "kxk_few_taps": ([20], 0)}


def padded_convs(module) -> tuple[list[int], int]:
    filters = sorted(op.inputs[1].type.get_shape()[3] for op in module.walk() if op.name == "linalg.conv_2d_nhwc_hwcf"
                     and getattr(op.inputs[1].owner, "name", "") == "arith.constant")
    return filters, sum(op.name == "tensor.extract_slice" for op in module.walk())


@pytest.mark.parametrize("name", sorted(PADDED))
def test_padded_convs_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert padded_convs(after) == PADDED[name]


# Padded to whole panels, a conv whose residual add cannot compute padded channels leaves the add
# a region of its own, reading the slice (RegNetX's 400-filter convs: 8.5 -> 4.8 ms of the model
# for 21 adds of 5-7 us each, bench/RESULTS.md); every other padding keeps the region count.
EXTRA_REGIONS = {"panel_residual": 1}


@pytest.mark.parametrize("name", sorted(PADDED))
def test_regions_compute_the_same_with_no_more_dispatches_than_expected(name: str):
    after, before = pipeline_with_and_without(lit_functions(LIT)[name], PASS)
    assert regions(after) == before + EXTRA_REGIONS.get(name, 0)


def test_the_cpu_pipelines_pad_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def test_the_target_neutral_pipeline_pads_to_whole_vectors():
    """`dispatch-creation` pads ShuffleNetV2's 116 filters to 128 too, without packing them
    (nothing there packs panels), and computes what the unit computes."""
    assert all(PASS in pass_names(p) for p in ("dispatch-creation", "graph-to-dispatch"))
    after = assert_pass_preserves_semantics(shufflenet_unit(channels=10, size=7), "dispatch-creation")
    filters, slices = padded_convs(after)
    assert filters == [16, 16] and slices == 2


def channel_sum(source: str, image: str, channels: int) -> str:
    """The function's end: the sum of `source` (an NHWC `image`) over all but its channels, returned."""
    c = channels
    return f"""  %es = tensor.empty() : tensor<{c}xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<{c}xf32>) -> tensor<{c}xf32>
  %sum = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>], iterator_types = ["reduction", "reduction", "reduction", "parallel"]}} ins({source} : {image}) outs(%fs : tensor<{c}xf32>) {{
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  }} -> tensor<{c}xf32>
  func.return %sum : tensor<{c}xf32>
}}
"""


def formed_and_reference(text: str, tmp_path: Path) -> tuple[list[str], str, str]:
    """IREE's dispatch names for `text` through the CPU pipeline, that module and `text` itself
    (the reference IREE builds unpadded), both printed."""
    ours, reference = print_module(apply_pipeline(text, CPU)), print_module(parse_module(text))
    (tmp_path / "ours.mlir").write_text(ours)
    return flow_dispatch_names(tmp_path / "ours.mlir", cpu_flags("host")), ours, reference


def shufflenet_unit(channels: int = 116, size: int = 14, seed: int = 0) -> str:
    """ShuffleNetV2's branch, channels last: 1x1 conv + bias + ReLU, 3x3 depthwise conv, 1x1
    conv + bias + ReLU, then a global sum (the next reader is a reduction)."""
    rng = np.random.default_rng(seed)
    c, s, p = channels, size, size + 2
    w1, w2 = (rng.standard_normal((1, 1, c, c)) * 0.1 for _ in range(2))
    dw = rng.standard_normal((3, 3, c)) * 0.3
    b1, b2 = (rng.standard_normal(c) * 0.1 for _ in range(2))
    t = f"tensor<1x{s}x{s}x{c}xf32>"
    relu = """^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32"""
    maps = ('[affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, '
            'affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]')
    par = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""func.func @unit(%x: {t}) -> tensor<{c}xf32> {{
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant {dense(w1)} : tensor<1x1x{c}x{c}xf32>
  %w2 = arith.constant {dense(w2)} : tensor<1x1x{c}x{c}xf32>
  %dw = arith.constant {dense(dw)} : tensor<3x3x{c}xf32>
  %b1 = arith.constant {dense(b1)} : tensor<{c}xf32>
  %b2 = arith.constant {dense(b2)} : tensor<{c}xf32>
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %c1 = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w1 : {t}, tensor<1x1x{c}x{c}xf32>) outs(%f : {t}) -> {t}
  %r1 = linalg.generic {{indexing_maps = {maps}, iterator_types = {par}}} ins(%c1, %b1 : {t}, tensor<{c}xf32>) outs(%e : {t}) {{
  {relu}
  }} -> {t}
  %pd = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {t} to tensor<1x{p}x{p}x{c}xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%pd, %dw : tensor<1x{p}x{p}x{c}xf32>, tensor<3x3x{c}xf32>) outs(%f : {t}) -> {t}
  %c2 = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%d, %w2 : {t}, tensor<1x1x{c}x{c}xf32>) outs(%f : {t}) -> {t}
  %r2 = linalg.generic {{indexing_maps = {maps}, iterator_types = {par}}} ins(%c2, %b2 : {t}, tensor<{c}xf32>) outs(%e : {t}) {{
  {relu}
  }} -> {t}
{channel_sum("%r2", t, c)}"""


def test_small_unit_computes_the_same():
    after = assert_pass_preserves_semantics(shufflenet_unit(channels=10, size=5), PASS)
    assert sum(op.name == "tensor.extract_slice" for op in after.walk()) == 2


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_shufflenet_unit_and_agrees(tmp_path: Path):
    """dispatch-creation-llvm-cpu's regions (both 1x1 convs at 128 filters, packed, the depthwise
    conv between them over 128 channels) build, and compute
    what IREE's own build of the unpadded unit computes, on random and offset inputs."""
    text = shufflenet_unit()
    names, ours, reference = formed_and_reference(text, tmp_path)
    # both 128-filter convs, packed as two panels of 64 (linalg-pack-conv-filters), the first
    # writing the depthwise conv's padded input: no copy dispatch
    assert sum("14x14x2x64x" in n for n in names) == 2 and len(names) == 4, names
    # the depthwise conv computes the padded channels too (`padded_depthwise_readers`)
    assert sum("depthwise_conv_2d_nhwc_hwc_1x14x14x128x3x3" in n for n in names) == 1, names
    vmfbs = build_llvm_cpu({"ours": ours, "reference": reference}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "unit", (1, 14, 14, 116))


def residual_unit(channels: int = 400, size: int = 7, seed: int = 0) -> str:
    """RegNetX's 7x7 stage, channels last: 1x1 conv + bias + ReLU, 1x1 conv + bias, residual add
    of the block's input, ReLU, then a global sum."""
    rng = np.random.default_rng(seed)
    c, t = channels, f"tensor<1x{size}x{size}x{channels}xf32>"
    w1, w2 = (rng.standard_normal((1, 1, c, c)) * 0.05 for _ in range(2))
    b1, b2 = (rng.standard_normal(c) * 0.1 for _ in range(2))
    conv = ("linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} "
            f"ins(%IN, %W : {t}, tensor<1x1x{c}x{c}xf32>) outs(%f : {t}) -> {t}")
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    channel = "affine_map<(d0, d1, d2, d3) -> (d3)>"
    par = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""func.func @unit(%x: {t}) -> tensor<{c}xf32> {{
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant {dense(w1)} : tensor<1x1x{c}x{c}xf32>
  %w2 = arith.constant {dense(w2)} : tensor<1x1x{c}x{c}xf32>
  %b1 = arith.constant {dense(b1)} : tensor<{c}xf32>
  %b2 = arith.constant {dense(b2)} : tensor<{c}xf32>
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %c1 = {conv.replace("%IN", "%x").replace("%W", "%w1")}
  %r1 = linalg.generic {{indexing_maps = [{ident}, {channel}, {ident}], iterator_types = {par}}} ins(%c1, %b1 : {t}, tensor<{c}xf32>) outs(%e : {t}) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }} -> {t}
  %c2 = {conv.replace("%IN", "%r1").replace("%W", "%w2")}
  %r2 = linalg.generic {{indexing_maps = [{ident}, {channel}, {ident}, {ident}], iterator_types = {par}}} ins(%c2, %b2, %x : {t}, tensor<{c}xf32>, {t}) outs(%e : {t}) {{
  ^bb0(%i: f32, %j: f32, %k: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    %s = arith.addf %a, %k : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  }} -> {t}
{channel_sum("%r2", t, c)}"""


def test_small_residual_unit_computes_the_same():
    after = assert_pass_preserves_semantics(residual_unit(channels=144, size=3), PASS)
    assert padded_convs(after)[0] == [160, 160]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_regnet_unit_and_agrees(tmp_path: Path):
    """RegNetX's 400-filter 1x1 convs at 7x7 compute 416 filters, packed in 13 panels of 32
    (their residual add reads the second one's result through a slice), build, and compute what
    IREE's own build of the unpadded unit computes, on random and offset inputs."""
    text = residual_unit()
    names, ours, reference = formed_and_reference(text, tmp_path)
    assert sum("7x7x13x32x400" in n for n in names) == 2, names
    vmfbs = build_llvm_cpu({"ours": ours, "reference": reference}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "unit", (1, 7, 7, 400))


def stacked_conv_unit(channels: int = 128, filters: int = 230, depth: int = 8, size: int = 28, seed: int = 0) -> str:
    """R(2+1)D's (1, 3, 3) conv as the import writes it: a 3x3 conv over `depth` slices stacked
    along H (each padded by a row above and below, so each slice's last output row spans two
    slices), channels last, transposed back to NCDHW, the spare row of each slice cropped, bias
    and ReLU."""
    rng = np.random.default_rng(seed)
    c, f, d, s = channels, filters, depth, size
    rows, out = d * (s + 2), d * (s + 2) - 2
    w = rng.standard_normal((3, 3, c, f)) * (1.0 / (3 * np.sqrt(c)))
    b = rng.standard_normal(f) * 0.1
    x, y = f"tensor<1x{rows}x{s + 2}x{c}xf32>", f"tensor<1x{out}x{s}x{f}xf32>"
    n, g, cut = f"tensor<1x{f}x{out}x{s}xf32>", f"tensor<1x{f}x{d}x{s + 2}x{s}xf32>", f"tensor<1x{f}x{d}x{s}x{s}xf32>"
    par5 = ", ".join(['"parallel"'] * 5)
    return f"""func.func @unit(%x: {x}) -> {cut} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<3x3x{c}x{f}xf32>
  %b = arith.constant {dense(b)} : tensor<{f}xf32>
  %e = tensor.empty() : {y}
  %fl = linalg.fill ins(%z : f32) outs(%e : {y}) -> {y}
  %cv = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : {x}, tensor<3x3x{c}x{f}xf32>) outs(%fl : {y}) -> {y}
  %et = tensor.empty() : {n}
  %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%cv : {y}) outs(%et : {n}) {{
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }} -> {n}
  %tp = tensor.pad %t low[0, 0, 0, 0] high[0, 0, 2, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {n} to tensor<1x{f}x{rows}x{s}xf32>
  %g = tensor.expand_shape %tp [[0], [1], [2, 3], [4]] output_shape [1, {f}, {d}, {s + 2}, {s}] : tensor<1x{f}x{rows}x{s}xf32> into {g}
  %sl = tensor.extract_slice %g[0, 0, 0, 0, 0] [1, {f}, {d}, {s}, {s}] [1, 1, 1, 1, 1] : {g} to {cut}
  %er = tensor.empty() : {cut}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = [{par5}]}} ins(%sl, %b : {cut}, tensor<{f}xf32>) outs(%er : {cut}) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }} -> {cut}
  func.return %r : {cut}
}}
"""


def test_small_stacked_conv_unit_computes_the_same():
    after = assert_pass_preserves_semantics(stacked_conv_unit(channels=32, filters=20, depth=2, size=4), PASS)
    assert padded_convs(after)[0] == [32]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_stacked_conv_unit_and_agrees(tmp_path: Path):
    """R(2+1)D's 128 -> 230 (1, 3, 3) conv over 8 stacked slices of 28x28 computes 240 filters
    (`kxk-slice-min-taps`: 1152 products an output), builds, and computes what IREE's own build
    of the unpadded unit computes, on random and offset inputs."""
    text = stacked_conv_unit()
    names, ours, reference = formed_and_reference(text, tmp_path)
    assert sum("conv_2d_nhwc_hwcf_1x238x28x240x3x3x128" in n for n in names) == 1, names
    vmfbs = build_llvm_cpu({"ours": ours, "reference": reference}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "unit", (1, 240, 30, 128))
