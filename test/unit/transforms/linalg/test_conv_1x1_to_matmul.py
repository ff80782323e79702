"""`linalg-conv-1x1-to-matmul`: 1x1 convolutions as matmul-like contractions, with their
elementwise consumers carried over to the flat F x (H*W) layout.

- equivalence: every case of the lit test computes the same, default options and every-conv
  options (strided slice, expansion from few channels, batch > 1), on random and adversarial
  inputs against a float64 run of the input program (`assert_pass_preserves_semantics`);
- the pass really fires (no case passes by being left alone), and counts what it did.
"""

from __future__ import annotations

import pytest

from fusionopt import pass_statistics
from fusionopt.testing import apply_pipeline, assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

DEFAULT = "linalg-conv-1x1-to-matmul"
EVERY_CONV = "linalg-conv-1x1-to-matmul{min-channels=1 strided=true padded-min-pixels=0}"
# case -> 1x1 convs rewritten by (default, every-conv)
REWRITTEN = {
    "pointwise": (1, 1),
    "residual_then_pad": (2, 2),
    "strided": (0, 1),
    "expansion": (0, 1),
    "not_1x1": (0, 0),
    "batched": (1, 1),
    "padded_left_to_iree": (1, 2),
    "padded_wide_filters": (0, 1),
}
PADDED_AS_MATMUL = "linalg-conv-1x1-to-matmul{padded-as-matmul=true}"


def cases() -> dict[str, str]:
    return lit_functions(LIT_TRANSFORMS / "linalg" / "linalg-conv-1x1-to-matmul.mlir")


def count_convs(module) -> int:
    return sum(op.name == "linalg.conv_2d_nchw_fchw" for op in module.walk())


@pytest.mark.parametrize("pipeline", (DEFAULT, EVERY_CONV))
@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_rewrite_computes_the_same(name: str, pipeline: str):
    text = cases()[name]
    before = count_convs(apply_pipeline(text, "cse"))
    after = assert_pass_preserves_semantics(text, pipeline)
    expected = REWRITTEN[name][pipeline == EVERY_CONV]
    assert before - count_convs(after) == expected


def test_padded_as_matmul_rewrites_only_the_padded_conv():
    text = cases()["padded_wide_filters"]
    after = assert_pass_preserves_semantics(text, PADDED_AS_MATMUL)
    assert count_convs(apply_pipeline(text, "cse")) - count_convs(after) == 1


def test_statistics_count_rewrites_and_flat_consumers():
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(DEFAULT, stats):
        apply_pipeline(cases()["residual_then_pad"], DEFAULT)
    [(name, counters)] = stats.runs
    assert name == DEFAULT
    assert counters["1x1 convs as matmul"] == 2
    assert counters["elementwise consumers read the flat matmul"] == 1
