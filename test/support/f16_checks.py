"""Shared checks of the f16 and bf16 attention tests: a program in f16 (bf16) against a float64
run of the input program, and a CUDA build of a module."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fusionopt.interpreter import run_function
from fusionopt.iree_tools import compile_vmfb, cuda_flags
from fusionopt.ir_io import print_module
from fusionopt.testing import run_module

# Four f16 rounding steps (2^-11 each) of the largest output; bf16 (8 significant bits): 2^-8 each.
F16_TOL = 4 * 2.0**-11
BF16_TOL = 4 * 2.0**-8


def assert_f16_within_float64(before, programs, inputs: list[np.ndarray], dtype=np.float16,
                              tol: float = F16_TOL) -> None:
    """Each of `programs` computes `dtype` results within `tol` of the largest value of the
    float64 run of `before` on `inputs`."""
    reference = run_function(before, inputs, float64=True)[0]
    scale = np.max(np.abs(reference))
    for program in programs:
        result = run_module(program, inputs)[0]
        assert result.dtype == dtype
        assert np.max(np.abs(result.astype(np.float64) - reference)) <= tol * scale


def assert_builds_for_cuda(module, folder: Path, name: str) -> None:
    source = folder / f"{name}.mlir"
    source.write_text(print_module(module))
    assert compile_vmfb(source, folder / f"{name}.vmfb", cuda_flags("sm_80")).stat().st_size > 0
