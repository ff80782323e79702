"""`linalg-collapse-transpose-dims`: transposing copies over collapsed dims copy the same elements
(random and adversarial inputs, floats and integers, against a float64 run of the input program),
alone and through `dispatch-creation-llvm-cpu` with no more regions; the pass fires where it
should only; IREE builds a CNN's 224x224 NCHW image written channels last for its stem conv as
its own 3 x 50176 transpose kernel, computing what IREE's own build computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, dense, pipeline_with_and_without, regions, runs_on_cpu_only
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-collapse-transpose-dims"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-collapse-transpose-dims.mlir"
# case -> ranks of the copies after the pass (transposes and copy generics, in order)
COPY_RANKS = {"nchw_to_nhwc": [2], "channel_shuffle": [3], "unit_dims_inside": [2], "left_alone": [3, 4, 4, 3]}


def copy_ranks(module) -> list[int]:
    return [op.results[0].type.get_num_dims() for op in module.walk()
            if op.name in ("linalg.transpose", "linalg.generic")]


@pytest.mark.parametrize("name", sorted(COPY_RANKS))
def test_collapsed_copies_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert copy_ranks(after) == COPY_RANKS[name]


@pytest.mark.parametrize("name", sorted(COPY_RANKS))
def test_regions_compute_the_same_with_no_more_dispatches(name: str):
    after, before = pipeline_with_and_without(lit_functions(LIT)[name], PASS)
    assert regions(after) == before


def test_the_cpu_pipelines_collapse_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


def stem(size: int = 224, filters: int = 32, seed: int = 0) -> str:
    """A CNN's NCHW image written channels last, padded, and read by a 3x3 stride-2 conv."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((3, 3, 3, filters)) * 0.2
    half, padded = size // 2, size + 2
    image, nhwc, out = f"tensor<1x3x{size}x{size}xf32>", f"tensor<1x{size}x{size}x3xf32>", f"tensor<1x{half}x{half}x{filters}xf32>"
    return f"""func.func @stem(%x: {image}) -> {out} {{
  %z = arith.constant 0.0 : f32
  %w = arith.constant {dense(w)} : tensor<3x3x3x{filters}xf32>
  %e = tensor.empty() : {nhwc}
  %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%x : {image}) outs(%e : {nhwc}) {{
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }} -> {nhwc}
  %p = tensor.pad %t low[0, 1, 1, 0] high[0, 1, 1, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : {nhwc} to tensor<1x{padded}x{padded}x3xf32>
  %eo = tensor.empty() : {out}
  %f = linalg.fill ins(%z : f32) outs(%eo : {out}) -> {out}
  %c = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}} ins(%p, %w : tensor<1x{padded}x{padded}x3xf32>, tensor<3x3x3x{filters}xf32>) outs(%f : {out}) -> {out}
  func.return %c : {out}
}}
"""


def test_small_stem_computes_the_same():
    after = assert_pass_preserves_semantics(stem(size=8, filters=4), PASS)
    assert copy_ranks(after) == [2]


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_stem_with_its_own_transpose_kernel_and_agrees(tmp_path: Path):
    text = stem()
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    ours.write_text(print_module(apply_pipeline(text, CPU)))
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags("host"))
    assert any("transpose_3x50176" in n for n in names), names
    vmfbs = build_llvm_cpu({"ours": ours.read_text(), "reference": reference.read_text()}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "stem", (1, 3, 224, 224))
