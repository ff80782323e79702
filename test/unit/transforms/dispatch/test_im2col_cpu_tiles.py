"""`dispatch-im2col-cpu-tiles`: the `-fewest` pipelines' NCHW k x k convs (IREE's im2col op and a
filter-first matmul in one region) get one patch row a reduction step; the CUDA pipelines do not
run it. The config changes no value (the pass's lit cases judged on random and adversarial
inputs against float64), and IREE builds a conv block that way agreeing with the build without
the pass, bit for bit, on random, constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import (
    assert_tiles_change_no_bit, conv_relu_block, im2col_matmul_configs, runs_on_cpu_only,
)
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-im2col-cpu-tiles"
STAGE = "dispatch-creation-llvm-cpu-fewest"
FEWEST = PIPELINES["graph-to-dispatch-llvm-cpu-fewest"].spec.replace(STAGE, PIPELINES[STAGE].spec)
WITHOUT = ",".join(p for p in FEWEST.split(",") if p != PASS)
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-im2col-cpu-tiles.mlir")


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert PASS in FEWEST.split(",") and PASS not in WITHOUT.split(",")
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("channels", "filters", "size", "tiles"), [
    (16, 32, 32, "distribution = [32, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 1]"),
    (8, 180, 16, "distribution = [60, 64, 0], vector_common_parallel = [6, 16, 0], vector_reduction = [0, 0, 1]"),
    (8, 16, 16, "distribution = [16, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 1]"),
])
def test_the_fewest_pipeline_gives_the_conv_one_patch_row_a_step(channels: int, filters: int, size: int, tiles: str):
    block = conv_relu_block(channels, filters, 1, size, 1, size, 0.5)
    [config] = im2col_matmul_configs(apply_pipeline(block, FEWEST))
    assert tiles in config
    assert im2col_matmul_configs(apply_pipeline(block, WITHOUT)) == []


@pytest.mark.parametrize("name", sorted(name for name in CASES if name.startswith("filters")))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(tmp_path: Path):
    """The third block above (a small one: without the pass its build takes seconds)."""
    assert_tiles_change_no_bit(conv_relu_block(8, 16, 1, 16, 1, 3, 0.5), (FEWEST, WITHOUT), (1, 8, 16, 16), tmp_path)


def test_a_stem_keeps_iree_own_step():
    """27 taps (3 channels): IREE's step runs faster there and builds in seconds."""
    assert im2col_matmul_configs(apply_pipeline(conv_relu_block(3, 32, 1, 32, 1, 5, 0.5), FEWEST)) == []
