"""`form-dispatch-regions{pads-into-depthwise}`: a 3x3 or 5x5 depthwise conv's input pad computed in
the conv's dispatch (no splat for the producer to store into) computes what the input program
computes, on random and adversarial inputs against a float64 run, alone and through the llvm-cpu
pipeline; 7x7 windows and shared pads are left outside (a copy in the llvm-cpu pipelines, which
store no padded results); IREE builds inverted-residual pieces at
ImageNet sizes from these regions and computes bit for bit what the producer-padded build
computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.ir_io import print_module
from fusionopt.iree_tools import iree_available
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.cpu_pipeline_cases import CPU, regions
from support.depthwise_blocks import Depthwise, depthwise_function
from support.iree_pairs import assert_bit_equal_on_families, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

OPTION = "form-dispatch-regions{pads-into-depthwise=true}"
# the llvm-cpu pipelines' formation: also no padded stores (`padded-results=0`), so a pad left
# outside a depthwise conv's dispatch is a copy, not a splat its producer stores into
CPU_FORMATION = "form-dispatch-regions{pads-into-depthwise=true padded-results=0}"
LIT = LIT_TRANSFORMS / "dispatch" / "form-dispatch-regions-pads-into-depthwise.mlir"
PAD_INSIDE = {"expansion_then_3x3": True, "strided_dilated_3x3_of_an_argument": True, "window_5x5": True,
              "window_7x7": False, "padded_image_read_twice": False}
# Real sizes: MobileNetV2's first two strided and stride-1 pieces, a dilated one (LR-ASPP's
# last stage), a 7x7 one, MnasNet's 5x5 ones at 28x28 and (strided) 14x14, and a 7x7 window
# (ConvNeXt's) that keeps the producer's padded store.
REAL_SIZES = (Depthwise(112, 16, 96, 3, 2), Depthwise(56, 24, 144, 3, 1), Depthwise(14, 80, 480, 3, 1, 2),
              Depthwise(7, 160, 960, 3, 1), Depthwise(28, 40, 240, 5, 1), Depthwise(14, 40, 240, 5, 2),
              Depthwise(14, 96, 384, 7, 1))


def pads_in_regions(module) -> int:
    return sum(op.name == "tensor.pad" and op.parent_op().name == "flow.dispatch.region" for op in module.walk())


def splats(module) -> int:
    return sum(op.name == "flow.tensor.splat" for op in module.walk())


def without_option(pipeline: str) -> str:
    """The pipeline with IREE's own pad form: every pad stored by its producer into a splat."""
    spec = PIPELINES[pipeline].spec
    assert CPU_FORMATION in spec
    return spec.replace(CPU_FORMATION, "form-dispatch-regions")


@pytest.mark.parametrize("name", sorted(PAD_INSIDE))
def test_lit_cases_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], OPTION)
    assert pads_in_regions(after) == PAD_INSIDE[name]


@pytest.mark.parametrize("block", [Depthwise(8, 4, 16, 3, 1), Depthwise(9, 4, 16, 3, 2, 2), Depthwise(8, 4, 16, 5, 1),
                                   Depthwise(8, 4, 16, 7, 1)], ids=lambda b: b.name)
def test_cpu_pipeline_computes_the_same_with_no_splat_up_to_5x5(block: Depthwise):
    text = depthwise_function(block, np.random.default_rng(0), "main")
    after = assert_pass_preserves_semantics(text, CPU)
    before = apply_pipeline(text, without_option(CPU))
    assert regions(after) == regions(before)
    inside = block.kernel <= 5
    assert (pads_in_regions(after), splats(after)) == ((1, 0) if inside else (0, 0))
    assert splats(before) == 1


def test_the_llvm_cpu_pipeline_computes_pads_inside_and_the_neutral_and_cuda_ones_do_not():
    assert CPU_FORMATION in PIPELINES["dispatch-creation-llvm-cpu"].spec
    assert OPTION not in PIPELINES["dispatch-creation"].spec
    assert OPTION not in PIPELINES["dispatch-creation-cuda"].spec


@pytest.mark.skipif(not iree_available(), reason="iree-compile or the IREE runtime is not installed")
def test_iree_builds_real_sizes_bit_equal_to_the_producer_padded_build(tmp_path: Path):
    rng = np.random.default_rng(0)
    text = "\n".join(depthwise_function(block, rng, f"f{i}") for i, block in enumerate(REAL_SIZES))
    ours, theirs = apply_pipeline(text, CPU), apply_pipeline(text, without_option(CPU))
    assert (pads_in_regions(ours), splats(ours), splats(theirs)) == (6, 0, 7)
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "theirs": print_module(theirs)}, tmp_path)
    for index in range(len(REAL_SIZES)):
        assert_bit_equal_on_families(vmfbs["ours"], vmfbs["theirs"], text, f"f{index}")
