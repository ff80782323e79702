"""ONNX ArgMax / ArgMin: a max reduction, the positions equal to it, and the first (or last) of
them by a max over positions in i32 (IREE's CUDA codegen cannot distribute an i64 max); a
constant input folds at import."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import i1, i32, i64
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import binary, broadcast_to, normalize_axis, reduce, squeezed
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def arg_extreme(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    """ArgMax / ArgMin from reductions the passes know: the extreme along `axis`, the positions
    equal to it (or NaN: a NaN is the maximum, as numpy and a float64 run take it), the first
    (or, with `select_last_index`, the last) of them by a max over positions. ArgMin is ArgMax
    of -x for floats and of -1 - x for integers (no overflow at the type's minimum)."""
    x = ins[0]
    axis = normalize_axis(ctx, ctx.attr("axis", 0), len(shape(x)))
    if shape(x)[axis] >= 2**31:
        raise ctx.error(f"{ctx.node.op_type} over {shape(x)[axis]} elements is not supported (ranks are i32)")
    last, keep = bool(ctx.attr("select_last_index", 0)), bool(ctx.attr("keepdims", 1))
    if isinstance(x, np.ndarray):
        return [_constant_arg_extreme(x, axis, last, keep, ctx.node.op_type == "ArgMin")]
    x = ctx.ssa(x)
    if element(x) == i32:
        # i32 values widen (exactly): otherwise their max and the i32 rank max start from the
        # same fill (the i32 minimum), one tensor once CSE'd, and IREE's CUDA codegen fails to
        # bufferize two reductions into it (with another fill value it builds; checked).
        x = ctx.emit(graph.ConvertOp(x, i64))
    if ctx.node.op_type == "ArgMin":
        x = ctx.emit(graph.NegOp(x)) if numpy_dtype_of(element(x)).kind == "f" else \
            binary(ctx, graph.SubOp, np.array(-1, dtype=numpy_dtype_of(element(x))), x)
    index = _first_or_last_max(ctx, x, axis, last)
    return [index if keep else squeezed(ctx, index, [axis])]


def _first_or_last_max(ctx: ImportContext, x: SSAValue, axis: int, last: bool) -> SSAValue:
    full, n = shape(x), shape(x)[axis]
    peak = broadcast_to(ctx, reduce(ctx, graph.ReduceMaxOp, x, [axis]), full)
    hit = ctx.emit(graph.EqualOp(x, peak))
    if numpy_dtype_of(element(x)).kind == "f":
        ordered = ctx.emit(graph.EqualOp(x, x))
        hit = ctx.emit(graph.WhereOp(ordered, hit, ctx.splat(True, full, i1)))
    # Ranks in i32, widened at the end: IREE's CUDA codegen cannot distribute an i64 max
    # reduction fed by the select ("failed to distribute", IREE's own ArgMin too).
    positions = np.arange(n, dtype=np.int32) if last else np.arange(n - 1, -1, -1, dtype=np.int32)
    ranks = broadcast_to(ctx, positions.reshape([n if d == axis else 1 for d in range(len(full))]), full)
    best = reduce(ctx, graph.ReduceMaxOp, ctx.emit(graph.WhereOp(hit, ranks, ctx.splat(-1, full, i32))), [axis])
    if not last:
        best = binary(ctx, graph.SubOp, np.array(n - 1, dtype=np.int32), best)
    return ctx.emit(graph.ConvertOp(best, i64))


def _constant_arg_extreme(x: np.ndarray, axis: int, last: bool, keep: bool, minimum: bool) -> np.ndarray:
    pick = np.argmin if minimum else np.argmax
    index = x.shape[axis] - 1 - pick(np.flip(x, axis), axis) if last else pick(x, axis)
    index = index.astype(np.int64)
    return np.expand_dims(index, axis) if keep else index
