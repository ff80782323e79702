"""Vectorised argmax/argmin reductions: the "select pair" bodies torch-mlir emits.

    ^bb0(%x: f32, %best: f32, %best_i: i64):
      %i = linalg.index 1 ...                     // any value not reading an accumulator
      %better = arith.cmpf ogt, %x, %best : f32   // ogt/oge/olt/ole (or mirrored operands)
      %v = arith.select %better, %x, %best : f32
      %j = arith.select %better, %i, %best_i : i64
      linalg.yield %v, %j : f32, i64

Sequentially, a strict predicate (ogt/olt) keeps the *first* position of the extreme value and a
non-strict one (oge/ole) the *last*; NaN candidates never win (ordered compares are false), and
nothing wins against a NaN accumulator. `argmax_reduce` reproduces exactly that with one numpy
arg-reduction over a single reduction loop; other shapes go to the sequential loop.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue

# cmpf predicate index -> (direction, strict); see arith.CmpfOp's enum order.
_OGT, _OGE, _OLT, _OLE = 2, 3, 4, 5
_ORDERED = {_OGT: ("max", True), _OGE: ("max", False), _OLT: ("min", True), _OLE: ("min", False)}
_MIRRORED = {_OGT: _OLT, _OGE: _OLE, _OLT: _OGT, _OLE: _OGE}


@dataclass(frozen=True)
class SelectPair:
    """A recognised argmax/argmin body: which values to compute and how to reduce them."""

    candidate: SSAValue  # %x
    position: SSAValue  # %i
    direction: str  # "max" or "min"
    strict: bool
    ops: frozenset[Operation]  # the compare and the two selects (skipped when evaluating)


def match_select_pair(block: Block, n_inputs: int) -> SelectPair | None:
    out_args = block.args[n_inputs:]
    yield_op = block.last_op
    if len(out_args) != 2 or yield_op is None or len(yield_op.operands) != 2:
        return None
    best, best_i = out_args
    sel_v, sel_i = (v.owner for v in yield_op.operands)
    if not (isinstance(sel_v, arith.SelectOp) and isinstance(sel_i, arith.SelectOp)):
        return None
    cmp = sel_v.cond.owner
    if not isinstance(cmp, arith.CmpfOp) or sel_i.cond is not sel_v.cond:
        return None
    if sel_v.rhs is not best or sel_i.rhs is not best_i:
        return None
    candidate, predicate = sel_v.lhs, cmp.predicate.value.data
    if tuple(cmp.operands) == (best, candidate):
        predicate = _MIRRORED.get(predicate, -1)
    elif tuple(cmp.operands) != (candidate, best):
        return None
    if predicate not in _ORDERED:
        return None
    pair_ops = {cmp, sel_v, sel_i}
    if any(u.operation not in pair_ops for arg in out_args for u in arg.uses):
        return None
    if any(len(list(op.results[0].uses)) != 1 for op in (sel_v, sel_i)):
        return None
    direction, strict = _ORDERED[predicate]
    return SelectPair(candidate, sel_i.lhs, direction, strict, frozenset(pair_ops))


def argmax_reduce(
    pair: SelectPair, x: np.ndarray, pos: np.ndarray, init_v: np.ndarray, init_i: np.ndarray, axis: int
) -> tuple[np.ndarray, np.ndarray]:
    """Final (value, position) accumulators; `x`, `pos` span the iteration space, inits have
    size 1 on `axis`."""
    worst = -np.inf if pair.direction == "max" else np.inf
    ranked = np.where(np.isnan(x), worst, x.astype(np.float64))
    if not pair.strict:  # the last extreme position wins: search the reversed axis
        ranked = np.flip(ranked, axis)
    arg = np.argmax(ranked, axis=axis) if pair.direction == "max" else np.argmin(ranked, axis=axis)
    arg = np.expand_dims(arg, axis)
    if not pair.strict:
        arg = x.shape[axis] - 1 - arg
    best = np.take_along_axis(x, arg, axis)
    better = best > init_v if pair.direction == "max" else best < init_v
    if not pair.strict:
        better = better | (best == init_v)
    return np.where(better, best, init_v), np.where(better, np.take_along_axis(pos, arg, axis), init_i)
