"""`form-dispatch-regions{padded-concats}`: the regions of a padded concat's parts store them
straight into the padded buffer (`dispatch/padded_concats.py`). The regions compute what the
input program computes (random and adversarial inputs against a float64 run); IREE builds them
with no `slow_memcpy` for the pad and computes what its own formation computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.interpreter import family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.dispatch_regions import top_level_pads
from support.iree_pairs import assert_agrees
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-padded-concats.mlir"
OPTION = "form-dispatch-regions{padded-concats=true}"
IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"
# case -> top-level pads left with the option
PADS_LEFT = {"fire_concat_pool": 0, "flat_matmul_part": 0, "not_taken": 4, "transposed_channels_last_parts": 1,
             "stored_twice_through_split": 2}
# the fewest pipeline's options: the region that already stores its image padded gives no part
FEWEST = "form-dispatch-regions{padded-concats=true padded-shared-results=true padded-results=1048576}"


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(PADS_LEFT)


@pytest.mark.parametrize("name", sorted(PADS_LEFT))
def test_padded_concat_regions_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], OPTION)
    assert top_level_pads(after) == PADS_LEFT[name]


def test_a_region_storing_its_image_padded_gives_no_part_through_the_split():
    after = assert_pass_preserves_semantics(lit_functions(LIT)["stored_twice_through_split"], FEWEST)
    assert top_level_pads(after) == 1


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
def test_iree_builds_the_chained_stores_without_a_copy(tmp_path: Path):
    text = lit_functions(LIT)["fire_concat_pool"]
    ours, theirs = tmp_path / "ours.mlir", tmp_path / "theirs.mlir"
    ours.write_text(print_module(apply_pipeline(text, OPTION)))
    theirs.write_text(print_module(apply_pipeline(text, "form-dispatch-regions")))
    names = flow_dispatch_names(ours, cpu_flags("generic"))
    assert len(names) == 3 and not any("slow_memcpy" in n for n in names)
    assert sum("slow_memcpy" in n for n in flow_dispatch_names(theirs, cpu_flags("generic"))) == 1
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags("generic"))
    theirs_vmfb = compile_vmfb(theirs, tmp_path / "theirs.vmfb", cpu_flags("generic"))
    func = next(op for op in parse_module(text).walk() if op.name == "func.func")
    for family in ("random", "constant", "offset", "zeros", "extreme", "mask"):
        inputs = family_inputs(func, family, seed=2)
        got = run_vmfb(ours_vmfb, inputs, "fire_concat_pool")[0]
        assert_agrees(got, run_vmfb(theirs_vmfb, inputs, "fire_concat_pool")[0], family)
