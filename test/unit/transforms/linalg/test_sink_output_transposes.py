"""`linalg-sink-output-transposes`: an elementwise generic that wrote its result permuted writes it
in loop order and its readers take the permutation; the lit cases compute what the input program
computes on random and adversarial inputs (against a float64 run), alone and through
`dispatch-creation-llvm-cpu` with no more regions; the pass fires where it should only (the lit
negatives); the CPU pipelines run it and the CUDA ones do not; IREE builds a squeeze-excitation
block at EfficientNet's 60x60x144 size from the CPU pipeline with no transposing dispatch left,
computing what its own build computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.common import dispatch_utils as du
from support.cpu_pipeline_cases import CPU, dense, pipeline_with_and_without, regions, runs_on_cpu_only
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-sink-output-transposes"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-sink-output-transposes.mlir"
# case -> generics still writing a permuted result after the pass
PERMUTED = {"se_scale": 0, "left_alone": 2}


def permuted_writers(module) -> int:
    """All-parallel generics whose output map is not the identity (a permuted write)."""
    return sum(op.name == "linalg.generic" and du.is_all_parallel(op) and not du.is_identity_map(du.indexing_maps(op)[-1])
               for op in module.walk())


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(PERMUTED)


@pytest.mark.parametrize("name", sorted(PERMUTED))
def test_the_lit_cases_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert permuted_writers(after) == PERMUTED[name]


@pytest.mark.parametrize("name", sorted(PERMUTED))
def test_regions_compute_the_same_with_no_more_dispatches(name: str):
    after, before = pipeline_with_and_without(lit_functions(LIT)[name], PASS)
    assert regions(after) <= before


def test_the_cpu_pipelines_run_it_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def squeeze_excite(channels: int = 144, size: int = 60, seed: int = 0) -> str:
    """A depthwise 3x3 conv + SiLU over an NCHW image, its spatial mean, sigmoid, the scale, and
    a 1x1 projection: EfficientNet-B1's second stage, as the ONNX import writes it."""
    rng = np.random.default_rng(seed)
    dw, proj = rng.standard_normal((channels, 1, 3, 3)) * 0.3, rng.standard_normal((24, channels, 1, 1)) * 0.1
    c, s, p = channels, size, size + 2
    image, padded, pooled = f"tensor<1x{c}x{s}x{s}xf32>", f"tensor<1x{c}x{p}x{p}xf32>", f"tensor<1x{c}xf32>"
    out = f"tensor<1x24x{s}x{s}xf32>"
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    return f"""func.func @main(%x: {image}) -> {out} {{
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %area = arith.constant {float(s * s)} : f32
  %wd = arith.constant {dense(dw)} : tensor<{c}x1x3x3xf32>
  %wp = arith.constant {dense(proj)} : tensor<24x{c}x1x1xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {image} to {padded}
  %wdc = tensor.collapse_shape %wd [[0, 1], [2], [3]] : tensor<{c}x1x3x3xf32> into tensor<{c}x3x3xf32>
  %e = tensor.empty() : {image}
  %f = linalg.fill ins(%z : f32) outs(%e : {image}) -> {image}
  %d = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%xp, %wdc : {padded}, tensor<{c}x3x3xf32>) outs(%f : {image}) -> {image}
  %y = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%d : {image}) outs(%e : {image}) {{
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %x1 = math.exp %n : f32
    %d1 = arith.addf %x1, %one : f32
    %sg = arith.divf %a, %d1 : f32
    linalg.yield %sg : f32
  }} -> {image}
  %em = tensor.empty() : {pooled}
  %fm = linalg.fill ins(%z : f32) outs(%em : {pooled}) -> {pooled}
  %m = linalg.generic {{indexing_maps = [{ident}, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins(%y : {image}) outs(%fm : {pooled}) {{
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  }} -> {pooled}
  %sc = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1)>, {ident}, {ident}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%m, %y : {pooled}, {image}) outs(%e : {image}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %mean = arith.divf %a, %area : f32
    %n = arith.negf %mean : f32
    %x1 = math.exp %n : f32
    %d1 = arith.addf %x1, %one : f32
    %g = arith.divf %one, %d1 : f32
    %t = arith.mulf %g, %b : f32
    linalg.yield %t : f32
  }} -> {image}
  %eo = tensor.empty() : {out}
  %fo = linalg.fill ins(%z : f32) outs(%eo : {out}) -> {out}
  %o = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%sc, %wp : {image}, tensor<24x{c}x1x1xf32>) outs(%fo : {out}) -> {out}
  func.return %o : {out}
}}
"""


def test_the_squeeze_excite_block_loses_its_transposes():
    """Through the CPU pipeline one permuted write is left: the result's, back to NCHW for the
    function's caller."""
    after = assert_pass_preserves_semantics(squeeze_excite(16, 6), CPU, seeds=(0,), families=("random", "offset", "zeros"))
    assert permuted_writers(after) == 1


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_block_without_transposing_dispatches(tmp_path: Path):
    text = squeeze_excite()
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, CPU)))
    names = flow_dispatch_names(ours, cpu_flags("host"))
    assert not any("elementwise_transpose" in n for n in names), names
    vmfbs = build_llvm_cpu({"ours": ours.read_text(), "reference": print_module(parse_module(text))}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "main", (1, 144, 60, 60))
