"""`linalg-pack-conv-filters`: 1x1 convs over constant filters read as [F/P, C, P] panels, the
result collapsed back, compute what the input program computes (bias init + ReLU, a stride-2 conv
with a transposing epilogue, a residual add of two packed convs) on random and adversarial inputs
against a float64 run of the input program, alone and through `dispatch-creation-llvm-cpu` (with
no more regions than without the pass); the pass fires where it should only; IREE builds a
ResNet-style bottleneck at a real size from the packed regions and computes what its own build
of the unpacked program computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.linalg_pack_conv_filters import panel_width, workgroup_rows
from support.cpu_pipeline_cases import CPU, dense, packed_contractions, pipeline_with_and_without, regions, runs_on_cpu_only, without_pass
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-pack-conv-filters"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-pack-conv-filters.mlir"
PACKED = {"bias_relu": 1, "strided_transposing_epilogue": 1, "two_packed_convs_added": 2, "left_alone": 0}
# Through the CPU pipeline (min-channels 32): bias_relu's conv has 2 input channels and stays a conv.
PACKED_IN_PIPELINE = {**PACKED, "bias_relu": 0}


@pytest.mark.parametrize("name", sorted(PACKED))
def test_packed_convs_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], f"{PASS}{{min-channels=1}}")
    assert packed_contractions(after) == PACKED[name]


@pytest.mark.parametrize("name", sorted(PACKED))
def test_regions_compute_the_same_with_no_more_dispatches(name: str):
    after, before = pipeline_with_and_without(lit_functions(LIT)[name], PASS)
    assert packed_contractions(after) == PACKED_IN_PIPELINE[name]
    assert regions(after) <= before


def test_the_cpu_pipelines_pack_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize("filters, panel", [(2048, 64), (96, 32), (160, 32), (144, None), (48, None), (64, None),
                                            (32, None), (24, None), (58, None)])
def test_the_wider_panel_that_makes_two_or_more(filters: int, panel: int | None):
    assert panel_width(filters) == panel


@pytest.mark.parametrize("height, width, rows", [(7, 7, 7), (14, 14, 2), (28, 28, 1), (56, 56, 1), (5, 5, 5), (9, 3, 9)])
def test_workgroups_hold_the_fewest_whole_rows_with_28_pixels(height: int, width: int, rows: int):
    assert workgroup_rows(height, width, 28) == rows


def conv(name: str, x: str, w: str, init: str, x_type: str, w_type: str, out: str, stride: int = 1) -> str:
    return (f"  {name} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : "
            f"vector<2xi64>}} ins({x}, {w} : {x_type}, {w_type}) outs({init} : {out}) -> {out}")


def bottleneck(size: int = 14, channels: int = 256, width: int = 128, seed: int = 0) -> str:
    """ResNet's downsampling bottleneck without its 3x3 conv, channels last: a 1x1 reduction
    + bias + ReLU, a 1x1 expansion, a stride-2 1x1 downsample of the input, their sum + ReLU."""
    rng = np.random.default_rng(seed)
    s, h, c, m, o = size, size // 2, channels, width, 2 * channels
    w1, w2, wd = (rng.standard_normal(shape) * 0.05 for shape in ((1, 1, c, m), (1, 1, m, o), (1, 1, c, o)))
    b1 = rng.standard_normal(m) * 0.1
    tx, tm, to = f"tensor<1x{s}x{s}x{c}xf32>", f"tensor<1x{s}x{s}x{m}xf32>", f"tensor<1x{h}x{h}x{o}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    par = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""func.func @bottleneck(%x: {tx}) -> {to} {{
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant {dense(w1)} : tensor<1x1x{c}x{m}xf32>
  %w2 = arith.constant {dense(w2)} : tensor<1x1x{m}x{o}xf32>
  %wd = arith.constant {dense(wd)} : tensor<1x1x{c}x{o}xf32>
  %b1 = arith.constant {dense(b1)} : tensor<{m}xf32>
  %em = tensor.empty() : {tm}
  %fm = linalg.fill ins(%z : f32) outs(%em : {tm}) -> {tm}
{conv("%c1", "%x", "%w1", "%fm", tx, f"tensor<1x1x{c}x{m}xf32>", tm)}
  %r1 = linalg.generic {{indexing_maps = [{ident}, affine_map<(d0, d1, d2, d3) -> (d3)>, {ident}], iterator_types = {par}}} ins(%c1, %b1 : {tm}, tensor<{m}xf32>) outs(%em : {tm}) {{
  ^bb0(%i: f32, %j: f32, %q: f32):
    %a = arith.addf %i, %j : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  }} -> {tm}
  %eo = tensor.empty() : {to}
  %fo = linalg.fill ins(%z : f32) outs(%eo : {to}) -> {to}
{conv("%c2", "%r1", "%w2", "%fo", tm, f"tensor<1x1x{m}x{o}xf32>", to, stride=2)}
{conv("%d", "%x", "%wd", "%fo", tx, f"tensor<1x1x{c}x{o}xf32>", to, stride=2)}
  %sum = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}], iterator_types = {par}}} ins(%c2, %d : {to}, {to}) outs(%eo : {to}) {{
  ^bb0(%i: f32, %j: f32, %q: f32):
    %a = arith.addf %i, %j : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  }} -> {to}
  func.return %sum : {to}
}}
"""


def test_small_bottleneck_computes_the_same_in_as_many_regions():
    text = bottleneck(size=4, channels=48, width=96)
    after = assert_pass_preserves_semantics(text, CPU)
    assert packed_contractions(after) == 3
    assert regions(after) == regions(apply_pipeline(text, without_pass(CPU, PASS)))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_packed_bottleneck_and_agrees(tmp_path: Path):
    """dispatch-creation-llvm-cpu's regions (three packed 1x1 convs, 14x14 256 -> 128 -> 512)
    build, and compute what IREE's own build of the unpacked program computes, on random and
    offset inputs."""
    text = bottleneck()
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    ours.write_text(print_module(apply_pipeline(text, CPU)))
    reference.write_text(print_module(parse_module(text)))
    assert packed_contractions(parse_module(ours.read_text())) == 3
    names = flow_dispatch_names(ours, cpu_flags("host"))  # one per conv, each epilogue in one
    assert len(names) == 3 and all("matmul_like" in n and "x64x" in n for n in names), names
    vmfbs = build_llvm_cpu({"ours": ours.read_text(), "reference": reference.read_text()}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "bottleneck", (1, 14, 14, 256))
