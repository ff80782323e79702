"""ScatterElements with indices computed in the graph (GroupViT's hard group assignment:
`zeros_like(p).scatter_(-2, p.argmax(-2, keepdim=True), 1.0)`), as compares and selects.

Each update j along the axis is compared with every position p of it: out[p] = data[p] where no
index names p, else the update of the last j naming p (ONNX leaves duplicate indices undefined
without a reduction; onnxruntime writes in order, so the last one stays). One index per slice
(GroupViT's, a one-hot) is one compare and one select; several pick the last writer by a max
over j in i32 and the update by a sum of selects (exact: one term is not zero). The work is
positions x updates, fine for assignments and one-hots; a scatter of many rows into many wants
IREE's `iree_linalg_ext.scatter`, which the graph dialect does not emit.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import (
    binary,
    broadcast_to,
    ramp,
    reduce,
    reshape,
    squeezed,
    wrapped_runtime_indices,
)
from fusionopt.importers.onnx_context import ImportContext, Value, element, shape


def runtime_scatter_elements(ctx: ImportContext, data: Value, indices: SSAValue, updates: Value,
                             axis: int) -> SSAValue:
    dims, ts = shape(data), shape(indices)
    if any(t != d for i, (t, d) in enumerate(zip(ts, dims)) if i != axis) or len(ts) != len(dims):
        raise ctx.error(f"ScatterElements with runtime indices {list(ts)} narrower than data {list(dims)} "
                        "off the axis is not supported")
    n, m = dims[axis], ts[axis]
    pairs = (*dims[:axis], m, n, *dims[axis + 1:])  # j (the updates) then p (the positions)
    hit = _names_position(ctx, indices, axis, n, pairs)
    if m == 1:
        named = squeezed(ctx, hit, [axis])
        value = broadcast_to(ctx, ctx.ssa(updates), dims)
        return ctx.emit(graph.WhereOp(named, value, ctx.ssa(data)))
    order = ramp(m, axis, len(pairs), np.int32)
    writer = ctx.emit(graph.WhereOp(hit, broadcast_to(ctx, order, pairs), ctx.splat(-1, pairs, i32)))
    last = reduce(ctx, graph.ReduceMaxOp, writer, [axis])  # [..., 1, n, ...]: -1 where none
    # j is the last writer of p (-1 where none: no j matches)
    chosen = binary(ctx, graph.EqualOp, broadcast_to(ctx, last, pairs), broadcast_to(ctx, order, pairs))
    spread = broadcast_to(ctx, reshape(ctx, updates, (*dims[:axis], m, 1, *dims[axis + 1:])), pairs)
    zero = ctx.splat(0, pairs, element(ctx.ssa(updates)))
    value = squeezed(ctx, reduce(ctx, graph.ReduceSumOp, ctx.emit(graph.WhereOp(chosen, spread, zero)), [axis]),
                     [axis])
    named = squeezed(ctx, binary(ctx, graph.LessOp, np.array(-1, dtype=np.int32), last), [axis])
    return ctx.emit(graph.WhereOp(named, value, ctx.ssa(data)))


def _names_position(ctx: ImportContext, indices: SSAValue, axis: int, n: int, pairs) -> SSAValue:
    """[..., m, n, ...] i1: update j's index (negatives wrapped) is position p."""
    wrapped, ts = wrapped_runtime_indices(ctx, indices, n), shape(indices)
    column = broadcast_to(ctx, reshape(ctx, wrapped, (*ts[:axis + 1], 1, *ts[axis + 1:])), pairs)
    positions = ramp(n, axis + 1, len(pairs), np.int64)
    return binary(ctx, graph.EqualOp, column, positions)
