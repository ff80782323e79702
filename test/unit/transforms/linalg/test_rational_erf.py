"""`linalg-rational-erf`: f32 erfs become x * P(x^2) / Q(x^2), a positive constant scale of the
operand folded into the coefficients. The lit cases compute what the input program computes on
random and adversarial inputs (against a float64 run); over a float32 grid the rational is
within 3.2e-7 of float64 erf, exactly +-1 past the clamp, NaN for NaN and -0 for -0, in the
interpreter and in IREE's build; the CPU pipelines run it, the CUDA ones do not; IREE builds a
GELU layer through the CPU pipeline with no erf left, agreeing with its own build."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.interpreter.runner import run_function
from fusionopt.ir_io import parse_module, print_module
from fusionopt.iree_tools import iree_available, run_vmfb
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from fusionopt.transforms.linalg.linalg_rational_erf import CLAMP
from support.cpu_pipeline_cases import CPU, runs_on_cpu_only
from support.iree_pairs import assert_agrees_on_images, build_llvm_cpu
from support.lit_cases import LIT_TRANSFORMS, lit_functions

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from gelu_erf import erf_only, expanding_layer  # noqa: E402

PASS = "linalg-rational-erf"
LIT = LIT_TRANSFORMS / "linalg" / "linalg-rational-erf.mlir"
# case -> math.erf ops left after the pass (f64 ones stay)
ERFS_LEFT = {"gelu": 0, "scaled_and_plain": 0, "left_alone": 1}
LARGEST_ERROR = 3.2e-7
SPECIALS = np.array([0.0, -0.0, CLAMP, -CLAMP, 5.0, -100.0, 3.0e38, np.inf, -np.inf, np.nan], np.float32)
SPECIAL_ERFS = np.array([0.0, -0.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, np.nan], np.float32)


def erfs(module) -> int:
    return sum(op.name == "math.erf" for op in module.walk())


def grid(count: int = 200_000) -> np.ndarray:
    return np.concatenate([np.linspace(-6, 6, count, dtype=np.float32), SPECIALS])


def assert_erf_within_bound(values: np.ndarray, got: np.ndarray) -> None:
    """Within LARGEST_ERROR of float64 erf on the grid; the specials exactly (sign of 0 too)."""
    body = slice(0, values.size - SPECIALS.size)
    reference = np.vectorize(math.erf, otypes=[np.float64])(values[body].astype(np.float64))
    assert np.abs(got[body].astype(np.float64) - reference).max() <= LARGEST_ERROR
    specials = got[body.stop:]
    np.testing.assert_array_equal(specials, SPECIAL_ERFS)
    np.testing.assert_array_equal(np.signbit(specials[:2]), [False, True])


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(ERFS_LEFT)


@pytest.mark.parametrize("name", sorted(ERFS_LEFT))
def test_the_lit_cases_compute_the_same(name: str):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    assert erfs(after) == ERFS_LEFT[name]


def test_the_rational_is_within_its_bound_of_float64_erf():
    values = grid()
    after = apply_pipeline(erf_only(values.size), PASS)
    assert erfs(after) == 0
    assert_erf_within_bound(values, run_function(after, [values])[0])


def test_the_cpu_pipelines_run_it_and_the_cuda_ones_do_not():
    assert runs_on_cpu_only(PASS)


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_the_rational_within_its_bound(tmp_path: Path):
    values = grid()
    vmfbs = build_llvm_cpu({"erf": print_module(apply_pipeline(erf_only(values.size), CPU))}, tmp_path)
    assert_erf_within_bound(values, run_vmfb(vmfbs["erf"], [values], "main_graph")[0])


@pytest.mark.skipif(not iree_available(), reason="IREE compiler/runtime not installed")
def test_iree_builds_a_gelu_layer_with_no_erf_left(tmp_path: Path):
    text = expanding_layer(196, 32)
    ours = apply_pipeline(text, CPU)
    assert erfs(ours) == 0
    vmfbs = build_llvm_cpu({"ours": print_module(ours), "reference": print_module(parse_module(text))}, tmp_path)
    assert_agrees_on_images(vmfbs["ours"], vmfbs["reference"], "main_graph", (196, 32))
