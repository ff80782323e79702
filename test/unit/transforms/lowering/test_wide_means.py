"""Long float means accumulate in f64 (convert-graph-to-linalg's `wide-means-from`): an
instance norm over 65536 values (a 256 x 256 plane) built by IREE for llvm-cpu agrees with a
float64 run of the input program on a large common offset (1000.5 + 0.01 N(0, 1)), on constant
rows and on random values; a constant row's mean is exact, so it normalises to exactly 0. With
f32 accumulation (the same build, means kept narrow) IREE's lane-wise sums of 4096 values each
miss a constant row's mean, which rsqrt(0 + epsilon) then scales up."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fusionopt import registry
from fusionopt.interpreter import find_entry, run_function
from fusionopt.interpreter.input_families import family_inputs
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import compile_vmfb, iree_available, run_vmfb, target_flags
from fusionopt.pipeline_spec import build_passes, parse_pipeline
from fusionopt.testing import apply_pipeline
from support.graph_norms import normalised_lines

PIPELINE = "graph-to-dispatch-llvm-cpu"
INSTANCE_NORM = f"""
func.func @main(%x: tensor<2x65536xf32>) -> tensor<2x65536xf32> {{
{normalised_lines("%x", (2, 65536), 1e-5)}  return %y : tensor<2x65536xf32>
}}
"""


def errors_against_float64(tmp_path, wide_means_from: int | None = None) -> dict[str, float]:
    """max |IREE - float64| of the pipeline's build per input family, divided by max |float64|
    where that is not 0 (constant rows normalise to 0); `wide_means_from` replaces the
    pipeline's convert-graph-to-linalg option."""
    passes = build_passes(parse_pipeline(PIPELINE, registry.PIPELINES), registry.get_all_passes())
    if wide_means_from is not None:
        passes = [replace(p, wide_means_from=wide_means_from) if p.name == "convert-graph-to-linalg" else p
                  for p in passes]
    flags = [*target_flags("llvm-cpu"), *registry.iree_flags_for(passes)]
    source = tmp_path / "formed.mlir"
    source.write_text(print_module(apply_pipeline(INSTANCE_NORM, passes)))
    vmfb = compile_vmfb(source, tmp_path / "formed.vmfb", flags)
    module = parse_module(INSTANCE_NORM)
    func = find_entry(module)
    errors = {}
    for family in ("offset", "constant", "random"):
        args = family_inputs(func, family, seed=0)
        (reference,) = run_function(module, args, func, float64=True)
        (got,) = run_vmfb(vmfb, args, "main")
        scale = float(np.max(np.abs(reference))) or 1.0
        errors[family] = float(np.max(np.abs(got.astype(np.float64) - reference))) / scale
    return errors


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_long_means_agree_with_float64_at_a_large_offset(tmp_path):
    errors = errors_against_float64(tmp_path)
    # The mean itself rounds to f32 (ulp(1000) / 2 = 3e-5 against a spread of 0.01).
    assert errors["offset"] < 6e-3, errors
    assert errors["random"] < 1e-5, errors
    assert errors["constant"] == 0.0, errors


@pytest.mark.skipif(not iree_available(), reason="iree-compile / iree.runtime absent")
def test_narrow_long_means_do_not(tmp_path):
    assert errors_against_float64(tmp_path, wide_means_from=0)["constant"] > 1e-6
