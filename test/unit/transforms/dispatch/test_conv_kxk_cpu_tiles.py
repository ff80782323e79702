"""`dispatch-conv-kxk-cpu-tiles`: the CPU pipelines give ResNet's channels-last 3x3 convs a
register tile of 8 (7) pixels x 32 filters; the CUDA ones do not. The config changes no value
(the pass's lit cases judged on random and adversarial inputs against float64), and IREE builds
a ResNet basic block that way, agreeing with the build without the pass bit for bit on random,
constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import assert_tiles_change_no_bit, runs_on_cpu_only, without_pass
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-conv-kxk-cpu-tiles"
CPU = "graph-to-dispatch-llvm-cpu"
WITHOUT = PIPELINES[CPU].spec.replace("dispatch-creation-llvm-cpu", without_pass("dispatch-creation-llvm-cpu", PASS))
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-conv-kxk-cpu-tiles.mlir")


def basic_block(size: int, channels: int = 32) -> str:
    """A ResNet basic block's first half: 3x3 conv (constant filter), bias, ReLU, at batch 1."""
    rng = np.random.default_rng(size)
    weights = ", ".join(f"{v:.3f}" for v in rng.uniform(-0.2, 0.2, 64 * channels * 9))
    bias = ", ".join(f"{v:.3f}" for v in rng.uniform(-0.5, 0.5, 64))
    image, result = f"tensor<1x{channels}x{size}x{size}xf32>", f"tensor<1x64x{size}x{size}xf32>"
    return f"""func.func @main(%x: {image}) -> {result} {{
  %w = arith.constant dense<[{weights}]> : tensor<{64 * channels * 9}xf32>
  %wf = graph.reshape %w : tensor<{64 * channels * 9}xf32> -> tensor<64x{channels}x3x3xf32>
  %y = graph.conv %x, %wf strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1 : ({image}, tensor<64x{channels}x3x3xf32>) -> {result}
  %b = arith.constant dense<[{bias}]> : tensor<64xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<64xf32> -> {result}
  %s = graph.add %y, %bb : {result}
  %r = graph.relu %s : {result}
  return %r : {result}
}}"""


def configured(module) -> list[str]:
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "linalg.conv_2d_nhwc_hwcf" and "compilation_info" in op.attributes]


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("size", "pixels"), [(56, 8), (14, 7)])
def test_the_cpu_pipeline_gives_the_conv_the_wide_tile(size: int, pixels: int):
    [config] = configured(apply_pipeline(basic_block(size), CPU))
    assert f"vector_common_parallel = [1, 1, {pixels}, 32, 0, 0, 0]" in config
    assert configured(apply_pipeline(basic_block(size), WITHOUT)) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(tmp_path: Path):
    assert_tiles_change_no_bit(basic_block(14), (CPU, WITHOUT), (1, 32, 14, 14), tmp_path)
