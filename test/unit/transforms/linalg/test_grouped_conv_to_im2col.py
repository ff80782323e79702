"""`linalg-grouped-conv-to-im2col`: grouped convs as a per-group patch gather + filter-first
batched matmul compute what the grouped conv computes (strides, dilations, fill and bias inits,
a collapsed bias + ReLU epilogue), on random and adversarial inputs against a float64 run of the
input program, alone and through `dispatch-creation`; the pass fires where it should only; IREE
builds the regions at a RegNet size and computes what its own build of the grouped conv computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.iree_pairs import assert_agrees
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-grouped-conv-to-im2col"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-grouped-conv-to-im2col.mlir"
GROUPED = ("linalg.conv_2d_ngchw_gfchw", "linalg.conv_2d_ngchw_fgchw")
# case -> grouped convs left (by default, with min-group-channels=8)
LEFT = {"grouped_conv": (0, 1), "dilated_bias_init": (0, 0), "not_rewritten": (2, 2)}


def count_ops(module, *names: str) -> int:
    return sum(op.name in names for op in module.walk())


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("name", sorted(LEFT))
def test_gather_and_batched_matmul_compute_the_same(name: str, wide: bool):
    spec = f"{PASS}{{min-group-channels=8}}" if wide else PASS
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], spec)
    assert count_ops(after, *GROUPED) == LEFT[name][wide]


@pytest.mark.parametrize("name", ["grouped_conv", "dilated_bias_init"])
def test_regions_compute_the_same(name: str):
    """Through dispatch-creation: gather, matmul and epilogue regions, no grouped conv left."""
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], "dispatch-creation")
    assert count_ops(after, "flow.dispatch.region") >= 2
    assert count_ops(after, *GROUPED) == 0


def regnet_stage(groups: int = 25, width: int = 16, size: int = 7) -> str:
    """RegNet-X's grouped 3x3 conv (stride 1, pad 1) with its bias + ReLU, at 7x7 pixels."""
    c, p = groups * width, size + 2
    return f"""func.func @regnet_stage(%x: tensor<1x{c}x{size}x{size}xf32>, %w: tensor<{groups}x{width}x{width}x3x3xf32>, %b: tensor<{c}xf32>) -> tensor<1x{c}x{size}x{size}xf32> {{
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : tensor<1x{c}x{size}x{size}xf32> to tensor<1x{c}x{p}x{p}xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, {groups}, {width}, {p}, {p}] : tensor<1x{c}x{p}x{p}xf32> into tensor<1x{groups}x{width}x{p}x{p}xf32>
  %e = tensor.empty() : tensor<1x{groups}x{width}x{size}x{size}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x{groups}x{width}x{size}x{size}xf32>) -> tensor<1x{groups}x{width}x{size}x{size}xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%xg, %w : tensor<1x{groups}x{width}x{p}x{p}xf32>, tensor<{groups}x{width}x{width}x3x3xf32>) outs(%f : tensor<1x{groups}x{width}x{size}x{size}xf32>) -> tensor<1x{groups}x{width}x{size}x{size}xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x{groups}x{width}x{size}x{size}xf32> into tensor<1x{c}x{size}x{size}xf32>
  %e2 = tensor.empty() : tensor<1x{c}x{size}x{size}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%v, %b : tensor<1x{c}x{size}x{size}xf32>, tensor<{c}xf32>) outs(%e2 : tensor<1x{c}x{size}x{size}xf32>) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  }} -> tensor<1x{c}x{size}x{size}xf32>
  func.return %r : tensor<1x{c}x{size}x{size}xf32>
}}
"""


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_regnet_stage_and_agrees(tmp_path: Path):
    """dispatch-creation-llvm-cpu's regions (no grouped conv left) build, and compute what
    IREE's own build of the grouped conv computes, on random and offset inputs."""
    text = regnet_stage()
    ours, reference = tmp_path / "ours.mlir", tmp_path / "reference.mlir"
    formed = apply_pipeline(text, "dispatch-creation-llvm-cpu")
    assert count_ops(formed, *GROUPED) == 0
    ours.write_text(print_module(formed))
    reference.write_text(print_module(parse_module(text)))
    assert len(flow_dispatch_names(ours, cpu_flags("host"))) >= 2
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("host"))
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags("host"))
    rng = np.random.default_rng(0)
    shapes = ((1, 400, 7, 7), (25, 16, 16, 3, 3), (400,))
    families = {
        "random": [rng.standard_normal(s).astype(np.float32) for s in shapes],
        "offset": [(1000.5 + rng.standard_normal(s)).astype(np.float32) for s in shapes],
    }
    for family, inputs in families.items():
        got = run_vmfb(ours_vmfb, inputs, "regnet_stage")[0]
        want = run_vmfb(ref_vmfb, inputs, "regnet_stage")[0]
        assert_agrees(got, want, family)


@pytest.mark.parametrize(("width", "gathered"), [(16, False), (128, True)])
def test_fewest_gathers_only_groups_of_128_channels_or_more(width: int, gathered: bool):
    """The fewest-dispatch pipeline keeps a grouped conv as IREE's op (no gather dispatch) unless
    its groups have 128 input channels or more: those are matmuls of their own, which IREE's
    grouped-conv kernel ran at 3-5 GFLOP/s (SqueezeBERT's 4 groups of 192 and 768: 241 -> 28 ms)."""
    from support.grouped_conv_blocks import grouped_block

    after = assert_pass_preserves_semantics(grouped_block(2, 8, 1, width=width), "dispatch-creation-llvm-cpu-fewest",
                                            seeds=(0,))
    from fusionopt.transforms.common import dispatch_utils as du

    loops = [du.iterator_kinds(op) for op in after.walk() if op.name == "linalg.generic" and du.has_reduction_loops(op)]
    # the group-batched matmul's (g, f, p, k); the grouped conv's generic has 8 loops
    assert len(loops) == 1 and (len(loops[0]) == 4) == gathered
