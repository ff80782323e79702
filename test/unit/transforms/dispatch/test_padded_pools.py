"""`form-dispatch-regions{pads-into-pools}`: the pad of a pool's result, read only by a small NCHW
pool, is formed into that pool's region (`dispatch/padded_pools.py`). The regions compute what
the input program computes (random and adversarial inputs against a float64 run); IREE builds
them with no `slow_memcpy` and computes bit-equal values to its own formation of the input."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, cpu_flags, flow_dispatch_names, iree_available
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.dispatch_regions import top_level_pads
from support.iree_pairs import assert_bit_equal_on_families
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-pads-into-pools.mlir"
OPTION = "form-dispatch-regions{pads-into-pools=64}"
IREE_MISSING = "IREE compiler/runtime (iree-base-compiler, iree-base-runtime) not installed"
# case -> top-level pads left with the option (without it every case keeps its one pad)
PADS_LEFT = {"pool_of_pool": 0, "sum_pool_of_pool": 0, "larger_pool": 1, "pad_of_other_producer": 1,
             "pad_read_twice": 1, "pad_of_shared_concat": 0, "pad_of_unshared_concat": 1}


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(PADS_LEFT)


@pytest.mark.parametrize("name", sorted(PADS_LEFT))
def test_formation_computes_the_same(name: str):
    text = lit_functions(LIT)[name]
    assert top_level_pads(assert_pass_preserves_semantics(text, OPTION)) == PADS_LEFT[name]
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions")) == 1


def test_the_pixel_cap_decides():
    text = lit_functions(LIT)["larger_pool"]  # 16x16 outputs
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions{pads-into-pools=255}")) == 1
    assert top_level_pads(apply_pipeline(text, "form-dispatch-regions{pads-into-pools=256}")) == 0


def test_a_negative_cap_is_refused():
    with pytest.raises(Exception, match="pads-into-pools"):
        apply_pipeline(lit_functions(LIT)["pool_of_pool"], "form-dispatch-regions{pads-into-pools=-1}")


@pytest.mark.skipif(not iree_available(), reason=IREE_MISSING)
@pytest.mark.parametrize("name", ["pool_of_pool", "sum_pool_of_pool", "pad_of_shared_concat"])
def test_iree_builds_the_pad_in_the_pool_and_agrees(name: str, tmp_path: Path):
    """No copy (IREE's own formation of the input makes one `slow_memcpy`), one dispatch fewer;
    every output bit-equal to IREE's own on random, constant, large-offset and extreme inputs."""
    text = lit_functions(LIT)[name]
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(apply_pipeline(text, OPTION)))
    reference = tmp_path / "reference.mlir"
    reference.write_text(print_module(parse_module(text)))
    names = flow_dispatch_names(ours, cpu_flags())
    reference_names = flow_dispatch_names(reference, cpu_flags())
    assert not any("slow_memcpy" in n for n in names)
    assert sum("slow_memcpy" in n for n in reference_names) == 1 and len(names) == len(reference_names) - 1
    ours_vmfb = compile_vmfb(ours, tmp_path / "ours.vmfb", cpu_flags())
    ref_vmfb = compile_vmfb(reference, tmp_path / "ref.vmfb", cpu_flags())
    assert_bit_equal_on_families(ours_vmfb, ref_vmfb, text, name)
