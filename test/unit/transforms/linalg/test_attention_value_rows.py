"""`linalg-attention-value-rows`: the copy changes no value (interpreter, every input family,
bit for bit: the op reads the same numbers), and the llvm-cpu pipeline copies a long raised
attention's [keys, heads, dim] V (bert_like's layout at 1024 tokens; its IREE build is checked
against float64 in test_raise_attention_long.py).

The cases are the `// -----` functions of test/lit/transforms/linalg/linalg-attention-value-rows.mlir.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import lit_functions
from support.long_attention import bert_like_at

LIT = Path(__file__).resolve().parents[3] / "lit" / "transforms" / "linalg" / "linalg-attention-value-rows.mlir"
PASS = "linalg-attention-value-rows"


@pytest.mark.parametrize("name, copies", [("keys_outside_heads", 1), ("keys_between_batch_dims", 1),
                                          ("f16_keys_outside_heads", 1), ("rows_already", 0), ("columns_before_keys", 0)])
def test_copy_preserves_values(name, copies):
    after = assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS, seeds=(0,), rtol=0.0, atol=0.0)
    assert sum(op.name == "linalg.generic" for op in after.walk()) == copies


def test_cpu_pipeline_reads_long_values_by_head():
    after = apply_pipeline(bert_like_at(1024, 8), "dispatch-creation-llvm-cpu")
    (attention,) = [op for op in after.walk() if op.name == "iree_linalg_ext.attention"]
    assert str(attention.maps()[2]) == "(d0, d1, d2, d3, d4) -> (d0, d2, d4)"
