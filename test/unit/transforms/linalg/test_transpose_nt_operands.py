"""`linalg-transpose-nt-operands`: the row-major copy of attention's K computes what the input
computes (random and adversarial inputs, float64 reference), alone and inside the
dispatch-creation pipeline, and on bert_mini the copies become dispatches of their own that
read the projection's result (never fused into the projection's matmul dispatch).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.corpus import CORPUS_MISSING, corpus_dir
from fusionopt.ir_io import parse_file, print_module
from fusionopt.registry import PIPELINES
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics

LIT_CASES = Path(__file__).parents[3] / "lit" / "transforms" / "linalg" / "linalg-transpose-nt-operands.mlir"
PASS = "linalg-transpose-nt-operands"
WITH_NT = PIPELINES["dispatch-creation"].spec.replace(
    "linalg-fold-transpose-into-matmul,", "linalg-fold-transpose-into-matmul,linalg-transpose-nt-operands,"
)


def lit_case(label: str) -> str:
    (case,) = [c for c in LIT_CASES.read_text().split("// -----") if f"@{label}(" in c]
    return case


@pytest.mark.parametrize("pipeline", [PASS, WITH_NT])
def test_copy_preserves_semantics(pipeline):
    after = assert_pass_preserves_semantics(lit_case("attention_scores"), pipeline)
    assert "tensor<2x8x16xf32>" in print_module(after), "K was not copied to [heads, dim, keys]"


@pytest.mark.skipif(not (corpus_dir() / "bert_mini").is_dir(), reason=CORPUS_MISSING)
def test_bert_k_copies_are_dispatches_of_their_own():
    module = apply_pipeline(parse_file(corpus_dir() / "bert_mini" / "bert_mini.args.linalg.mlir"), WITH_NT)
    regions = [op for op in module.walk() if op.name == "flow.dispatch.region"]
    copies = [r for r in regions if [o.name for o in r.regions[0].block.ops if o.name.startswith("linalg.")] == ["linalg.generic"]
              and r.results[0].type.get_shape() == (2, 64, 64)]
    assert len(copies) == 2  # one K^T per layer
    assert len(regions) == 29
