"""`linalg-bubble-expand-through-broadcast`: an expand_shape of a broadcast (or fill) becomes a
broadcast (fill) of the expanded shape.

A broadcast is a `linalg.broadcast` or a generic that is one (`broadcast_of`: our graph
lowering writes them so); the rewrite emits a `linalg.broadcast`.

torch-mlir writes a grouped conv's bias as a broadcast to the NCHW output, then splits the
channels into groups with a `tensor.expand_shape` to make the `conv_2d_ngchw_gfchw` init:

    %b = linalg.broadcast ins(%bias : tensor<48xf32>) outs(%e : tensor<1x48x16x16xf32>) dimensions = [0, 2, 3]
    %i = tensor.expand_shape %b [[0], [1, 2], [3], [4]] output_shape [1, 6, 8, 16, 16]
    %c = linalg.conv_2d_ngchw_gfchw ... outs(%i : tensor<1x6x8x16x16xf32>)

Region formation fuses a root's init producer only when it feeds the root directly, so the
broadcast became a dispatch of its own (regnet_y_400mf: 16 of them, one per grouped conv; IREE's
reshape propagation moves the expand above the broadcast and fuses it). Rewritten:

    %be = tensor.expand_shape %bias [[0, 1]] output_shape [6, 8]      (outside regions: free)
    %i = linalg.broadcast ins(%be : tensor<6x8xf32>) outs(tensor.empty() : tensor<1x6x8x16x16xf32>) dimensions = [0, 3, 4]

Each reassociation group of the expand splits one broadcast result dim: a broadcast dim splits
into broadcast dims, an input dim splits the input the same way. A fill of an expanded init
becomes a fill of a `tensor.empty` of the expanded shape. Static shapes only; the original
broadcast stays for other readers (erased when none is left). Exact: the values are the same
elements. No options. Why our own code: xDSL has no reshape propagation, and MLIR's
(`populateFoldReshapeOpsByExpansionPatterns`) is C++.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand, reassociation


def broadcast_of(op: Operation) -> tuple[SSAValue, set[int]] | None:
    """(source, broadcast result dims) of a `linalg.broadcast`, or of a generic that is one (our
    graph lowering's form: `dispatch_utils.is_pure_broadcast_generic` with an identity output
    map, its input's dims in order, and no bit-extension, which the rewrite would drop)."""
    if isinstance(op, BroadcastOp):
        return op.operands[0], set(op.properties["dimensions"].get_values())  # type: ignore[union-attr]
    if not du.is_pure_broadcast_generic(op):
        return None
    source = du.dps_inputs(op)[0]
    in_map, out_map = du.indexing_maps(op)
    if source.type.get_element_type() != op.results[0].type.get_element_type():  # type: ignore[attr-defined]
        return None
    if not du.is_identity_map(out_map) or not du.reads_dims_in_order(in_map) or len(in_map.used_dims()) != len(in_map.results):
        return None
    return source, set(range(out_map.num_dims)) - in_map.used_dims()


def expanded_broadcast(source: SSAValue, broadcast_dims: set[int], groups: list[list[int]], shape: list[int]
                       ) -> tuple[list[Operation], SSAValue] | None:
    """The ops computing broadcast-then-expand as expand-then-broadcast, and its value."""
    if not du.is_static_tensor(source):
        return None
    source_shape = source.type.get_shape()  # type: ignore[attr-defined]
    input_groups: list[list[int]] = []
    new_dims: list[int] = []
    for dim, group in enumerate(groups):
        if dim in broadcast_dims:
            new_dims.extend(group)
        else:
            start = sum(len(g) for g in input_groups)
            input_groups.append(list(range(start, start + len(group))))
    input_shape = [shape[d] for dim, group in enumerate(groups) if dim not in broadcast_dims for d in group]
    element = source.type.get_element_type()  # type: ignore[attr-defined]
    ops: list[Operation] = []
    if input_shape != list(source_shape):
        ops.append(expand(source, input_groups, TensorType(element, input_shape)))
        source = ops[-1].results[0]
    empty = tensor.EmptyOp([], TensorType(element, shape))
    dimensions = DenseArrayBase.from_list(i64, new_dims)
    ops += [empty, BroadcastOp(source, empty.tensor, dimensions, empty.tensor.type)]
    return ops, ops[-1].results[0]


def expanded_fill(fill: FillOp, shape: list[int]) -> tuple[list[Operation], SSAValue]:
    element = fill.results[0].type.get_element_type()  # type: ignore[attr-defined]
    empty = tensor.EmptyOp([], TensorType(element, shape))
    new = FillOp([fill.inputs[0]], [empty.tensor], [empty.tensor.type])
    return [empty, new], new.results[0]


class ExpandBeforeBroadcast(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tensor.expand_shape" or not du.is_static_tensor(op.results[0]):
            return
        producer = op.operands[0].owner
        shape = list(op.results[0].type.get_shape())  # type: ignore[attr-defined]
        if isinstance(producer, Operation) and (broadcast := broadcast_of(producer)) is not None:
            found = expanded_broadcast(*broadcast, reassociation(op), shape)
        elif isinstance(producer, FillOp) and len(producer.results) == 1 and du.is_static_tensor(producer.results[0]):
            found = expanded_fill(producer, shape)
        else:
            return
        if found is None:
            return
        ops, value = found
        rewriter.replace(op, ops, [value])
        if all(not r.uses for r in producer.results):
            rewriter.erase(producer)
        pass_statistics.count("expand_shapes moved above their broadcast or fill")


class LinalgBubbleExpandThroughBroadcastPass(ModulePass):
    """Rewrite `tensor.expand_shape` of a `linalg.broadcast` / `linalg.fill` as the broadcast
    (fill) of the expanded shape (module docstring). No options."""

    name = "linalg-bubble-expand-through-broadcast"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ExpandBeforeBroadcast(), apply_recursively=False).rewrite_module(op)
