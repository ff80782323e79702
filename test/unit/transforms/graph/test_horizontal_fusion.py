"""Equivalence and structure tests for `graph-horizontal-fuse-dots` and
`graph-hoist-pointwise-above-slices` (the lit tests check the IR shape in detail).

Models come from examples/gen_mlp_towers.py (random dense weights, so a lane mix-up changes
the numbers) and every rewrite is checked with the interpreter harness on random inputs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from fusionopt.ir_io import parse_file
from fusionopt.stats import compute_stats
from fusionopt.testing import assert_pass_preserves_semantics

ROOT = Path(__file__).resolve().parents[4]
FUSE = "graph-horizontal-fuse-dots"
HOIST = "graph-hoist-pointwise-above-slices"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_mlp_towers", ROOT / "examples/gen_mlp_towers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_mlp_towers"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


gen = _generator()
Layer = gen.Layer


def op_count(module, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


def fused(text: str, pipeline: str = FUSE):
    return assert_pass_preserves_semantics(text, pipeline)


def test_small_mlp_towers_become_three_batched_dots():
    text = (ROOT / "test/data/mlp_towers_small.mlir").read_text()
    assert op_count(parse_file(ROOT / "test/data/mlp_towers_small.mlir"), "graph.dot") == 12
    module = fused(text)
    assert op_count(module, "graph.dot") == 3
    # Every bias add and SiLU absorbed: one add, one sigmoid, one mul per fused layer.
    assert op_count(module, "graph.add") == 3
    assert op_count(module, "graph.sigmoid") == 3
    assert op_count(module, "graph.mul") == 3
    # No slice/concat round trip between layers, and the final concat folds away.
    assert op_count(module, "graph.slice") == 0
    assert op_count(module, "graph.concat") == 0


def test_fusion_reduces_kernels_and_keeps_bytes_moved_bounded():
    path = ROOT / "test/data/mlp_towers_small.mlir"
    before = compute_stats(parse_file(path))["total"]
    after = compute_stats(fused(path.read_text()))["total"]
    assert after["kernels"] < before["kernels"]
    assert after["bytes_moved"] <= before["bytes_moved"]


def test_mixed_groups_six_towers_two_without_silu():
    towers = gen.uniform_towers(4, 8, 4) + [[Layer(8, False), Layer(8, False), Layer(4, False)]] * 2
    module = fused(gen.build_module(towers, in_dim=8, seed=3))
    assert op_count(module, "graph.dot") == 6  # 3 layers x {SiLU group, plain group}
    assert op_count(module, "graph.sigmoid") == 3


def test_towers_of_different_depths():
    deep = [Layer(8), Layer(8), Layer(4)]
    shallow = [Layer(8), Layer(4)]
    module = fused(gen.build_module([deep, deep, shallow, shallow], in_dim=8, seed=4))
    # layer 0: one dot for all four; layer 1: deep pair + shallow pair; layer 2: deep pair.
    assert op_count(module, "graph.dot") == 4


def test_rows_greater_than_one_use_transposed_lanes():
    module = fused(gen.build_module(gen.uniform_towers(3, 8, 4), in_dim=8, rows=3, seed=5))
    assert op_count(module, "graph.dot") == 3


def test_f16_towers_are_equivalent():
    text = gen.build_module(gen.uniform_towers(4, 16, 4), in_dim=16, dtype="f16", seed=6)
    module = assert_pass_preserves_semantics(text, FUSE, rtol=2e-2, atol=2e-3)
    assert op_count(module, "graph.dot") == 3


FANOUT = """
func.func @fanout(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>) {
  %wa = arith.constant dense<[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6], [0.7, 0.8]]> : tensor<4x2xf32>
  %wb = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.5, 2.5, 3.5]]> : tensor<4x3xf32>
  %wc = arith.constant dense<[[0.1, 0.2, 0.3, 0.4, 0.5], [0.6, 0.7, 0.8, 0.9, 1.0], [-1.0, -0.9, -0.8, -0.7, -0.6], [0.0, 0.5, 0.0, 0.5, 0.0]]> : tensor<4x5xf32>
  %a = graph.dot %x, %wa : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %b = graph.dot %x, %wb : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %c = graph.dot %x, %wc : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %a, %b, %c : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>
}
"""


def test_shared_input_fanout_with_different_n():
    module = fused(FANOUT)
    assert op_count(module, "graph.dot") == 1
    assert op_count(module, "graph.slice") == 3


RUNTIME = """
func.func @runtime(%x: tensor<1x4xf32>, %w0: tensor<4x4xf32>, %w1: tensor<4x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %d0 = graph.dot %x, %w0 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %d1 = graph.dot %x, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  func.return %d0, %d1 : tensor<1x4xf32>, tensor<1x4xf32>
}
"""


def test_runtime_weights_need_the_option():
    assert op_count(fused(RUNTIME), "graph.dot") == 2
    module = fused(RUNTIME, FUSE + "{allow-runtime-concat=true}")
    assert op_count(module, "graph.dot") == 1
    assert op_count(module, "graph.concat") == 1


def test_dependent_members_are_unchanged():
    text = gen.build_module([[Layer(8, False), Layer(8, False)]], in_dim=8, seed=7)
    module = fused(text)
    assert op_count(module, "graph.dot") == 2


@pytest.mark.parametrize("min_group, dots", [(4, 3), (5, 12)])
def test_min_group(min_group, dots):
    text = (ROOT / "test/data/mlp_towers_small.mlir").read_text()
    assert op_count(fused(text, f"{FUSE}{{min-group={min_group}}}"), "graph.dot") == dots


def test_hoist_lit_cases_are_equivalent():
    text = (ROOT / "test/lit/transforms/graph/graph-hoist-pointwise-above-slices.mlir").read_text()
    for chunk in text.split("// -----"):
        assert_pass_preserves_semantics(chunk, HOIST)


def test_fuse_lit_cases_are_equivalent():
    text = (ROOT / "test/lit/transforms/graph/graph-horizontal-fuse-dots.mlir").read_text()
    for chunk in text.split("// -----"):
        tol = {"rtol": 2e-2, "atol": 2e-3} if "f16" in chunk else {}
        assert_pass_preserves_semantics(chunk, FUSE, **tol)
        assert_pass_preserves_semantics(chunk, FUSE + "{allow-runtime-concat=true}", **tol)


def test_lone_member_of_an_epilogue_kind_stays_unfused():
    towers = [[Layer(8)], [Layer(8)], [Layer(8, False)]]
    module = fused(gen.build_module(towers, in_dim=8, seed=8))
    assert op_count(module, "graph.dot") == 2  # the SiLU pair fused, the plain dot alone
    assert op_count(module, "graph.sigmoid") == 1
