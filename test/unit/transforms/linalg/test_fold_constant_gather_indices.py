"""`linalg-fold-constant-gather-indices`: gathers at constant ids read by loop index compute what
the input computes (random and adversarial inputs, float64 reference), and on the transformer
models no per-element bounds assert is left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.corpus import CORPUS_MISSING, corpus_dir, model_file
from fusionopt.ir_io import parse_file, print_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

LIT_CASES = Path(__file__).parents[3] / "lit" / "transforms" / "linalg" / "linalg-fold-constant-gather-indices.mlir"
PASS = "linalg-fold-constant-gather-indices"


def lit_case(label: str) -> str:
    """The `// -----` split of the lit test that defines `@label`."""
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


@pytest.mark.parametrize(("label", "int_range", "rows_by_loop_index"), [
    ("position_ids_arange", (-16, 16), 1),  # word ids (an argument, negatives wrapped) stay a gather
    ("offset_ids", (0, 6), 1),
    ("mask_ids_from_constant_slices", (0, 2), 1),
    ("permuted_ids", (0, 4), 0),
])
def test_rewrite_preserves_semantics(label, int_range, rows_by_loop_index):
    after = assert_pass_preserves_semantics(lit_case(label), PASS, int_range=int_range)
    ops = list(after.walk())
    assert not any(op.name == "cf.assert" for op in ops)
    rows = [op.operands[1].owner for op in ops if op.name == "tensor.extract"]
    assert sum(getattr(row, "name", "") in ("linalg.index", "arith.addi") for row in rows) == rows_by_loop_index


def test_dispatch_creation_with_the_pass_preserves_semantics():
    """The pipeline position (after elementwise fusion) keeps results, wrap of negative ids included."""
    assert_pass_preserves_semantics(lit_case("position_ids_arange"), "dispatch-creation", int_range=(-16, 16))


def test_failing_assert_is_kept():
    after = apply_pipeline(lit_case("failing_assert_kept"), PASS)
    assert sum(op.name == "cf.assert" for op in after.walk()) == 1


@pytest.mark.skipif(not (corpus_dir() / "bert_mini").is_dir(), reason=CORPUS_MISSING)
@pytest.mark.parametrize("model", ["bert_mini", "gpt2_mini", "minilm_l6"])
def test_models_keep_no_bounds_asserts(model):
    """Every assert of the three transformers checks a constant id: none is left in the regions."""
    source = model_file(model, "args.linalg.mlir")
    before = source.read_text()
    module = apply_pipeline(parse_file(source), "dispatch-creation")
    text = print_module(module)
    assert "cf.assert" not in text
    if model != "gpt2_mini":  # gpt2's linalg has no asserts to drop
        assert "cf.assert" in before
