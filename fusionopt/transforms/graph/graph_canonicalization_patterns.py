"""Canonicalization patterns of the `graph` dialect (used by `graph-canonicalize` AND upstream
`canonicalize`, through the `GraphCanonicalization` trait the graph ops carry).

Identities (each pattern's docstring states it; every rewrite is exact unless noted):
- views: transpose(transpose(x)) -> one transpose; reshape(reshape(x)) -> one reshape; a
  transpose moving only unit axes -> a reshape;
  broadcast(broadcast(x)) -> one broadcast; slice(slice(x)) -> one slice; no-op transpose /
  reshape / broadcast / slice / one-operand concat -> x;
- transpose / reshape / broadcast / slice of a splat constant -> a splat constant (bytes reused,
  so a `dense<0.0> : tensor<4096x4096xf32>` never expands); transpose / reshape / slice of
  another constant -> a constant (a weight's layout is free at compile time);
- concat(.., concat(a, b), ..) on one axis -> concat(.., a, b, ..) (a scan's growing buffer is one
  concat of its steps, not a chain of copies); slice(concat(xs)) -> the slice of the input(s) it
  reads; concat(slice(v)[a:b], slice(v)[b:c])
  -> slice(v)[a:c] (the inverse of a horizontal split); a concat of v's blocks in another order,
  some negated (RoPE's rotate_half, torch.roll) -> one gather of v (x a sign): see
  `concat_of_permuted_slices.py`;
- slice(broadcast(x)) -> broadcast(slice(x)); slice(transpose(x)) -> transpose(slice(x)) and
  slice(reshape(x)) -> reshape(slice(x)) (`slice_of_reshape.py`) when only slices read the view;
  gather(x, k) of one constant index -> reshape(slice(x)) (`gather_at_constant_index.py`); slice(dot(a, b)) of a single-use dot ->
  dot(slice(a), slice(b)) (MIGraphX `find_dot_slice`); a slice of a constant -> a constant, so
  a cut of a constant weight after its dot ends up folded into the weight;
- x + 0, x - 0, 0 + x -> x; x * 1, 1 * x -> x. For floats `-0.0 + 0.0` is `+0.0`, so `x + 0`
  may flip the sign of a zero result (as in MIGraphX / ONNX Runtime, unlike MLIR's strict
  `arith.addf` folder);
- (x + c1) + c2 -> x + (c1 + c2) with c1, c2 constant (broadcasts of constants included): the
  constant sum folds, so stacked biases cost one add.
"""

from __future__ import annotations

import math

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt.dialects import graph
from fusionopt.dialects.dense import is_compact_splat
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.graph_propagate_constants import DEFAULT_MAX_BYTES, fold_to_attr
from fusionopt.transforms.graph.concat_of_permuted_slices import ConcatOfPermutedSlices
from fusionopt.transforms.graph.gather_at_constant_index import GatherAtConstantIndex
from fusionopt.transforms.graph.nested_concats import FlattenNestedConcats
from fusionopt.transforms.graph.graph_ir import (
    constant_splat_value, dense_constant, make_slice, moves_only_unit_axes, on_operand_axes, read_only_by_slices, slice_bounds,
)
from fusionopt.transforms.graph.slice_of_reshape import SliceOfReshape

# ---- views ----------------------------------------------------------------------------------


class FoldNoOpView(RewritePattern):
    """transpose with the identity perm, reshape / broadcast to the operand's own type, a slice
    covering every axis fully, concat of one operand: all return their operand unchanged."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if is_no_op_view(op):
            rewriter.replace(op, [], [op.operands[0]])


def is_no_op_view(op: Operation) -> bool:
    if not isinstance(op, (graph.TransposeOp, graph.ReshapeOp, graph.BroadcastOp, graph.SliceOp, graph.ConcatOp)):
        return False
    if len(op.operands) != 1 or op.operands[0].type != op.results[0].type:
        return False
    if isinstance(op, graph.TransposeOp):
        return list(op.perm_values) == list(range(len(op.perm_values)))
    if isinstance(op, graph.BroadcastOp):
        return list(op.dims_values) == list(range(len(op.dims_values)))
    return True  # same type: a reshape, a full slice, or a one-operand concat


class ComposeTransposes(RewritePattern):
    """transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[j]])."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.TransposeOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if not isinstance(inner, graph.TransposeOp):
            return
        p1, p2 = inner.perm_values, op.perm_values
        rewriter.replace(op, graph.TransposeOp(inner.input, [p1[j] for j in p2]))


class UnitAxesTransposeToReshape(RewritePattern):
    """A transpose that keeps its non-unit axes in order moves only unit axes: a reshape (the
    same elements in the same order), which composes with the reshapes around it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.TransposeOp, rewriter: PatternRewriter) -> None:
        perm = list(op.perm_values)
        if moves_only_unit_axes(shape_of(op.input), perm) and perm != sorted(perm):
            rewriter.replace(op, graph.ReshapeOp(op.input, op.result.type))


class ComposeReshapes(RewritePattern):
    """reshape(reshape(x)) -> reshape(x): a reshape only re-describes the row-major buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ReshapeOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if isinstance(inner, graph.ReshapeOp):
            rewriter.replace(op, graph.ReshapeOp(inner.input, op.result.type))


class ComposeBroadcasts(RewritePattern):
    """broadcast(broadcast(x, d1), d2) -> broadcast(x, d2[d1[i]]) (sizes stay 1 or equal)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.BroadcastOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if not isinstance(inner, graph.BroadcastOp):
            return
        d1, d2 = inner.dims_values, op.dims_values
        rewriter.replace(op, graph.BroadcastOp(inner.input, [d2[d] for d in d1], op.result.type))


class ComposeSlices(RewritePattern):
    """slice(slice(x)) -> slice(x) with the offsets added."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        inner = op.input.owner
        if not isinstance(inner, graph.SliceOp):
            return
        outer_bounds, inner_bounds = slice_bounds(op), slice_bounds(inner)
        bounds = [(i0 + s, i0 + e) for (s, e), (i0, _) in zip(outer_bounds, inner_bounds)]
        rewriter.replace(op, make_slice(inner.input, bounds))


class SliceOfConcat(RewritePattern):
    """slice(concat(xs, axis)) reading part of the concat axis -> the slice of the one input it
    reads, or the concat of the pieces of the inputs it reads (fewer bytes copied)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        concat = op.input.owner
        if not isinstance(concat, graph.ConcatOp):
            return
        axis, bounds = concat.axis_value, slice_bounds(op)
        start, end = bounds[axis]
        if start == end:
            return
        pieces: list[tuple[SSAValue, tuple[int, int]]] = []
        offset = 0
        for value in concat.inputs:
            size = shape_of(value)[axis]
            lo, hi = max(start, offset), min(end, offset + size)
            if lo < hi:
                pieces.append((value, (lo - offset, hi - offset)))
            offset += size
        if (start, end) == (0, offset):
            return  # the whole concat axis: nothing to drop
        new_ops: list[Operation] = []
        parts = []
        for value, piece in pieces:
            piece_bounds = list(bounds)
            piece_bounds[axis] = piece
            new_ops.append(make_slice(value, piece_bounds))
            parts.append(new_ops[-1].results[0])
        if len(parts) > 1:
            new_ops.append(graph.ConcatOp(parts, axis))
        rewriter.replace(op, new_ops)


class ConcatOfAdjacentSlices(RewritePattern):
    """concat(slice(v)[.., a:b, ..], slice(v)[.., b:c, ..]) on that axis -> slice(v)[.., a:c, ..]
    (every run of adjacent slices of one value merges; a full run is `v` itself)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ConcatOp, rewriter: PatternRewriter) -> None:
        axis, inputs = op.axis_value, list(op.inputs)
        merged: list[SSAValue] = []
        new_ops: list[Operation] = []
        i = 0
        while i < len(inputs):
            j = i + 1
            while j < len(inputs) and continues_slice(inputs[j - 1], inputs[j], axis):
                j += 1
            if j - i == 1:
                merged.append(inputs[i])
            else:
                first, last = inputs[i].owner, inputs[j - 1].owner
                bounds = slice_bounds(first)  # type: ignore[arg-type]
                bounds[axis] = (bounds[axis][0], slice_bounds(last)[axis][1])  # type: ignore[arg-type]
                new_ops.append(make_slice(first.input, bounds))  # type: ignore[union-attr]
                merged.append(new_ops[-1].results[0])
            i = j
        if len(merged) == len(inputs):
            return
        if len(merged) > 1:
            new_ops.append(graph.ConcatOp(merged, axis))
        rewriter.replace(op, new_ops, [merged[0]] if len(merged) == 1 else None)


def continues_slice(a: SSAValue, b: SSAValue, axis: int) -> bool:
    """`b` is the slice of the same value that starts where slice `a` ends on `axis`."""
    sa, sb = a.owner, b.owner
    if not (isinstance(sa, graph.SliceOp) and isinstance(sb, graph.SliceOp) and sa.input == sb.input):
        return False
    ba, bb = slice_bounds(sa), slice_bounds(sb)
    same_elsewhere = all(x == y for d, (x, y) in enumerate(zip(ba, bb)) if d != axis)
    return same_elsewhere and ba[axis][1] == bb[axis][0]


class SliceOfBroadcast(RewritePattern):
    """slice(broadcast(x)) -> broadcast(slice(x)): cuts on broadcast dims vanish, the others
    move to the operand (a slice of a broadcast constant then folds, staying small)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        bcast = op.input.owner
        if not isinstance(bcast, graph.BroadcastOp):
            return
        in_shape, out_shape = shape_of(bcast.input), shape_of(op.result)
        bounds = slice_bounds(op)
        inner = [(0, size) for size in in_shape]
        for i, d in enumerate(bcast.dims_values):
            if in_shape[i] != 1:  # a real dim: the cut applies to the operand
                inner[i] = bounds[d]
        ops: list[Operation] = []
        source = bcast.input
        if any(b != (0, size) for b, size in zip(inner, in_shape)):
            ops.append(make_slice(source, inner))
            source = ops[-1].results[0]
        ops.append(graph.BroadcastOp(source, bcast.dims_values, op.result.type))
        assert shape_of(ops[-1].results[0]) == out_shape
        rewriter.replace(op, ops)


class SliceOfTranspose(RewritePattern):
    """slice(transpose(x, p)) -> transpose(slice(x), p) when only slices read the transpose:
    only the kept part moves (the V heads of a head-split QKV projection), and a transpose next
    to a dot then folds into the dot's operand map at lowering (the attention tail of MIGraphX
    #2818: 4 -> 3 dispatches)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        transpose = op.input.owner
        if not isinstance(transpose, graph.TransposeOp) or not read_only_by_slices(transpose.result):
            return
        perm = transpose.perm_values
        cut = make_slice(transpose.input, on_operand_axes(perm, slice_bounds(op)))
        rewriter.replace(op, [cut, graph.TransposeOp(cut.results[0], perm)])


class SliceOfDot(RewritePattern):
    """slice(dot(a, b)) with the dot used only here -> dot(slice(a), slice(b)) (MIGraphX
    `find_dot_slice`): cuts of batch dims go to both operands, row cuts to `a`, column cuts to
    `b`. Only the kept values are computed, each exactly as before; a cut of a constant operand
    then folds into the constant (`FoldViewOfConstant`), so `slice(dot(x, W))[.., :n]` becomes
    `dot(x, W[:, :n])` with the slice gone."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        dot = op.input.owner
        if not isinstance(dot, graph.DotOp) or not dot.result.has_one_use():
            return
        bounds = slice_bounds(op)
        rank = len(bounds)
        lhs_bounds = [(0, s) for s in shape_of(dot.lhs)]
        rhs_bounds = [(0, s) for s in shape_of(dot.rhs)]
        lhs_bounds[:rank - 2] = rhs_bounds[:rank - 2] = bounds[:rank - 2]
        lhs_bounds[rank - 2] = bounds[rank - 2]
        rhs_bounds[rank - 1] = bounds[rank - 1]
        ops: list[Operation] = []
        operands = []
        for value, cut in ((dot.lhs, lhs_bounds), (dot.rhs, rhs_bounds)):
            if all(c == (0, s) for c, s in zip(cut, shape_of(value))):
                operands.append(value)
            else:
                ops.append(make_slice(value, cut))
                operands.append(ops[-1].results[0])
        ops.append(graph.DotOp(operands[0], operands[1]))
        rewriter.replace(op, ops)


# ---- constants ------------------------------------------------------------------------------


class FoldViewOfConstant(RewritePattern):
    """transpose / reshape / broadcast / slice of a splat constant -> splat constant (bytes
    reused); transpose / reshape / slice of any other constant -> constant (no growth)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (graph.TransposeOp, graph.ReshapeOp, graph.BroadcastOp, graph.SliceOp)):
            return
        attr = dense_constant(op.operands[0])
        if attr is None:
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        if is_compact_splat(attr) or math.prod(attr.get_shape()) == 1:
            splat = DenseIntOrFPElementsAttr(result_type, attr.data)
            rewriter.replace(op, ConstantOp(splat))
        elif not isinstance(op, graph.BroadcastOp):
            folded = fold_to_attr(op, DEFAULT_MAX_BYTES)
            if folded is not None:
                rewriter.replace(op, ConstantOp(folded))


class FoldIdentityOperand(RewritePattern):
    """x + 0, 0 + x, x - 0 -> x and x * 1, 1 * x -> x (see module doc for the sign of zero)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        identity = {graph.AddOp: 0, graph.SubOp: 0, graph.MulOp: 1}.get(type(op))
        if identity is None:
            return
        lhs, rhs = op.operands
        if constant_splat_value(rhs) == identity:
            rewriter.replace(op, [], [lhs])
        elif not isinstance(op, graph.SubOp) and constant_splat_value(lhs) == identity:
            rewriter.replace(op, [], [rhs])


def is_constant_like(value: SSAValue) -> bool:
    owner = value.owner
    if isinstance(owner, graph.BroadcastOp):
        value = owner.input
    return dense_constant(value) is not None


def sum_constants(c1: SSAValue, c2: SSAValue) -> list[Operation]:
    """Ops computing c1 + c2, folded to a constant where that does not grow memory; two
    broadcasts with the same dims are added before one broadcast."""
    b1, b2 = c1.owner, c2.owner
    if (isinstance(b1, graph.BroadcastOp) and isinstance(b2, graph.BroadcastOp)
            and b1.dims_values == b2.dims_values and b1.input.type == b2.input.type):
        inner = graph.AddOp(b1.input, b2.input)
        ops: list[Operation] = [inner]
        if (attr := fold_to_attr(inner, DEFAULT_MAX_BYTES)) is not None:
            ops = [ConstantOp(attr)]
        ops.append(graph.BroadcastOp(ops[-1].results[0], b1.dims_values, c1.type))
        return ops
    total = graph.AddOp(c1, c2)
    attr = fold_to_attr(total, DEFAULT_MAX_BYTES)
    return [ConstantOp(attr)] if attr is not None else [total]


class ReassociateConstantAdds(RewritePattern):
    """(x + c1) + c2 -> x + (c1 + c2) when the inner add has no other user."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.AddOp, rewriter: PatternRewriter) -> None:
        for outer_const, inner_value in ((op.rhs, op.lhs), (op.lhs, op.rhs)):
            inner = inner_value.owner
            if not (is_constant_like(outer_const) and isinstance(inner, graph.AddOp)):
                continue
            if not inner.result.has_one_use():
                continue
            for c1, x in ((inner.rhs, inner.lhs), (inner.lhs, inner.rhs)):
                if is_constant_like(c1) and not is_constant_like(x):
                    ops = sum_constants(c1, outer_const)
                    new_add = graph.AddOp(x, ops[-1].results[0])
                    rewriter.replace(op, [*ops, new_add])
                    return


# ---- which op gets which patterns -----------------------------------------------------------

_VIEW_PATTERNS = (FoldNoOpView(), FoldViewOfConstant())
_PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    graph.TransposeOp: (*_VIEW_PATTERNS, ComposeTransposes(), UnitAxesTransposeToReshape()),
    graph.ReshapeOp: (*_VIEW_PATTERNS, ComposeReshapes()),
    graph.BroadcastOp: (*_VIEW_PATTERNS, ComposeBroadcasts()),
    graph.SliceOp: (FoldNoOpView(), FoldViewOfConstant(), ComposeSlices(), SliceOfConcat(),
                    SliceOfBroadcast(), SliceOfTranspose(), SliceOfReshape(), SliceOfDot()),
    graph.ConcatOp: (FoldNoOpView(), FlattenNestedConcats(), ConcatOfAdjacentSlices(), ConcatOfPermutedSlices()),
    graph.AddOp: (FoldIdentityOperand(), ReassociateConstantAdds()),
    graph.SubOp: (FoldIdentityOperand(),),
    graph.MulOp: (FoldIdentityOperand(),),
    graph.GatherOp: (GatherAtConstantIndex(),),
}


def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """The canonicalization patterns rooted at `op_type` (empty for ops without any)."""
    return _PATTERNS.get(op_type, ())


def all_patterns() -> list[RewritePattern]:
    """Every pattern once (for `graph-canonicalize`, which does not go through traits)."""
    unique: dict[type, RewritePattern] = {}
    for patterns in _PATTERNS.values():
        for pattern in patterns:
            unique.setdefault(type(pattern), pattern)
    return list(unique.values())
