"""Moving a padded result's slice below its readers, for the padding passes
(`linalg-pad-conv-filters`, `linalg-pad-matmul-weights`; module docstring of the first): through
pads that leave the sliced axis alone, elementwise readers (constants along the axis padded with
zeros; a reader of two or more slices alike reads them unsliced, `MergeSlicedOperands`),
depthwise convs (`padded_depthwise_readers`), group splits and im2col ops
(`padded_group_readers`); roots and concats read the slice in their own region."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.channels_last_propagation import pad_like
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.padded_depthwise_readers import (
    CHANNELS, erase_dead_producers, is_padded_depthwise_reader, padded_depthwise,
)
from fusionopt.transforms.linalg.padded_group_readers import (
    is_padded_im2col_reader, moved_slice, read_unsliced, sink_below_reshape,
)
from fusionopt.transforms.linalg.padded_values import channel_slice, empty_like, padded_constant, padded_init, shape_of


def dim_positions(value_map) -> list[int | None]:
    return [e.position if isinstance(e, AffineDimExpr) else None for e in value_map.results]


def elementwise_loop(consumer: Operation, value: SSAValue, axis: int) -> tuple[int, int] | None:
    """(loop, output axis) of an elementwise generic that can compute over the padded axis
    (`is_padable_elementwise`): `value` read once as an input through a projected permutation,
    every other input either not indexing the loop or a dense constant indexing it once (padded
    with zeros)."""
    if not is_padable_elementwise(consumer) or list(consumer.operands).count(value) != 1 or value in du.dps_inits(consumer):
        return None
    value_map = du.operand_map(consumer, value)
    if value_map is None or not value_map.is_projected_permutation():
        return None
    loop = dim_positions(value_map)[axis]
    if loop is None or not others_padable(consumer, loop, {value}):
        return None
    out_axis = output_axis(consumer, loop)
    return None if out_axis is None else (loop, out_axis)


def is_padable_elementwise(consumer: Operation) -> bool:
    """A one-result all-parallel generic with no `linalg.index` and an unread `tensor.empty`
    init: it computes padded entries along any loop like the others."""
    if consumer.name != "linalg.generic" or len(consumer.results) != 1 or not du.is_all_parallel(consumer):
        return False
    if any(inner.name == "linalg.index" for inner in consumer.regions[0].walk()):
        return False
    return isinstance(du.dps_inits(consumer)[0].owner, tensor.EmptyOp) and not consumer.regions[0].block.args[-1].uses


def others_padable(consumer: Operation, loop: int, sliced: set[SSAValue]) -> bool:
    """Every input of `consumer` but the `sliced` ones either does not index `loop` or is a dense
    constant indexing it once (padded with zeros)."""
    for other, other_map in zip(du.dps_inputs(consumer), du.indexing_maps(consumer)):
        dims = dim_positions(other_map)
        if other not in sliced and loop in dims and not (is_dense_constant(other) and dims.count(loop) == 1):
            return False
    return True


def output_axis(consumer: Operation, loop: int) -> int | None:
    """The axis of `consumer`'s result its output map sends `loop` to, if it does once."""
    out_dims = dim_positions(du.indexing_maps(consumer)[-1])
    return out_dims.index(loop) if out_dims.count(loop) == 1 else None


def pad_keeps_axis(op: Operation, axis: int) -> bool:
    """A static `tensor.pad` that leaves `axis` alone (a window op's spatial padding)."""
    if not isinstance(op, tensor.PadOp) or len(op.operands) != 1:
        return False
    return op.static_low.get_values()[axis] == 0 and op.static_high.get_values()[axis] == 0


def reads_slice_in_own_region(op: Operation) -> bool:
    """Readers whose region reads a channel slice as an indexed read: roots (convs, pools,
    reductions, contractions) and concats (a copy either way)."""
    return du.is_root_op(op) or op.name in ("tensor.concat", "tensor.insert_slice")


def passes_through(user: Operation, value: SSAValue, axis: int) -> tuple[SSAValue, int] | None:
    """(value, axis) a slice of `value` along `axis` moves to below `user`: a pad that leaves the
    axis alone, or an elementwise reader that can compute over the padded axis; None otherwise."""
    if pad_keeps_axis(user, axis):
        return user.results[0], axis
    if (found := elementwise_loop(user, value, axis)) is not None:
        return user.results[0], found[1]
    return None


def absorbs_slice(value: SSAValue, axis: int, padded: int | None = None) -> bool:
    """Every reader of `value`, sliced along `axis` (from `padded` entries, where known),
    either computes over the padded axis with its own readers absorbing the slice in turn, or
    reads the slice in a region of its own. Not so where an elementwise reader cannot pad (a
    residual add of an unpadded tensor): that epilogue would leave the conv's dispatch."""
    if not value.uses:
        return False
    for use in value.uses:
        user = use.operation
        if (below := passes_through(user, value, axis)) is not None:
            ok = absorbs_slice(*below, padded)
        elif padded is not None and (moved := moved_slice(user, axis, shape_of(value)[axis], padded)) is not None:
            ok = absorbs_slice(user.results[0], moved[0], moved[1])
        else:
            ok = reads_slice_in_own_region(user) or is_padded_im2col_reader(user, value, axis)
        if not ok:
            return False
    return True


def stops_above_reshape(value: SSAValue, axis: int, padded: int) -> bool:
    """Whether the slice of `value` along `axis` (from `padded` entries), moved down as far as it
    goes, stops above a reshape it cannot pass (a group split whose width does not divide the
    padded count): the reshape would then read a strided slice."""
    for use in value.uses:
        user = use.operation
        if (below := passes_through(user, value, axis)) is not None:
            stops = stops_above_reshape(*below, padded)
        elif du.is_reshape(user):
            moved = moved_slice(user, axis, shape_of(value)[axis], padded)
            stops = moved is None or stops_above_reshape(user.results[0], *moved)
        else:
            stops = False
        if stops:
            return True
    return False


def sink_slices(cut: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
    """One slice per reader, each moved below its reader while it can (`absorbs_slice` checked
    that every chain ends at a reader that reads slices in its own region)."""
    uses = list(cut.result.uses)
    for use in uses[1:]:
        copy = cut.clone()
        rewriter.insert(copy, InsertPoint.after(cut))
        use.operation.operands[use.index] = copy.result
        sink_slices(copy, rewriter)
    user, axis = (uses[0].operation if uses else None), sliced_axis(cut)
    if isinstance(user, tensor.PadOp) and pad_keeps_axis(user, axis):
        sink_slices(sink_below_pad(user, cut, rewriter), rewriter)
    elif user is not None and elementwise_loop(user, cut.result, axis) is not None:
        sink_slices(sink_below_generic(user, cut, rewriter), rewriter)
    elif user is not None and is_padded_depthwise_reader(user, cut.result, axis) and absorbs_slice(user.results[0], axis, shape_of(cut.source)[axis]):
        if (below := sink_below_depthwise(user, cut, rewriter)) is not None:
            sink_slices(below, rewriter)
    elif user is not None and moved_slice(user, axis, shape_of(cut.result)[axis], shape_of(cut.source)[axis]) is not None:
        sink_slices(sink_below_reshape(user, cut, axis, rewriter), rewriter)
    elif user is not None and is_padded_im2col_reader(user, cut.result, axis):
        read_unsliced(user, cut, rewriter)


def sliced_axis(cut: tensor.ExtractSliceOp) -> int:
    source_shape = cut.source.type.get_shape()  # type: ignore[attr-defined]
    return next(a for a, (s, full) in enumerate(zip(cut.result.type.get_shape(), source_shape)) if s != full)


def sink_below_pad(pad: tensor.PadOp, cut: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> tensor.ExtractSliceOp:
    """`pad(slice(x))` as `slice(pad(x))`."""
    axis = sliced_axis(cut)
    shape = list(pad.results[0].type.get_shape())  # type: ignore[attr-defined]
    sliced_size, shape[axis] = shape[axis], cut.source.type.get_shape()[axis]  # type: ignore[attr-defined]
    padded = pad_like(pad, cut.source, list(pad.static_low.get_values()), list(pad.static_high.get_values()), shape)
    new_cut = channel_slice(padded.results[0], axis, sliced_size)
    rewriter.replace(pad, [padded, new_cut], [new_cut.result])
    rewriter.erase(cut)
    pass_statistics.count("channel slices moved below a pad or an elementwise reader")
    return new_cut


def sink_below_depthwise(conv: Operation, cut: tensor.ExtractSliceOp, rewriter: PatternRewriter
                         ) -> tensor.ExtractSliceOp | None:
    """`depthwise(slice(x))` as `slice(depthwise'(x))`, its filter and init padded
    (`padded_depthwise_readers`); None, and nothing changed, for an init `padded_init` cannot pad."""
    size = cut.source.type.get_shape()[CHANNELS]  # type: ignore[attr-defined]
    init = padded_init(conv.operands[2], size)
    if init is None:
        return None
    init_ops, init_value = init
    new_ops = padded_depthwise(conv, cut.source, init_value, size)
    new_cut = channel_slice(new_ops[-1].results[0], CHANNELS, conv.results[0].type.get_shape()[CHANNELS])  # type: ignore[attr-defined]
    old_filter = conv.operands[1].owner
    replace_conv(conv, [*init_ops, *new_ops, new_cut], new_cut.result, rewriter,
                 "depthwise convs computing a padded conv's channels")
    rewriter.erase(cut)
    erase_dead_producers(old_filter, rewriter)
    return new_cut


def sink_below_generic(consumer: Operation, cut: tensor.ExtractSliceOp, rewriter: PatternRewriter
                       ) -> tensor.ExtractSliceOp:
    """`consumer(slice(x))` as `slice(consumer'(x))`, constants along the loop padded with zeros."""
    loop, out_axis = elementwise_loop(consumer, cut.result, sliced_axis(cut))  # type: ignore[misc]
    new_cut = padded_elementwise(consumer, [cut], loop, out_axis, rewriter)
    pass_statistics.count("channel slices moved below a pad or an elementwise reader")
    return new_cut


def padded_elementwise(consumer: Operation, cuts: list[tensor.ExtractSliceOp], loop: int, out_axis: int,
                       rewriter: PatternRewriter) -> tensor.ExtractSliceOp:
    """`consumer` over the sources of its inputs `cuts` (sliced along its loop `loop`), its
    constants along that loop padded with zeros, writing the padded `out_axis`; replaced by the
    slice of that (returned), the cuts erased once unread."""
    maps = du.indexing_maps(consumer)
    size = shape_of(cuts[0].source)[dim_positions(du.operand_map(consumer, cuts[0].result)).index(loop)]  # type: ignore[union-attr]
    inputs, new_ops = [], []
    for value, value_map in zip(du.dps_inputs(consumer), maps):
        dims = dim_positions(value_map)
        if value.owner in cuts:
            value = value.owner.source  # type: ignore[union-attr]
        elif loop in dims:
            value = padded_constant(value, dims.index(loop), size)
            new_ops.append(value.owner)
        inputs.append(value)
    result = consumer.results[0]
    empty = empty_like(result, out_axis, size)
    generic = GenericOp(inputs, [empty.tensor], consumer.regions[0].clone(), [AffineMapAttr(m) for m in maps],
                        consumer.iterator_types, [empty.tensor.type])  # type: ignore[attr-defined]
    new_cut = channel_slice(generic.results[0], out_axis, shape_of(result)[out_axis])
    rewriter.replace(consumer, [*new_ops, empty, generic, new_cut], [new_cut.result])
    for cut in cuts:
        if cut.parent is not None and not cut.result.uses:
            rewriter.erase(cut)
    return new_cut


def _slice_of_one_axis(value: SSAValue) -> tuple[tensor.ExtractSliceOp, int] | None:
    """The slice `value` is, from offset 0 and of unit strides along one axis, and that axis."""
    cut = value.owner
    if not isinstance(cut, tensor.ExtractSliceOp) or cut.offsets or cut.sizes or cut.strides:
        return None
    if any(cut.static_offsets.get_values()) or any(s != 1 for s in cut.static_strides.get_values()):
        return None
    cut_axes = [a for a, (s, full) in enumerate(zip(shape_of(cut.result), shape_of(cut.source))) if s != full]
    return (cut, cut_axes[0]) if len(cut_axes) == 1 else None


def sliced_alike(consumer: Operation) -> tuple[list[tensor.ExtractSliceOp], int, int] | None:
    """(slices, loop, output axis) of an elementwise generic (`is_padable_elementwise`) that
    reads two or more slices alike: each along one axis its map sends to the same loop, of the
    same size from sources of the same size; every other input indexing that loop a dense
    constant indexing it once (padded with zeros)."""
    if not is_padable_elementwise(consumer):
        return None
    found: dict[tuple[int, int, int], list[tensor.ExtractSliceOp]] = {}
    for value, value_map in zip(du.dps_inputs(consumer), du.indexing_maps(consumer)):
        sliced = _slice_of_one_axis(value)
        if sliced is None or not value_map.is_projected_permutation() or list(consumer.operands).count(value) != 1:
            continue
        cut, axis = sliced
        loop = dim_positions(value_map)[axis]
        if loop is not None:
            found.setdefault((loop, shape_of(cut.result)[axis], shape_of(cut.source)[axis]), []).append(cut)
    groups = [(key, cuts) for key, cuts in found.items() if len(cuts) >= 2]
    if len(groups) != 1:
        return None
    (loop, _, _), cuts = groups[0]
    if not others_padable(consumer, loop, {cut.result for cut in cuts}):
        return None
    out_axis = output_axis(consumer, loop)
    return None if out_axis is None else (cuts, loop, out_axis)


class MergeSlicedOperands(RewritePattern):
    """generic(slice(a), slice(b), c) -> slice(generic(a, b, c padded)) (`sliced_alike`): a
    residual add of two padded convs' results (RegNetX's 416-filter 1x1 convs, the block's and
    its shortcut's or the previous block's output) computes the padded channels and stays in the
    conv's dispatch as its epilogue, where it read the two slices in a region of its own; the
    new slice moves on below its readers (`sink_slices`). Exact: the first channels are the same
    sums; the padded ones are never read."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = sliced_alike(op)
        if found is None:
            return
        cuts, loop, out_axis = found
        new_cut = padded_elementwise(op, cuts, loop, out_axis, rewriter)
        pass_statistics.count("elementwise readers of slices alike computing the padded channels")
        sink_slices(new_cut, rewriter)
