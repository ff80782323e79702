"""Folding `concat(pieces of one value, in order)` back into that value.

After horizontal fusion, a program that concatenated its towers' outputs concatenates lanes of
one fused tensor. Two kinds of piece are recognised, runs of consecutive pieces are folded:
- a slice on the concat axis: `slice(Y) axes=[a] [s:e]` followed by `[e:f]` ... -> `slice(Y) [s:f]`
  (or `Y` itself when the run covers the axis);
- a batch lane: `reshape(slice(Y[G, M, N]) axes=[0] [i:i+1]) -> [M, N]` for consecutive i,
  concatenated on axis 1 -> `reshape(Y[i0:i1])` to `[M, g*N]` (a transpose first when M > 1).
The folded concat is a pure view for M = 1, so the towers' results cost no copy kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.horizontal_layers import batched_to_wide
from fusionopt.transforms.graph.graph_ir import OpBuilder, erase_if_dead


@dataclass(frozen=True)
class Piece:
    """Operand of a concat that is the range [start, end) of `source` (axis `axis` of it)."""

    source: SSAValue
    axis: int
    start: int
    end: int
    lane: bool  # a batch lane (axis 0 of a [G, M, N] source), reshaped to [M, N]

    def continues(self, previous: Piece) -> bool:
        return (self.source, self.axis, self.lane) == (
            previous.source, previous.axis, previous.lane
        ) and self.start == previous.end


def _single_axis_slice(value: SSAValue) -> graph.SliceOp | None:
    owner = value.owner
    if isinstance(owner, graph.SliceOp) and len(owner.axes_values) == 1:
        return owner
    return None


def as_piece(value: SSAValue, concat_axis: int) -> Piece | None:
    sl = _single_axis_slice(value)
    if sl is not None and sl.axes_values[0] == concat_axis:
        return Piece(sl.input, concat_axis, sl.starts_values[0], sl.ends_values[0], lane=False)
    owner = value.owner
    if not isinstance(owner, graph.ReshapeOp) or concat_axis != 1:
        return None
    sl = _single_axis_slice(owner.input)
    if sl is None or sl.axes_values[0] != 0 or len(shape_of(sl.input)) != 3:
        return None
    _, m, n = shape_of(sl.input)
    if shape_of(value) != (m, n) or sl.ends_values[0] - sl.starts_values[0] != 1:
        return None
    return Piece(sl.input, 0, sl.starts_values[0], sl.ends_values[0], lane=True)


def _runs(concat: graph.ConcatOp) -> list[list[tuple[SSAValue, Piece | None]]]:
    """Operands split into maximal runs of consecutive pieces of one source."""
    runs: list[list[tuple[SSAValue, Piece | None]]] = []
    for value in concat.inputs:
        piece = as_piece(value, concat.axis_value)
        last = runs[-1][-1][1] if runs else None
        if piece is not None and last is not None and piece.continues(last):
            runs[-1].append((value, piece))
        else:
            runs.append([(value, piece)])
    return runs


def _fold_run(b: OpBuilder, first: Piece, last: Piece) -> SSAValue:
    whole = b.slice(first.source, first.axis, first.start, last.end)
    return batched_to_wide(b, whole) if first.lane else whole


def fold_concat(concat: graph.ConcatOp) -> bool:
    """Replace runs of >= 2 pieces in `concat`; True when the concat changed."""
    runs = _runs(concat)
    if all(len(run) < 2 for run in runs):
        return False
    b = OpBuilder(concat)
    operands = [
        _fold_run(b, run[0][1], run[-1][1]) if len(run) >= 2 else run[0][0]  # type: ignore[arg-type]
        for run in runs
    ]
    folded = b.concat(operands, concat.axis_value)
    concat.result.replace_all_uses_with(folded)
    erase_if_dead([concat, *b.created])
    return True


def fold_piece_concats(block: Block) -> bool:
    changed = False
    for op in list(block.ops):
        if isinstance(op, graph.ConcatOp) and op.parent is not None:
            changed |= fold_concat(op)
    return changed
