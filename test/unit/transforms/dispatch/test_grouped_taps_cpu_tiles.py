"""`dispatch-grouped-taps-cpu-tiles`: the CPU pipelines give the tap sums of RegNetX's and
ResNeXt's grouped 3x3 convs (`grouped_conv_taps`) register tiles of 7 (8) pixels x 16 (32)
filters; the CUDA ones do not run it. The config changes no value (the pass's lit cases judged
on random and adversarial inputs against float64), and IREE builds such blocks that way,
agreeing with the build without the pass on random, constant, large-offset and zero images."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import assert_tiles_change_no_bit, grouped_relu_block, runs_on_cpu_only, without_pass
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "dispatch-grouped-taps-cpu-tiles"
CPU = "graph-to-dispatch-llvm-cpu"
# the same, the pass left out (graph-to-dispatch-llvm-cpu ends with dispatch-creation-llvm-cpu)
WITHOUT = PIPELINES[CPU].spec.replace("dispatch-creation-llvm-cpu", without_pass("dispatch-creation-llvm-cpu", PASS))
CASES = lit_functions(LIT_TRANSFORMS / "dispatch" / "dispatch-grouped-taps-cpu-tiles.mlir")


def configs(module) -> list[str]:
    return [str(op.attributes["compilation_info"]) for op in module.walk()
            if op.name == "linalg.generic" and "compilation_info" in op.attributes
            and any(o.name == "math.fma" for o in op.walk())]


def test_the_cpu_pipelines_configure_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.parametrize(("size", "stride", "width", "tiles"), [
    (14, 1, 16, "distribution = [1, 7, 14, 1, 16, 0], vector_common_parallel = [1, 1, 7, 1, 16, 0]"),
    (56, 2, 16, "distribution = [1, 4, 28, 1, 16, 0], vector_common_parallel = [1, 1, 7, 1, 16, 0]"),
    (8, 1, 32, "distribution = [1, 8, 8, 1, 32, 0], vector_common_parallel = [1, 1, 8, 1, 32, 0]"),
    (14, 1, 8, "distribution = [1, 7, 14, 2, 8, 0], vector_common_parallel = [1, 1, 7, 2, 8, 0]"),
    (7, 1, 24, "distribution = [1, 7, 7, 1, 24, 0], vector_common_parallel = [1, 1, 7, 1, 8, 0]"),
])
def test_the_cpu_pipeline_tiles_the_tap_sum(size: int, stride: int, width: int, tiles: str):
    [config] = configs(apply_pipeline(grouped_relu_block(size, stride, width), CPU))
    assert tiles in config and "vector_reduction = [0, 0, 0, 0, 0, 1]" in config
    assert configs(apply_pipeline(grouped_relu_block(size, stride, width), WITHOUT)) == []


def test_odd_groups_of_8_take_half_vectors_of_one_group():
    [config] = configs(apply_pipeline(grouped_relu_block(14, 1, 8, groups=3), CPU))
    assert "distribution = [1, 7, 14, 1, 8, 0], vector_common_parallel = [1, 1, 7, 1, 8, 0]" in config


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_config_changes_no_value(name: str):
    assert_pass_preserves_semantics(CASES[name], PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE (iree-compile and its runtime) is not installed")
@pytest.mark.parametrize(("size", "stride", "width"), [(14, 1, 16), (28, 2, 8), (14, 1, 24)])
def test_iree_builds_the_block_and_agrees_with_the_build_without_the_pass(size: int, stride: int, width: int,
                                                                          tmp_path: Path):
    assert_tiles_change_no_bit(grouped_relu_block(size, stride, width), (CPU, WITHOUT), (1, 4 * width, size, size), tmp_path)
