"""Recognising one Linear layer around a `graph.dot`: the dot, its bias add and its SiLU.

A `Linear` is what `graph-horizontal-fuse-dots` batches: `dot(x, W[B.., K, N])` (rank 2, or
rank >= 3 with batch dims B.., MIGraphX `simplify_dot_horiz`), optionally followed by
`add(dot, broadcast(b[N]) dims = [rank - 1])` (the bias; the dot must be the add's only
producer use) and optionally by SiLU `mul(h, sigmoid(h))` where `h` has exactly those two users.
`shared_lhs` is the activation seen through a reshape (`dot(reshape(x), W)`, MIGraphX
`simplify_dot_horiz_reshape`), so dots behind separate reshapes of one input group.
The epilogue kind is part of every grouping key, so a group is all-SiLU or all-plain and the
fused epilogue is always absorbable (the PR #4723 fix for mixed groups).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute, Operation, SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.transforms.common.use_def import sole_user
from fusionopt.transforms.graph.graph_ir import is_constant, users


@dataclass(frozen=True)
class Epilogue:
    """Which of the absorbable ops follow the dot."""

    bias: bool
    silu: bool

    def __str__(self) -> str:
        return "+".join(["dot"] + ["bias"] * self.bias + ["silu"] * self.silu)


@dataclass(frozen=True)
class Linear:
    dot: graph.DotOp
    bias_add: graph.AddOp | None = None
    bias: SSAValue | None = None  # the 1-D bias vector [N] (input of the broadcast)
    sigmoid: graph.SigmoidOp | None = None
    silu_mul: graph.MulOp | None = None

    @property
    def lhs(self) -> SSAValue:
        return self.dot.lhs

    @property
    def weight(self) -> SSAValue:
        return self.dot.rhs

    @property
    def epilogue(self) -> Epilogue:
        return Epilogue(self.bias_add is not None, self.silu_mul is not None)

    @property
    def output(self) -> SSAValue:
        """The value the rest of the program sees: the furthest absorbed op's result."""
        last = self.silu_mul or self.bias_add or self.dot
        return last.result

    @property
    def ops(self) -> list[Operation]:
        return [op for op in (self.dot, self.bias_add, self.sigmoid, self.silu_mul) if op]

    @property
    def n(self) -> int:
        return shape_of(self.weight)[-1]

    @property
    def rank(self) -> int:
        return len(shape_of(self.weight))

    @property
    def shared_lhs(self) -> SSAValue:
        """The activation, looking through one reshape: reshapes of one value to one type are
        the same tensor, whichever op computes them."""
        owner = self.lhs.owner
        return owner.input if isinstance(owner, graph.ReshapeOp) else self.lhs

    def shared_key(self) -> tuple:
        """Members of one N-concatenated dot: same activation, batch dims and K, epilogue."""
        return (self.shared_lhs, self.lhs.type, shape_of(self.weight)[:-1],
                element_of(self.weight), self.epilogue)

    def tower_key(self) -> tuple[Attribute, Attribute, Epilogue]:
        """Members batched as [G, M, K] x [G, K, N] must agree on every shape and epilogue."""
        return (self.lhs.type, self.weight.type, self.epilogue)


def _is_matmul(dot: graph.DotOp) -> bool:
    return len(shape_of(dot.lhs)) >= 2 and len(shape_of(dot.rhs)) == len(shape_of(dot.lhs))


def _bias_of(add: graph.AddOp, dot_result: SSAValue, allow_runtime: bool) -> SSAValue | None:
    """The bias vector when `add` is `add(dot, broadcast(b[N]) dims = [rank - 1])` (either order)."""
    other = add.rhs if add.lhs == dot_result else add.lhs
    if other == dot_result:
        return None
    bcast = other.owner
    last = len(shape_of(dot_result)) - 1
    if not isinstance(bcast, graph.BroadcastOp) or tuple(bcast.dims_values) != (last,):
        return None
    if len(shape_of(bcast.input)) != 1:
        return None
    if not (allow_runtime or is_constant(bcast.input)):
        return None
    return bcast.input


def _silu_of(value: SSAValue) -> tuple[graph.SigmoidOp, graph.MulOp] | None:
    """`(sigmoid, mul)` when `value`'s only users are `sigmoid(value)` and `mul(value, that)`."""
    found = users(value)
    if len(found) != 2:
        return None
    sig = next((u for u in found if isinstance(u, graph.SigmoidOp)), None)
    mul = next((u for u in found if isinstance(u, graph.MulOp)), None)
    if sig is None or mul is None or sole_user(sig.result) is not mul:
        return None
    if {mul.lhs, mul.rhs} != {value, sig.result}:
        return None
    return sig, mul


def match_linear(dot: Operation, allow_runtime_weights: bool = False) -> Linear | None:
    """The Linear rooted at `dot`, or None when the dot is not a batching candidate."""
    if not isinstance(dot, graph.DotOp) or not _is_matmul(dot):
        return None
    if not (allow_runtime_weights or is_constant(dot.rhs)):
        return None
    add = sole_user(dot.result)
    bias = None
    if isinstance(add, graph.AddOp):
        bias = _bias_of(add, dot.result, allow_runtime_weights)
    if bias is None:
        add = None
    frontier = add.result if add else dot.result
    silu = _silu_of(frontier)
    sig, mul = silu if silu else (None, None)
    return Linear(dot, add, bias, sig, mul)


def continuation(linear: Linear, allow_runtime_weights: bool) -> Linear | None:
    """The next layer of the tower: the single candidate dot that takes `linear`'s output as LHS
    (2-D layers only: chains are batched as `[G, M, K] x [G, K, N]`)."""
    if linear.rank != 2:
        return None
    nexts = [
        u for u in users(linear.output) if isinstance(u, graph.DotOp) and u.lhs == linear.output
    ]
    if len(nexts) != 1:
        return None
    return match_linear(nexts[0], allow_runtime_weights)


def slice_source(value: SSAValue, max_steps: int = 4) -> SSAValue | None:
    """The tensor a `graph.slice` feeding `value` reads, looking through <= `max_steps`
    pointwise ops (MIGraphX's guard walks the same distance)."""
    for _ in range(max_steps + 1):
        owner = value.owner
        if isinstance(owner, graph.SliceOp):
            return owner.input
        if isinstance(owner, graph.ElementwiseUnaryOp):
            value = owner.input
        elif isinstance(owner, graph.ElementwiseBinaryOp):
            value = owner.rhs if is_constant(owner.lhs) else owner.lhs
        else:
            return None
    return None
