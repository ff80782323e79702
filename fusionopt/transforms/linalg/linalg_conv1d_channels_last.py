"""`linalg-conv1d-channels-last`: a 1-D conv (an NCHW `linalg.conv_2d_nchw_fchw` with one image
row and a 1 x KW window, as 1-D convs are lowered) over a constant filter computes channels last,
`linalg.conv_2d_nhwc_hwcf` over the [1, W, C] activation, and the activations between such convs
stay [1, W, C] (`rows_channels_last`).

An audio encoder's feature convs (wav2vec2's seven, Whisper's two) run over 512 channels and
thousands of frames. NCHW, `linalg-strided-conv-to-im2col` makes each a filter [F, C*KW] .
patches [C*KW, OW] matmul with the constant on the left, which nothing packs: the patches are read
row by row, a new 6 KB row per step of the 1536-long reduction, and the gather that writes them
reads the image at stride 2. Channels last, `linalg-conv1d-patches` (after elementwise fusion)
makes the conv a patch copy and a matmul with a packed weight: wav2vec2's convs 0.4x-0.8x of
their time, its feature encoder 75 -> 58 ms (HAL profile, one Zen 4 core; bench/RESULTS.md, "1-D
convs channels last"). Only with that pass: as IREE's channels-last conv kernel these convs ran
7x slower (bench/RESULTS.md, "Attention over key blocks"), so this pass is in the CPU pipelines
only, before `linalg-conv-channels-last`. A pointwise conv (KW = 1) too: SqueezeBERT writes its
dense layers as 1-D convs between transposes from and to tokens-major, and NCW each was a W . X
matmul written back transposed, 32 GFLOP/s; channels last it is a packed [W, C] . [C, F] matmul
between cancelled transposes, 111 GFLOP/s (its model 21.1 -> 14.4 ms, bench/RESULTS.md). Rewrite
(batch 1, static shapes, any stride and dilation):

    %y = linalg.conv_2d_nchw_fchw ins(pad(expand(%x : 1 x C x W)), %w : F x C x 1 x KW) outs(%init)
->
    %xt = pad(transpose %x to 1 x W x C)              (the same pad, along W)
    %wt = arith.constant (%w as [1, KW, C, F])
    %yt = linalg.conv_2d_nhwc_hwcf ins(expand(%xt), %wt) outs(transpose %init)   (same strides)
    %y  = expand(transpose collapse(%yt) to 1 x F x OW)

The transposes then move onto the elementwise ops around (`ProduceRowsChannelsLast`: a chain, a
GroupNorm's and a GELU's generics) and cancel between convs; a reduction reads the channels-last
activation through a swapped map, and an f32 sum that reads the moved activations accumulates in
f64 (`widen_frame_sums`: a GroupNorm's variance). Exact: the same products; only the order of
the conv's sum over (c, kw) may change, as in any conv kernel. Not rewritten: batch > 1, images
with more than one row, filters that are not constants (each call would pay the filter's
transpose).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import Rewriter

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg_conv import Conv2DNhwcHwcfOp
from fusionopt.transforms.common.reshapes import collapse, expand, read_collapses_from, reassociation
from fusionopt.transforms.common.window_ops import CONV_NAME, static_window_shapes
from fusionopt.transforms.linalg.channels_last_propagation import TO_NHWC, ProduceChannelsLast, pad_like, sole_pad_user
from fusionopt.transforms.linalg.constant_arrays import constant_array
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy
from fusionopt.transforms.linalg.padded_depthwise_readers import erase_dead_producers
from fusionopt.transforms.linalg.rows_channels_last import (
    SWAP_ROWS,
    ProduceRowsChannelsLast,
    ReadThroughRowsSwap,
    erase_dead_moves,
    widen_frame_sums,
)

STATISTIC = "1-D convs channels last"
# [1, C, 1, W] <-> [1, C, W]: how 1-D convs are lowered (an image row of one).
ROW_GROUPS = [[0], [1], [2, 3]]
# [1, W, C] <-> [1, 1, W, C]: the channels-last image of one row.
IMAGE_GROUPS = [[0, 1], [2], [3]]


def is_conv1d(op: Operation) -> bool:
    """A static batch-1 NCHW conv over one image row with a 1 x KW window; a pointwise one
    (KW = 1) over a row of more than one position: not a CNN's 1x1 conv of one pooled pixel
    (squeeze-excite), which stays the other passes' matmul."""
    shapes = static_window_shapes(op, CONV_NAME)
    if shapes is None:
        return False
    image, window, output = shapes
    one_row = image[0] == 1 and image[2] == 1 and window[2] == 1 and output[2] == 1
    return one_row and (window[3] > 1 or image[3] > 1)


def rows_source(image: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The [1, C, W] activation a [1, C, 1, W] conv image expands (a collapse where it is not)."""
    owner = image.owner
    if isinstance(owner, tensor.ExpandShapeOp) and reassociation(owner) == ROW_GROUPS:
        return [], owner.operands[0]
    shape = image.type.get_shape()  # type: ignore[attr-defined]
    flat = collapse(image, ROW_GROUPS, TensorType(image.type.get_element_type(), [shape[0], shape[1], shape[3]]))  # type: ignore[attr-defined]
    return [flat], flat.results[0]


def drop_unit_row_index(pad: Operation) -> None:
    """The pad body cloned from the rank-4 image's pad loses its (unused) index of the unit row,
    so it has one index per dim of the rank-3 rows."""
    block = pad.regions[0].block
    block.erase_arg(block.args[2])


def channels_last_rows(image: SSAValue) -> tuple[list[Operation], SSAValue, Operation]:
    """The conv's image as [1, W, C], padded along W as the image was (the pad after the swap,
    so the swap reads the unpadded activation), and the swap."""
    pad = sole_pad_user(image)
    ops, rows = rows_source(pad.operands[0] if pad is not None else image)
    swap_ops, swapped = transpose_copy(rows, SWAP_ROWS)
    ops += swap_ops
    swap = swap_ops[-1]
    if pad is not None:
        low, high = pad.static_low.get_values(), pad.static_high.get_values()  # type: ignore[attr-defined]
        shape = swapped.type.get_shape()  # type: ignore[attr-defined]
        padded = pad_like(pad, swapped, [0, low[3], 0], [0, high[3], 0], [shape[0], shape[1] + low[3] + high[3], shape[2]])  # type: ignore[arg-type]
        drop_unit_row_index(padded)
        ops.append(padded)
        swapped = padded.results[0]
    return ops, swapped, swap


def pads_width_only(image: SSAValue) -> bool:
    """The conv's image is unpadded or padded along W alone with a value that does not depend
    on the position."""
    pad = sole_pad_user(image)
    if pad is None:
        return not (isinstance(image.owner, Operation) and image.owner.name == "tensor.pad")
    low, high = pad.static_low.get_values(), pad.static_high.get_values()  # type: ignore[attr-defined]
    position_free = not any(arg.uses for arg in pad.regions[0].block.args)
    return position_free and not any(low[:3]) and not any(high[:3])


def hwcf_filter(weights: np.ndarray, element) -> ConstantOp:
    """An F x C x 1 x KW filter as HWCF: [1, KW, C, F]."""
    array = np.ascontiguousarray(np.transpose(weights, (2, 3, 1, 0)))
    return ConstantOp(numpy_to_dense(array, TensorType(element, list(array.shape))))


def rows_result(conv_result: SSAValue) -> tuple[list[Operation], SSAValue, SSAValue]:
    """The [1, 1, OW, F] conv result as the [1, F, OW] activation (collapse and swap) and as the
    replaced conv's [1, F, 1, OW]."""
    _, _, width, filters = conv_result.type.get_shape()  # type: ignore[attr-defined]
    element = conv_result.type.get_element_type()  # type: ignore[attr-defined]
    flat = collapse(conv_result, IMAGE_GROUPS, TensorType(element, [1, width, filters]))
    swap_ops, rows = transpose_copy(flat.results[0], SWAP_ROWS)
    image = expand(rows, ROW_GROUPS, TensorType(element, [1, filters, 1, width]))
    return [flat, *swap_ops, image], rows, image.results[0]


@dataclass
class Conv1DToChannelsLast(RewritePattern):
    swaps: set[Operation]  # the image swaps into [1, W, C], for ProduceRowsChannelsLast

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_conv1d(op) or not pads_width_only(op.operands[0]):
            return
        weights = constant_array(op.inputs[1])  # type: ignore[attr-defined]
        if weights is None:
            return
        old_pad = sole_pad_user(op.operands[0])
        filter_source = op.inputs[1].owner  # type: ignore[attr-defined]
        image_ops, rows, swap = channels_last_rows(op.inputs[0])  # type: ignore[attr-defined]
        self.swaps.add(swap)
        rows_shape = rows.type.get_shape()  # type: ignore[attr-defined]
        element = rows.type.get_element_type()  # type: ignore[attr-defined]
        image = expand(rows, IMAGE_GROUPS, TensorType(element, [1, *rows_shape]))
        window = hwcf_filter(weights, element)
        init_ops, init = transpose_copy(op.outputs[0], TO_NHWC)  # type: ignore[attr-defined]
        conv = Conv2DNhwcHwcfOp(inputs=[image.results[0], window.result], outputs=[init],
                                strides=list(op.stride_values()), dilations=list(op.dilation_values()))  # type: ignore[attr-defined]
        result_ops, result_rows, result = rows_result(conv.results[0])
        new_ops = [*image_ops, image, window, *init_ops, conv, *result_ops]
        replace_conv(op, new_ops, result, rewriter, STATISTIC)
        read_collapses_from(result, ROW_GROUPS, result_rows, rewriter)  # [1, F, 1, OW] back to [1, F, OW]
        erase_dead_producers(old_pad, rewriter)
        erase_dead_producers(filter_source, rewriter)


class LinalgConv1DChannelsLastPass(ModulePass):
    """1-D convs over constant filters computed channels last, with the activations between
    them (module docstring)."""

    name = "linalg-conv1d-channels-last"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        swaps: set[Operation] = set()
        PatternRewriteWalker(Conv1DToChannelsLast(swaps), apply_recursively=False).rewrite_module(op)
        if not swaps:
            return  # no 1-D conv: the propagation below has nothing to move
        PatternRewriteWalker(ProduceChannelsLast()).rewrite_module(op)
        moved: set[Operation] = set()
        PatternRewriteWalker(ProduceRowsChannelsLast(swaps, moved)).rewrite_module(op)
        PatternRewriteWalker(ReadThroughRowsSwap(swaps, moved), apply_recursively=False).rewrite_module(op)
        widen_frame_sums(moved, Rewriter())
        erase_dead_moves(op)
