"""ONNX -> `graph` handler for TopK: the k largest (or smallest) values along an axis and their
indices, by ranks computed from pairwise comparisons.

Every element's rank is the number of elements that go before it: larger ones (smaller with
`largest=0`), and equal ones at lower indices (ONNX: of two equal values the one with the lower
index comes first). NaN orders above every number, as in torch's `topk` and numpy's `argmax`,
NaNs among themselves by index; ranks are a permutation. Output p is then the one element
whose rank is p, picked by a sum over a one-hot mask (exact: one term is the value, the others
zeros; a -0.0 comes out +0.0). Why not a sort: the comparisons, the count and the pick are
elementwise ops and reductions every pipeline fuses and every target builds (IREE's CUDA path
has no `iree_linalg_ext.topk` kernel), and the models that use TopK pick from short axes
(Autoformer's 13 of 96 delays, a mixture-of-experts router's 2 of 8-64 experts). The cost is
quadratic in the axis: N^2 comparisons, k x N for the pick. Ranks and ids are counted and picked
in f32 (exact below 2^24): integer sums accumulate in i64, which IREE's CUDA codegen cannot
distribute; integer values are still picked by an integer sum (no CUDA build for those).

`sorted=0` (any order allowed) gets the sorted order; K must be a constant.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import f32, i1, i64
from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import broadcast_to, normalize_axis, ramp, reduce, reshape, squeezed
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape


def topk(ctx: ImportContext, ins: list[Value]) -> list[Value]:
    x = ins[0]
    rank = len(shape(x))
    axis = normalize_axis(ctx, int(ctx.attr("axis", -1)), rank)
    k = int(ctx.constant_input(ins[1], "TopK's K").reshape(-1)[0])
    n, largest = shape(x)[axis], bool(ctx.attr("largest", 1))
    if not 1 <= k <= n:
        raise ctx.error(f"TopK's K = {k} is out of range for an axis of {n}")
    if n >= 2**24:
        raise ctx.error(f"TopK over {n} elements is not supported (ranks are f32 counts, exact below 2^24)")
    if isinstance(x, np.ndarray):
        return _constant_topk(x, axis, k, largest)
    x = ctx.ssa(x)
    ranks = _ranks(ctx, x, axis, largest)
    # the picked values and their positions, both with the i dim where `ranks` has it
    spread = reshape(ctx, x, shape(ranks))
    positions = ramp(n, axis + 1, rank + 1, np.float32)
    filler = -0.0 if numpy_dtype_of(element(x)).kind == "f" else 0
    hit = _rank_is(ctx, ranks, axis, k)
    indices = ctx.emit(graph.ConvertOp(ctx.ssa(_pick(ctx, hit, positions, f32, axis, 0.0)), i64))
    return [_pick(ctx, hit, spread, element(x), axis, filler), indices]


def _pairs(ctx: ImportContext, x: SSAValue, axis: int, at: int) -> SSAValue:
    """`x` broadcast over [..., N_i, N_j, ...] with its own axis at `axis + at` (0: i, 1: j)."""
    full = shape(x)
    pairs = (*full[:axis], full[axis], *full[axis:])
    one = (*full[:axis + 1 - at], 1, *full[axis + 1 - at:])
    return broadcast_to(ctx, reshape(ctx, x, one), pairs)


def _where(ctx: ImportContext, condition: SSAValue, then: SSAValue | bool, other: SSAValue | bool) -> SSAValue:
    """`graph.where` over i1 operands, a bool standing for its splat."""
    def value(v):
        return ctx.splat(v, shape(condition), i1) if isinstance(v, bool) else v
    return ctx.emit(graph.WhereOp(condition, value(then), value(other)))


def _ranks(ctx: ImportContext, x: SSAValue, axis: int, largest: bool) -> SSAValue:
    """[..., 1, N, ...] f32: how many elements go before each. The comparisons are laid out
    [..., N_i, N_j, ...] and counted over j, the innermost of the two, so the count reads them in
    its own loop order and they fuse into it: no N x N tensor is stored (RT-DETR's 8400 anchors:
    282 MB), and "j before i" for equal values compares two index vectors, not an N x N constant.
    Counted in f32, exact below 2^24: integer sums accumulate in i64, a reduction IREE's CUDA
    codegen cannot distribute."""
    xi, xj = _pairs(ctx, x, axis, 0), _pairs(ctx, x, axis, 1)
    pairs = shape(xj)
    before = ctx.emit((graph.GreaterOp if largest else graph.LessOp)(xj, xi))
    equal = ctx.emit(graph.EqualOp(xj, xi))
    if numpy_dtype_of(element(x)).kind == "f":
        number_j, number_i = ctx.emit(graph.EqualOp(xj, xj)), ctx.emit(graph.EqualOp(xi, xi))
        if largest:  # a NaN j goes before every number i
            before = _where(ctx, number_j, before, number_i)
        else:  # a number j goes before a NaN i
            before = _where(ctx, number_j, _where(ctx, number_i, before, True), False)
        equal = _where(ctx, number_j, equal, _where(ctx, number_i, False, True))
    lower = ctx.emit(graph.LessOp(_position(ctx, pairs, axis + 1), _position(ctx, pairs, axis)))  # j < i
    precedes = _where(ctx, before, True, _where(ctx, lower, equal, False))
    counts = ctx.emit(graph.WhereOp(precedes, ctx.splat(1.0, pairs, f32), ctx.splat(0.0, pairs, f32)))
    ranks = reduce(ctx, graph.ReduceSumOp, counts, [axis + 1])
    return reshape(ctx, ranks, [*pairs[:axis], 1, pairs[axis], *pairs[axis + 2:]])


def _position(ctx: ImportContext, pairs, at: int) -> SSAValue:
    """Each element's index along dim `at` of `pairs`, broadcast over the others (i64)."""
    return broadcast_to(ctx, ramp(pairs[at], at, len(pairs), np.int64), pairs, i64)


def _rank_is(ctx: ImportContext, ranks: SSAValue, axis: int, k: int) -> SSAValue:
    """[..., k, N, ...] i1: element i has rank p (p < k at `axis`, i at `axis + 1`)."""
    picks = list(shape(ranks))
    picks[axis] = k
    p = ramp(k, axis, len(picks), np.float32)
    return ctx.emit(graph.EqualOp(broadcast_to(ctx, ranks, picks), broadcast_to(ctx, p, picks, f32)))


def _pick(ctx: ImportContext, hit: SSAValue, values: Value, elem, axis: int, filler) -> Value:
    """[..., k, ...]: for each p the one of `values` (broadcast to `hit`) whose rank is p."""
    picks = shape(hit)
    chosen = ctx.emit(graph.WhereOp(hit, broadcast_to(ctx, values, picks, elem), ctx.splat(filler, picks, elem)))
    return squeezed(ctx, reduce(ctx, graph.ReduceSumOp, chosen, [axis + 1]), [axis + 1])


def _constant_topk(x: np.ndarray, axis: int, k: int, largest: bool) -> list[np.ndarray]:
    keys = np.where(np.isnan(x), np.inf, x) if x.dtype.kind == "f" else x
    order = np.argsort(-keys if largest else keys, axis=axis, kind="stable")
    if x.dtype.kind == "f":  # NaN above inf (largest), after it (smallest): stable within each
        nan_last = np.argsort(np.take_along_axis(np.isnan(x), order, axis) != largest, axis=axis, kind="stable")
        order = np.take_along_axis(order, nan_last, axis)
    order = np.take(order, np.arange(k), axis=axis)
    return [np.take_along_axis(x, order, axis), order.astype(np.int64)]


HANDLERS = {"TopK": topk}
