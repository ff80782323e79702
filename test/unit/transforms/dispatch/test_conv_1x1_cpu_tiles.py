"""`dispatch-conv-1x1-cpu-tiles`: the contraction generic computes what the channels-last 1x1
conv computes (interpreter, every input family), the pass fires where it should only, and IREE
builds what it prints and returns the values of its own build of the conv on random and
adversarial inputs (edges of the peeled remainders included: 14 pixels and 116 filters are no
multiples of the 4 x 64 tile). The 24- and 40-filter convs given 8-lane vectors build and return
IREE's values too, every output (28 pixels a row are no multiple of the 8-pixel tile)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.interpreter import FAMILIES, family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.dispatch.conv_1x1_cpu_tiles import largest_prime_factor
from support.iree_pairs import assert_agrees, build_llvm_cpu
from support.lit_cases import lit_functions

LIT = Path(__file__).parents[3] / "lit" / "transforms" / "dispatch" / "dispatch-conv-1x1-cpu-tiles.mlir"
CASES = lit_functions(LIT)
PASS = "dispatch-conv-1x1-cpu-tiles"
# case -> convs rewritten
REWRITTEN = {"shufflenet_1x1": 1, "mobilenet_184": 1, "not_rewritten": 0}


def count_ops(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_contraction_computes_the_same(name: str):
    before = count_ops(parse_module(CASES[name]), "linalg.conv_2d_nhwc_hwcf")
    after = assert_pass_preserves_semantics(CASES[name], PASS)
    assert before - count_ops(after, "linalg.conv_2d_nhwc_hwcf") == REWRITTEN[name]
    assert print_module(after).count("vector_common_parallel = [1, 1, 4, 64, 0]") == REWRITTEN[name]


def test_largest_prime_factor():
    assert [largest_prime_factor(n) for n in (58, 116, 184, 200, 464, 64, 29, 1)] == [29, 29, 23, 5, 29, 2, 29, 1]


def test_narrow_filter_convs_get_a_config_only():
    after = print_module(apply_pipeline(CASES["narrow_filters"], PASS))
    assert after.count("vector_common_parallel = [1, 1, 8, 8, 0, 0, 0]") == 1
    assert after.count("vector_common_parallel = [1, 1, 7, 8, 0, 0, 0]") == 1
    assert after.count("linalg.conv_2d_nhwc_hwcf") == 4  # still IREE's convs


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
@pytest.mark.parametrize("name", ["shufflenet_1x1", "mobilenet_184", "narrow_filters"])
def test_iree_builds_and_agrees(name: str, tmp_path: Path):
    text = CASES[name]
    vmfbs = build_llvm_cpu({"conv": text, "tiled": print_module(apply_pipeline(text, PASS))}, tmp_path)
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in FAMILIES:
        args = family_inputs(func, family, seed=11)
        for tiled, conv in zip(run_vmfb(vmfbs["tiled"], args, name), run_vmfb(vmfbs["conv"], args, name), strict=True):
            assert_agrees(tiled, conv, family)
