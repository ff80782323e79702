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
the padded groups instead (`padded_group_readers`). Where a group split's width does not divide
whole panels (RegNetX-3.2GF's 1008 filters as 1024, groups of 48), the slice would stay above the
split, a reshaped strided read (its 7x7 grouped convs at 13-39 GFLOP/s): the count is then the
least multiple of 32 within the 1/8 bound the width divides (1056, 22 groups; 3.24 -> 0.51 ms).

A k x k conv with at least `kxk-slice-min-taps` (256) products an output (C * KH * KW) is padded
even where its readers cannot absorb the slice, which then stays a copy or a strided read: its
unpadded kernel costs far more than reading its result once more. R(2+1)D's (1, 3, 3) convs
(230, 460 and 921 filters over 64-512 channels, computed over depth slices stacked along H, then
transposed back to NCDHW and cropped per slice) ran at 5.6-11.5 G multiply-adds/s; padded to
240, 464 and 928, 156 -> 35, 155 -> 33, 96 -> 22, 86 -> 17, 82 -> 16 and 41 -> 10 ms a call (HAL
profile, one Zen 4 core), the model 1524 -> 1067 ms at one thread and 904 -> 613 at two.

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
`panel-min-channels` (0: no panel padding), `max-slice-bytes`. Static shapes only. The
target-neutral pipelines pad to 16 lanes without panels (`panel-min-channels=0`: nothing there
packs them; ShuffleNetV2 x2.0's build 121 -> 17 ms on one zen4 core, IREE default's 79), the CPU
pipelines to panels too; the CUDA pipelines keep convs NCHW, which this pass does not touch.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.cost_model import tensor_bytes
from fusionopt import pass_statistics
from fusionopt.dialects.linalg_conv import Conv2DNhwcHwcfOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.channel_slices import MergeSlicedOperands, absorbs_slice, sink_slices, stops_above_reshape
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.padded_values import channel_slice, padded_constant, padded_init, padded_size

CHANNELS = 3  # NHWC output / HWCF filter: the filter count is the last dim

WIDE_PANEL, NARROW_PANEL = 64, 32  # `linalg-pack-conv-filters`' and `-pack-matmul-weights`' panels


def panel_padded_size(columns: int) -> int | None:
    """F' for F filters (columns) no panel divides: the next multiple of 64, or of 32 when 64
    would add over 1/16 of F; None when a panel divides F already or the padding would add
    over 1/8."""
    if columns % NARROW_PANEL == 0:
        return None
    wide = padded_size(columns, WIDE_PANEL)
    size = wide if (wide - columns) * 16 <= columns else padded_size(columns, NARROW_PANEL)
    return size if size <= most_panel_padding(columns) else None


def most_panel_padding(columns: int) -> int:
    """The largest count F columns are padded to for panels: 1/8 more."""
    return columns + columns // 8


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
    kxk_slice_min_taps: int

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

    def group_padded_size(self, op: Conv2DNhwcHwcfOp, size: int) -> int:
        """`size`, or, where its slice would stop above a group split (the split's width not
        dividing `size`), the least larger multiple of the narrow panel within the 1/8 bound
        that the split's width divides: the slice then moves below the split onto whole groups.
        RegNetX-3.2GF's 1008 filters, 21 groups of 48: at 1024 the grouped conv read a reshaped
        strided slice of 4 KB pixels (its 7 x 7 taps at 13-39 GFLOP/s); 1056 is 22 groups."""
        if self.panel_size(op) is None or not stops_above_reshape(op.results[0], CHANNELS, size):
            return size
        filters = op.inputs[1].type.get_shape()[CHANNELS]  # type: ignore[attr-defined]
        wider = range(size + NARROW_PANEL, most_panel_padding(filters) + 1, NARROW_PANEL)
        return next((s for s in wider if not stops_above_reshape(op.results[0], CHANNELS, s)), size)

    def copies_slice(self, op: Conv2DNhwcHwcfOp) -> bool:
        """Whether a padded conv may leave its result's slice as a copy where its readers cannot
        absorb it (a residual add, a grouped conv's patch gather, a crop of stacked slices): a
        conv padded to whole panels up to `max_slice_bytes` of result, a k x k conv with at
        least `kxk_slice_min_taps` products an output (`is_costly_kxk`). Not when an epilogue
        reads the result as its init (in place): it would leave the conv's dispatch with
        nothing gained (its pad no longer written by the conv)."""
        result = op.results[0]
        in_place = any(use.operation.name == "linalg.generic" and result in du.dps_inits(use.operation)
                       for use in result.uses)
        if in_place:
            return False
        panels = self.panel_size(op) is not None and tensor_bytes(result) <= self.max_slice_bytes
        return panels or self.is_costly_kxk(op)

    def is_costly_kxk(self, op: Conv2DNhwcHwcfOp) -> bool:
        """A window larger than 1x1 reducing over at least `kxk_slice_min_taps` (C * KH * KW)
        products an output: its unpadded kernel costs far more than copying its result once."""
        kh, kw, channels, _ = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
        taps = kh * kw * channels
        return self.kxk_slice_min_taps > 0 and (kh, kw) != (1, 1) and taps >= self.kxk_slice_min_taps


class PadConvFilters(RewritePattern):
    def __init__(self, choice: PadChoice):
        self.choice = choice

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        size = self.choice.padded_filters(op)
        if size is None:
            return
        panels = size
        size = self.choice.group_padded_size(op, size)  # type: ignore[arg-type]
        if not (absorbs_slice(op.results[0], CHANNELS, size) or self.choice.copies_slice(op)):  # type: ignore[arg-type]
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
        if size != panels:
            pass_statistics.count("conv filters padded past whole panels to whole groups")
        sink_slices(cut, rewriter)


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
      kxk-slice-min-taps -- a k x k conv with at least this many products an output (C * KH * KW)
                            is padded even where its slice stays a copy (256; 0: never).
    """

    name = "linalg-pad-conv-filters"

    lanes: int = 16
    max_growth: float = 2.0
    panel_min_channels: int = 32
    max_slice_bytes: int = 1 << 20
    kxk_slice_min_taps: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = PadConvFilters(PadChoice(self.lanes, self.max_growth, self.panel_min_channels, self.max_slice_bytes,
                                            self.kxk_slice_min_taps))
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(MergeSlicedOperands(), apply_recursively=False).rewrite_module(op)
