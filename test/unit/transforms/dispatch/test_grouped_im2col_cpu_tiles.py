"""`dispatch-grouped-im2col-cpu-tiles`: the CPU pipelines give RegNetX's grouped 3x3 convs (IREE's
im2col op + a group-batched matmul in one region) one group a workgroup; the CUDA ones do not.
(The CPU pipelines sum the taps of those convs instead, `grouped_conv_taps`: the tests take
the pipeline's im2col form, which convs that form leaves keep.) The config changes no value (the pass's lit cases judged on random and adversarial inputs
against float64), and IREE builds a RegNetX-like block that way, agreeing with the build
without the pass, bit for bit, on random, constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import (
    assert_tiles_change_no_bit, grouped_relu_block, im2col_matmul_configs, runs_on_cpu_only, without_grouped_taps,
)
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-grouped-im2col-cpu-tiles"
# graph-to-dispatch-llvm-cpu with the grouped convs its tap sums take left in the im2col form
# (as a filter argument, a 6-wide output or a 5x5 window leave them), then the pass left out
CPU = without_grouped_taps("graph-to-dispatch-llvm-cpu")
WITHOUT = ",".join(p for p in CPU.split(",") if p != PASS)
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-grouped-im2col-cpu-tiles.mlir")


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("size", "stride", "rows"), [(14, 1, "196"), (56, 2, "196"), (7, 1, "49"), (8, 2, "16")])
def test_the_cpu_pipeline_gives_the_grouped_conv_one_group_a_workgroup(size: int, stride: int, rows: str):
    [config] = im2col_matmul_configs(apply_pipeline(grouped_relu_block(size, stride), CPU))
    assert f"distribution = [1, {rows}, 16, 0]" in config
    assert im2col_matmul_configs(apply_pipeline(grouped_relu_block(size, stride), WITHOUT)) == []


@pytest.mark.parametrize("name", sorted(name for name in CASES if name.startswith("regnet")))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize(("size", "stride"), [(14, 1), (56, 2)])
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(size: int, stride: int, tmp_path: Path):
    assert_tiles_change_no_bit(grouped_relu_block(size, stride), (CPU, WITHOUT), (1, 64, size, size), tmp_path)
