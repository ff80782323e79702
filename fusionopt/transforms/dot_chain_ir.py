"""IR side of `graph-reassociate-dots`: read a `graph.dot` chain into `dot_chain` factors, and
emit the ops of a chosen plan.

What a chain is made of (everything else ends it, as a run-time leaf):
- `graph.dot` whose result has exactly one user (the next dot of the chain): flattened;
- constants: `arith.constant` and `graph.broadcast` of one (kept as their *stored* array, full
  rank with 1 on broadcast dims, so a broadcast weight or a row bias stays small when folded);
- `graph.add(dot, constant bias)` with one user: an `Affine` (a Linear layer) the DP may
  distribute a constant over.
A dot or add with another user is never absorbed: its value is needed anyway.

Constant products are computed with `evaluate_graph_op` on a throwaway `graph.dot`, so they
round exactly as `fusion-run` would round the same dot (f16 accumulates in f32).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.dense import dense_to_numpy, is_compact_splat, numpy_to_dense
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.graph_numpy import evaluate_graph_op
from fusionopt.transforms.dot_chain import Affine, Factor, Leaf, Plan
from fusionopt.transforms.horizontal_utils import OpBuilder, dense_constant

# ---- constants as stored arrays -------------------------------------------------------------


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


def constant_op(array: np.ndarray, element: Attribute) -> ConstantOp:
    return ConstantOp(numpy_to_dense(array, TensorType(element, list(array.shape))))


def matmul_stored(a: np.ndarray, b: np.ndarray, k: int, element: Attribute) -> np.ndarray:
    """`a @ b` of two stored constants (contraction dim expanded to `k`, batch dims broadcast
    against each other), rounded like `graph.dot` on `element`."""
    batch = tuple(max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2]))
    a = np.broadcast_to(a, (*batch, a.shape[-2], k))
    b = np.broadcast_to(b, (*batch, k, b.shape[-1]))
    dot = graph.DotOp(constant_op(a, element).result, constant_op(b, element).result)
    return evaluate_graph_op(dot, [a, b])


def materialise(builder: OpBuilder, array: np.ndarray, shape: tuple[int, ...], element: Attribute) -> SSAValue:
    """A constant of `shape`: the stored array, broadcast on the dims where it has size 1."""
    if array.size == 1:  # a splat: stored as one element whatever the shape
        return builder.add(ConstantOp(numpy_to_dense(array, TensorType(element, list(shape)))))
    keep = [d for d in range(len(shape)) if array.shape[d] == shape[d]]
    if len(keep) == len(shape):
        return builder.add(constant_op(np.ascontiguousarray(array), element))
    squeezed = np.ascontiguousarray(array.reshape([array.shape[d] for d in keep]))
    source = builder.add(constant_op(squeezed, element))
    return builder.add(graph.BroadcastOp(source, keep, TensorType(element, list(shape))))


# ---- reading a chain ------------------------------------------------------------------------


@dataclass
class Chain:
    """One chain rooted at `root`: its factors and what each key stands for."""

    root: graph.DotOp
    factors: tuple[Factor, ...] = ()
    values: dict[int, SSAValue] = field(default_factory=dict)  # leaf key -> operand
    arrays: dict[int, np.ndarray] = field(default_factory=dict)  # const leaf / bias -> stored
    ops: list[Operation] = field(default_factory=list)  # the dots and adds it replaces

    @property
    def element(self) -> Attribute:
        return element_of(self.root.result)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return shape_of(self.root.result)[:-2]

    @property
    def dots(self) -> list[graph.DotOp]:
        return [op for op in self.ops if isinstance(op, graph.DotOp)]


def has_one_use(value: SSAValue) -> bool:
    return value.has_one_use()


def read_chain(root: graph.DotOp) -> Chain:
    chain = Chain(root)
    chain.factors = tuple(_factors(root.result, chain, is_root=True))
    return chain


def _new_key(chain: Chain) -> int:
    return len(chain.values) + len(chain.arrays)


def _factors(value: SSAValue, chain: Chain, is_root: bool = False) -> list[Factor]:
    rows, cols = shape_of(value)[-2:]
    owner = value.owner
    if (array := stored_constant(value)) is not None:
        key = _new_key(chain)
        chain.values[key], chain.arrays[key] = value, array
        return [Leaf(rows, cols, key, tuple(array.shape))]
    if isinstance(owner, graph.DotOp) and (is_root or has_one_use(value)):
        chain.ops.append(owner)
        return [*_factors(owner.lhs, chain), *_factors(owner.rhs, chain)]
    if isinstance(owner, graph.AddOp) and has_one_use(value) and (affine := _affine(owner, chain)):
        return [affine]
    key = _new_key(chain)
    chain.values[key] = value
    return [Leaf(rows, cols, key)]


def _affine(add: graph.AddOp, chain: Chain) -> Affine | None:
    """`dot + bias` (either order) with a constant bias and a single-use dot."""
    for dot_value, bias_value in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        bias = stored_constant(bias_value)
        if bias is None or not isinstance(dot_value.owner, graph.DotOp) or not has_one_use(dot_value):
            continue
        key = _new_key(chain)
        chain.values[key], chain.arrays[key] = bias_value, bias
        chain.ops.append(add)
        return Affine(tuple(_factors(dot_value, chain)), tuple(bias.shape), key)
    return None


# ---- emitting a plan ------------------------------------------------------------------------


@dataclass
class Const:
    """A compile-time value: its stored array and, if it is an original operand, that value."""

    array: np.ndarray
    value: SSAValue | None = None


class PlanEmitter:
    """Emits the ops of a plan before the chain's root (all leaves dominate it)."""

    def __init__(self, chain: Chain):
        self.chain = chain
        self.builder = OpBuilder(chain.root)

    def value(self, plan: Plan) -> SSAValue:
        return self.as_value(self.emit(plan), plan.rows, plan.cols)

    def as_value(self, emitted: SSAValue | Const, rows: int, cols: int) -> SSAValue:
        if isinstance(emitted, SSAValue):
            return emitted
        if emitted.value is not None:
            return emitted.value
        shape = (*self.chain.batch_shape, rows, cols)
        return materialise(self.builder, emitted.array, shape, self.chain.element)

    def emit(self, plan: Plan) -> SSAValue | Const:
        if plan.kind == "leaf":
            key = plan.factor.key  # type: ignore[union-attr]
            if plan.is_const:
                return Const(self.chain.arrays[key], self.chain.values[key])
            return self.chain.values[key]
        if plan.kind == "dot":
            return self.emit_dot(plan)
        inner = self.value(plan.inner)  # type: ignore[arg-type]
        affine = plan.factor
        assert isinstance(affine, Affine)
        if plan.kind == "affine":
            bias = self.chain.values[affine.key]
        else:
            lefts, rights = plan.parts
            folded = self.fold_bias(lefts, self.chain.arrays[affine.key], rights, affine)
            bias = self.as_value(Const(folded), plan.rows, plan.cols)
        return self.builder.add(graph.AddOp(inner, bias))

    def emit_dot(self, plan: Plan) -> SSAValue | Const:
        left, right = plan.parts
        lhs, rhs = self.emit(left), self.emit(right)
        if plan.is_const:
            assert isinstance(lhs, Const) and isinstance(rhs, Const)
            return Const(matmul_stored(lhs.array, rhs.array, left.cols, self.chain.element))
        lhs_value = self.as_value(lhs, left.rows, left.cols)
        rhs_value = self.as_value(rhs, right.rows, right.cols)
        return self.builder.add(graph.DotOp(lhs_value, rhs_value))

    def fold_bias(self, lefts, bias: np.ndarray, rights, affine: Affine) -> np.ndarray:
        """lefts * bias * rights, multiplied outwards from the bias."""
        element, rows = self.chain.element, affine.rows
        for factor in reversed(lefts):
            bias = matmul_stored(self.chain.arrays[factor.key], bias, rows, element)
            rows = factor.rows
        cols = affine.cols
        for factor in rights:
            bias = matmul_stored(bias, self.chain.arrays[factor.key], cols, element)
            cols = factor.cols
        return bias
