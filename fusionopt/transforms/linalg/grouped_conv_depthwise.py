"""A grouped convolution with few channels per group as depthwise convs, for
`linalg-conv-channels-last`: one channels-last `depthwise_conv_2d_nhwc_hwc` over all G*F output
channels per input channel of a group, each accumulating into the last one's result.

Output channel (g, f) sums over its group's C input channels (g, c) and the window. For one c,
every output channel (g, f) reads input channel (g, c) alone: a depthwise conv over the image
channel (g, c) repeated F times, which a broadcast writes:

    %x  = tensor.expand_shape %xp [[0], [1, 2], [3], [4]]   : N x G x C x H x W (of an NCHW image)
    %y  = linalg.conv_2d_ngchw_gfchw ins(%x, %w) outs(%init)  : N x G x F x OH x OW
->
    %xt = transpose of %xp's source to NHWC, as N x H x W x G x C
    for c in 0 .. C-1:
      %b_c = broadcast of %xt[..., c] over f: N x H x W x (G*F)      (then the conv's pad)
      %w_c = %w[:, :, c] as KH x KW x (G*F)                           (a constant, in numpy)
      %a_c = linalg.depthwise_conv_2d_nhwc_hwc ins(%b_c, %w_c) outs(%a_{c-1})  (%a_{-1}: %init)
    %y' = %a_{C-1} transposed back to NCHW (cancelled by the propagation)

IREE 3.13 has no fast CPU kernel for a grouped conv in any form (the named NHWC op and a generic
ran 12-14 ms for ResNeXt50's first-stage 32 groups of 4 at 56x56); the gather + batched matmul
form of the other grouped rewrites spends most of its time writing the patches, 9x the image,
when groups are this narrow: 4.7 ms of gather + 1.7 ms of matmul per conv in the model. Its
depthwise kernel vectorises along the contiguous G*F channels. In resnext50_32x4d at 224x224
(llvm-cpu, one thread, HAL profile): the 56x56 convs 6.4 -> ~1.8 ms each (4 broadcasts of
~160 us, 4 depthwise convs of ~280 us; onnxruntime's ~2.6 ms), the 28x28 convs of 32 groups
of 8 ~2.3 -> ~1.4 ms; the per-dispatch sum 130 -> ~100 ms.

Not split (`is_depthwise_split_candidate`): strided convs (each input pixel broadcast F times
for a quarter of the outputs), groups of 16 or more filters (the channels-last matmul form), and
convs under 128 output channels or 784 output pixels:
regnet_y_400mf's 8-channel groups of 48-440 channels at 7x7-56x56 ran no faster split and built
1.6x slower (C small dispatches a conv).

Every product of the conv is computed once; the sum over (c, kh, kw) is taken c by c, an order
any conv kernel may choose. Relies on the fast-math contract (finite values): near the f32
limits a partial sum can overflow where the input's order does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import DepthwiseConv2DNhwcHwcOp, WindowOp
from fusionopt.transforms.common.reshapes import collapse, expand
from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.linalg.channels_last_propagation import TO_NCHW, TO_NHWC, permuted_pad, sole_pad_user
from fusionopt.transforms.linalg.grouped_conv_channels_last import (
    GROUPED_CONV, MIN_GROUP_FILTERS, channels_last_init, element_tensor, nchw_image, replace_grouped_conv,
)
from fusionopt.transforms.linalg.constant_arrays import constant_array
from fusionopt.transforms.linalg.linalg_strided_conv_to_im2col import copy_body
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

MAX_DEPTHWISE_GROUP_CHANNELS = 8
# Below these the C broadcasts and depthwise dispatches cost more than the patches they save
# (regnet_y_400mf's 48-208 channel groups at 7x7-28x28: whole model no faster, built 1.6x slower).
MIN_DEPTHWISE_CHANNELS, MIN_DEPTHWISE_PIXELS = 128, 784


def is_depthwise_split_candidate(op: Operation, max_group_channels: int, min_group_filters: int) -> bool:
    """A static stride-1 `ngchw_gfchw` conv with at most `max_group_channels` channels and fewer
    than `min_group_filters` filters per group (wider groups take the channels-last matmul
    form), at least MIN_DEPTHWISE_CHANNELS output channels and MIN_DEPTHWISE_PIXELS output
    pixels per image. Strided, the broadcasts would copy every input pixel F times for a
    quarter of the outputs."""
    shapes = static_window_shapes(op, GROUPED_CONV)
    if shapes is None or set(op.stride_values()) != {1}:  # type: ignore[attr-defined]
        return False
    groups, filters, channels, _, _ = shapes[1]
    _, _, _, oh, ow = shapes[-1]
    return (channels <= max_group_channels and filters < min_group_filters
            and groups * filters >= MIN_DEPTHWISE_CHANNELS and oh * ow >= MIN_DEPTHWISE_PIXELS)


def nhwc_groups(op: WindowOp) -> tuple[list[Operation], SSAValue, Operation | None]:
    """The conv's unpadded input as N x H x W x G x C, and the NCHW pad the conv read, if any."""
    split_ops, image = nchw_image(op)
    pad = sole_pad_user(image)
    source = pad.operands[0] if pad is not None else image
    transpose_ops, transposed = transpose_copy(source, TO_NHWC)
    n, h, w, _ = transposed.type.get_shape()  # type: ignore[attr-defined]
    _, g, c, _, _ = op.inputs[0].type.get_shape()  # type: ignore[attr-defined]
    split = expand(transposed, [[0], [1], [2], [3, 4]], element_tensor(transposed, [n, h, w, g, c]))
    return [*split_ops, *transpose_ops, split], split.results[0], pad


def broadcast_channel(image: SSAValue, channel: int, filters: int) -> tuple[list[Operation], SSAValue]:
    """Channel `channel` of each group of the N x H x W x G x C `image`, repeated `filters` times
    per group: N x H x W x (G*F), channel (g, f) reading (g, channel)."""
    n, h, w, g, c = image.type.get_shape()  # type: ignore[attr-defined]
    cut = tensor.ExtractSliceOp.from_static_parameters(image, [0, 0, 0, 0, channel], [n, h, w, g, 1])
    plane = collapse(cut.results[0], [[0], [1], [2], [3, 4]], element_tensor(image, [n, h, w, g]))
    shape = element_tensor(image, [n, h, w, g, filters])
    empty = tensor.EmptyOp([], shape)
    dims = [AffineDimExpr(i) for i in range(5)]
    repeat = GenericOp(
        [plane.results[0]], [empty.tensor], copy_body(image.type.get_element_type()),  # type: ignore[attr-defined]
        [AffineMapAttr(AffineMap(5, 0, tuple(dims[:4]))), AffineMapAttr(AffineMap.identity(5))],
        [IteratorTypeAttr.parallel()] * 5, [shape],
    )
    flat = collapse(repeat.results[0], [[0], [1], [2], [3, 4]], element_tensor(image, [n, h, w, g * filters]))
    return [cut, plane, empty, repeat, flat], flat.results[0]


def channel_filters(op: WindowOp) -> list[tuple[list[Operation], SSAValue]]:
    """Per input channel c of a group, the KH x KW x (G*F) depthwise filter w[g, f, c, kh, kw]:
    constants computed here when the filter is constant, else slices of one transposed copy."""
    weight = op.inputs[1]
    g, f, c, kh, kw = weight.type.get_shape()  # type: ignore[attr-defined]
    flat_type = element_tensor(weight, [kh, kw, g * f])
    array = constant_array(weight)
    if array is not None:
        planes = (np.transpose(array[:, :, i], (2, 3, 0, 1)).reshape(kh, kw, -1) for i in range(c))
        constants = [ConstantOp(numpy_to_dense(plane, flat_type)) for plane in planes]
        return [([constant], constant.result) for constant in constants]
    ops, transposed = transpose_copy(weight, [2, 3, 4, 0, 1])
    merged = collapse(transposed, [[0], [1], [2], [3, 4]], element_tensor(weight, [c, kh, kw, g * f]))
    filters: list[tuple[list[Operation], SSAValue]] = []
    for i in range(c):
        cut = tensor.ExtractSliceOp.from_static_parameters(merged.results[0], [i, 0, 0, 0], [1, kh, kw, g * f])
        flat = collapse(cut.results[0], [[0, 1], [2], [3]], flat_type)
        filters.append(([*ops, merged, cut, flat] if i == 0 else [cut, flat], flat.results[0]))
    return filters


def depthwise_grouped_conv(op: WindowOp) -> tuple[list[Operation], SSAValue]:
    """The ops computing `op`'s result as an NCHW N x (G*F) x OH x OW image (module docstring)."""
    image_ops, image, pad = nhwc_groups(op)
    filters = op.inputs[1].type.get_shape()[1]  # type: ignore[attr-defined]
    ops, accumulator = channels_last_init(op, [[0], [1], [2], [3, 4]])  # N x OH x OW x (G*F)
    ops = [*image_ops, *ops]
    for channel, (filter_ops, window) in enumerate(channel_filters(op)):
        repeat_ops, repeated = broadcast_channel(image, channel, filters)
        # the conv's NCHW padding, channels last, around the repeated channel
        pad_ops = [] if pad is None else [permuted_pad(pad, repeated, TO_NHWC)]  # type: ignore[arg-type]
        padded = pad_ops[-1].results[0] if pad_ops else repeated
        conv = DepthwiseConv2DNhwcHwcOp(inputs=[padded, window], outputs=[accumulator],
                                        strides=list(op.stride_values()), dilations=list(op.dilation_values()))
        ops += [*filter_ops, *repeat_ops, *pad_ops, conv]
        accumulator = conv.results[0]
    back_ops, back = transpose_copy(accumulator, TO_NCHW)
    return [*ops, *back_ops], back


@dataclass
class GroupedConvToDepthwise(RewritePattern):
    """A grouped conv with narrow groups as chained channels-last depthwise convs (module docstring)."""

    max_group_channels: int = MAX_DEPTHWISE_GROUP_CHANNELS
    min_group_filters: int = MIN_GROUP_FILTERS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_depthwise_split_candidate(op, self.max_group_channels, self.min_group_filters):
            return
        new_ops, nchw = depthwise_grouped_conv(op)  # type: ignore[arg-type]
        replace_grouped_conv(op, new_ops, nchw, rewriter, "grouped convs as depthwise convs")
