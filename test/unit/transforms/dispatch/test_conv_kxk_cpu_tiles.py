"""`dispatch-conv-kxk-cpu-tiles`: the CPU pipelines give the channels-last k x k convs that stay
direct (strided ones, 3x3 ones narrower than Winograd's minimum) a register tile of 8 (7) pixels
x 32 filters; the CUDA ones do not. The config changes no value
(the pass's lit cases judged on random and adversarial inputs against float64), and IREE builds
a ResNet basic block that way, agreeing with the build without the pass bit for bit on random,
constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import assert_tiles_change_no_bit, conv_relu_block, runs_on_cpu_only, without_pass
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-conv-kxk-cpu-tiles"
CPU = "graph-to-dispatch-llvm-cpu"
WITHOUT = PIPELINES[CPU].spec.replace("dispatch-creation-llvm-cpu", without_pass("dispatch-creation-llvm-cpu", PASS))
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-conv-kxk-cpu-tiles.mlir")


def basic_block(size: int, channels: int = 16) -> str:
    """A ResNet basic block's first half: 3x3 conv (constant filter), bias, ReLU, at batch 1; 16
    input channels, so that it stays a direct conv (from 32 the CPU pipelines compute it as
    Winograd F(2x2, 3x3), `linalg-conv-winograd`)."""
    return conv_relu_block(channels, 64, 1, size, 1, size, 0.2)


def configured(module) -> list[str]:
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "linalg.conv_2d_nhwc_hwcf" and "compilation_info" in op.attributes]


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("size", "pixels", "filters"), [(56, 8, 32), (14, 7, 32), (17, 17, 16)])
def test_the_cpu_pipeline_gives_the_conv_the_wide_tile(size: int, pixels: int, filters: int):
    """8 or 7 pixels x 32 filters; a 17-wide output (Inception's) a whole row x 16 filters."""
    [config] = configured(apply_pipeline(basic_block(size), CPU))
    assert f"vector_common_parallel = [1, 1, {pixels}, {filters}, 0, 0, 0]" in config
    assert configured(apply_pipeline(basic_block(size), WITHOUT)) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize("size", [14, 17])
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(tmp_path: Path, size: int):
    assert_tiles_change_no_bit(basic_block(size), (CPU, WITHOUT), (1, 16, size, size), tmp_path)
