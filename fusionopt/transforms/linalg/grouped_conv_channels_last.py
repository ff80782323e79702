"""A grouped convolution channels last, for `linalg-conv-channels-last`: the patch gather reads
the NHWC image and the matmul, batched over the groups, writes the NHWC result.

Left NCHW (`linalg-grouped-conv-to-im2col`'s form) the grouped matmul is filter first and
vectorises along the pixels, a few dozen at a late stage, and the image goes through a transpose
each way between channels-last 1x1 convs. Channels last, a group's filters are the vectorised
columns and the block keeps its activations NHWC (`channels_last_propagation` cancels the
transposes written here). regnet_x_400mf at 224x224 (llvm-cpu, one thread, HAL profiling, us
per call, NCHW -> channels last): the matmuls of 25 groups of 16 at 7x7 160 -> 88, 2 groups at
56x56 842 -> 400, 10 at 14x14 114 -> 108; the gathers stay copies of about the same cost
(113 -> 121 at 7x7); the 1x1 convs around them, which now write the padded NHWC image the
gather reads, 290-300 -> 342; per-dispatch sum 19.3 -> 18.9 ms (resnext50_32x4d 96.5 -> 94.9;
bench/RESULTS.md, "Grouped convs channels last"). Only groups of at least `MIN_GROUP_FILTERS`
filters (one AVX-512 vector of f32): with resnext50's 4 or 8 filters per group the pixels are
the better vector. Rewrite (static shapes, any batch, any stride and dilation):

    %x  = tensor.expand_shape %xp [[0], [1, 2], [3], [4]]   : N x G x C x H x W (of an NCHW image)
    %y  = linalg.conv_2d_ngchw_gfchw ins(%x, %w) outs(%init)  : N x G x F x OH x OW
->
    %xt = transpose of %xp's source to NHWC (a pad only the conv reads moves after it)
    %p  = linalg.generic {(g, n, oh, ow, kh, kw, c): xt(n, oh*s + kh*d, ow*s + kw*d, g, c)
                          -> p(g, n, oh, ow, kh, kw, c)}           (collapsed: G x P x K)
    %wm = the filter as G x (KH*KW*C) x F (a constant transposed here, once)
    %r  = linalg.generic {(g, p, f, k): p(g, p, k) * wm(g, k, f) -> out(p, g, f)}
    %y' = %r as N x OH x OW x (G*F), transposed back to NCHW (cancelled by the propagation)

At batch 1 the patches are IREE's `iree_linalg_ext.im2col` over the H x W x G x C image, the
groups its batch dim, which `form-dispatch-regions` forms into the matmul's region: IREE
computes a group's patches per tile with vector copies of its C channels, where the gather
generic's reads are no projected permutation (scalar copies) and its 705 KB of patches (25
groups at 7x7) go through memory. regnet_x_400mf's grouped convs, gather + matmul -> one
dispatch (one thread, HAL profile, medians of four alternating rounds): 6.24 -> 4.00 ms of the
model (onnxruntime's grouped convs ~2.7 ms); alone, 25 groups of 16 at 7x7 235-272 -> 80-96 us,
bit-equal. IREE 3.13 fails to build wider groups this way (`builds_as_im2col`: ResNeXt50's 32
filters x 288 taps), which keep the gather, as does batch 2.

Every product of the conv is computed once; only the order of the sum over (kh, kw, c) changes,
as in any conv kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.iree_linalg_ext_im2col import Im2colOp
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import collapse, expand, reassociation
from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.linalg.channels_last_propagation import TO_NCHW, channels_last_image, widened_pad
from fusionopt.transforms.linalg.constant_arrays import constant_array
from fusionopt.transforms.linalg.grouped_conv_taps import grouped_taps_conv, is_taps_candidate, spare_groups
from fusionopt.transforms.linalg.im2col_op_form import i64_array
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import replace_conv
from fusionopt.transforms.linalg.linalg_strided_conv_to_im2col import copy_body
from fusionopt.transforms.linalg.linalg_transpose_nt_operands import transpose_copy

GROUPED_CONV = "linalg.conv_2d_ngchw_gfchw"
MIN_GROUP_FILTERS = 16
GROUP_SPLIT = [[0], [1, 2], [3], [4]]  # N x (G*C) x H x W <-> N x G x C x H x W
MAX_IM2COL_FILTERS, MAX_IM2COL_TAPS = 16, 144  # per group (`builds_as_im2col`)


def is_grouped_channels_last_candidate(op: Operation, min_group_filters: int) -> bool:
    """A static `ngchw_gfchw` conv with at least `min_group_filters` filters per group."""
    shapes = static_window_shapes(op, GROUPED_CONV)
    return shapes is not None and shapes[1][1] >= min_group_filters


def _element(value: SSAValue):
    return value.type.get_element_type()  # type: ignore[attr-defined]


def element_tensor(value: SSAValue, shape: list[int]) -> TensorType:
    """A tensor type of `shape` with `value`'s element type."""
    return TensorType(_element(value), shape)


def nchw_image(op: WindowOp) -> tuple[list[Operation], SSAValue]:
    """The conv's input as N x (G*C) x H x W: the source of its group split, else a collapse."""
    grouped = op.inputs[0]
    owner = grouped.owner
    if isinstance(owner, Operation) and owner.name == "tensor.expand_shape" and reassociation(owner) == GROUP_SPLIT:
        return [], owner.operands[0]
    n, g, c, h, w = grouped.type.get_shape()  # type: ignore[attr-defined]
    flat = collapse(grouped, GROUP_SPLIT, element_tensor(grouped, [n, g * c, h, w]))
    return [flat], flat.results[0]


def nhwc_image(op: WindowOp, spare_groups: int = 0) -> tuple[list[Operation], SSAValue]:
    """The conv's input as N x H x W x G x C; a pad that only the group split reads moves after
    the transpose (`channels_last_image`, as for a dense conv). With `spare_groups`, such a pad
    also appends that many groups of padding to each pixel (G + spare groups; the conv reads the
    first G): no copy of its own, the pad is one already."""
    split_ops, image = nchw_image(op)
    moved, transposed = channels_last_image(image)
    _, g, c, _, _ = op.inputs[0].type.get_shape()  # type: ignore[attr-defined]
    if spare_groups and moved and isinstance(moved[-1], tensor.PadOp):
        moved[-1] = padded_channels(moved[-1], spare_groups * c)
        transposed = moved[-1].results[0]
    n, h, w, channels = transposed.type.get_shape()  # type: ignore[attr-defined]
    split = expand(transposed, [[0], [1], [2], [3, 4]], element_tensor(transposed, [n, h, w, channels // c, c]))
    return [*split_ops, *moved, split], split.results[0]


def padded_channels(pad: tensor.PadOp, extra: int) -> tensor.PadOp:
    """The NHWC `pad`, not yet inserted, with `extra` more channels of its padding at the high
    end; `pad` drops its operand (it would stay a reader of the image)."""
    wider = widened_pad(pad, {3: extra})
    pad.drop_all_references()
    return wider


def gathered_patches(op: WindowOp, image: SSAValue, im2col: bool = True) -> tuple[list[Operation], SSAValue]:
    """Loops (g, n, oh, ow, kh, kw, c): each tap's NHWC input pixel, collapsed to G x P x K;
    at batch 1 IREE's im2col op computes the same patches (`grouped_im2col_patches`)."""
    n, g, _, oh, ow = op.outputs[0].type.get_shape()  # type: ignore[attr-defined]
    if im2col and n == 1 and builds_as_im2col(op):
        return grouped_im2col_patches(op, image)
    c = op.inputs[0].type.get_shape()[2]  # type: ignore[attr-defined]
    kh, kw = op.window_sizes()
    (sh, sw), (dh, dw) = op.stride_values(), op.dilation_values()
    gd, nd, ohd, owd, khd, kwd, cd = (AffineDimExpr(i) for i in range(7))
    read = AffineMap(7, 0, (nd, ohd * sh + khd * dh, owd * sw + kwd * dw, gd, cd))
    shape = element_tensor(image, [g, n, oh, ow, kh, kw, c])
    empty = tensor.EmptyOp([], shape)
    gather = GenericOp(
        [image], [empty.tensor], copy_body(_element(image)), [AffineMapAttr(read), AffineMapAttr(AffineMap.identity(7))],
        [IteratorTypeAttr.parallel()] * 7, [shape],
    )
    flat = collapse(gather.results[0], [[0], [1, 2, 3], [4, 5, 6]], element_tensor(image, [g, n * oh * ow, kh * kw * c]))
    return [empty, gather, flat], flat.results[0]


def builds_as_im2col(op: WindowOp) -> bool:
    """Groups IREE 3.13 builds as the im2col op in the matmul's region: at most
    MAX_IM2COL_FILTERS filters and MAX_IM2COL_TAPS taps a group (RegNetX's 16 and 144 at every
    stage; ResNeXt50's 32 x 288 at 7x7 and 14x14, and 24-wide groups, failed to build)."""
    _, f, c, kh, kw = op.inputs[1].type.get_shape()  # type: ignore[attr-defined]
    return f <= MAX_IM2COL_FILTERS and c * kh * kw <= MAX_IM2COL_TAPS


def grouped_im2col_patches(op: WindowOp, image: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The G x P x K patches of a batch-1 grouped conv as `iree_linalg_ext.im2col` over the
    H x W x G x C image, the groups its batch dim: in the matmul's dispatch
    (`form-dispatch-regions`' im2col-into-contractions) IREE computes each group's patches per
    tile with vector copies of its C channels, where the gather generic is a scalar copy
    written out (module docstring)."""
    _, h, w, g, c = image.type.get_shape()  # type: ignore[attr-defined]
    kh, kw = op.window_sizes()
    oh, ow = op.outputs[0].type.get_shape()[3:]  # type: ignore[attr-defined]
    image_4d = collapse(image, [[0, 1], [2], [3], [4]], element_tensor(image, [h, w, g, c]))
    patches_type = element_tensor(image, [g, oh * ow, kh * kw * c])
    empty = tensor.EmptyOp([], patches_type)
    props = {
        "strides": i64_array(op.stride_values()), "dilations": i64_array(op.dilation_values()),
        "static_kernel_size": i64_array((kh, kw)), "static_offsets": i64_array((0, 0, 0)),
        "static_output_sizes": ArrayAttr([i64_array((g,)), i64_array((oh, ow)), i64_array((kh, kw, c))]),
        "batch_pos": i64_array((2,)), "m_pos": i64_array((0, 1)), "k_pos": i64_array((3,)),
        "input_k_perm": i64_array((0, 1, 2)), "output_perm": i64_array((0, 1, 2)),
        "static_output_pad_low": i64_array(()), "static_output_pad_high": i64_array(()),
        "static_input_pad_low": i64_array(()), "static_input_pad_high": i64_array(()),
    }
    im2col = Im2colOp.build(operands=[image_4d.results[0], empty.tensor, [], [], [], [], [], [], [], []],
                            result_types=[patches_type], properties=props)
    return [image_4d, empty, im2col], im2col.results[0]


def filter_matrix(op: WindowOp) -> tuple[list[Operation], SSAValue]:
    """The G x F x C x KH x KW filter as G x (KH*KW*C) x F: transposed here when constant."""
    weight = op.inputs[1]
    g, f, c, kh, kw = weight.type.get_shape()  # type: ignore[attr-defined]
    flat_type = element_tensor(weight, [g, kh * kw * c, f])
    array = constant_array(weight)
    if array is not None:
        constant = ConstantOp(numpy_to_dense(np.transpose(array, (0, 3, 4, 2, 1)).reshape(g, -1, f), flat_type))
        return [constant], constant.result
    ops, transposed = transpose_copy(weight, [0, 3, 4, 2, 1])
    flat = collapse(transposed, [[0], [1, 2, 3], [4]], flat_type)
    return [*ops, flat], flat.results[0]


PIXEL_ROWS = [[0, 1, 2], [3], [4]]  # N x OH x OW x G x F -> P x G x F


def channels_last_init(op: WindowOp, groups: list[list[int]] = PIXEL_ROWS) -> tuple[list[Operation], SSAValue]:
    """The conv's N x G x F x OH x OW init as N x OH x OW x G x F collapsed by `groups` (P x G x
    F by default): a fill refilled, else a transposed copy."""
    init = op.outputs[0]
    n, g, f, oh, ow = init.type.get_shape()  # type: ignore[attr-defined]
    dims = [n, oh, ow, g, f]
    shape = element_tensor(init, [math.prod(dims[i] for i in group) for group in groups])
    owner = init.owner
    if isinstance(owner, Operation) and owner.name == "linalg.fill":
        empty = tensor.EmptyOp([], shape)
        fill = FillOp(list(du.dps_inputs(owner)), [empty.tensor], [shape])
        return [empty, fill], fill.results[0]
    ops, transposed = transpose_copy(init, [0, 3, 4, 1, 2])
    flat = collapse(transposed, groups, shape)
    return [*ops, flat], flat.results[0]


def grouped_matmul(op: WindowOp, patches: SSAValue, weights: SSAValue, init: SSAValue) -> Operation:
    """Loops (g, p, f, k): patches (g, p, k) x weights (g, k, f) -> out (p, g, f), the conv's body."""
    g, p, f, k = (AffineDimExpr(i) for i in range(4))
    maps = (AffineMap(4, 0, (g, p, k)), AffineMap(4, 0, (g, k, f)), AffineMap(4, 0, (p, g, f)))
    return GenericOp(
        [patches, weights], [init], op.regions[0].clone(), [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()], [init.type],
    )


def nchw_result(op: WindowOp, result: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The P x G x F matmul result (or the N x OH x OW x G x F one) as the N x (G*F) x OH x OW
    NCHW image (a transpose)."""
    n, g, f, oh, ow = op.outputs[0].type.get_shape()  # type: ignore[attr-defined]
    ops: list[Operation] = []
    if len(result.type.get_shape()) == 3:  # type: ignore[attr-defined]
        ops = [expand(result, [[0, 1, 2], [3], [4]], element_tensor(result, [n, oh, ow, g, f]))]
        result = ops[0].results[0]
    nhwc = collapse(result, [[0], [1], [2], [3, 4]], element_tensor(result, [n, oh, ow, g * f]))
    back_ops, back = transpose_copy(nhwc.results[0], TO_NCHW)
    return [*ops, nhwc, *back_ops], back


def channels_last_grouped_conv(op: WindowOp, im2col: bool = True) -> tuple[list[Operation], SSAValue]:
    """The ops computing `op`'s result as an NCHW N x (G*F) x OH x OW image (module docstring)."""
    image_ops, image = nhwc_image(op)
    patch_ops, patches = gathered_patches(op, image, im2col)
    weight_ops, weights = filter_matrix(op)
    init_ops, init = channels_last_init(op)
    matmul = grouped_matmul(op, patches, weights, init)
    result_ops, result = nchw_result(op, matmul.results[0])
    return [*image_ops, *patch_ops, *weight_ops, *init_ops, matmul, *result_ops], result


def channels_last_taps_conv(op: WindowOp) -> tuple[list[Operation], SSAValue]:
    """`op`'s NCHW result computed channels last as a sum over its window's taps
    (`grouped_conv_taps`), its padded image's pixels spread over the L1 sets (`spare_groups`)."""
    _, g, c, _, _ = op.inputs[0].type.get_shape()  # type: ignore[attr-defined]
    spare = spare_groups(g, c, op.window_sizes(), op.stride_values()[1], op.dilation_values()[1])
    image_ops, image = nhwc_image(op, spare)
    init_ops, init = channels_last_init(op, [[0], [1], [2], [3], [4]])
    conv_ops = grouped_taps_conv(op, image, init)
    result_ops, result = nchw_result(op, conv_ops[-1].results[0])
    return [*image_ops, *init_ops, *conv_ops, *result_ops], result


def erase_if_dead(op: Operation | None, rewriter: PatternRewriter) -> None:
    if isinstance(op, Operation) and op.parent is not None and not any(r.uses for r in op.results):
        rewriter.erase(op)


@dataclass
class GroupedConvToChannelsLast(RewritePattern):
    """A grouped conv as the channels-last gather + group-batched matmul (module docstring)."""

    min_group_filters: int = MIN_GROUP_FILTERS
    im2col: bool = True
    taps: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.taps and static_window_shapes(op, GROUPED_CONV) is not None and is_taps_candidate(op):  # type: ignore[arg-type]
            new_ops, nchw = channels_last_taps_conv(op)  # type: ignore[arg-type]
            replace_grouped_conv(op, new_ops, nchw, rewriter, "grouped convs as sums over their taps")
            return
        if not is_grouped_channels_last_candidate(op, self.min_group_filters):
            return
        new_ops, nchw = channels_last_grouped_conv(op, self.im2col)  # type: ignore[arg-type]
        replace_grouped_conv(op, new_ops, nchw, rewriter, "grouped convs channels last")


def replace_grouped_conv(op: Operation, new_ops: list[Operation], nchw: SSAValue, rewriter: PatternRewriter,
                         statistic: str) -> None:
    """Replace the grouped conv `op` by `new_ops` computing its result as the NCHW `nchw`; its
    readers that merge the groups back (G x F -> G*F) read `nchw` directly, and its group
    split, pad and filter reshape go when nothing else reads them."""
    split, weight = op.inputs[0].owner, op.inputs[1].owner  # type: ignore[attr-defined]
    pad = split.operands[0].owner if isinstance(split, Operation) and split.operands else None
    constant = weight.operands[0].owner if isinstance(weight, Operation) and weight.operands else None
    rewriter.insert(new_ops, InsertPoint.before(op))
    for use in list(op.results[0].uses):
        user = use.operation
        if user.name == "tensor.collapse_shape" and reassociation(user) == GROUP_SPLIT:
            rewriter.replace(user, [], [nchw])
    grouped = expand(nchw, GROUP_SPLIT, op.results[0].type)  # type: ignore[arg-type]
    replace_conv(op, [grouped], grouped.results[0], rewriter, statistic)
    for dead in (grouped, split, pad, weight, constant):  # in use order: readers first
        erase_if_dead(dead, rewriter)
