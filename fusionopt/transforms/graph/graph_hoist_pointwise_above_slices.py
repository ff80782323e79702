"""`graph-hoist-pointwise-above-slices`: apply a pointwise op once to a tensor, slice after.

MIGraphX `find_splits` (simplify_algebra.cpp) with the partial hoist of PR #5014. When slices
of one tensor `S` tile an axis exactly (start 0, contiguous, last end = the full size) and each
slice feeds the same pointwise op, the op runs once on `S` and each member becomes a slice of
that result:
- unary ops (`graph.sigmoid`, `graph.exp`, ...);
- binary ops whose other operand is a constant (`arith.constant`, concatenated at compile time,
  or `broadcast(constant)`, concatenated before one broadcast) or an identically ranged slice of
  another tensor `S2` (then the op reads `S2` whole). The slice must sit at the same operand
  position in every member unless the op is commutative.
The SiLU diamond `slice -> sigmoid -> mul(slice, sigmoid)` hoists in two steps: the sigmoid as a
unary op, then the mul, whose other operand has become an identically ranged slice.

Partial hoist: when only a contiguous run of the tiling slices has matching ops, the op runs over
that run's bounding slice. Slices that leave gaps, overlap or miss an end refuse the rewrite;
members without users (dead terminals) never count, so the rewrite cannot loop on them.

Options: none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import shape_of
from fusionopt.dialects.util import functions_with_body
from fusionopt.transforms.graph.graph_ir import (
    OpBuilder,
    concat_constants,
    dense_constant,
    forward_reach,
    stable_topological_sort,
    users,
)

COMMUTATIVE = (graph.AddOp, graph.MulOp, graph.MaxOp, graph.MinOp, graph.EqualOp)
BINARY = (graph.ElementwiseBinaryOp, graph.CompareOp)


@dataclass(frozen=True)
class Member:
    """A pointwise op fed by one tiling slice, and what its other operand is."""

    slice: graph.SliceOp
    op: Operation
    signature: tuple  # members with equal signatures hoist together
    other: SSAValue | None = None


def tiling_slices(source: SSAValue, axis: int) -> list[graph.SliceOp] | None:
    """The single-axis slices of `source` on `axis`, sorted, when they tile it exactly."""
    slices = [
        u for u in users(source)
        if isinstance(u, graph.SliceOp) and u.input == source and tuple(u.axes_values) == (axis,)
    ]
    slices.sort(key=lambda s: s.starts_values[0])
    if len(slices) < 2 or slices[0].starts_values[0] != 0:
        return None
    for prev, nxt in zip(slices, slices[1:]):
        if nxt.starts_values[0] != prev.ends_values[0] or nxt.starts_values[0] == nxt.ends_values[0]:
            return None
    if slices[-1].ends_values[0] != shape_of(source)[axis]:
        return None
    return slices


def _same_range(a: graph.SliceOp, b: graph.SliceOp) -> bool:
    return (a.axes_values, a.starts_values, a.ends_values) == (
        b.axes_values, b.starts_values, b.ends_values
    ) and shape_of(a.input) == shape_of(b.input)


def _constant_form(value: SSAValue) -> tuple | None:
    """('dense',) for an arith.constant, ('broadcast', dims) for broadcast(arith.constant)."""
    if dense_constant(value) is not None:
        return ("dense",)
    owner = value.owner
    if isinstance(owner, graph.BroadcastOp) and dense_constant(owner.input) is not None:
        return ("broadcast", tuple(owner.dims_values))
    return None


def _other_kind(sl: graph.SliceOp, other: SSAValue) -> tuple | None:
    form = _constant_form(other)
    if form is not None:
        return form
    other_slice = other.owner
    if isinstance(other_slice, graph.SliceOp) and other_slice.input != sl.input \
            and _same_range(other_slice, sl):
        return ("slice", other_slice.input)
    return None


def member_of(sl: graph.SliceOp, op: Operation) -> Member | None:
    """`op` as a hoisting member for slice `sl`, or None."""
    if not op.results or not op.results[0].uses:
        return None  # a dead terminal: hoisting it would only create more dead code
    if isinstance(op, graph.ElementwiseUnaryOp):
        return Member(sl, op, ("unary", type(op)))
    if not isinstance(op, BINARY):
        return None
    lhs, rhs = op.operands
    if (lhs == sl.result) == (rhs == sl.result):
        return None  # the slice on both sides (or neither): not a split member
    position = 0 if lhs == sl.result else 1
    other = rhs if position == 0 else lhs
    kind = _other_kind(sl, other)
    if kind is None:
        return None
    if isinstance(op, COMMUTATIVE):
        position = 0
    return Member(sl, op, ("binary", type(op), position, kind), other)


def best_run(slices: list[graph.SliceOp]) -> list[Member]:
    """The longest contiguous run (>= 2) of slices whose members share a signature."""
    per_slice = [[m for u in users(s.result) if (m := member_of(s, u))] for s in slices]
    best: list[Member] = []
    signatures = {m.signature: None for members in per_slice for m in members}
    for signature in signatures:
        run: list[Member] = []
        for members in per_slice + [[]]:
            match = next((m for m in members if m.signature == signature), None)
            if match is not None:
                run.append(match)
                continue
            if len(run) > len(best):
                best = run
            run = []
    return best if len(best) >= 2 else []


# ---- building the hoisted op ------------------------------------------------------------


def _joined_constant(b: OpBuilder, members: Sequence[Member], axis: int, whole_shape) -> SSAValue | None:
    others = [m.other for m in members]
    kind = members[0].signature[3]
    if kind == ("dense",):
        return b.add(concat_constants(others, axis))  # type: ignore[arg-type]
    dims = kind[1]
    sources = [o.owner.input for o in others]  # type: ignore[union-attr]
    if axis in dims and all(shape_of(s)[dims.index(axis)] == shape_of(o)[axis]
                            for s, o in zip(sources, others)):
        joined = b.add(concat_constants(sources, dims.index(axis)))
    elif len({dense_constant(s).data.data for s in sources}) == 1:  # type: ignore[union-attr]
        joined = sources[0]  # the same constant broadcast along the slice axis
    else:
        return None
    return b.broadcast(joined, dims, whole_shape)


def _other_operand(b: OpBuilder, members: Sequence[Member], axis: int, lo: int, hi: int,
                   whole_shape) -> SSAValue | None:
    kind = members[0].signature[3]
    if kind[0] == "slice":
        return b.slice(kind[1], axis, lo, hi)
    return _joined_constant(b, members, axis, whole_shape)


def _other_depends_on_members(members: Sequence[Member]) -> bool:
    signature = members[0].signature
    kind = signature[3] if signature[0] == "binary" else ("unary",)
    if kind[0] != "slice" or not isinstance(kind[1].owner, Operation):
        return False
    reached = set().union(*(forward_reach(m.op) for m in members))
    return kind[1].owner in reached


def hoist(source: SSAValue, axis: int, members: list[Member], rewriter: PatternRewriter) -> bool:
    if _other_depends_on_members(members):
        return False
    lo, hi = members[0].slice.starts_values[0], members[-1].slice.ends_values[0]
    block = members[0].op.parent_block()
    anchor = min((m.op for m in members), key=block.get_operation_index)  # type: ignore[union-attr]
    b = OpBuilder(anchor, rewriter)
    whole = b.slice(source, axis, lo, hi)
    template = members[0]
    if template.signature[0] == "unary":
        fused = b.add(type(template.op)(whole))
    else:
        other = _other_operand(b, members, axis, lo, hi, shape_of(whole))
        if other is None:
            for op in reversed(b.created):
                rewriter.erase(op)
            return False
        position = template.signature[2]
        fused = b.add(type(template.op)(*((whole, other) if position == 0 else (other, whole))))
    pieces = [
        b.slice(fused, axis, m.slice.starts_values[0] - lo, m.slice.ends_values[0] - lo)
        for m in members
    ]
    for m, piece in zip(members, pieces):
        rewriter.replace(m.op, [], [piece])
    for m in members:  # slices whose only user was the hoisted op
        if not m.slice.result.uses:
            rewriter.erase(m.slice)
    return True


class HoistPointwiseAboveSlices(RewritePattern):
    """Anchored on the first slice (start 0) of a tiling, so each split is examined once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        if len(op.axes_values) != 1 or op.starts_values[0] != 0:
            return
        axis = op.axes_values[0]
        slices = tiling_slices(op.input, axis)
        if slices is None or slices[0] is not op:
            return
        members = best_run(slices)
        if members:
            hoist(op.input, axis, members, rewriter)


@dataclass(frozen=True)
class GraphHoistPointwiseAboveSlicesPass(ModulePass):
    """Hoist pointwise ops above exact tilings of slices (see the module docstring). No options."""

    name = "graph-hoist-pointwise-above-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(
            GreedyRewritePatternApplier([HoistPointwiseAboveSlices()]), apply_recursively=True
        )
        if walker.rewrite_module(op):
            for block in [b for func in functions_with_body(op) for b in func.body.blocks]:
                stable_topological_sort(block)

