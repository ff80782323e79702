"""Reading a `graph.dot` chain into `dot_chain` factors (for `graph-reassociate-dots`).

What a chain is made of (everything else ends it, as a run-time leaf):
- `graph.dot` whose result has exactly one user (the next op of the chain): flattened;
- constants: `arith.constant` and `graph.broadcast`s of one (kept as their *stored* array, full
  rank with 1 on broadcast dims, so a broadcast weight or a row bias stays small when folded);
- `graph.add(dot, constant bias)` with one user: an `Affine` (a Linear layer) the DP may
  distribute a constant over;
- row views on the left spine: a single-use `graph.reshape` / `graph.transpose` that keeps the
  last dim and only regroups or permutes the leading (batch and row) dims. Crossing one makes
  the chain *flat*: it is planned as a 2-D chain over all rows, which is exact only if every
  other factor is the same for every row group -- constants broadcast over the batch dims,
  row-vector biases, run-time values without batch -- so the reader checks that and otherwise
  reads the chain again without crossing views. The emitter replays the views on the result.
A dot or add with another user is never absorbed: its value is needed anyway.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, is_compact_splat
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.transforms.graph.dot_chain import Affine, Factor, Leaf
from fusionopt.transforms.graph.graph_ir import dense_constant


def stored_constant(value: SSAValue) -> np.ndarray | None:
    """The constant behind `value` as a full-rank array with 1 on every broadcast dim
    (a splat is all ones), or None if `value` is not a constant / broadcast(s) of one."""
    rank = len(shape_of(value))
    owner = value.owner
    if (attr := dense_constant(value)) is not None:
        array = dense_to_numpy(attr)
        return array.reshape(-1)[:1].reshape((1,) * rank) if is_compact_splat(attr) else array
    if isinstance(owner, graph.BroadcastOp) and (source := stored_constant(owner.input)) is not None:
        aligned = [1] * rank
        for i, d in enumerate(owner.dims_values):
            aligned[d] = source.shape[i]
        return source.reshape(aligned)
    return None


@dataclass
class Chain:
    """One chain rooted at `root`: its factors and what each key stands for."""

    root: graph.DotOp
    factors: tuple[Factor, ...] = ()
    values: dict[int, SSAValue] = field(default_factory=dict)  # leaf key -> operand
    arrays: dict[int, np.ndarray] = field(default_factory=dict)  # const leaf / bias -> stored
    ops: list[Operation] = field(default_factory=list)  # the dots, adds and views it replaces
    row_views: list[Operation] = field(default_factory=list)  # root side first
    leftmost: int | None = None  # key of the first leaf (the one whose rows are regrouped)
    flat_ok: bool = True

    @property
    def flat(self) -> bool:
        return bool(self.row_views)

    @property
    def element(self) -> Attribute:
        return element_of(self.root.result)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return () if self.flat else shape_of(self.root.result)[:-2]

    @property
    def dots(self) -> list[graph.DotOp]:
        return [op for op in self.ops if isinstance(op, graph.DotOp)]


def has_one_use(value: SSAValue) -> bool:
    return value.has_one_use()


def is_row_view(op: Operation) -> bool:
    """A reshape / transpose that leaves the last dim alone (only row and batch dims move)."""
    if isinstance(op, graph.TransposeOp):
        perm = op.perm_values
        return len(perm) >= 2 and perm[-1] == len(perm) - 1
    if isinstance(op, graph.ReshapeOp):
        src, dst = shape_of(op.input), shape_of(op.result)
        return len(src) >= 2 and len(dst) >= 2 and src[-1] == dst[-1]
    return False


def read_chain(root: graph.DotOp) -> Chain:
    """The chain ending at `root`, crossing row views when that is provably exact."""
    chain = ChainReader(Chain(root), allow_views=True).read()
    if chain.flat and not chain.flat_ok:
        chain = ChainReader(Chain(root), allow_views=False).read()
    return chain


class ChainReader:
    """Reads left to right (lhs before rhs), so every row view on the left spine is seen
    before the first leaf: leaves already know whether the chain is flat."""

    def __init__(self, chain: Chain, allow_views: bool):
        self.chain = chain
        self.allow_views = allow_views

    def read(self) -> Chain:
        self.chain.factors = tuple(self.factors(self.chain.root.result, is_root=True, spine=True))
        return self.chain

    def new_key(self) -> int:
        return len(self.chain.values) + len(self.chain.arrays)

    def factors(self, value: SSAValue, is_root: bool = False, spine: bool = False) -> list[Factor]:
        owner = value.owner
        if (array := stored_constant(value)) is not None:
            return [self.const_leaf(value, array)]
        if isinstance(owner, graph.DotOp) and (is_root or has_one_use(value)):
            self.chain.ops.append(owner)
            return [*self.factors(owner.lhs, spine=spine), *self.factors(owner.rhs)]
        if isinstance(owner, graph.AddOp) and has_one_use(value) and (affine := self.affine(owner, spine)):
            return [affine]
        if spine and self.allow_views and self.crosses_view(owner, value):
            self.chain.ops.append(owner)  # type: ignore[arg-type]
            self.chain.row_views.append(owner)  # type: ignore[arg-type]
            return self.factors(owner.input, spine=True)  # type: ignore[union-attr]
        return [self.runtime_leaf(value)]

    def crosses_view(self, owner: Operation | None, value: SSAValue) -> bool:
        """A single-use row view of something the chain continues through."""
        return (owner is not None and is_row_view(owner) and has_one_use(value)
                and isinstance(owner.operands[0].owner, (graph.DotOp, graph.AddOp)))

    def const_leaf(self, value: SSAValue, array: np.ndarray) -> Leaf:
        chain, key = self.chain, self.new_key()
        rows, cols = shape_of(value)[-2:]
        if chain.leftmost is None:
            chain.leftmost = key
            chain.flat_ok &= not chain.flat  # rows of a constant are not regrouped
        if chain.flat:
            one_group = all(d == 1 for d in array.shape[:-2])  # same for every row group
            chain.flat_ok &= one_group
            if one_group:  # else the chain is read again without views
                array = array.reshape(array.shape[-2:])
        chain.values[key], chain.arrays[key] = value, array
        return Leaf(rows, cols, key, tuple(array.shape))

    def runtime_leaf(self, value: SSAValue) -> Leaf:
        chain, key = self.chain, self.new_key()
        shape = shape_of(value)
        rows, cols = shape[-2:]
        if chain.leftmost is None:
            chain.leftmost = key
            if chain.flat:
                rows = math.prod(shape[:-1])  # all row groups, in the leaf's own order
        elif chain.flat:
            chain.flat_ok &= all(d == 1 for d in shape[:-2])
        chain.values[key] = value
        return Leaf(rows, cols, key)

    def affine(self, add: graph.AddOp, spine: bool) -> Affine | None:
        """`dot + bias` (either order) with a constant bias and a single-use dot."""
        chain = self.chain
        for dot_value, bias_value in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
            bias = stored_constant(bias_value)
            if bias is None or not isinstance(dot_value.owner, graph.DotOp) or not has_one_use(dot_value):
                continue
            key = self.new_key()
            chain.values[key], chain.arrays[key] = bias_value, bias
            chain.ops.append(add)
            inner = tuple(self.factors(dot_value, spine=spine))
            if chain.flat:  # a bias must be one row vector to be the same for every row group
                one_row = all(d == 1 for d in bias.shape[:-1])
                chain.flat_ok &= one_row
                if one_row:
                    chain.arrays[key] = bias = bias.reshape(bias.shape[-2:])
            return Affine(inner, tuple(bias.shape), key)
        return None
