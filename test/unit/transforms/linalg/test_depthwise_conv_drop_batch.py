"""`linalg-depthwise-conv-drop-batch`: batch-1 depthwise convs as rank-3 generics compute what
the named ops compute (strides, dilations, bias and fill inits), on random and adversarial
inputs against a float64 run of the input program; the pass fires where it should only."""

from __future__ import annotations

import pytest

from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-depthwise-conv-drop-batch"
# case -> depthwise convs rewritten
REWRITTEN = {"depthwise": 1, "strided_dilated": 1, "not_batch1": 0, "few_pixels": 1}


def count_depthwise(module) -> int:
    return sum(op.name == "linalg.depthwise_conv_2d_nchw_chw" for op in module.walk())


@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_rank3_depthwise_computes_the_same(name: str):
    text = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-depthwise-conv-drop-batch.mlir")[name]
    before = count_depthwise(apply_pipeline(text, "cse"))
    after = assert_pass_preserves_semantics(text, PASS)
    assert before - count_depthwise(after) == REWRITTEN[name]


def test_min_pixels_option_rewrites_small_outputs_too():
    text = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-depthwise-conv-drop-batch.mlir")["few_pixels"]
    after = assert_pass_preserves_semantics(text, PASS + "{min-pixels=1}")
    assert count_depthwise(after) == 0
