"""`linalg-horizontal-fuse-1x1-convs`: sibling stride-1 1x1 convs of one filter count as one rank-3
multi-result contraction, their elementwise epilogues moved to its loops.

- equivalence: every case of the lit test computes the same, default options and
  `max-results=2`, on random and adversarial inputs against a float64 run of the input program
  (`assert_pass_preserves_semantics`);
- the pass really fires where it should and not elsewhere (convs left per case), and counts it;
- IREE builds the fused form of an Inception block's siblings with their padded results in one
  dispatch, no copy, equal to IREE's own build of the input program.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt import pass_statistics
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_bit_equal_on_families
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-horizontal-fuse-1x1-convs"
CAP = "linalg-horizontal-fuse-1x1-convs{max-results=2}"
IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"
# case -> convs left by (default, max-results=2)
CONVS_LEFT = {
    "siblings_with_epilogues": (0, 0),
    "three_siblings": (0, 1),
    "filter_counts_differ": (2, 2),
    "strided": (2, 2),
    "different_inputs": (2, 2),
    "weight_computed_later": (2, 2),
    "epilogue_reads_an_image": (0, 0),
}
# case -> epilogues moved to the rank-3 loops
EPILOGUES_MOVED = {"siblings_with_epilogues": 2, "epilogue_reads_an_image": 0}


def cases() -> dict[str, str]:
    return lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-horizontal-fuse-1x1-convs.mlir")


def count_convs(module) -> int:
    return sum(op.name == "linalg.conv_2d_nchw_fchw" for op in module.walk())


def test_every_lit_case_is_pinned():
    assert sorted(cases()) == sorted(CONVS_LEFT)


@pytest.mark.parametrize("pipeline", (PASS, CAP))
@pytest.mark.parametrize("name", sorted(CONVS_LEFT))
def test_fusion_computes_the_same(name: str, pipeline: str):
    after = assert_pass_preserves_semantics(cases()[name], pipeline)
    assert count_convs(after) == CONVS_LEFT[name][pipeline == CAP]


@pytest.mark.parametrize("name", sorted(EPILOGUES_MOVED))
def test_statistics_count_fused_convs_and_moved_epilogues(name: str):
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(PASS, stats):
        apply_pipeline(cases()[name], PASS)
    [(_, counters)] = stats.runs
    assert counters["1x1 convs fused horizontally"] == 2
    assert counters.get("epilogues moved to the rank-3 loops", 0) == EPILOGUES_MOVED[name]


INCEPTION_SIBLINGS = """
func.func @siblings(%x: tensor<1x32x16x16xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>,
                    %ba: tensor<16xf32>, %bb: tensor<16xf32>) -> (tensor<1x16x18x18xf32>, tensor<1x16x20x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x16x16xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wb : tensor<1x32x16x16xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %ra = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %ba : tensor<1x16x16x16xf32>, tensor<16xf32>) outs(%e : tensor<1x16x16x16xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x16x16xf32>
  %rb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %bb : tensor<1x16x16x16xf32>, tensor<16xf32>) outs(%e : tensor<1x16x16x16xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x16x16xf32>
  %pa = tensor.pad %ra low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x16xf32> to tensor<1x16x18x18xf32>
  %pb = tensor.pad %rb low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x16xf32> to tensor<1x16x20x20xf32>
  func.return %pa, %pb : tensor<1x16x18x18xf32>, tensor<1x16x20x20xf32>
}
"""


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_iree_builds_padded_siblings_in_one_dispatch(tmp_path: Path):
    """An Inception block's 1x1 branch and reduction, each result padded for its next conv: one
    dispatch (IREE's own build: two), no `slow_memcpy`, both outputs bit-equal to IREE's own
    build of the input on random, constant, large-offset and extreme inputs."""
    pipeline = f"{PASS},form-dispatch-regions,cse,canonicalize"
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(INCEPTION_SIBLINGS, pipeline)))
    reference = tmp_path / "reference.mlir"
    reference.write_text(INCEPTION_SIBLINGS)
    [dispatch] = flow_dispatch_names(ours, cpu_flags())
    assert "slow_memcpy" not in dispatch
    assert len(flow_dispatch_names(reference, cpu_flags())) == 2
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags())
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags())
    assert_bit_equal_on_families(ours_vmfb, ref_vmfb, INCEPTION_SIBLINGS, "siblings")
