"""`dispatch-grouped-im2col-cpu-tiles`: the CPU pipelines give RegNetX's grouped 3x3 convs (IREE's
im2col op + a group-batched matmul in one region) one group a workgroup; the CUDA ones do not.
The config changes no value (the pass's lit cases judged on random and adversarial inputs
against float64), and IREE builds a RegNetX-like block that way, agreeing with the build
without the pass, bit for bit, on random, constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.registry import PIPELINES
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import assert_tiles_change_no_bit, runs_on_cpu_only, without_pass
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-grouped-im2col-cpu-tiles"
CPU = "graph-to-dispatch-llvm-cpu"
# the same, the pass left out (graph-to-dispatch-llvm-cpu ends with dispatch-creation-llvm-cpu)
WITHOUT = PIPELINES[CPU].spec.replace("dispatch-creation-llvm-cpu", without_pass("dispatch-creation-llvm-cpu", PASS))
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-grouped-im2col-cpu-tiles.mlir")


def grouped_block(size: int, stride: int, groups: int = 4) -> str:
    """A RegNetX block's grouped 3x3 conv (groups of 16 channels and filters, constant filter)
    with a per-channel bias and ReLU, at batch 1."""
    channels, out = 16 * groups, size // stride
    rng = np.random.default_rng(size + stride)
    weights = ", ".join(f"{v:.3f}" for v in rng.uniform(-0.5, 0.5, channels * 16 * 9))
    bias = ", ".join(f"{v:.3f}" for v in rng.uniform(-0.5, 0.5, channels))
    image, result = f"tensor<1x{channels}x{size}x{size}xf32>", f"tensor<1x{channels}x{out}x{out}xf32>"
    return f"""func.func @main(%x: {image}) -> {result} {{
  %w = arith.constant dense<[{weights}]> : tensor<{channels * 16 * 9}xf32>
  %wf = graph.reshape %w : tensor<{channels * 16 * 9}xf32> -> tensor<{channels}x16x3x3xf32>
  %y = graph.conv %x, %wf strides = [{stride}, {stride}] dilations = [1, 1] pads = [1, 1, 1, 1] group = {groups} : ({image}, tensor<{channels}x16x3x3xf32>) -> {result}
  %b = arith.constant dense<[{bias}]> : tensor<{channels}xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<{channels}xf32> -> {result}
  %s = graph.add %y, %bb : {result}
  %r = graph.relu %s : {result}
  return %r : {result}
}}"""


def configured(module) -> list[str]:
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "linalg.generic" and "compilation_info" in op.attributes
            and any(o.name == "iree_linalg_ext.im2col" for o in op.parent_op().walk())]


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("size", "stride", "rows"), [(14, 1, "196"), (56, 2, "196"), (7, 1, "49"), (8, 2, "16")])
def test_the_cpu_pipeline_gives_the_grouped_conv_one_group_a_workgroup(size: int, stride: int, rows: str):
    [config] = configured(apply_pipeline(grouped_block(size, stride), CPU))
    assert f"distribution = [1, {rows}, 16, 0]" in config
    assert configured(apply_pipeline(grouped_block(size, stride), WITHOUT)) == []


@pytest.mark.parametrize("name", sorted(name for name in CASES if name.startswith("regnet")))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize(("size", "stride"), [(14, 1), (56, 2)])
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(size: int, stride: int, tmp_path: Path):
    assert_tiles_change_no_bit(grouped_block(size, stride), (CPU, WITHOUT), (1, 64, size, size), tmp_path)
