"""`form-dispatch-regions{guards-into-attention}` at a real sequence length: a NaN guard's
reduction over 512 keys stays out of the attention's region, and what the formation prints
builds in IREE (llvm-cpu) and computes what a float64 run of the input program does, on random
and adversarial inputs. Joined, the region did not build (Llama at 512 tokens through
graph-to-dispatch-llvm-cpu-fewest: "One or more operations with large vector sizes").

The cases are `// -----` functions of test/lit/transforms/dispatch/form-dispatch-regions-ext-roots.mlir.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.interpreter.input_families import FAMILIES
from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.testing import apply_pipeline
from fusionopt.transforms.common import dispatch_utils as du
from support.iree_pairs import assert_iree_build_agrees_with_float64
from support.lit_cases import lit_functions

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "dispatch" / "form-dispatch-regions-ext-roots.mlir"
FORMATION = "form-dispatch-regions{guards-into-attention=true},dispatch-attention-cpu-tiles"
# `extreme` overflows Q.K, which IREE's exp2 form scales by log2 e first (the op's documented
# limit, dialects/iree_linalg_ext.py): not a question of where the guard is formed.
FAMILIES_EXACT = tuple(f for f in FAMILIES if f != "extreme")


def regions_with_reductions(module) -> list[int]:
    """Per region, how many of its generics reduce."""
    return [sum(o.name == "linalg.generic" and du.has_reduction_loops(o) for o in r.walk())
            for r in module.walk() if r.name == "flow.dispatch.region"]


def test_short_guard_joins_long_guard_stays_apart():
    cases = lit_functions(LIT)
    short = apply_pipeline(cases["attention_takes_guard_reduction"], FORMATION)
    long = apply_pipeline(cases["long_guard_reduction_stays_apart"], FORMATION)
    assert regions_with_reductions(short) == [1]
    assert sorted(regions_with_reductions(long)) == [0, 1]


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_long_guard_builds_and_agrees_with_float64(tmp_path):
    text = lit_functions(LIT)["long_guard_reduction_stays_apart"]
    formed = print_module(apply_pipeline(text, FORMATION))
    assert_iree_build_agrees_with_float64(text, formed, tmp_path, FAMILIES_EXACT, seed=5)
