"""`linalg-shrink-broadcast-generics`: a generic computed once over the loops its value depends
on, consumers broadcasting it, computes what the input computes (random and adversarial inputs,
float64 reference), and on bert_mini it removes the per-row recomputation of the attention mask.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.corpus import CORPUS_MISSING, corpus_dir
from fusionopt.ir_io import parse_file, print_module
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

LIT_CASES = Path(__file__).parents[3] / "lit" / "transforms" / "linalg" / "linalg-shrink-broadcast-generics.mlir"
PASS = "linalg-shrink-broadcast-generics"


def lit_case(label: str) -> str:
    """The `// -----` split of the lit test that defines `@label`."""
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


@pytest.mark.parametrize("label", ["gather_broadcast_over_rows", "index_of_kept_loop"])
def test_rewrite_preserves_semantics(label):
    text = lit_case(label)
    after = assert_pass_preserves_semantics(text, PASS, int_range=(0, 8))
    generics = [op for op in after.walk() if op.name == "linalg.generic"]
    assert len(generics) == 2
    assert generics[0].results[0].type.get_shape() == (8,), "the broadcast generic was not shrunk to its key loop"


def test_dispatch_creation_with_the_pass_preserves_semantics():
    """The pipeline position (after elementwise fusion, before region formation) keeps results."""
    assert_pass_preserves_semantics(lit_case("gather_broadcast_over_rows"), "dispatch-creation", int_range=(0, 8))


@pytest.mark.skipif(not (corpus_dir() / "bert_mini").is_dir(), reason=CORPUS_MISSING)
def test_bert_mask_is_computed_once_per_key():
    """bert_mini's mask region computes 64 values (one per key), not 64x64."""
    module = apply_pipeline(parse_file(corpus_dir() / "bert_mini" / "bert_mini.args.linalg.mlir"), "dispatch-creation")
    text = print_module(module)
    assert "flow.dispatch.region -> (tensor<64xf32>)" in text
    assert "flow.dispatch.region -> (tensor<1x1x64x64xf32>)" not in text
