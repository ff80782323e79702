"""`support.iree_pairs.assert_builds_together`: one iree-compile for many cases, and a failing
case still named by its index."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module
from support.iree_pairs import _batches_with_unique_symbols, assert_builds_together

CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
       "--iree-llvmcpu-target-cpu=generic"]


def _add(name: str) -> str:
    return (f"func.func @{name}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n"
            f"  %b = arith.addf %a, %a : tensor<4xf32>\n  func.return %b : tensor<4xf32>\n}}\n")


def test_clashing_symbols_go_to_separate_batches():
    modules = [parse_module(_add(name)) for name in ("f", "g", "f", "f")]
    assert _batches_with_unique_symbols(modules) == [[0, 1], [2], [3]]


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile is not on PATH")
def test_good_cases_build_and_a_bad_one_is_named(tmp_path: Path):
    good = [parse_module(_add(name)) for name in ("f", "g", "f")]
    assert_builds_together(good, tmp_path, CPU)
    assert sorted(path.name for path in tmp_path.glob("*.vmfb")) == ["batch0.vmfb", "batch1.vmfb"]
    # A call to a function declared without a body: the module verifies, IREE cannot link it.
    bad = parse_module("func.func private @missing(tensor<4xf32>) -> tensor<4xf32>\n"
                       "func.func @h(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                       "  %b = func.call @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "  func.return %b : tensor<4xf32>\n}\n")
    with pytest.raises(AssertionError, match=r"^case 2:"):
        assert_builds_together([good[0], good[1], bad], tmp_path, CPU)
