"""`linalg-conv-channels-last`: NCHW convolutions, depthwise convolutions and pools become their
NHWC forms (`linalg.conv_2d_nhwc_hwcf`, `depthwise_conv_2d_nhwc_hwc`, `pooling_nhwc_*`)
between transposes, and the elementwise ops between them compute channels last.

IREE 3.13's llvm-cpu kernels for these ops vectorise along the channels, which NCHW keeps apart
(stride H*W) and NHWC keeps contiguous. Measured (bench/RESULTS.md, "CNNs channels last"), as blocks
of pad + conv + ReLU with every transpose paid (`bench/channels_last_forms.py` at dfad5b9), against
the NCHW forms of the passes after this one: k x k convs 0.40x-0.80x, 1x1 convs 0.42x-0.81x,
depthwise convs 0.38x-0.58x; strided convs 0.56x-0.67x inside resnet_mini. Whole CNNs took
0.45x-0.90x of the time of the NCHW forms. A full conv's filter must be HWCF: an NHWC conv reading
an FCHW filter falls onto IREE's generic path, 14x-50x slower. Dilated depthwise convs and pools
too: LR-ASPP's dilated 5x5 depthwise convs ran at 3-4 GFLOP/s as NCHW rank-3 generics, the model
25.3 -> 17.2 ms per-dispatch sum channels last. Any static batch: at a batch of 2 (batched
inference) mobilenet_v2 ran 105 -> 15 ms and resnet18 222 -> 105 ms once this rewrite took them
(bench/RESULTS.md, "Batched and dynamic-batch models"). The rewrite (static shapes; unit
dilations for a full conv, which the im2col stages take dilated):

    %p = tensor.pad %x low[0, 0, ph, pw] ...              : 1 x C x H x W -> padded
    %y = linalg.conv_2d_nchw_fchw ins(%p, %w) outs(%init)
->
    %xt = linalg.generic {transpose (n, c, h, w) -> (n, h, w, c)} ins(%x)
    %pt = tensor.pad %xt low[0, ph, pw, 0] ...            (the same pad, channels last)
    %wt = linalg.generic {transpose (f, c, kh, kw) -> (kh, kw, c, f)} ins(%w)   (CHW -> HWC
                                                           for depthwise; none for a pool)
    %it = linalg.generic {transpose (n, f, h, w) -> (n, h, w, f)} ins(%init)
    %yt = linalg.conv_2d_nhwc_hwcf ins(%pt, %wt) outs(%it)        (same strides)
    %y  = linalg.generic {transpose (n, h, w, f) -> (n, f, h, w)} ins(%yt)

Then `channels_last_propagation` computes each elementwise producer of an NHWC transpose (the
init's bias broadcast or fill, the ReLU or residual add between two convs) channels last, so a
chain of convs keeps its activations NHWC, and `linalg-fuse-elementwise` folds the remaining
transposes into their readers as permuted maps. The layout also passes through the reshapes,
crops and pads between convs that leave the channel dim alone (`channels_last_views`; option
`through-views`): video models' stacked (1, k, k) and (k, 1, 1) convs keep their activations
channels last from conv to conv. What is left per conv is the filter's
transpose when the weights are function arguments: one small dispatch per call (a constant
filter is transposed here, once). Its cost grows with F*C*KH*KW while a full conv's gain grows
with F*C*KH*KW*OH*OW, so a full conv is rewritten only with at least `min-pixels` output pixels
(`min-pixels-1x1` for a 1x1 window) and at most `max-filter-elements` filter elements: 3x3 convs
at 4x4 pixels were 1.3x-2x slower channels last, 1x1 convs at 2x2 pixels 1.5x-4x, a 128 -> 128
3x3 filter (147k elements) tied; there the im2col and matmul forms of the passes after this one
stay. A 1x1 conv over a constant filter has no filter limit: its transpose is done here, once,
and channels last it is a matmul over contiguous output channels (mobilenet_v2's 960- and
1280-filter 1x1 convs at 7x7 pixels, weights inline: the model 15.1 -> 11.0 ms per-dispatch sum,
llvm-cpu, one thread). Nor has a k x k conv over a constant filter (`constant-kxk-any-size`):
efficientnet_v2_s's 48 -> 192 and 64 -> 256 3x3 convs (83k and 147k elements) stayed NCHW
gathers + matmuls at ~32 GFLOP/s with a transpose after each, the ViT's 16x16 patch embedding
and ConvNeXt's 2x2 downsampling convs likewise (bench/RESULTS.md, "Constant k x k filters
channels last"). Opt-in
(`nt-1x1-max-pixels`): a 1x1 conv under that many pixels reads its FCHW filter in place as
F x C (`filter_in_place_1x1`): fewer dispatches, but 1.06x slower on mobilenet_mini (0.87x on
squeezenet1_1), so off by default.

Every product and sum is the same as before: only the order of a conv's sum over
(c, kh, kw) may change, as in any conv kernel. A grouped conv with at least `min-group-filters`
filters per group becomes a channels-last patch gather and group-batched matmul
(`grouped_conv_channels_last`), one with at most `max-depthwise-group-channels` channels per group
chained depthwise convs (`grouped_conv_depthwise`). Not rewritten: dilated full convs, other
narrow groups, dynamic shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr, DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import (
    Conv2DNhwcHwcfOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNhwcMaxOp,
    PoolingNhwcSumOp,
    WindowOp,
)
from fusionopt.transforms.common.reshapes import collapse
from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.channels_last_propagation import (
    TO_NCHW,
    TO_NHWC,
    ProduceChannelsLast,
    channels_last_image,
    sole_pad_user,
)
from fusionopt.transforms.linalg.channels_last_views import HoistChannelsLastAboveView, SinkChannelsFirstBelowView
from fusionopt.transforms.linalg.grouped_conv_channels_last import MIN_GROUP_FILTERS, GroupedConvToChannelsLast
from fusionopt.transforms.linalg.grouped_conv_depthwise import MAX_DEPTHWISE_GROUP_CHANNELS, GroupedConvToDepthwise
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

# NCHW window op -> (its channels-last op, the filter's permutation; None: a pooling window,
# which is only a shape). Full convs: FCHW -> HWCF; depthwise: CHW -> HWC.
FULL_CONV = "linalg.conv_2d_nchw_fchw"
CHANNELS_LAST_FORMS: dict[str, tuple[type[WindowOp], list[int] | None]] = {
    FULL_CONV: (Conv2DNhwcHwcfOp, [2, 3, 1, 0]),
    "linalg.depthwise_conv_2d_nchw_chw": (DepthwiseConv2DNhwcHwcOp, [1, 2, 0]),
    "linalg.pooling_nchw_max": (PoolingNhwcMaxOp, None),
    "linalg.pooling_nchw_sum": (PoolingNhwcSumOp, None),
}

# A full conv's gain grows with its output pixels and its per-call filter transpose with the
# filter's size (module docstring); thresholds from the measured shapes. Depthwise convs and
# pools won at every measured size (2x2 to 32x32 pixels).
MIN_PIXELS = 32
MIN_PIXELS_1X1 = 16
MAX_FILTER_ELEMENTS = 65536
NT_1X1_MAX_PIXELS = 0


@dataclass(frozen=True)
class FullConvLimits:
    """When a full conv is rewritten: output pixels of a k x k and of a 1x1 conv, filter size."""

    min_pixels: int = MIN_PIXELS
    min_pixels_1x1: int = MIN_PIXELS_1X1
    max_filter_elements: int = MAX_FILTER_ELEMENTS
    nt_1x1_max_pixels: int = NT_1X1_MAX_PIXELS
    constant_1x1_any_size: bool = True
    constant_kxk_any_size: bool = True

    def reads_filter_in_place(self, op: WindowOp) -> bool:
        """A 1x1 full conv small enough to read its FCHW filter as F x C in place (no transpose)."""
        filter_shape = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
        pixels = prod(op.outputs[0].type.get_shape()[2:])  # type: ignore[attr-defined]
        return op.name == FULL_CONV and tuple(filter_shape[2:]) == (1, 1) and pixels <= self.nt_1x1_max_pixels

    def admit(self, filter_shape: tuple[int, ...], output_shape: tuple[int, ...], constant_filter: bool) -> bool:
        one_by_one = filter_shape[2:] == (1, 1)
        least = self.min_pixels_1x1 if one_by_one else self.min_pixels
        any_size = self.constant_1x1_any_size if one_by_one else self.constant_kxk_any_size
        size_free = any_size and constant_filter  # transposed once, here
        return prod(output_shape[2:]) >= least and (size_free or prod(filter_shape) <= self.max_filter_elements)


def is_dense_constant(value: SSAValue) -> bool:
    """`value` is an `arith.constant` with dense elements (inline weights)."""
    return isinstance(value.owner, ConstantOp) and isinstance(value.owner.value, DenseIntOrFPElementsAttr)


def is_channels_last_candidate(op: Operation, limits: FullConvLimits) -> bool:
    """A static NCHW depthwise conv or pool (any dilation), or full conv with unit dilations
    within `limits`."""
    shapes = static_window_shapes(op, op.name) if op.name in CHANNELS_LAST_FORMS else None
    if shapes is None:
        return False
    if op.name != FULL_CONV:
        return True
    unit_dilations = set(op.dilation_values()) == {1}  # type: ignore[attr-defined]
    return unit_dilations and limits.admit(shapes[1], shapes[-1], is_dense_constant(op.operands[1]))


def transposed_filter(value: SSAValue, order: list[int]) -> tuple[list[Operation], SSAValue]:
    """The filter with its dims in `order`: a transposed constant when it is a dense constant
    (weights inlined in the model), else a transpose run on every call."""
    owner = value.owner
    if is_dense_constant(value):
        array = np.transpose(dense_to_numpy(owner.value), order)  # type: ignore[attr-defined]
        element = value.type.get_element_type()  # type: ignore[attr-defined]
        constant = ConstantOp(numpy_to_dense(array, TensorType(element, list(array.shape))))
        return [constant], constant.result
    return transpose_copy(value, order)


def filter_in_place_1x1(op: WindowOp, image: SSAValue, init: SSAValue) -> list[Operation]:
    """A 1x1 conv channels last as a contraction over (n, oh, ow, f, c) that reads the FCHW
    filter collapsed to F x C (a free reshape) instead of a transposed copy."""
    weight = op.inputs[1]
    f, c = weight.type.get_shape()[:2]  # type: ignore[attr-defined]
    flat = collapse(weight, [[0], [1, 2, 3]], TensorType(weight.type.get_element_type(), [f, c]))  # type: ignore[attr-defined]
    n, oh, ow, fd, cd = (AffineDimExpr(i) for i in range(5))
    sh, sw = op.stride_values()
    maps = (AffineMap(5, 0, (n, oh * sh, ow * sw, cd)), AffineMap(5, 0, (fd, cd)), AffineMap(5, 0, (n, oh, ow, fd)))
    contraction = GenericOp(
        [image, flat.results[0]], [init], op.regions[0].clone(), [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()], [init.type],
    )
    return [flat, contraction]


def channels_last_window(op: WindowOp, limits: FullConvLimits) -> tuple[list[Operation], SSAValue]:
    """The channels-last window op computing `op`'s result channels last (module docstring)."""
    new_class, filter_order = CHANNELS_LAST_FORMS[op.name]
    in_place = limits.reads_filter_in_place(op)
    input_ops, image = channels_last_image(op.inputs[0])
    filter_ops: list[Operation] = []
    window = op.inputs[1]
    if filter_order is not None and not in_place:
        filter_ops, window = transposed_filter(window, filter_order)
    init_ops, init = transpose_copy(op.outputs[0], TO_NHWC)
    if in_place:
        new_ops = filter_in_place_1x1(op, image, init)
    else:
        new_ops = [new_class(inputs=[image, window], outputs=[init], strides=list(op.stride_values()),
                             dilations=list(op.dilation_values()))]
    return [*input_ops, *filter_ops, *init_ops, *new_ops], new_ops[-1].results[0]


@dataclass
class ConvToChannelsLast(RewritePattern):
    limits: FullConvLimits

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_channels_last_candidate(op, self.limits):
            return
        old_pad = sole_pad_user(op.operands[0])
        new_ops, channels_last = channels_last_window(op, self.limits)  # type: ignore[arg-type]
        back_ops, result = transpose_copy(channels_last, TO_NCHW)
        replace_conv(op, [*new_ops, *back_ops], result, rewriter, "window ops channels last")
        if old_pad is not None and not old_pad.results[0].uses:
            rewriter.erase(old_pad)


@dataclass(frozen=True)
class LinalgConvChannelsLastPass(ModulePass):
    """Rewrite NCHW convs, depthwise convs and pools (static shapes) as their NHWC forms, with the
    elementwise ops between them channels last (module docstring).

    Options:
      min-pixels          -- rewrite only k x k convs with at least this many output pixels (32).
      min-pixels-1x1      -- rewrite only 1x1 convs with at least this many output pixels (16).
      max-filter-elements -- rewrite only full convs whose filter has at most this many
                             elements (65536): a filter argument is transposed on every call
                             (a constant filter, transposed once here, has no limit).
      nt-1x1-max-pixels   -- a 1x1 conv with at most this many output pixels reads its FCHW
                             filter in place, as F x C, instead of a transposed copy (0: none).
      constant-1x1-any-size -- a 1x1 conv over a constant filter has no filter limit (true;
                             false: the limit as for a filter argument, the form before).
      constant-kxk-any-size -- nor has a k x k conv over a constant filter (true; false: the
                             limit, the form before: efficientnet_v2_s's 48 -> 192 and 64 -> 256
                             3x3 convs then stay NCHW gathers + matmuls, the model 1.4x slower).
      min-group-filters   -- rewrite grouped convs with at least this many filters per group
                             (16; a larger number than any group: none).
      grouped-im2col      -- at batch 1 the patches are IREE's im2col op in the matmul's
                             dispatch (true): faster to run (RegNetX's grouped convs 0.64x),
                             slower to build (about 1 s of iree-compile per conv shape); false:
                             the gather generic (`grouped_conv_channels_last`).
      grouped-taps        -- a grouped conv over a constant f32 filter of 8k filters a group
                             (any min-group-filters), at most 3x3 taps and an output width a
                             multiple of 7 or 8 is one sum over its taps' strided image slices
                             instead (`grouped_conv_taps`; false; the CPU pipelines set it,
                             with the tiles IREE needs for it).
      max-depthwise-group-channels -- a grouped conv with at most this many channels and fewer
                             than `min-group-filters` filters per group becomes one depthwise conv
                             per channel of a group over the broadcast channel, chained
                             (`grouped_conv_depthwise`; 8: ResNeXt50's 4- and 8-channel groups; 0:
                             none). Stride 1, >= 128 output channels and >= 784 pixels only.
      through-views       -- activations stay channels last through the reshapes, crops and
                             pads between convs that leave the channel dim alone (true; false:
                             a transpose back and forth around each, the form before):
                             `channels_last_views`, the video models' stacked convs.
    """

    name = "linalg-conv-channels-last"

    min_pixels: int = MIN_PIXELS
    min_pixels_1x1: int = MIN_PIXELS_1X1
    max_filter_elements: int = MAX_FILTER_ELEMENTS
    nt_1x1_max_pixels: int = NT_1X1_MAX_PIXELS
    constant_1x1_any_size: bool = True
    constant_kxk_any_size: bool = True
    min_group_filters: int = MIN_GROUP_FILTERS
    grouped_im2col: bool = True
    grouped_taps: bool = False
    max_depthwise_group_channels: int = MAX_DEPTHWISE_GROUP_CHANNELS
    through_views: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        limits = FullConvLimits(self.min_pixels, self.min_pixels_1x1, self.max_filter_elements,
                                self.nt_1x1_max_pixels, self.constant_1x1_any_size, self.constant_kxk_any_size)
        pattern = ConvToChannelsLast(limits)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(GroupedConvToChannelsLast(self.min_group_filters, self.grouped_im2col, self.grouped_taps), apply_recursively=False).rewrite_module(op)
        split = GroupedConvToDepthwise(self.max_depthwise_group_channels, self.min_group_filters)
        PatternRewriteWalker(split, apply_recursively=False).rewrite_module(op)
        views = [HoistChannelsLastAboveView(), SinkChannelsFirstBelowView()] if self.through_views else []
        propagation = GreedyRewritePatternApplier([ProduceChannelsLast(), *views], dce_enabled=False)
        PatternRewriteWalker(propagation).rewrite_module(op)
