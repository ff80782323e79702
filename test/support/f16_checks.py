"""Shared checks of the f16 attention tests: a program in f16 against a float64 run of the
input program, and a CUDA build of a module."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fusionopt.interpreter import run_function
from fusionopt.iree_tools import compile_vmfb, cuda_flags
from fusionopt.ir_io import print_module
from fusionopt.testing import run_module

# Four f16 rounding steps (2^-11 each) of the largest output.
F16_TOL = 4 * 2.0**-11


def assert_f16_within_float64(before, programs, inputs: list[np.ndarray]) -> None:
    """Each of `programs` computes f16 results within F16_TOL of the largest value of the
    float64 run of `before` on `inputs`."""
    reference = run_function(before, inputs, float64=True)[0]
    scale = np.max(np.abs(reference))
    for program in programs:
        result = run_module(program, inputs)[0]
        assert result.dtype == np.float16
        assert np.max(np.abs(result.astype(np.float64) - reference)) <= F16_TOL * scale


def assert_builds_for_cuda(module, folder: Path, name: str) -> None:
    source = folder / f"{name}.mlir"
    source.write_text(print_module(module))
    assert compile_vmfb(source, folder / f"{name}.vmfb", cuda_flags("sm_80")).stat().st_size > 0
