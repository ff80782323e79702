"""concat(.., concat(a, b), ..) along one axis -> concat(.., a, b, ..): an unrolled scan's rows
as one buffer.

Exact: the same elements in the same order; no value is computed.
"""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt.dialects import graph


class FlattenNestedConcats(RewritePattern):
    """concat(.., concat(a, b), ..) along the same axis -> concat(.., a, b, ..) (the inner one stays
    for its other users). An unrolled scan writes each step into the rows so far: after
    `SliceOfConcat` the buffer is concat(concat(concat(h0, h1), h2), ..), which reaches IREE as a
    chain of copies into ever larger buffers, each tied to the step's dispatch; past ~34 steps
    IREE's stream usage analysis gives up ("failed to solve for usage analysis": its fixpoint
    solver stops at 32 rounds). Flat, every step is written once into one buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ConcatOp, rewriter: PatternRewriter) -> None:
        axis = op.axis_value
        if not any(_is_concat_on(value, axis) for value in op.inputs):
            return
        flat: list[SSAValue] = []
        for value in op.inputs:
            flat.extend(value.owner.inputs if _is_concat_on(value, axis) else [value])  # type: ignore[union-attr]
        rewriter.replace(op, graph.ConcatOp(flat, axis))


def _is_concat_on(value: SSAValue, axis: int) -> bool:
    return isinstance(value.owner, graph.ConcatOp) and value.owner.axis_value == axis
