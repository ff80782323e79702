"""Channels-last activations carried through reshapes, slices and pads (part of
`linalg-conv-channels-last`, option `through-views`).

Video models run their (1, k, k) convs as one 2-D conv over the frames stacked along H (each
frame padded in H, the rows between them cropped afterwards) and their (k, 1, 1) convs as one
over [N, C, D, H*W]: between two convs the activation is reshaped, cropped and padded in its
spatial dims only. `ProduceChannelsLast` stopped at those ops, so every conv paid a transpose
back to NCDHW and the next one a transpose into channels last (R(2+1)D-18 at one thread: ~115
ms of its ~1000 in transposes, onnxruntime having none). Two rewrites carry the layout through
them:

- `HoistChannelsLastAboveView`: a transpose into channels last of a view's result becomes the
  view of the transposed source, where the chain of views above ends in a transpose back to
  channels first (the two then cancel) or in an elementwise producer (`ProduceChannelsLast`
  computes it channels last). A pad moves too: the transpose then reads the unpadded tensor.
- `SinkChannelsFirstBelowView`: a view of a transpose back to channels first becomes the
  transpose of the view of the channels-last tensor, where the views and elementwise ops below
  reach a transpose into channels last: the elementwise ops are then computed channels last
  (the hoisting above) and the transpose folds into their read, cancelling.

Views: `expand_shape` / `collapse_shape` whose dims 0 and 1 (batch, channels) are groups of
their own, so the channel dim is never split or merged (a channel shuffle stays as it is);
static, unit-stride, rank-keeping `extract_slice` taking every channel; static `pad` (hoisting only: sunk, the
transpose would copy the padding too). Each view moved has one reader. Every rewrite moves the
same elements: exact.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, reassociation
from fusionopt.transforms.linalg.channels_last_propagation import (
    channels_first_order,
    channels_last_order,
    erase_with_dead_inits,
    is_layout_free_producer,
    is_nchw_transpose,
    is_nhwc_transpose,
    permuted_pad,
    sole_pad_user,
)
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy
from fusionopt.transforms.linalg.slice_before_transpose import is_plain_slice

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")
SUNK_VIEWS = (*RESHAPES, "tensor.extract_slice")  # pads only hoist
VIEWS = (*SUNK_VIEWS, "tensor.pad")


def channels_last_groups(groups: list[list[int]]) -> list[list[int]] | None:
    """A reshape's reassociation with both sides' channel dims (1) moved innermost, when its
    batch and channel dims are groups of their own ([0], [1], ...) and both sides have rank 4 or
    more (the transposes `ProduceChannelsLast` takes); else None."""
    if len(groups) < 4 or groups[0] != [0] or groups[1] != [1]:
        return None
    fine_rank = sum(len(group) for group in groups)
    return [[0], *([d - 1 for d in group] for group in groups[2:]), [fine_rank - 1]]


def _shape(value: SSAValue) -> list[int]:
    return list(value.type.get_shape())  # type: ignore[attr-defined]


def permuted_type(value: SSAValue, order: list[int]) -> TensorType:
    shape = _shape(value)
    return TensorType(value.type.element_type, [shape[i] for i in order])  # type: ignore[attr-defined]


def takes_every_channel(op: Operation) -> bool:
    """A slice whose dim 1 is taken whole: channels last, a slice of some channels would be a
    strided copy where channels first it is a contiguous one (GoogLeNet's branches, cut from
    their sibling 1x1 convs' one result)."""
    return op.static_sizes.get_values()[1] == _shape(op.operands[0])[1]  # type: ignore[attr-defined]


def is_view_result(value: SSAValue) -> bool:
    return isinstance(value.owner, Operation) and value.owner.name in VIEWS


def is_movable_view(op: Operation, pads: bool) -> bool:
    """A static view the channel dim passes through unchanged (module docstring), of rank 4 or
    more (the transposes `ProduceChannelsLast` takes)."""
    if op.name in RESHAPES:
        return du.is_static_tensor(op.operands[0]) and channels_last_groups(reassociation(op)) is not None
    if op.name not in VIEWS or len(_shape(op.operands[0])) < 4:
        return False
    if op.name == "tensor.extract_slice":
        return is_plain_slice(op) and takes_every_channel(op)
    return pads and sole_pad_user(op.results[0]) is op


def view_of(view: Operation, source: SSAValue, order: list[int]) -> Operation:
    """`view` applied to `source`, which is `view`'s operand with its dims in `order` (channels
    last); the result is `view`'s result channels last."""
    if view.name == "tensor.pad":
        return permuted_pad(view, source, order)  # type: ignore[arg-type]
    if view.name == "tensor.extract_slice":
        offsets, sizes = ([params[i] for i in order] for params in (
            view.static_offsets.get_values(), view.static_sizes.get_values()))  # type: ignore[attr-defined]
        return tensor.ExtractSliceOp.from_static_parameters(source, offsets, sizes)
    result = view.results[0]
    result_type = permuted_type(result, channels_last_order(len(_shape(result))))
    build = expand if view.name == "tensor.expand_shape" else collapse
    return build(source, channels_last_groups(reassociation(view)), result_type)  # type: ignore[arg-type]


def reaches_channels_last_source(value: SSAValue) -> bool:
    """Above `value`, through views with one reader each, a transpose back to channels first
    or an elementwise producer: where a channels-last transpose hoisted that far is removed."""
    while True:
        producer = value.owner
        if not isinstance(producer, Operation):
            return False
        if is_nchw_transpose(producer):
            return True
        if not is_movable_view(producer, pads=True) or value.uses.get_length() != 1:
            return is_layout_free_producer(producer)
        value = producer.operands[0]


def reaches_channels_last_reader(value: SSAValue, limit: int = 64) -> bool:
    """Below `value`, through views and elementwise ops, a transpose into channels last (which
    a transpose back sunk that far then cancels); at most `limit` ops are looked at. Where none
    is reached, the transpose is better left where it is: after a conv it is that conv's
    epilogue, tiled with it, where sunk into an elementwise op it is a slower transposing
    write (R3D-18's crops feeding its depth-tap concats: the model 1.06x slower)."""
    pending, seen = [value], 0
    while pending and seen < limit:
        for use in list(pending.pop().uses):
            reader = use.operation
            seen += 1
            if is_nhwc_transpose(reader):
                return True
            if is_movable_view(reader, pads=True) or is_layout_free_producer(reader):
                pending.extend(reader.results)
    return False


class HoistChannelsLastAboveView(RewritePattern):
    """transpose_cl(view(x)) -> view'(transpose_cl(x)) (module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        # the view first: the transpose test is `ProduceChannelsLast`'s too, on every generic
        if op.name != "linalg.generic" or not op.operands or not is_view_result(value := op.operands[0]):
            return
        view: Operation = value.owner  # type: ignore[assignment]
        if (not is_nhwc_transpose(op) or value.uses.get_length() != 1
                or not is_movable_view(view, pads=True) or not reaches_channels_last_source(value)):
            return
        source = view.operands[0]
        order = channels_last_order(len(_shape(source)))
        transpose_ops, transposed = transpose_copy(source, order)
        moved = view_of(view, transposed, order)
        rewriter.insert([*transpose_ops, moved], InsertPoint.before(op))
        erase_with_dead_inits(op, rewriter, [moved.results[0]])
        rewriter.erase(view)
        pass_statistics.count("channels-last transposes hoisted above views")


class SinkChannelsFirstBelowView(RewritePattern):
    """view(transpose_cf(y)) -> transpose_cf(view'(y)) (module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in SUNK_VIEWS:
            return
        value = op.operands[0]
        transpose = value.owner
        if not isinstance(transpose, Operation) or not is_nchw_transpose(transpose) or value.uses.get_length() != 1:
            return
        if not is_movable_view(op, pads=False) or not reaches_channels_last_reader(op.results[0]):
            return
        channels_last = du.dps_inputs(transpose)[0]
        moved = view_of(op, channels_last, channels_last_order(len(_shape(value))))
        back_ops, back = transpose_copy(moved.results[0], channels_first_order(len(_shape(op.results[0]))))
        rewriter.insert([moved, *back_ops], InsertPoint.before(op))
        rewriter.replace_op(op, [], [back])
        erase_with_dead_inits(transpose, rewriter)
        pass_statistics.count("channels-first transposes sunk below views")
