"""A grouped convolution channels last as one sum over its window's taps, for
`linalg-conv-channels-last` in the CPU pipelines: each tap (kh, kw) reads a strided slice of the
padded NHWC image, and one generic sums, per input channel of a group, the taps' products with
that tap's G x C x F filter.

The im2col form (`grouped_conv_channels_last`) hands IREE patches its im2col op computes per
tile: IREE 3.13 copies them element by element (the K tile's offset is a loop variable it cannot
prove a multiple of the channel count), and RegNetX-400MF's 10 groups of 16 at 14x14 ran
~144 us a call against onnxruntime's ~60. Here every read is a projected permutation of the
loops (the window offset is the slice's), so IREE vectorises the generic like a matmul: a
register tile of 7 (8) pixels x 16 (32) filters, one input channel a step, each tap's filter
vector loaded once for the tile's pixels (`dispatch-grouped-taps-cpu-tiles`). Measured as single
dispatches (zen5 VM, one thread, us a call, im2col form in regnet_x_400mf -> this form):
10 groups of 16 at 14x14 144 -> 40, the same strided 149 -> 43, 25 groups at 7x7 50 -> 27,
4 groups at 28x28 130 -> 64, 2 groups at 56x56 strided 264 -> 130.

    %xp = the padded N x Hp x Wp x G x C image (`grouped_conv_channels_last.nhwc_image`)
    %x_t = tensor.extract_slice %xp[0, kh*dh, kw*dw, 0, 0] [N, OH, OW, G, C] [1, sh, sw, 1, 1]
    %w_t = the constant filter's tap (kh, kw) as G x C x F (C x G x F: `tap_filters`)
    %y  = linalg.generic {(n, oh, ow, g, f, c): x_t(n, oh, ow, g, c), w_t(g, c, f)
                          -> out(n, oh, ow, g, f)}   (at batch 1 x_t without n: `tap_images`)
            body: out + fma(x_T, w_T, ... fma(x_1, w_1, x_0 * w_0))

Where the padded image's pixels start on too few L1 sets for the lines a register tile keeps
live (2 KB pixels; 1 KB ones at stride 2), the pad appends spare groups of zeros to each pixel,
which no slice reads (`spare_groups`).

Constant filters only (each tap's filter is its own constant; a filter argument would cost a
slice copy a tap a call). Every product of the conv is computed once; the sum over (kh, kw, c)
is taken channel by channel, the taps of a channel fused-multiply-added: an order and rounding
any conv kernel may choose, under the fast-math contract (finite values).
"""

from __future__ import annotations

from math import gcd

from xdsl.dialects import arith, math, tensor
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AffineMapAttr, Float32Type, TensorType
from xdsl.dialects.linalg import YieldOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from fusionopt.dialects.dense import numpy_to_dense
from fusionopt.dialects.linalg import GenericOp
from fusionopt.dialects.linalg_conv import WindowOp
from fusionopt.transforms.linalg.constant_arrays import constant_array

LANES = 16  # f32 lanes of an AVX-512 vector
HALF = LANES // 2  # an AVX2-wide vector: two groups of 8 filters fill a register, or one of 8k
WIDE = 2 * LANES  # two vectors of filters where a group has 32
PIXEL_TILES = (7, 8)  # register tile pixels; one must divide the output width (no partial tiles)
MAX_TAPS = 9  # 3x3 windows, the measured ones
# Filters a group, at most: the measured ones (RegNet's and ResNeXt's groups, 8-64). A wider group
# is a matmul of its own, which the taps tile (one input channel a step) runs far below the
# matmul kernels: SqueezeBERT's 4 groups of 192 -> 768 at 5 GFLOP/s, 4.5x IREE's own build.
MAX_GROUP_FILTERS = 64


LINE_FLOATS = 16  # f32 in a 64-byte cache line
L1_SETS = 64  # lines 4 KB apart share an L1 set (64 sets of 64 B: x86's and Arm's L1Ds alike)
L1_WAYS = 8  # lines a set holds (zen4's 32 KB L1D; Intel's 48 KB ones hold 12)


def pixel_sets(channels: int) -> int:
    """The L1 sets that consecutive pixels of an f32 image of `channels` channels start on: all
    where a pixel is not whole lines."""
    if channels % LINE_FLOATS:
        return L1_SETS
    return L1_SETS // gcd(channels // LINE_FLOATS, L1_SETS)


def window_lines(window: tuple[int, int], stride: int, dilation: int) -> int:
    """The image lines a register tile's widest pixel row reads, one per pixel a tap row covers,
    over the window's rows: each is read one channel a step, so all stay live."""
    kh, kw = window
    return kh * ((max(PIXEL_TILES) - 1) * stride + (kw - 1) * dilation + 1)


def spare_groups(groups: int, width: int, window: tuple[int, int], stride: int, dilation: int) -> int:
    """Groups of padding to append to each pixel of a taps conv's padded image (0: none) so that
    the lines a register tile keeps live fit the L1 sets its pixels start on. Where a pixel is
    2 KB (ResNeXt50's 32 groups of 16) all its pixels start on 2 sets of 8 ways, and a 3x3
    window's 30 lines (51 at stride 2) evict each other. Per conv block, one zen4 core
    (`bench/grouped_taps_pixels.py`; bench/RESULTS.md, "Grouped convs' pixels off the 4 KB
    stride"): 32 groups of 16 at 28x28 stride 2 0.43x, at 14x14 0.72x; 32 of 32 at 14x14
    stride 2 0.36x, at 7x7 0.52x; 32 of 8 at 56x56 stride 2 0.84x; at 1 KB and stride 1 (32 of
    8 at 28x28, 30 lines in 4 sets) none: 1.03x with one."""
    lines = window_lines(window, stride, dilation)
    if lines <= pixel_sets(groups * width) * L1_WAYS or lines > L1_SETS * L1_WAYS:  # fits, or nothing fits
        return 0
    return next(k for k in range(1, L1_SETS + 1) if lines <= pixel_sets((groups + k) * width) * L1_WAYS)


def taps_pixel_tile(width: int) -> int | None:
    """The register tile's pixel count for an output row of `width`, None if none divides it."""
    return next((p for p in PIXEL_TILES if width % p == 0), None)


def register_tile(groups: int, filters: int) -> tuple[int, int] | None:
    """(groups, filters) a register tile holds for convs of `groups` groups of `filters`: one
    group's 32 for groups of 32 (ResNeXt50's 32 groups of 32 at 7x7: 228 us against 261 with
    16), else 16 where 16 divide its filters; two groups' 8 where a group has 8 (an even count
    of groups); else 8 of one group where 8 divide its filters (RegNetY's odd counts of 8-wide
    groups, RegNetX-1.6GF's 24: 17 groups of 24 at 14x14 274-294 us a call with 8, 641 with a
    24-lane tile). None for other widths (ResNeXt's 4-wide groups ran 0.671 ms this way at
    56x56 against ~0.38 as chained depthwise convs). Groups of 64 (transformers' RegNet) with
    32-filter tiles ran no faster than with 16 (single regions at 56x56, 28x28, 14x14 and 7x7:
    16 at 0.89x-1.0x of the time) and cost `iree-compile` ~1.7x the time each (~4.9 MB of
    optimized LLVM IR a region): wider groups take 16 (measured at 64 only)."""
    if filters % LANES == 0:
        return 1, WIDE if filters == WIDE else LANES
    if filters == HALF and groups % 2 == 0:
        return 2, HALF
    return (1, HALF) if filters % HALF == 0 else None


def pairs_groups(groups: int, filters: int) -> bool:
    """Two groups share a register tile: their filters are laid out C x G x F (`tap_filters`)."""
    return register_tile(groups, filters) == (2, HALF)


def is_taps_candidate(op: WindowOp) -> bool:
    """A grouped conv over a constant f32 filter whose groups of at most MAX_GROUP_FILTERS
    filters fill whole vectors (`register_tile`), with at most MAX_TAPS taps and an output width
    a register tile divides."""
    weight = op.inputs[1]
    if not isinstance(weight.type.get_element_type(), Float32Type):  # type: ignore[attr-defined]
        return False
    g, f, _, kh, kw = weight.type.get_shape()  # type: ignore[attr-defined]
    width = op.outputs[0].type.get_shape()[4]  # type: ignore[attr-defined]
    return (f <= MAX_GROUP_FILTERS and register_tile(g, f) is not None and kh * kw <= MAX_TAPS
            and taps_pixel_tile(width) is not None and constant_array(weight) is not None)


def tap_images(op: WindowOp, image: SSAValue) -> list[Operation]:
    """One strided N x OH x OW x G x C slice of the padded NHWC `image` per tap (kh, kw); at
    batch 1 rank-reduced to OH x OW x G x C (IREE 3.13 loads a unit-batch slice rank-reduced and
    expands it again, which its tiling does not see through: 4x slower in regnet_x_400mf)."""
    n, g, _, oh, ow = op.outputs[0].type.get_shape()  # type: ignore[attr-defined]
    c = image.type.get_shape()[4]  # type: ignore[attr-defined]
    (sh, sw), (dh, dw) = op.stride_values(), op.dilation_values()
    kh, kw = op.window_sizes()
    shape = [oh, ow, g, c] if n == 1 else [n, oh, ow, g, c]
    result_type = TensorType(image.type.get_element_type(), shape)  # type: ignore[attr-defined]
    return [tensor.ExtractSliceOp(image, [0, i * dh, j * dw, 0, 0], [n, oh, ow, g, c], [1, sh, sw, 1, 1], result_type)
            for i in range(kh) for j in range(kw)]


def tap_filters(op: WindowOp, paired: bool) -> list[Operation]:
    """The constant G x F x C x KH x KW filter as one G x C x F constant per tap, or C x G x F
    where two groups share a vector (`paired`: their filters for one input channel contiguous). A
    group's own filters stay together where it fills vectors alone: read C x G x F, a group's
    rows lie G*F apart, on few cache sets (ResNeXt50's 32 groups of 16 at 14x14 153 -> 204 us
    a call)."""
    weight = op.inputs[1]
    array = constant_array(weight)
    _, _, c, kh, kw = weight.type.get_shape()  # type: ignore[attr-defined]
    g, f = op.outputs[0].type.get_shape()[1:3]  # type: ignore[attr-defined]
    order, shape = ((2, 0, 1), [c, g, f]) if paired else ((0, 2, 1), [g, c, f])
    tap_type = TensorType(weight.type.get_element_type(), shape)  # type: ignore[attr-defined]
    return [ConstantOp(numpy_to_dense(array[:, :, :, i, j].transpose(order).copy(), tap_type))  # type: ignore[index]
            for i in range(kh) for j in range(kw)]


def taps_body(taps: int, element) -> Region:
    """(x_0 .. x_T-1, w_0 .. w_T-1, out) -> out + fma(x_T-1, w_T-1, ... x_0 * w_0)."""
    block = Block(arg_types=[element] * (2 * taps + 1))
    xs, ws, out = block.args[:taps], block.args[taps:2 * taps], block.args[-1]
    total = arith.MulfOp(xs[0], ws[0])
    block.add_op(total)
    for x, w in zip(xs[1:], ws[1:]):
        total = math.FmaOp(x, w, total.results[0])
        block.add_op(total)
    accumulate = arith.AddfOp(out, total.results[0])
    block.add_ops([accumulate, YieldOp(accumulate.result)])
    return Region(block)


def taps_maps(batched: bool, paired: bool) -> tuple[AffineMap, AffineMap, AffineMap]:
    """The image slices', filters' and output's maps over loops (n, oh, ow, g, f, c); at batch 1
    the slices are rank-reduced (`tap_images`) and read without n; filters C x G x F where two
    groups share a vector (`paired`), else G x C x F."""
    n, oh, ow, g, f, c = (AffineDimExpr(i) for i in range(6))
    image = (n, oh, ow, g, c) if batched else (oh, ow, g, c)
    filters = (c, g, f) if paired else (g, c, f)
    return AffineMap(6, 0, image), AffineMap(6, 0, filters), AffineMap(6, 0, (n, oh, ow, g, f))


def taps_conv(images: list[SSAValue], filters: list[SSAValue], init: SSAValue, paired: bool) -> GenericOp:
    """Loops (n, oh, ow, g, f, c): the sum over taps and channels into the N x OH x OW x G x F
    `init`; filters C x G x F where `paired`, else G x C x F."""
    batched = len(images[0].type.get_shape()) == 5  # type: ignore[attr-defined]
    image_map, filter_map, output_map = taps_maps(batched, paired)
    maps = [image_map] * len(images) + [filter_map] * len(filters) + [output_map]
    element = init.type.get_element_type()  # type: ignore[attr-defined]
    return GenericOp(
        [*images, *filters], [init], taps_body(len(images), element), [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr.parallel()] * 5 + [IteratorTypeAttr.reduction()], [init.type],
    )


def grouped_taps_conv(op: WindowOp, image: SSAValue, init: SSAValue) -> list[Operation]:
    """The slices, tap filters and summing generic computing `op` into the channels-last `init`
    from the padded NHWC `image` (module docstring); the generic last."""
    g, f = op.outputs[0].type.get_shape()[1:3]  # type: ignore[attr-defined]
    paired = pairs_groups(g, f)
    slices, filters = tap_images(op, image), tap_filters(op, paired)
    conv = taps_conv([s.results[0] for s in slices], [w.results[0] for w in filters], init, paired)
    return [*slices, *filters, conv]
