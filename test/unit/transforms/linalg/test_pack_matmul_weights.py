"""`linalg-pack-matmul-weights`: matmuls over constant weights read as [N/P, K, P] panels, the
result collapsed back (rows split to an image or with a unit dim folded in), compute what the
input program computes on random and adversarial inputs against a float64 run of the input
program, alone and through `dispatch-creation-llvm-cpu` (with no more regions than without the
pass); the pass fires where it should only; IREE builds a ConvNeXt MLP block at its real 7x7
size from the packed regions and computes what its own build of the unpacked block computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, dense, packed_contractions, pipeline_with_and_without, regions, runs_on_cpu_only, without_pass
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-pack-matmul-weights"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-pack-matmul-weights.mlir"
PACKED = {"bias_relu": 1, "rows_split_to_an_image": 1, "unit_dim_before_the_columns": 1,
          "epilogue_adds_a_unit_dim": 1, "batch_matmul_over_a_constant": 1, "left_alone": 0}


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(PACKED)


@pytest.mark.parametrize("name", sorted(PACKED))
def test_packed_matmuls_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert packed_contractions(after) == PACKED[name]


@pytest.mark.parametrize("name", sorted(PACKED))
def test_regions_compute_the_same_with_no_more_dispatches(name: str):
    after, before = pipeline_with_and_without(lit_functions(LIT)[name], PASS)
    assert regions(after) <= before


def test_the_cpu_pipelines_pack_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def linear(name: str, x: str, w: str, rows: int, k: int, n: int, image: int) -> str:
    """`x` [rows, k] times `w` [k, n], split to [1, image, image, n] (ONNX MatMul over NHWC)."""
    return f"""  {name}_e = tensor.empty() : tensor<{rows}x{n}xf32>
  {name}_f = linalg.fill ins(%z : f32) outs({name}_e : tensor<{rows}x{n}xf32>) -> tensor<{rows}x{n}xf32>
  {name}_m = linalg.matmul ins({x}, {w} : tensor<{rows}x{k}xf32>, tensor<{k}x{n}xf32>) outs({name}_f : tensor<{rows}x{n}xf32>) -> tensor<{rows}x{n}xf32>
  {name} = tensor.expand_shape {name}_m [[0, 1, 2], [3]] output_shape [1, {image}, {image}, {n}] : tensor<{rows}x{n}xf32> into tensor<1x{image}x{image}x{n}xf32>
"""


def mlp_block(image: int = 7, channels: int = 768, seed: int = 0) -> str:
    """ConvNeXt's inverted MLP over a normalised [1, H, W, C] image: Linear C -> 4C + bias +
    GELU (erf), Linear 4C -> C + bias, the layer scale and the residual add."""
    rng = np.random.default_rng(seed)
    s, c, h, rows = image, channels, 4 * channels, image * image
    w1, w2 = rng.standard_normal((c, h)) * 0.03, rng.standard_normal((h, c)) * 0.02
    b1, b2, gamma = rng.standard_normal(h) * 0.1, rng.standard_normal(c) * 0.1, rng.standard_normal(c)
    ti, th = f"tensor<1x{s}x{s}x{c}xf32>", f"tensor<1x{s}x{s}x{h}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    chan = "affine_map<(d0, d1, d2, d3) -> (d3)>"
    par = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""func.func @mlp(%x: {ti}) -> {ti} {{
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant {dense(w1)} : tensor<{c}x{h}xf32>
  %w2 = arith.constant {dense(w2)} : tensor<{h}x{c}xf32>
  %b1 = arith.constant {dense(b1)} : tensor<{h}xf32>
  %b2 = arith.constant {dense(b2)} : tensor<{c}xf32>
  %g = arith.constant {dense(gamma)} : tensor<{c}xf32>
  %xf = tensor.collapse_shape %x [[0, 1, 2], [3]] : {ti} into tensor<{rows}x{c}xf32>
{linear("%l1", "%xf", "%w1", rows, c, h, s)}  %eh = tensor.empty() : {th}
  %a = linalg.generic {{indexing_maps = [{ident}, {chan}, {ident}], iterator_types = {par}}} ins(%l1, %b1 : {th}, tensor<{h}xf32>) outs(%eh : {th}) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %v = arith.addf %i, %j : f32
    %half = arith.constant 0.5 : f32
    %root = arith.constant 1.41421354 : f32
    %one = arith.constant 1.0 : f32
    %q = arith.divf %v, %root : f32
    %erf = math.erf %q : f32
    %p = arith.addf %erf, %one : f32
    %hp = arith.mulf %half, %p : f32
    %r = arith.mulf %v, %hp : f32
    linalg.yield %r : f32
  }} -> {th}
  %af = tensor.collapse_shape %a [[0, 1, 2], [3]] : {th} into tensor<{rows}x{h}xf32>
{linear("%l2", "%af", "%w2", rows, h, c, s)}  %ei = tensor.empty() : {ti}
  %y = linalg.generic {{indexing_maps = [{ident}, {chan}, {chan}, {ident}, {ident}], iterator_types = {par}}} ins(%l2, %b2, %g, %x : {ti}, tensor<{c}xf32>, tensor<{c}xf32>, {ti}) outs(%ei : {ti}) {{
  ^bb0(%i: f32, %j: f32, %k: f32, %res: f32, %o: f32):
    %v = arith.addf %i, %j : f32
    %sc = arith.mulf %v, %k : f32
    %r = arith.addf %sc, %res : f32
    linalg.yield %r : f32
  }} -> {ti}
  func.return %y : {ti}
}}
"""


def test_small_mlp_block_computes_the_same_in_as_many_regions():
    text = mlp_block(image=2, channels=96)
    after = assert_pass_preserves_semantics(text, CPU)
    assert packed_contractions(after) == 2
    assert regions(after) == regions(apply_pipeline(text, without_pass(CPU, PASS)))


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_packed_mlp_block_and_agrees(tmp_path: Path):
    """dispatch-creation-llvm-cpu's regions (both linears packed, 7x7 768 -> 3072 -> 768, each
    with its epilogue) build, and compute what IREE's own build of the block computes, on random
    and offset inputs."""
    text = mlp_block()
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    ours.write_text(print_module(apply_pipeline(text, CPU)))
    reference.write_text(print_module(parse_module(text)))
    assert packed_contractions(parse_module(ours.read_text())) == 2
    names = flow_dispatch_names(ours, cpu_flags("host"))
    assert len(names) == 2 and all("matmul_like" in n and "x64x" in n for n in names), names
    vmfbs = build_llvm_cpu({"ours": ours.read_text(), "reference": reference.read_text()}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "mlp", (1, 7, 7, 768))
