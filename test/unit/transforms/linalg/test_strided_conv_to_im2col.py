"""`linalg-strided-conv-to-im2col`: strided k x k convs as patch gather + flat contraction
compute what the named conv computes (bias + ReLU epilogue, padded input, strides, dilations,
fill init), on random and adversarial inputs against a float64 run of the input program; the
pass fires where it should only (stride 1 only with `stride-one`)."""

from __future__ import annotations

import pytest

from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

PASS = "linalg-strided-conv-to-im2col"
# case -> named convs rewritten, by default and with stride-one=true
REWRITTEN = {"strided_bias_relu": (1, 1), "stem_padded_dilated": (1, 1), "not_rewritten": (0, 1)}


def count_convs(module) -> int:
    return sum(op.name == "linalg.conv_2d_nchw_fchw" for op in module.walk())


@pytest.mark.parametrize("stride_one", [False, True])
@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_im2col_computes_the_same(name: str, stride_one: bool):
    text = lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-strided-conv-to-im2col.mlir")[name]
    before = count_convs(apply_pipeline(text, "cse"))
    spec = f"{PASS}{{stride-one=true}}" if stride_one else PASS
    after = assert_pass_preserves_semantics(text, spec)
    assert before - count_convs(after) == REWRITTEN[name][stride_one]
