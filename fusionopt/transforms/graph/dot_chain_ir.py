"""IR side of `graph-reassociate-dots`: building constants from *stored* arrays, and emitting
the ops of a chosen plan (reading a chain and its stored constants is `dot_chain_read`).

A stored array is a constant at full rank with size 1 on every broadcast dim (a splat is all
ones), so a broadcast weight or a row bias stays small when products of constants are folded.
Constant products are computed with `evaluate_graph_op` on a throwaway `graph.dot`, so they
round exactly as `fusion-run` would round the same dot (f16 accumulates in f32).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.graph_base import shape_of
from fusionopt.graph_numpy import evaluate_graph_op
from fusionopt.transforms.graph.dot_chain import Affine, Plan
from fusionopt.transforms.graph.dot_chain_read import Chain
from fusionopt.transforms.graph.graph_ir import OpBuilder

# ---- constants as stored arrays (read with `dot_chain_read.stored_constant`) ----------------


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


# ---- emitting a plan ------------------------------------------------------------------------


@dataclass
class Const:
    """A compile-time value: its stored array and, if it is an original operand, that value."""

    array: np.ndarray
    value: SSAValue | None = None


class PlanEmitter:
    """Emits the ops of a plan before the chain's root (all leaves dominate it). A flat chain
    (see `dot_chain_read`) is emitted in 2-D and its row views are replayed on the result."""

    def __init__(self, chain: Chain):
        self.chain = chain
        self.builder = OpBuilder(chain.root)

    def result(self, plan: Plan) -> SSAValue:
        """The value that replaces the chain's root."""
        value = self.value(plan)
        if self.chain.flat:
            value = self.replay_row_views(value)
        assert value.type == self.chain.root.result.type, (value.type, self.chain.root.result.type)
        return value

    def replay_row_views(self, value: SSAValue) -> SSAValue:
        cols = shape_of(value)[-1]
        leftmost = shape_of(self.chain.values[self.chain.leftmost])  # type: ignore[index]
        value = self.builder.reshape(value, (*leftmost[:-1], cols))
        for view in reversed(self.chain.row_views):
            if isinstance(view, graph.TransposeOp):
                value = self.builder.transpose(value, view.perm_values)
            else:
                value = self.builder.reshape(value, (*shape_of(view.results[0])[:-1], cols))
        return value

    def value(self, plan: Plan) -> SSAValue:
        return self.as_value(self.emit(plan), plan.rows, plan.cols)

    def full_shape(self, rows: int, cols: int) -> tuple[int, ...]:
        return (*self.chain.batch_shape, rows, cols)

    def as_value(self, emitted: SSAValue | Const, rows: int, cols: int) -> SSAValue:
        if isinstance(emitted, SSAValue):
            return emitted
        if emitted.value is not None:
            return emitted.value
        return materialise(self.builder, emitted.array, self.full_shape(rows, cols), self.chain.element)

    def original(self, key: int, rows: int, cols: int) -> SSAValue | None:
        """An original operand, if it has the shape the (possibly flat) chain needs here."""
        value = self.chain.values[key]
        return value if shape_of(value) == self.full_shape(rows, cols) else None

    def emit(self, plan: Plan) -> SSAValue | Const:
        if plan.kind == "leaf":
            key = plan.factor.key  # type: ignore[union-attr]
            if plan.is_const:
                return Const(self.chain.arrays[key], self.original(key, plan.rows, plan.cols))
            value = self.chain.values[key]
            return self.builder.reshape(value, self.full_shape(plan.rows, plan.cols))
        if plan.kind == "dot":
            return self.emit_dot(plan)
        inner = self.value(plan.inner)  # type: ignore[arg-type]
        affine = plan.factor
        assert isinstance(affine, Affine)
        if plan.kind == "affine":
            bias = Const(self.chain.arrays[affine.key], self.original(affine.key, plan.rows, plan.cols))
        else:
            lefts, rights = plan.parts
            bias = Const(self.fold_bias(lefts, self.chain.arrays[affine.key], rights, affine))
        return self.builder.add(graph.AddOp(inner, self.as_value(bias, plan.rows, plan.cols)))

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
