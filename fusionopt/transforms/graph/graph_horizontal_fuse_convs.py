"""`graph-horizontal-fuse-convs`: sibling convolutions over one input become one convolution
over concatenated filters (MIGraphX `find_conv_dot_horiz_fusion`, the tower batching of
`fuse_horizontal` applied to convolutions; IREE never batches convolutions).

Members of a group read the same input with the same strides, dilations, pads, filter shape
past the output channels (C x k..) and element type, have `group = 1` and constant weights
(with `allow-runtime-concat`, argument weights too, concatenated at run time: a copy kernel per
fused conv, so off by default). Their epilogues are absorbed when every member has the same
kind: a constant bias add (`conv_channels`: any channel-constant form) and a ReLU that is the
sole user. The rewrite:

    conv(x, concat_0(W_i)) [+ broadcast(concat(b_i)) dims = [1]] [relu]

with member i's result the channel slice `[off_i, off_i + F_i)` of it. An inception block's
`concat(branches..)` of consecutive lanes folds back into the fused value
(`horizontal_concat_fold`), and the lane slices are read by their consumers' dispatches (a
consumer conv reads its slice as an input; no slice is a dispatch of its own).

Options:
  min-group (int, default 2): smallest number of sibling convolutions worth fusing.
  allow-runtime-concat (bool, default false): also fuse convolutions whose weights are not
    constants (their concatenation is a run-time copy).

Statistics: `convs batched`, `batched convs formed`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.dialects.util import functions_with_body
from fusionopt.transforms.graph.conv_channels import bias_add_of, canonical_bias
from fusionopt.transforms.graph.graph_ir import (
    OpBuilder,
    ReachCache,
    concat_constants,
    erase_if_dead,
    greedy_independent_groups,
    is_constant,
    stable_topological_sort,
)
from fusionopt.transforms.graph.horizontal_concat_fold import fold_piece_concats


@dataclass(frozen=True)
class ConvLayer:
    """A convolution and the epilogue ops it owns (each the sole user of the one before)."""

    conv: graph.ConvOp
    bias_add: graph.AddOp | None
    bias: np.ndarray | None
    relu: graph.ReluOp | None

    @property
    def output(self) -> SSAValue:
        return (self.relu or self.bias_add or self.conv).result

    @property
    def ops(self) -> list[Operation]:
        return [op for op in (self.conv, self.bias_add, self.relu) if op]

    @property
    def channels(self) -> int:
        return shape_of(self.conv.filter)[0]

    def key(self) -> tuple:
        c = self.conv
        return (c.input, shape_of(c.filter)[1:], element_of(c.filter), c.strides_values,
                c.dilations_values, c.pads_values, self.bias_add is not None,
                self.relu is not None)


def _sole_relu(value: SSAValue) -> graph.ReluOp | None:
    uses = list(value.uses)
    user = uses[0].operation if len(uses) == 1 else None
    return user if isinstance(user, graph.ReluOp) else None


def match_conv_layer(op: Operation, allow_runtime: bool) -> ConvLayer | None:
    if not isinstance(op, graph.ConvOp) or op.group_value != 1:
        return None
    if not (allow_runtime or is_constant(op.filter)):
        return None
    found = bias_add_of(op.result)
    add, bias = found if found else (None, None)
    return ConvLayer(op, add, bias, _sole_relu((add or op).result))


def _weights(b: OpBuilder, members: list[ConvLayer]) -> SSAValue:
    filters = [m.conv.filter for m in members]
    if all(is_constant(f) for f in filters):
        return b.add(concat_constants(filters, 0))
    return b.concat(filters, 0)


def fuse_group(block: Block, members: list[ConvLayer]) -> None:
    first = members[0]
    b = OpBuilder(first.conv)
    c = first.conv
    value = b.add(graph.ConvOp(c.input, _weights(b, members), c.strides_values,
                               c.dilations_values, c.pads_values, 1))
    if first.bias is not None:
        bias = np.concatenate([m.bias for m in members])  # type: ignore[misc]
        value = b.add(graph.AddOp(value, canonical_bias(b, bias, value)))
    if first.relu is not None:
        value = b.add(graph.ReluOp(value))
    offset = 0
    for member in members:
        member.output.replace_all_uses_with(b.slice(value, 1, offset, offset + member.channels))
        offset += member.channels
    erase_if_dead([op for m in members for op in m.ops])
    pass_statistics.count("convs batched", len(members))
    pass_statistics.count("batched convs formed")


def sibling_groups(block: Block, min_group: int, allow_runtime: bool) -> list[list[ConvLayer]]:
    """Groups (program order) of independent sibling convolutions with one key."""
    by_key: dict[tuple, list[ConvLayer]] = defaultdict(list)
    for op in block.ops:
        if layer := match_conv_layer(op, allow_runtime):
            by_key[layer.key()].append(layer)
    cache = ReachCache()
    groups = []
    for layers in by_key.values():
        by_conv = {layer.conv: layer for layer in layers}
        for ops in greedy_independent_groups([layer.conv for layer in layers], cache):
            if len(ops) >= min_group:
                groups.append([by_conv[op] for op in ops])  # type: ignore[index]
    return groups


def fuse_block(block: Block, min_group: int, allow_runtime: bool) -> bool:
    groups = sibling_groups(block, min_group, allow_runtime)
    for members in groups:
        fuse_group(block, members)
    if groups:
        fold_piece_concats(block)
        stable_topological_sort(block)
    return bool(groups)


@dataclass(frozen=True)
class GraphHorizontalFuseConvsPass(ModulePass):
    """Batch sibling `graph.conv`s over one input (see the module docstring).

    Options: `min-group` (int, 2), `allow-runtime-concat` (bool, false).
    """

    name = "graph-horizontal-fuse-convs"

    min_group: int = 2
    allow_runtime_concat: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in functions_with_body(op):  # func.func and util.func alike, every block
            for block in func.body.blocks:
                fuse_block(block, max(2, self.min_group), self.allow_runtime_concat)
