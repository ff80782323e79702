"""`linalg-conv1d-patches`: a channels-last 1-D conv (`linalg.conv_2d_nhwc_hwcf` over an image of
one row, a 1 x KW window, KW > 1) over a constant filter becomes a patch copy and a matmul.

Each output frame's patch is KW rows of C contiguous channels, so the copy is a plain one (rows
of C floats), and the conv is a [OW, KW*C] . [KW*C, F] `linalg.matmul` with a constant weight,
which `linalg-pack-matmul-weights` packs in panels as a linear layer's (its [1, OW, F] row split
folded). IREE 3.13's conv kernel for the 1 x KW window ran wav2vec2's strided 512-channel convs 7x
slower than the NCHW im2col matmul; as packed patch matmuls they take 0.4x-0.8x of the im2col
matmul's time (bench/RESULTS.md, "1-D convs channels last"). After elementwise fusion, so that
no elementwise producer is fused into the copy and recomputed for each of its KW reads
(wav2vec2's GroupNorm + GELU fused into its first patch copy: 35 ms). Rewrite (batch 1, static
shapes, any stride and dilation):

    %y = linalg.conv_2d_nhwc_hwcf ins(%x : 1 x 1 x W x C, %w : 1 x KW x C x F) outs(%init)
->
    %p  = linalg.generic {(ow, kw, c) -> x(0, 0, ow*s + kw*d, c)}  : OW x KW x C
    %pm = tensor.collapse_shape %p [[0], [1, 2]]                  : OW x KW*C
    %y  = linalg.matmul ins(%pm, %w as [KW*C, F]) outs(%init as [OW, F])

The image is read through the expand that made its unit row, where there is one; the conv's
readers read the matmul as [1, OW, F] where they drop the unit row (a collapse; a generic reading
it at a constant 0), else as [1, 1, OW, F]. Every product is the conv's; only the order of its
sum over (kw, c) may change, as in any conv kernel. CPU pipelines only
(`linalg-conv1d-channels-last` makes these convs).

Not rewritten: a stride-1 conv whose output width is a multiple of `iree-conv-width-multiple`
(default 8, IREE's pixel tile; 0: every conv is rewritten) with at most `iree-conv-max-filters`
filters (256), which IREE's conv kernel runs near the core's FMA peak with no patches written
out. HiFi-GAN's dilated residual convs (32 channels, 25600 frames, 11 taps: a 36 MB patch
matrix) took 6.4 ms to copy and 8.3 ms to multiply, 5.1 ms as IREE's conv (98% of a Zen 4
core's peak); the model 0.62x of its time (bench/RESULTS.md, "1-D conv nets"). A width that is
not a multiple leaves IREE a remainder tile it does not peel: EnCodec's transposed-conv phases
over 76, 601, 3001 and 12001 frames ran 3-5x slower as IREE's conv than as patch matmuls;
strided convs, wav2vec2's, 7x slower (above).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp, MatmulOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, read_collapses_from, reassociation
from fusionopt.transforms.common.window_ops import NHWC_CONV_NAME, static_window_shapes
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import cpu_compilation_info
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import erase_dead_init_chain
from fusionopt.transforms.linalg.linalg_conv1d_channels_last import IMAGE_GROUPS
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.linalg_strided_conv_to_im2col import copy_body
from fusionopt.transforms.linalg.padded_depthwise_readers import erase_dead_producers
from fusionopt.transforms.linalg.padded_values import constant_from

STATISTIC = "1-D convs as patches"
KEPT_STATISTIC = "stride-1 1-D convs kept as IREE's conv"
# IREE 3.13's pixel tile for a channels-last conv on CPU: widths it divides need no remainder.
IREE_PIXEL_TILE = 8
# Filters up to which IREE's conv beat the patch matmul: HiFi-GAN's 32-256 (its 400 x 256 x 11
# conv 5.4 ms, the patch matmul 5.1 ms plus a 4.5 MB copy); CANINE's 768 filters over 1536
# channels ran 13.3 ms as IREE's conv, 11.3 ms as the packed patch matmul; Whisper's 384 even.
IREE_CONV_MAX_FILTERS = 256
# The patch copy's IREE CPU tiles: workgroups of 16 output frames, 16-lane copies along the
# channels. IREE's own choice vectorised it across the frames (a gather): wav2vec2's 799 x 3 x 512
# copy 0.82 -> 0.42 ms alone, the model 0.97x of its time.
COPY_FRAMES, COPY_VECTOR = 16, 16


def is_row_conv(op: Operation) -> bool:
    """A static channels-last conv of batch 1 over one image row with a 1 x KW window, KW > 1,
    and a constant filter."""
    shapes = static_window_shapes(op, NHWC_CONV_NAME)
    if shapes is None or not is_dense_constant(op.operands[1]):
        return False
    image, window, output = shapes
    return image[0] == 1 and image[1] == 1 and window[0] == 1 and window[1] > 1 and output[1] == 1


def runs_fast_as_iree_conv(op: Operation, width_multiple: int, max_filters: int) -> bool:
    """A stride-1 row conv whose output width is a multiple of `width_multiple` (0: none) and
    with at most `max_filters` filters: IREE's conv kernel computes it in whole pixel tiles, no
    patches written out. The patch copy costs OW * KW * C floats for OW * KW * C * F products, so
    it matters where F is small; with many filters the packed matmul runs nearer the peak."""
    if width_multiple == 0 or op.stride_values()[1] != 1:  # type: ignore[attr-defined]
        return False
    _, _, width, filters = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    return width % width_multiple == 0 and filters <= max_filters


def rows_read(image: SSAValue) -> tuple[SSAValue, bool]:
    """The value the patch copy reads: the [1, W, C] source of the image's unit-row expand
    (True), else the [1, 1, W, C] image itself (False)."""
    owner = image.owner
    if isinstance(owner, tensor.ExpandShapeOp) and reassociation(owner) == IMAGE_GROUPS:
        return owner.operands[0], True
    return image, False


def patch_copy(op: WindowOp) -> list[Operation]:
    """(ow, kw, c) -> image(0, [0,] ow*s + kw*d, c) into [OW, KW, C], collapsed to [OW, KW*C]:
    each output frame's KW taps of C channels as one row."""
    source, is_rows = rows_read(op.inputs[0])  # type: ignore[attr-defined]
    taps = op.inputs[1].type.get_shape()[1]  # type: ignore[attr-defined]
    channels = source.type.get_shape()[-1]  # type: ignore[attr-defined]
    out_width = op.outputs[0].type.get_shape()[2]  # type: ignore[attr-defined]
    stride, dilation = op.stride_values()[1], op.dilation_values()[1]  # type: ignore[attr-defined]
    element = source.type.get_element_type()  # type: ignore[attr-defined]
    ow, kw, c = (AffineDimExpr(i) for i in range(3))
    zero = AffineConstantExpr(0)
    frames = ow * stride + kw * dilation
    read = AffineMap(3, 0, (zero, frames, c) if is_rows else (zero, zero, frames, c))
    empty = tensor.EmptyOp([], TensorType(element, [out_width, taps, channels]))
    copy = GenericOp([source], [empty.tensor], copy_body(element), [AffineMapAttr(read), AffineMapAttr(AffineMap.identity(3))],
                     [IteratorTypeAttr.parallel()] * 3, [empty.tensor.type])
    if channels % COPY_VECTOR == 0:
        copy.attributes["compilation_info"] = cpu_compilation_info(
            {"distribution": [COPY_FRAMES, taps, channels], "vector_common_parallel": [1, 1, COPY_VECTOR]}, "DoubleTilingExpert")
    flat = collapse(copy.results[0], [[0], [1, 2]], TensorType(element, [out_width, taps * channels]))
    return [empty, copy, flat]


def patch_filter(window: SSAValue) -> Operation:
    """The constant [1, KW, C, F] filter as the [KW*C, F] weight of the patches' matmul."""
    _, taps, channels, filters = window.type.get_shape()  # type: ignore[attr-defined]
    return constant_from(window, lambda array: array.reshape(taps * channels, filters)).owner  # type: ignore[return-value]


def flat_init(init: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The conv's [1, 1, OW, F] init as the matmul's [OW, F]: a fill of the same value where it
    is one (which `linalg-pack-matmul-weights` takes), else a collapse of it."""
    _, _, width, filters = init.type.get_shape()  # type: ignore[attr-defined]
    flat_type = TensorType(init.type.get_element_type(), [width, filters])  # type: ignore[attr-defined]
    owner = init.owner
    if isinstance(owner, Operation) and owner.name == "linalg.fill":
        empty = tensor.EmptyOp([], flat_type)
        fill = FillOp(list(du.dps_inputs(owner)), [empty.tensor], [flat_type])
        return [empty, fill], fill.results[0]
    flat = collapse(init, [[0, 1, 2], [3]], flat_type)
    return [flat], flat.results[0]


def reads_unit_row(reader: Operation, value: SSAValue) -> int | None:
    """The operand index through which the generic `reader` reads the [1, 1, OW, F] `value`
    with its unit row at a constant 0 (a unit reshape `linalg-fold-unit-reshapes` folded)."""
    if reader.name != "linalg.generic":
        return None
    for index, (operand, read) in enumerate(zip(reader.operands, du.indexing_maps(reader))):
        row = read.results[1] if operand is value and len(read.results) == 4 else None
        if isinstance(row, AffineConstantExpr) and row.value == 0:
            return index
    return None


def read_frames(conv: Operation, matmul: Operation, rewriter: PatternRewriter) -> list[Operation]:
    """Readers of the conv's [1, 1, OW, F] read the matmul's [OW, F] as [1, OW, F] where they
    drop the unit row (a collapse to it; a generic reading it at 0), else as [1, 1, OW, F]:
    the [1, OW, F] row split is what `linalg-pack-matmul-weights` folds and
    `linalg-sink-reshapes` moves below the epilogue, as for a linear layer over [1, T, C]."""
    shape = conv.results[0].type.get_shape()  # type: ignore[attr-defined]
    element = conv.results[0].type.get_element_type()  # type: ignore[attr-defined]
    rows = expand(matmul.results[0], [[0, 1], [2]], TensorType(element, list(shape[1:])))
    image = expand(matmul.results[0], [[0, 1, 2], [3]], TensorType(element, list(shape)))
    read_collapses_from(conv.results[0], IMAGE_GROUPS, rows.results[0], rewriter)
    for use in list(conv.results[0].uses):
        reader = use.operation
        if (index := reads_unit_row(reader, conv.results[0])) is not None:
            maps = du.indexing_maps(reader)
            read = maps[index]
            maps[index] = AffineMap(read.num_dims, 0, (read.results[0], *read.results[2:]))
            reader.operands[index] = rows.results[0]
            du.set_indexing_maps(reader, maps)
            rewriter.handle_operation_modification(reader)
    return [rows, image]


@dataclass
class RowConvToPatches(RewritePattern):
    iree_conv_width_multiple: int = IREE_PIXEL_TILE
    iree_conv_max_filters: int = IREE_CONV_MAX_FILTERS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_row_conv(op):
            return
        if runs_fast_as_iree_conv(op, self.iree_conv_width_multiple, self.iree_conv_max_filters):
            pass_statistics.count(KEPT_STATISTIC)
            return
        copy_ops = patch_copy(op)  # type: ignore[arg-type]
        weight = patch_filter(op.operands[1])
        init_ops, init = flat_init(op.operands[2])
        matmul = MatmulOp([copy_ops[-1].results[0], weight.results[0]], [init], [init.type])
        rewriter.insert_op([*copy_ops, weight, *init_ops, matmul], InsertPoint.before(op))
        rows, image = read_frames(op, matmul, rewriter)
        rewriter.insert_op([rows, image], InsertPoint.before(op))
        old_image, old_filter, old_init = op.operands[0].owner, op.operands[1].owner, op.operands[2].owner
        rewriter.replace_op(op, [], [image.results[0]])
        for dead in (image, rows, old_image, old_filter):
            erase_dead_producers(dead, rewriter)
        erase_dead_init_chain(old_init, rewriter)
        pass_statistics.count(STATISTIC)


@dataclass(frozen=True)
class LinalgConv1DPatchesPass(ModulePass):
    """Channels-last 1-D convs over constant filters as patch copies and matmuls with the
    filter as a [KW*C, F] weight (module docstring).

    Options:
      iree-conv-width-multiple -- a stride-1 conv whose output width is a multiple of this stays
                         IREE's conv (default 8, IREE's pixel tile; 0: every conv is rewritten).
      iree-conv-max-filters -- ... and that has at most this many filters (default 256).
    """

    name = "linalg-conv1d-patches"

    iree_conv_width_multiple: int = IREE_PIXEL_TILE
    iree_conv_max_filters: int = IREE_CONV_MAX_FILTERS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = RowConvToPatches(self.iree_conv_width_multiple, self.iree_conv_max_filters)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
