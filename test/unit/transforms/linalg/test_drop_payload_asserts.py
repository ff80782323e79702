"""`linalg-drop-payload-asserts`: with the payload checks gone the program computes what it did
wherever the checks held (random and adversarial inputs, float64 reference); where one failed
the input program stops and the output computes on, as IREE's build of the input does (1/0 is
inf)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fusionopt.diagnostics import FusionError
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics, run_module

LIT_CASES = Path(__file__).parents[3] / "lit" / "transforms" / "linalg" / "linalg-drop-payload-asserts.mlir"
PASS = "linalg-drop-payload-asserts"


def lit_case(label: str) -> str:
    """The `// -----` split of the lit test that defines `@label`."""
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


def _asserts(module) -> int:
    return sum(op.name == "cf.assert" for op in module.walk())


@pytest.mark.parametrize(("label", "families", "int_range", "asserts_left"), [
    ("reciprocal", ("random", "constant", "offset", "extreme"), (0, 16), 0),
    ("gather_bounds", ("random", "ids-edge", "constant"), (0, 16), 0),
    ("shape_check_kept", ("random", "zeros", "offset", "extreme"), (0, 16), 1),
    ("condition_reads_a_value_twice", ("random", "constant", "offset", "extreme"), (0, 16), 0),
])
def test_preserves_semantics_where_the_checks_hold(label, families, int_range, asserts_left):
    after = assert_pass_preserves_semantics(lit_case(label), PASS, families=families, int_range=int_range)
    assert _asserts(after) == asserts_left


def test_a_failing_check_no_longer_stops_the_program():
    source = lit_case("reciprocal")
    x = np.array([[[2.0], [0.0], [-4.0]]], np.float32)
    with pytest.raises(FusionError, match="tensor with zero element"):
        run_module(source, [x])
    (got,) = run_module(apply_pipeline(source, PASS), [x])
    np.testing.assert_array_equal(got, np.array([[[0.5], [np.inf], [-0.25]]], np.float32))
