"""Emitting fused Linear layers and moving values between their two layouts.

A fused layer holds G member results ("lanes") in one tensor, in one of two layouts:
- WIDE    `[B.., M, N_0 + ... + N_{G-1}]`: one dot of a shared LHS with N-concatenated weights
  (MIGraphX `find_conv_dot_horiz_fusion`, batch dims B.. allowed); lane i is the range of the
  last axis starting at `offsets[i]`.
- BATCHED `[G, M, N]`: one batched dot `[G, M, K] x [G, K, N]` (MIGraphX
  `dot_horizontal_fusion`, IREE `FuseHorizontalContractions`); lane i is index i of axis 0,
  its first N_i columns when the lanes were zero-padded to a common N (`horizontal_unequal`).
Bias adds and SiLU are applied once to the fused tensor (they are elementwise per lane).
Chains stay in the BATCHED layout from layer to layer; `lane_value` is only built for uses
that leave the chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.horizontal_linear import Linear
from fusionopt.transforms.graph.graph_ir import (
    OpBuilder,
    concat_constants,
    is_constant,
    move_axis0_to_1,
    move_axis1_to_0,
)


@dataclass
class FusedLayer:
    value: SSAValue
    batched: bool
    members: list[Linear]

    @property
    def padded(self) -> bool:
        """A BATCHED layer whose lanes are narrower than its last axis (zero-padded weights)."""
        return self.batched and any(m.n != shape_of(self.value)[-1] for m in self.members)

    @property
    def offsets(self) -> list[int]:
        """Start column of each lane (WIDE) or its batch index (BATCHED)."""
        if self.batched:
            return list(range(len(self.members)))
        starts, total = [], 0
        for member in self.members:
            starts.append(total)
            total += member.n
        return starts


def join(b: OpBuilder, values: Sequence[SSAValue], axis: int, stack: bool) -> SSAValue:
    """Concatenate (or stack on a new axis 0) constants at compile time, others at run time."""
    if all(is_constant(v) for v in values):
        return b.add(concat_constants(values, axis, new_axis=stack))
    if stack:
        values = [b.reshape(v, (1, *shape_of(v))) for v in values]
    return b.concat(values, 0 if stack else axis)


def epilogue(b: OpBuilder, value: SSAValue, members: list[Linear], bias_dims, stack,
             biases: Sequence[SSAValue] | None = None) -> SSAValue:
    """The members' bias add and SiLU on the fused value; `biases` replace the members' own
    bias vectors (zero-padded ones, for lanes of unequal widths)."""
    first = members[0]
    if first.bias_add is not None:
        bias = join(b, biases or [m.bias for m in members], 0, stack)  # type: ignore[misc]
        value = b.add(graph.AddOp(value, b.broadcast(bias, bias_dims, shape_of(value))))
    if first.silu_mul is not None:
        value = b.add(graph.MulOp(value, b.add(graph.SigmoidOp(value))))
    return value


def emit_wide_layer(b: OpBuilder, lhs: SSAValue, members: list[Linear]) -> FusedLayer:
    """`dot(lhs, concat_N(W_i))` + epilogue on `[B.., M, sum N_i]`."""
    last = members[0].rank - 1
    weight = join(b, [m.weight for m in members], last, stack=False)
    value = epilogue(b, b.add(graph.DotOp(lhs, weight)), members, (last,), stack=False)
    return FusedLayer(value, batched=False, members=members)


def emit_batched_layer(b: OpBuilder, lhs: SSAValue, members: list[Linear]) -> FusedLayer:
    """`dot(lhs[G, M, K], stack(W_i)[G, K, N])` + epilogue on `[G, M, N]`."""
    weight = join(b, [m.weight for m in members], 0, stack=True)
    value = epilogue(b, b.add(graph.DotOp(lhs, weight)), members, (0, 2), stack=True)
    return FusedLayer(value, batched=True, members=members)


def stack_inputs(b: OpBuilder, values: Sequence[SSAValue]) -> SSAValue:
    """`[G, M, K]` from G separate `[M, K]` activations."""
    return b.concat([b.reshape(v, (1, *shape_of(v))) for v in values], 0)


def lane_value(b: OpBuilder, layer: FusedLayer, lane: int) -> SSAValue:
    """Lane `lane` of `layer` as the `[M, N]` tensor the original member produced."""
    start = layer.offsets[lane]
    if layer.batched:
        _, m, n = shape_of(layer.value)
        width = layer.members[lane].n
        if width == n:
            return b.reshape(b.slice(layer.value, 0, start, start + 1), (m, n))
        # A padded lane drops its padding in the same slice: one copy, not two.
        lane_slice = b.add(graph.SliceOp(layer.value, [0, 2], [start, 0], [start + 1, width]))
        return b.reshape(lane_slice, (m, width))
    last = len(shape_of(layer.value)) - 1
    return b.slice(layer.value, last, start, start + layer.members[lane].n)


def is_run(lanes: Sequence[int]) -> bool:
    return all(b == a + 1 for a, b in zip(lanes, lanes[1:]))


def batched_input(b: OpBuilder, layer: FusedLayer, lanes: Sequence[int]) -> SSAValue:
    """Lanes `lanes` of `layer` (equal widths) as the `[g, M, N]` LHS of the next batched dot;
    a contiguous run is a slice (or the value itself), never a per-lane round trip."""
    if not is_run(lanes) or layer.padded:
        return stack_inputs(b, [lane_value(b, layer, i) for i in lanes])
    first, count = lanes[0], len(lanes)
    if layer.batched:
        return b.slice(layer.value, 0, first, first + count)
    m = shape_of(layer.value)[0]
    n = layer.members[first].n
    start = layer.offsets[first]
    columns = b.slice(layer.value, 1, start, start + count * n)
    return move_axis1_to_0(b, b.reshape(columns, (m, count, n)))


def batched_to_wide(b: OpBuilder, value: SSAValue) -> SSAValue:
    """`[G, M, N]` -> `[M, G * N]`: the lanes concatenated on axis 1."""
    g, m, n = shape_of(value)
    return b.reshape(move_axis0_to_1(b, value), (m, g * n))
