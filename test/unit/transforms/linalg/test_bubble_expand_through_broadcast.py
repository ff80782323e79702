"""`linalg-bubble-expand-through-broadcast`: an expand_shape of a broadcast or fill as the broadcast
(fill) of the expanded shape computes what the input computes (random and adversarial inputs,
float64 reference), is counted in the pass statistics, and in `dispatch-creation` puts a grouped
conv's bias into the conv's dispatch."""

from __future__ import annotations

import pytest

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.testing import assert_pass_preserves_semantics
from support.lit_cases import LIT_TRANSFORMS, lit_functions

LIT = LIT_TRANSFORMS / "linalg" / "linalg-bubble-expand-through-broadcast.mlir"
PASS = "linalg-bubble-expand-through-broadcast"
# case -> expand_shapes of a broadcast or fill the pass rewrites
REWRITES = {"grouped_conv_bias": 1, "broadcast_dim_split": 1, "generic_broadcast": 1, "fill_expanded": 1,
            "not_taken": 0}


def test_every_lit_case_is_pinned():
    assert sorted(lit_functions(LIT)) == sorted(REWRITES)


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_rewrite_computes_the_same_and_is_counted(name: str):
    stats = pass_statistics.PassStatistics()
    with pass_statistics.collecting(PASS, stats):
        assert_pass_preserves_semantics(lit_functions(LIT)[name], PASS)
    counters = dict(stats.runs[0][1]) if stats.runs else {}
    assert counters.get("expand_shapes moved above their broadcast or fill", 0) == REWRITES[name]


def test_grouped_conv_bias_joins_the_conv_dispatch():
    after = assert_pass_preserves_semantics(lit_functions(LIT)["grouped_conv_bias"], "dispatch-creation")
    gather, matmul = [op for op in after.walk() if isinstance(op, DispatchRegionOp)]
    names = [op.name for op in matmul.body.walk()]
    # dispatch-creation makes the grouped conv a patch gather and a batched matmul
    # (linalg-grouped-conv-to-im2col): the matmul's region holds the broadcast bias init and the
    # matmul as its one generic.
    assert "linalg.broadcast" in names and "linalg.conv_2d_ngchw_gfchw" not in names
    assert names.count("linalg.generic") == 1
    assert "linalg.broadcast" not in [op.name for op in gather.body.walk()]
