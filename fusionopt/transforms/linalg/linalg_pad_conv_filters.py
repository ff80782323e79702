"""`linalg-pad-conv-filters`: a channels-last conv over a constant filter whose filter count F is
not a multiple of the vector width computes F' = F rounded up to it, with zero filters, and its
consumers read the first F channels through a slice.

IREE 3.13's CPU conv kernel splits F among workgroups and vectorises a divisor of each share:
with F = 58, 116, 232 (ShuffleNetV2), 40, 72, 120, 184, 200 (MobileNetV3) or 24 the vectors are
2-8 lanes wide. With F padded to a multiple of 16 every vector is a full AVX-512 register: one
conv with a ReLU, one thread, min of 5 profiled runs x 50 calls, F -> F' (us): 58 -> 64 at 28x28
226 -> 104, 116 -> 128 at 14x14 103 -> 66, 232 -> 240 at 7x7 434 -> 56, 40 -> 48 at 28x28
458 -> 96, 72 -> 80 at 56x56 416 -> 232, 200 -> 208 at 14x14 108 -> 67, 24 -> 32 at 56x56
240 -> 150, 21 -> 32 at 28x28 72 -> 61, the 3x3 stem 3 -> 24 at 112x112 318 -> 265.
onnxruntime does the same: its NCHWc layout pads channels to blocks of 16.

A 1x1 conv over at least `panel-min-channels` (32) input channels, batch 1, the convs
`linalg-pack-conv-filters` packs, goes further: a filter count no panel (64, 32) divides is
padded to whole panels as `linalg-pad-matmul-weights` pads a matmul's columns (the next multiple
of 64, or of 32 when 64 would add over 1/16; none past 1/8), so it is packed too. RegNetX's 400
filters compute 416, 13 panels of 32: its 23 1x1 convs at 7x7 5.9-7.5 -> 3.7-4.3 ms (about 270
-> 170 us a call; one thread, HAL profile, four alternating rounds; onnxruntime's MLAS ~140 us),
the model's dispatch sum 14.9-18.4 -> 12.3-13.8 ms. Where a reader cannot compute padded
channels (a residual add, a grouped conv's patch gather) the slice stays and the reader reads it
in a region of its own, if the result is at most `max-slice-bytes` (1 MiB): RegNetX's residual
adds leave their conv's dispatch, 40-52 -> 85-104 us in all. A grouped conv's im2col op reads
the padded groups instead (`padded_group_readers`).

The padding is free at run time: the filter is a constant, padded once here, and so is a bias
broadcast into the conv's init. The slice then moves below each elementwise consumer whose other
operands are constants along the channel dim (padded with zeros too) or do not index it: a
conv's bias/activation epilogue stays in its dispatch and computes F' channels. It moves below a
channels-last depthwise conv over a constant filter too, whose filter and init are padded
(`padded_depthwise_readers`: MnasNet's and ShuffleNetV2's depthwise convs then run in whole
vectors). Where the slice stops (another window op, a reduction, a residual add of an unpadded
tensor) the consumer's region reads it as an indexed, strided read
(`region_cloning.should_clone` clones non-contiguous slices).

Exact: the first F channels are the same products summed in the same order; the padded
channels are computed from zeros and never read. Options: `lanes` (the vector width in
elements, 16: f32 on AVX-512), `max-growth` (skip a conv whose F' / F exceeds it, 2.0),
`panel-min-channels` (0: no panel padding), `max-slice-bytes`. Static shapes only. CPU pipelines
only: CUDA builds tile for warps, not vector registers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt.cost_model import tensor_bytes
from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import Conv2DNhwcHwcfOp
from fusionopt import pass_statistics
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_bubble_expand_through_broadcast import broadcast_of
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.channels_last_propagation import pad_like
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.padded_depthwise_readers import (
    erase_dead_producers, is_padded_depthwise_reader, padded_depthwise,
)
from fusionopt.transforms.linalg.padded_group_readers import (
    is_padded_im2col_reader, moved_slice, read_unsliced, sink_below_reshape,
)

CHANNELS = 3  # NHWC output / HWCF filter: the filter count is the last dim


def padded_size(size: int, lanes: int) -> int:
    return -(-size // lanes) * lanes


def padded_constant(value: SSAValue, axis: int, size: int) -> SSAValue:
    """A new dense constant: `value`'s elements with zeros appended along `axis` up to `size`."""
    return constant_from(value, lambda array: np.pad(array, padding_widths(array.ndim, axis, size - array.shape[axis])))


def padding_widths(rank: int, axis: int, count: int) -> list[tuple[int, int]]:
    widths = [(0, 0)] * rank
    widths[axis] = (0, count)
    return widths


def constant_from(value: SSAValue, change: Callable[[np.ndarray], np.ndarray]) -> SSAValue:
    """A new dense constant of `value`'s element type holding `change` of its elements."""
    array = change(np.asarray(dense_to_numpy(value.owner.value)))  # type: ignore[attr-defined]
    element = value.type.get_element_type()  # type: ignore[attr-defined]
    return ConstantOp(numpy_to_dense(array, TensorType(element, list(array.shape)))).result


def padded_type(value: SSAValue, axis: int, size: int) -> TensorType:
    shape = list(value.type.get_shape())  # type: ignore[attr-defined]
    shape[axis] = size
    return TensorType(value.type.get_element_type(), shape)  # type: ignore[attr-defined]


def empty_like(value: SSAValue, axis: int, size: int) -> tensor.EmptyOp:
    return tensor.EmptyOp([], padded_type(value, axis, size))


def channel_slice(value: SSAValue, axis: int, size: int) -> tensor.ExtractSliceOp:
    """The first `size` entries of `value` along `axis`, the rest whole."""
    sizes = list(value.type.get_shape())  # type: ignore[attr-defined]
    sizes[axis] = size
    return tensor.ExtractSliceOp.from_static_parameters(value, [0] * len(sizes), sizes)


def padded_init(init: SSAValue, size: int) -> tuple[list[Operation], SSAValue] | None:
    """A conv's or matmul's [..., F] init with F' = `size` in its last dim: a fill of a padded
    empty, or a broadcast of a constant bias padded with zeros; None for any other init."""
    last = init.type.get_num_dims() - 1  # type: ignore[attr-defined]
    return init_as(init, padded_type(init, last, size), lambda bias: np.pad(bias, padding_widths(1, 0, size - bias.shape[0])))


def init_as(init: SSAValue, shape: TensorType, bias_as: Callable[[np.ndarray], np.ndarray]
            ) -> tuple[list[Operation], SSAValue] | None:
    """A conv's or matmul's [..., F] init rebuilt as `shape`: a fill of an empty of it, or the
    broadcast of a constant [F] bias changed by `bias_as` over its leading dims; None for any
    other init."""
    owner = init.owner
    if isinstance(owner, FillOp) and len(owner.results) == 1:
        empty = tensor.EmptyOp([], shape)
        fill = FillOp([owner.inputs[0]], [empty.tensor], [shape])
        return [empty, fill], fill.results[0]
    broadcast = broadcast_of(owner) if isinstance(owner, Operation) else None
    leading = set(range(init.type.get_num_dims() - 1))  # type: ignore[attr-defined]
    if broadcast is None or broadcast[1] != leading or not is_dense_constant(broadcast[0]):
        return None
    bias = constant_from(broadcast[0], bias_as)
    empty = tensor.EmptyOp([], shape)
    dims = list(range(shape.get_num_dims() - bias.type.get_num_dims()))  # type: ignore[attr-defined]
    spread = BroadcastOp(bias, empty.tensor, DenseArrayBase.from_list(i64, dims), shape)
    return [bias.owner, empty, spread], spread.results[0]  # type: ignore[list-item]


WIDE_PANEL, NARROW_PANEL = 64, 32  # `linalg-pack-conv-filters`' and `-pack-matmul-weights`' panels


def panel_padded_size(columns: int) -> int | None:
    """F' for F filters (columns) no panel divides: the next multiple of 64, or of 32 when 64
    would add over 1/16 of F; None when a panel divides F already or the padding would add
    over 1/8."""
    if columns % NARROW_PANEL == 0:
        return None
    wide = padded_size(columns, WIDE_PANEL)
    size = wide if (wide - columns) * 16 <= columns else padded_size(columns, NARROW_PANEL)
    return size if (size - columns) * 8 <= columns else None


def is_packable_1x1(op: Conv2DNhwcHwcfOp, min_channels: int) -> bool:
    """A batch-1 1x1 conv over at least `min_channels` input channels: the convs
    `linalg-pack-conv-filters` packs when a panel divides their filter count."""
    batch = op.inputs[0].type.get_shape()[0]  # type: ignore[attr-defined]
    kh, kw, channels, _ = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
    return batch == 1 and (kh, kw) == (1, 1) and channels >= min_channels


@dataclass(frozen=True)
class PadChoice:
    lanes: int
    max_growth: float
    panel_min_channels: int
    max_slice_bytes: int

    def padded_filters(self, op: Operation) -> int | None:
        """F' for a static channels-last conv over a constant filter that needs padding."""
        if not isinstance(op, Conv2DNhwcHwcfOp) or not is_dense_constant(op.inputs[1]):
            return None
        if not all(du.is_static_tensor(v) for v in (*op.operands, op.results[0])):
            return None
        panels = self.panel_size(op)
        if panels is not None:
            return panels
        filters = op.inputs[1].type.get_shape()[CHANNELS]  # type: ignore[attr-defined]
        size = padded_size(filters, self.lanes)
        return size if size != filters and size <= self.max_growth * filters else None

    def panel_size(self, op: Conv2DNhwcHwcfOp) -> int | None:
        """F' in whole panels for a conv `linalg-pack-conv-filters` would pack but for its F."""
        if not self.panel_min_channels or not is_packable_1x1(op, self.panel_min_channels):
            return None
        return panel_padded_size(op.inputs[1].type.get_shape()[CHANNELS])  # type: ignore[attr-defined]

    def copies_slice(self, op: Conv2DNhwcHwcfOp) -> bool:
        """Whether a conv padded to whole panels may leave its result's slice as a copy where
        its readers cannot absorb it (a residual add, a grouped conv's patch gather); not when
        an epilogue reads the result as its init (in place): it would leave the conv's dispatch
        with nothing gained (its pad no longer written by the conv)."""
        result = op.results[0]
        in_place = any(use.operation.name == "linalg.generic" and result in du.dps_inits(use.operation)
                       for use in result.uses)
        return not in_place and self.panel_size(op) is not None and tensor_bytes(result) <= self.max_slice_bytes


class PadConvFilters(RewritePattern):
    def __init__(self, choice: PadChoice):
        self.choice = choice

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        size = self.choice.padded_filters(op)
        if size is None or not (absorbs_slice(op.results[0], CHANNELS, size) or self.choice.copies_slice(op)):  # type: ignore[arg-type]
            return
        init = padded_init(op.outputs[0], size)  # type: ignore[attr-defined]
        if init is None:
            return
        init_ops, init_value = init
        weight = padded_constant(op.inputs[1], CHANNELS, size)  # type: ignore[attr-defined]
        conv = Conv2DNhwcHwcfOp([op.inputs[0], weight], [init_value],  # type: ignore[attr-defined]
                                op.stride_values(), op.dilation_values())  # type: ignore[attr-defined]
        filters = op.results[0].type.get_shape()[CHANNELS]  # type: ignore[attr-defined]
        cut = channel_slice(conv.results[0], CHANNELS, filters)
        replace_conv(op, [weight.owner, *init_ops, conv, cut], cut.result, rewriter,  # type: ignore[list-item]
                     "conv filters padded to a multiple of the vector width")
        sink_slices(cut, rewriter)


# -- moving the slice below its readers ---------------------------------------------------------

def dim_positions(value_map) -> list[int | None]:
    return [e.position if isinstance(e, AffineDimExpr) else None for e in value_map.results]


def elementwise_loop(consumer: Operation, value: SSAValue, axis: int) -> tuple[int, int] | None:
    """(loop, output axis) of an elementwise generic that can compute over the padded axis: one
    result, `value` read once as an input through a projected permutation, an unread
    `tensor.empty` init, no `linalg.index`, and every other input either not indexing the loop or
    a dense constant indexing it once (padded with zeros)."""
    if consumer.name != "linalg.generic" or len(consumer.results) != 1 or not du.is_all_parallel(consumer):
        return None
    if list(consumer.operands).count(value) != 1 or value in du.dps_inits(consumer):
        return None
    if any(inner.name == "linalg.index" for inner in consumer.regions[0].walk()):
        return None
    init = du.dps_inits(consumer)[0]
    if not isinstance(init.owner, tensor.EmptyOp) or consumer.regions[0].block.args[-1].uses:
        return None
    value_map = du.operand_map(consumer, value)
    if value_map is None or not value_map.is_projected_permutation():
        return None
    loop = dim_positions(value_map)[axis]
    maps = du.indexing_maps(consumer)
    for other, other_map in zip(du.dps_inputs(consumer), maps):
        dims = dim_positions(other_map)
        if other is not value and loop in dims and not (is_dense_constant(other) and dims.count(loop) == 1):
            return None
    out_dims = dim_positions(maps[-1])
    return (loop, out_dims.index(loop)) if loop is not None and out_dims.count(loop) == 1 else None


def pad_keeps_axis(op: Operation, axis: int) -> bool:
    """A static `tensor.pad` that leaves `axis` alone (a window op's spatial padding)."""
    if not isinstance(op, tensor.PadOp) or len(op.operands) != 1:
        return False
    return op.static_low.get_values()[axis] == 0 and op.static_high.get_values()[axis] == 0


def reads_slice_in_own_region(op: Operation) -> bool:
    """Readers whose region reads a channel slice as an indexed read: roots (convs, pools,
    reductions, contractions) and concats (a copy either way)."""
    return du.is_root_op(op) or op.name in ("tensor.concat", "tensor.insert_slice")


def absorbs_slice(value: SSAValue, axis: int, padded: int | None = None) -> bool:
    """Every reader of `value`, sliced along `axis` (from `padded` entries, where known),
    either computes over the padded axis with its own readers absorbing the slice in turn, or
    reads the slice in a region of its own. Not so where an elementwise reader cannot pad (a
    residual add of an unpadded tensor): that epilogue would leave the conv's dispatch."""
    if not value.uses:
        return False
    for use in value.uses:
        user = use.operation
        if pad_keeps_axis(user, axis):
            ok = absorbs_slice(user.results[0], axis, padded)
        elif (found := elementwise_loop(user, value, axis)) is not None:
            ok = absorbs_slice(user.results[0], found[1], padded)
        elif padded is not None and (moved := moved_slice(user, axis, _size(value, axis), padded)) is not None:
            ok = absorbs_slice(user.results[0], moved[0], moved[1])
        else:
            ok = reads_slice_in_own_region(user) or is_padded_im2col_reader(user, value, axis)
        if not ok:
            return False
    return True


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
    elif user is not None and is_padded_depthwise_reader(user, cut.result, axis) and absorbs_slice(user.results[0], axis, _size(cut.source, axis)):
        if (below := sink_below_depthwise(user, cut, rewriter)) is not None:
            sink_slices(below, rewriter)
    elif user is not None and moved_slice(user, axis, _size(cut.result, axis), _size(cut.source, axis)) is not None:
        sink_slices(sink_below_reshape(user, cut, axis, rewriter), rewriter)
    elif user is not None and is_padded_im2col_reader(user, cut.result, axis):
        read_unsliced(user, cut, rewriter)


def _size(value: SSAValue, axis: int) -> int:
    return value.type.get_shape()[axis]  # type: ignore[attr-defined]


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
    axis = sliced_axis(cut)
    loop, out_axis = elementwise_loop(consumer, cut.result, axis)  # type: ignore[misc]
    size = cut.source.type.get_shape()[axis]  # type: ignore[attr-defined]
    maps = du.indexing_maps(consumer)
    inputs, new_ops = [], []
    for value, value_map in zip(du.dps_inputs(consumer), maps):
        dims = dim_positions(value_map)
        if value is cut.result:
            value = cut.source
        elif loop in dims:
            value = padded_constant(value, dims.index(loop), size)
            new_ops.append(value.owner)
        inputs.append(value)
    result = consumer.results[0]
    empty = empty_like(result, out_axis, size)
    generic = GenericOp(inputs, [empty.tensor], consumer.regions[0].clone(), [AffineMapAttr(m) for m in maps],
                        consumer.iterator_types, [empty.tensor.type])  # type: ignore[attr-defined]
    new_cut = channel_slice(generic.results[0], out_axis, result.type.get_shape()[out_axis])  # type: ignore[attr-defined]
    rewriter.replace(consumer, [*new_ops, empty, generic, new_cut], [new_cut.result])
    rewriter.erase(cut)
    pass_statistics.count("channel slices moved below a pad or an elementwise reader")
    return new_cut


@dataclass(frozen=True)
class LinalgPadConvFiltersPass(ModulePass):
    """Pad constant conv filters to a multiple of the vector width, slice the result back
    (module docstring).

    Options:
      lanes      -- the vector width in elements the filter count is rounded up to (16).
      max-growth -- leave a conv whose padded filter count exceeds this many times its own (2.0).
      panel-min-channels -- pad a batch-1 1x1 conv over at least this many input channels to whole
                            panels of 64 or 32 filters (32, the packing pass's minimum; 0: never).
      max-slice-bytes    -- a panel-padded conv whose slice a reader cannot absorb is padded only
                            up to this many result bytes (1048576): the slice is then a copy.
    """

    name = "linalg-pad-conv-filters"

    lanes: int = 16
    max_growth: float = 2.0
    panel_min_channels: int = 32
    max_slice_bytes: int = 1 << 20

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = PadConvFilters(PadChoice(self.lanes, self.max_growth, self.panel_min_channels, self.max_slice_bytes))
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
