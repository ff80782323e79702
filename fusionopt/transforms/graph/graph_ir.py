"""IR helpers shared by the graph-stage passes: constants as raw bytes (`dense_constant`, used
by constant folding, canonicalization and reassociation too), an insertion-point builder
(`OpBuilder`), reachability between ops, and block clean-up (dead-op erasure, stable topological
order) for the horizontal-fusion passes (`graph-horizontal-fuse-dots`,
`graph-hoist-pointwise-above-slices`).

Rewrites insert new ops at a convenient point (before the first member of a group) and then
restore a valid def-before-use order with `stable_topological_sort`, the way MIGraphX's
`fuse_horizontal` moves the originals' users below the fused code. Keeping the original order
wherever possible keeps the printed IR readable.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure

from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy
from fusionopt.dialects.graph_base import element_of, shape_of, tensor
from fusionopt.transforms.common.use_def import downstream_bits

# ---- slices --------------------------------------------------------------------------------


def slice_bounds(op: graph.SliceOp) -> list[tuple[int, int]]:
    """(start, end) on every axis of the operand (full range where the slice does not cut)."""
    bounds = [(0, size) for size in shape_of(op.input)]
    for a, s, e in zip(op.axes_values, op.starts_values, op.ends_values):
        bounds[a] = (s, e)
    return bounds


def make_slice(value: SSAValue, bounds: Sequence[tuple[int, int]]) -> graph.SliceOp:
    """A slice with one entry per axis that is actually cut."""
    shape = shape_of(value)
    axes = [a for a, (s, e) in enumerate(bounds) if (s, e) != (0, shape[a])]
    return graph.SliceOp(value, axes, [bounds[a][0] for a in axes], [bounds[a][1] for a in axes])


def read_only_by_slices(value: SSAValue) -> bool:
    """Every reader of `value` is a slice: a view moved below them is not left twice."""
    return all(isinstance(use.operation, graph.SliceOp) for use in value.uses)


def on_operand_axes(perm: Sequence[int], per_result_axis: Sequence) -> list:
    """Values given per result axis of a transpose by `perm`, placed on its operand's axes
    (result axis i is operand axis perm[i])."""
    placed: list = [None] * len(perm)
    for axis, source_axis in enumerate(perm):
        placed[source_axis] = per_result_axis[axis]
    return placed


def moves_only_unit_axes(shape: Sequence[int], perm: Sequence[int]) -> bool:
    """Whether a transpose of an operand of `shape` by `perm` keeps the non-unit axes in order
    (it moves unit axes only, so it is a reshape)."""
    kept = [a for a in perm if shape[a] != 1]
    return kept == sorted(kept)


# ---- constants as bytes ------------------------------------------------------------------


def dense_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The dense attribute of an `arith.constant` tensor, or None."""
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        return owner.value
    return None


def constant_splat_value(value: SSAValue) -> float | int | None:
    """The value every element of a constant (or broadcast of a constant) has, else None."""
    owner = value.owner
    if isinstance(owner, graph.BroadcastOp):
        value = owner.input
    attr = dense_constant(value)
    if attr is None:
        return None
    array = dense_to_numpy(attr).reshape(-1)
    if array.size == 0 or not bool(np.all(array == array[0])):
        return None
    return array[0].item()


def is_constant(value: SSAValue) -> bool:
    return dense_constant(value) is not None


def _byte_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The constant as a uint8 array of shape (*shape, itemsize): element-type agnostic."""
    shape = tuple(attr.get_shape())
    itemsize = attr.get_element_type().compile_time_size
    raw = np.frombuffer(attr.data.data, dtype=np.uint8).reshape(-1, itemsize)
    count = int(np.prod(shape)) if shape else 1
    if raw.shape[0] != count:  # a splat stores its one element once
        raw = np.broadcast_to(raw[:1], (count, itemsize))
    return raw.reshape(*shape, itemsize)


def concat_constants(values: Sequence[SSAValue], axis: int, new_axis: bool = False) -> ConstantOp:
    """One constant holding `values` concatenated on `axis` (or stacked on a new leading axis).

    Works on raw bytes, so every element type (including bf16 and i1) is handled exactly.
    """
    attrs = [dense_constant(v) for v in values]
    assert all(a is not None for a in attrs), "concat_constants needs arith.constant operands"
    arrays = [_byte_array(a) for a in attrs]  # type: ignore[arg-type]
    joined = np.stack(arrays, axis=0) if new_axis else np.concatenate(arrays, axis=axis)
    shape = joined.shape[:-1]
    element = attrs[0].get_element_type()  # type: ignore[union-attr]
    attr = DenseIntOrFPElementsAttr(TensorType(element, list(shape)), BytesAttr(joined.tobytes()))
    return ConstantOp(attr)


# ---- building ops at an insertion point -------------------------------------------------


class OpBuilder:
    """Inserts each built op before `anchor` (in creation order) and returns its result;
    through `rewriter` when given, so a pattern walker sees the new ops."""

    def __init__(self, anchor: Operation, rewriter: PatternRewriter | None = None):
        self.anchor = anchor
        self.rewriter = rewriter
        self.created: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        if self.rewriter is not None:
            self.rewriter.insert(op, InsertPoint.before(self.anchor))
        else:
            block = self.anchor.parent_block()
            assert block is not None
            block.insert_op_before(op, self.anchor)
        self.created.append(op)
        return op.results[0]

    def reshape(self, value: SSAValue, shape: Sequence[int]) -> SSAValue:
        # reshape(reshape(v)) is one reshape of v: keep view chains one op long.
        if isinstance(value.owner, graph.ReshapeOp):
            value = value.owner.input
        if shape_of(value) == tuple(shape):
            return value
        return self.add(graph.ReshapeOp(value, tensor(shape, element_of(value))))

    def slice(self, value: SSAValue, axis: int, start: int, end: int) -> SSAValue:
        if start == 0 and end == shape_of(value)[axis]:
            return value
        return self.add(graph.SliceOp(value, [axis], [start], [end]))

    def concat(self, values: Sequence[SSAValue], axis: int) -> SSAValue:
        if len(values) == 1:
            return values[0]
        return self.add(graph.ConcatOp(list(values), axis))

    def transpose(self, value: SSAValue, perm: Sequence[int]) -> SSAValue:
        if list(perm) == list(range(len(perm))):
            return value
        return self.add(graph.TransposeOp(value, perm))

    def broadcast(self, value: SSAValue, dims: Sequence[int], shape: Sequence[int]) -> SSAValue:
        return self.add(graph.BroadcastOp(value, dims, tensor(shape, element_of(value))))


def move_axis0_to_1(b: OpBuilder, value: SSAValue) -> SSAValue:
    """[G, M, N] -> [M, G, N]; a pure reshape when G or M is 1 (no data moves)."""
    g, m, n = shape_of(value)
    if g == 1 or m == 1:
        return b.reshape(value, (m, g, n))
    return b.transpose(value, (1, 0, 2))


def move_axis1_to_0(b: OpBuilder, value: SSAValue) -> SSAValue:
    """[M, G, N] -> [G, M, N]; a pure reshape when G or M is 1."""
    m, g, n = shape_of(value)
    if g == 1 or m == 1:
        return b.reshape(value, (g, m, n))
    return b.transpose(value, (1, 0, 2))


# ---- dependencies -----------------------------------------------------------------------


def users(value: SSAValue) -> list[Operation]:
    return [use.operation for use in value.uses]


def forward_reach(op: Operation) -> set[Operation]:
    """Every op that (transitively) uses a result of `op`, excluding `op` itself."""
    seen: set[Operation] = set()
    stack = [op]
    while stack:
        for result in stack.pop().results:
            for user in users(result):
                if user not in seen:
                    seen.add(user)
                    stack.append(user)
    return seen


class ReachCache:
    """Memoised `forward_reach`, for grouping many candidates without quadratic re-walks.

    Within one block in dataflow order, reachability is `use_def.downstream_bits`: one bit set
    per op, built in one backward sweep on the first query. Per-op walks cost O(ops) each, which
    an unrolled recurrence (hundreds of dots, each reaching the rest of the chain) made minutes."""

    def __init__(self) -> None:
        self._cache: dict[Operation, set[Operation]] = {}
        self._bits: dict[Block, tuple[dict[Operation, int], dict[Operation, int]] | None] = {}

    def reach(self, op: Operation) -> set[Operation]:
        if op not in self._cache:
            self._cache[op] = forward_reach(op)
        return self._cache[op]

    def independent(self, a: Operation, b: Operation) -> bool:
        """No path between `a` and `b` in either direction."""
        block = a.parent_block()
        bits = self._block_bits(block) if block is not None and block is b.parent_block() else None
        if bits is None:
            return b not in self.reach(a) and a not in self.reach(b)
        position, reached = bits
        return not (reached[a] >> position[b]) & 1 and not (reached[b] >> position[a]) & 1

    def _block_bits(self, block: Block) -> tuple[dict[Operation, int], dict[Operation, int]] | None:
        if block not in self._bits:
            self._bits[block] = downstream_bits(block)
        return self._bits[block]


def greedy_independent_groups(ops: Sequence[Operation], cache: ReachCache) -> list[list[Operation]]:
    """Split `ops` (program order) into groups without any path between two members.

    Like MIGraphX's horizontal framework: each op joins the first group it is independent
    of, so layer i of every tower lands in one group and layer i+1 in the next.
    """
    groups: list[list[Operation]] = []
    for op in ops:
        for group in groups:
            if all(cache.independent(op, member) for member in group):
                group.append(op)
                break
        else:
            groups.append([op])
    return groups


# ---- block clean-up ---------------------------------------------------------------------


def erase_if_dead(candidates: Iterable[Operation]) -> None:
    """Erase unused side-effect-free ops among `candidates`, then their dead producers."""
    worklist = list(candidates)
    while worklist:
        op = worklist.pop()
        if op.parent is None or not op.has_trait(Pure) and not isinstance(op, ConstantOp):
            continue
        if any(result.uses for result in op.results):
            continue
        producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        op.detach()
        op.erase()
        worklist.extend(producers)


def stable_topological_sort(block: Block) -> None:
    """Reorder `block` so every value is defined before use, keeping the current order
    wherever the dependencies allow (Kahn's algorithm, smallest position first)."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    waiting = {op: 0 for op in ops}
    dependents: dict[Operation, list[Operation]] = {op: [] for op in ops}
    for op in ops:
        for producer in {v.owner for v in op.operands if v.owner in position}:
            waiting[op] += 1
            dependents[producer].append(op)
    ready = [(position[op], op) for op in ops if waiting[op] == 0]
    heapq.heapify(ready)
    order: list[Operation] = []
    while ready:
        _, op = heapq.heappop(ready)
        order.append(op)
        for dependent in dependents[op]:
            waiting[dependent] -= 1
            if waiting[dependent] == 0:
                heapq.heappush(ready, (position[dependent], dependent))
    assert len(order) == len(ops), "stable_topological_sort: the block has a dependency cycle"
    if order == ops:
        return
    for op in ops:
        op.detach()
    for op in order:
        block.add_op(op)
