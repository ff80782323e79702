"""concat of one value's blocks in another order (some negated) -> one gather (x a sign).

    concat(neg(slice(x)[.., h:n, ..]), slice(x)[.., 0:h, ..], axis=a)    (RoPE's rotate_half)
    concat(slice(x)[.., s:n, ..], slice(x)[.., 0:s, ..], axis=a)         (torch.roll, Swin)
 -> gather(x, [h..n-1, 0..h-1], axis=a) [* broadcast([-1.., +1..], a)]
    (blocks in x's own order with some negated: x * broadcast(signs), no gather)

Why: the concat is a copy per block (`flow.tensor.update`s after region formation) and each
negated block an elementwise dispatch of its own; the gather is one elementwise op reading x
at import-time indices, which region formation fuses with its elementwise neighbours (RoPE's
x * cos + rotate_half(x) * sin becomes one dispatch, IREE's own form: a read at computed
indices). Multiplying by -1 is negation, exactly (inf, zeros' signs and NaN included).

Matched: every operand a `graph.slice` of the same x cut only along the concat axis (or the
`graph.neg` of one), the blocks covering x's axis exactly once, in an order that is not
already x's own unless a block is negated (adjacent in-order slices merge by
`ConcatOfAdjacentSlices`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.graph_base import element_of, shape_of


def _block(value: SSAValue, axis: int) -> tuple[SSAValue, int, int, bool] | None:
    """(x, start, end, negated) when `value` is slice(x) or neg(slice(x)) cut only on `axis`."""
    owner = value.owner
    negated = isinstance(owner, graph.NegOp)
    if negated:
        owner = owner.input.owner
    if not isinstance(owner, graph.SliceOp):
        return None
    source = owner.input
    full = shape_of(source)
    bounds = {a: (s, e) for a, s, e in zip(owner.axes_values, owner.starts_values, owner.ends_values)}
    if any(b != (0, full[a]) for a, b in bounds.items() if a != axis) or axis not in bounds:
        return None
    return source, *bounds[axis], negated


def permuted_blocks(op: graph.ConcatOp) -> tuple[SSAValue, np.ndarray | None, np.ndarray | None] | None:
    """(x, gather indices or None when the blocks are in x's order, signs or None when none is
    negated) when `op` is a permutation of x's blocks along its axis, not the identity."""
    axis = op.axis_value
    blocks = [_block(v, axis) for v in op.inputs]
    if len(blocks) < 2 or any(b is None for b in blocks) or len({b[0] for b in blocks}) != 1:
        return None
    source = blocks[0][0]
    indices = np.concatenate([np.arange(start, end) for _, start, end, _ in blocks])
    n = shape_of(source)[axis]
    if sorted(indices.tolist()) != list(range(n)):
        return None  # not every index exactly once
    in_order = np.array_equal(indices, np.arange(n))
    negated = any(b[3] for b in blocks)
    if in_order and not negated:
        return None
    signs = np.concatenate([np.full(end - start, -1.0 if neg else 1.0) for _, start, end, neg in blocks])
    return source, None if in_order else indices, signs if negated else None


class ConcatOfPermutedSlices(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ConcatOp, rewriter: PatternRewriter) -> None:
        found = permuted_blocks(op)
        if found is None:
            return
        source, indices, signs = found
        new_ops: list[Operation] = []
        value = source
        if indices is not None:  # in order, only the signs change
            index = ConstantOp(numpy_to_dense(indices.astype(np.int64), TensorType(IntegerType(64), [len(indices)])))
            new_ops += [index, graph.GatherOp(source, index.result, op.axis_value)]
            value = new_ops[-1].results[0]
        if signs is not None:
            sign = ConstantOp(numpy_to_dense(signs, TensorType(element_of(source), [len(signs)])))
            spread = graph.BroadcastOp(sign.result, [op.axis_value], op.result.type)
            new_ops += [sign, spread, graph.MulOp(value, spread.result)]
        rewriter.replace(op, new_ops)
        pass_statistics.count("concats of permuted slices made one gather")
