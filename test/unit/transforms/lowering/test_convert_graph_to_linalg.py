"""convert-graph-to-linalg: every graph op lowers, the result is equivalent and iree-opt accepts it."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from support.graph_strategies import graph_programs
from fusionopt.ir_io import print_module
from fusionopt.stats import compute_stats
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, random_inputs, run_module

ALL_OPS = """
func.func @main(%a: tensor<4x8xf32>, %h: tensor<4x8xf16>, %i: tensor<4x8xi32>, %t: tensor<16x8xf32>,
                %m: tensor<2x8x4xf32>, %n: tensor<2x4x5xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>,
    tensor<4x8xi32>, tensor<8x4xf32>, tensor<2x16xf32>, tensor<4x4xf32>, tensor<4x16xf32>,
    tensor<6x8xf32>, tensor<4x1xf32>, tensor<1x8xf32>, tensor<4x1xf32>, tensor<2x3x8xf32>,
    tensor<2x8x5xf32>, tensor<4x8xi32>, tensor<3x4x8xf32>, tensor<4x1xi32>, tensor<4x1xf16>, tensor<8x8xf16>) {
  %idx = arith.constant dense<[[0, 5, -1], [15, 2, 7]]> : tensor<2x3xi64>
  %0 = graph.sigmoid %a : tensor<4x8xf32>
  %1 = graph.tanh %0 : tensor<4x8xf32>
  %2 = graph.erf %1 : tensor<4x8xf32>
  %3 = graph.abs %a : tensor<4x8xf32>
  %4 = graph.rsqrt %3 : tensor<4x8xf32>
  %5 = graph.pow %3, %2 : tensor<4x8xf32>
  %6 = graph.recip %4 : tensor<4x8xf32>
  %7 = graph.max %5, %6 : tensor<4x8xf32>
  %h1 = graph.exp %h : tensor<4x8xf16>
  %h2 = graph.mul %h1, %h : tensor<4x8xf16>
  %i1 = graph.neg %i : tensor<4x8xi32>
  %i2 = graph.abs %i1 : tensor<4x8xi32>
  %i3 = graph.add %i2, %i : tensor<4x8xi32>
  %i4 = graph.relu %i3 : tensor<4x8xi32>
  %tr = graph.transpose %a perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %rs = graph.reshape %a : tensor<4x8xf32> -> tensor<2x16xf32>
  %sl = graph.slice %a axes = [1] starts = [2] ends = [6] : tensor<4x8xf32> -> tensor<4x4xf32>
  %cc = graph.concat %a, %7 axis = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %pd = graph.pad %a low = [1, 0] high = [1, 0] value = 2.5 : tensor<4x8xf32> -> tensor<6x8xf32>
  %rsum = graph.reduce_sum %a axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %rmax = graph.reduce_max %a axes = [0] : tensor<4x8xf32> -> tensor<1x8xf32>
  %rmean = graph.reduce_mean %a axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %g = graph.gather %t, %idx axis = 0 : (tensor<16x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  %bm = graph.dot %m, %n : (tensor<2x8x4xf32>, tensor<2x4x5xf32>) -> tensor<2x8x5xf32>
  %gt = graph.greater %a, %7 : tensor<4x8xf32> -> tensor<4x8xi1>
  %w = graph.where %gt, %a, %7 : tensor<4x8xi1>, tensor<4x8xf32>
  %cv = graph.convert %w : tensor<4x8xf32> -> tensor<4x8xi32>
  %bc = graph.broadcast %a dims = [1, 2] : tensor<4x8xf32> -> tensor<3x4x8xf32>
  %isum = graph.reduce_sum %i axes = [1] : tensor<4x8xi32> -> tensor<4x1xi32>
  %hmean = graph.reduce_mean %h axes = [1] : tensor<4x8xf16> -> tensor<4x1xf16>
  %ht = graph.transpose %h perm = [1, 0] : tensor<4x8xf16> -> tensor<8x4xf16>
  %hd = graph.dot %ht, %h : (tensor<8x4xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  return %w, %h2, %i4, %tr, %rs, %sl, %cc, %pd, %rsum, %rmax, %rmean, %g, %bm, %cv, %bc, %isum, %hmean, %hd
    : tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xi32>, tensor<8x4xf32>, tensor<2x16xf32>,
      tensor<4x4xf32>, tensor<4x16xf32>, tensor<6x8xf32>, tensor<4x1xf32>, tensor<1x8xf32>,
      tensor<4x1xf32>, tensor<2x3x8xf32>, tensor<2x8x5xf32>, tensor<4x8xi32>, tensor<3x4x8xf32>,
      tensor<4x1xi32>, tensor<4x1xf16>, tensor<8x8xf16>
}
"""


def op_names(module) -> list[str]:
    return [op.name for op in module.walk()]


def test_every_op_lowers_and_is_equivalent():
    after = assert_pass_preserves_semantics(ALL_OPS, "convert-graph-to-linalg", seeds=(0, 1, 2))
    names = op_names(after)
    assert not [n for n in names if n.startswith("graph.")]
    for expected in ("linalg.matmul", "linalg.batch_matmul", "linalg.fill", "tensor.extract",
                     "tensor.pad", "tensor.concat", "tensor.extract_slice", "tensor.expand_shape"):
        assert expected in names, expected


def test_negative_gather_index_counts_from_the_end():
    text = """
func.func @main(%t: tensor<4x2xf32>) -> tensor<1x2xf32> {
  %i = arith.constant dense<[-1]> : tensor<1xi64>
  %g = graph.gather %t, %i axis = 0 : (tensor<4x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
  return %g : tensor<1x2xf32>
}"""
    after = apply_pipeline(text, "convert-graph-to-linalg")
    table = np.arange(8, dtype=np.float32).reshape(4, 2)
    [result] = run_module(after, [table])
    np.testing.assert_array_equal(result, table[-1:])


def test_float_to_int_convert_saturates_and_maps_nan_to_zero():
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> {
  %r = graph.convert %x : tensor<4xf32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}"""
    after = apply_pipeline(text, "convert-graph-to-linalg")
    [result] = run_module(after, [np.array([np.nan, -2.7, 3e10, -3e10], dtype=np.float32)])
    assert result[0] == 0 and result[1] == -2
    assert result[2] > 2**30 and result[3] == -(2**31)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt not installed")
def test_output_round_trips_through_iree_opt():
    text = print_module(apply_pipeline(ALL_OPS, "convert-graph-to-linalg"))
    done = subprocess.run(["iree-opt"], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_programs(max_ops=8))
def test_random_programs_lower_equivalently(program):
    after = assert_pass_preserves_semantics(program, "convert-graph-to-linalg", seeds=(0,), rtol=2e-3, atol=1e-4)
    assert not [n for n in op_names(after) if n.startswith("graph.")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_programs(max_ops=8))
def test_random_programs_lower_and_fuse_equivalently(program):
    lowered = apply_pipeline(program, "convert-graph-to-linalg")
    fused = assert_pass_preserves_semantics(print_module(lowered), "linalg-fuse-elementwise", seeds=(0,),
                                            rtol=2e-3, atol=1e-4)
    # every fusion group replaces its ops by one kernel; duplicated producers stay, so never more
    assert kernels(fused) <= kernels(lowered)


def kernels(module) -> int:
    """fusion-stats kernels (a top-level tensor.pad counts: it materialises a new tensor)."""
    return compute_stats(module)["total"]["kernels"]


def test_converts_round_exactly_like_the_graph_semantics():
    text = """
func.func @main(%x: tensor<64xf64>, %y: tensor<64xf16>, %z: tensor<64xbf16>, %i: tensor<64xi64>)
    -> (tensor<64xf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xf16>, tensor<64xi32>, tensor<64xi1>, tensor<64xf64>) {
  %0 = graph.convert %x : tensor<64xf64> -> tensor<64xf16>
  %1 = graph.convert %x : tensor<64xf64> -> tensor<64xbf16>
  %2 = graph.convert %y : tensor<64xf16> -> tensor<64xbf16>
  %3 = graph.convert %z : tensor<64xbf16> -> tensor<64xf16>
  %4 = graph.convert %i : tensor<64xi64> -> tensor<64xi32>
  %5 = graph.convert %y : tensor<64xf16> -> tensor<64xi1>
  %6 = graph.convert %i : tensor<64xi64> -> tensor<64xf64>
  return %0, %1, %2, %3, %4, %5, %6
    : tensor<64xf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xf16>, tensor<64xi32>, tensor<64xi1>, tensor<64xf64>
}"""
    assert_pass_preserves_semantics(text, "convert-graph-to-linalg", seeds=(0, 1, 2, 3), rtol=0, atol=0)
