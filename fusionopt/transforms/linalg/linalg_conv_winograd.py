"""`linalg-conv-winograd`: a channels-last 3x3 stride-1 conv over a constant filter as Winograd
F(2x2, 3x3): an input transform, 16 matmuls over the input channels (one batch matmul) and an
output transform (`winograd_transforms.py`), 16 multiplies per 2x2 outputs and channel pair
where the direct conv takes 36.

The direct conv already runs near the FMA peak on CPU (IREE 3.13 with our register tile:
56 GMAC/s on a Zen 4 core for ResNet's 56x56x64 convs, onnxruntime's NCHWc kernels alike), so
fewer multiplies are what is left. Two ResNet convs in a row through `dispatch-creation-llvm-cpu`
(`bench/winograd_convs.py`, one Zen 4 core, Winograd / direct): 64 channels at 56x56 0.68x-0.77x,
128 at 28x28 0.55x, 256 at 14x14 0.51x, 512 at 7x7 0.77x (its 16 x 512 x 512 transformed filter
is 1.8x the direct conv's bytes, read for 16 tiles); whole models at one thread: resnet18 0.72x,
resnet50 0.86x, RAFT-small 0.76x of their time. IREE's own Winograd (`iree-linalg-ext-convert-
conv2d-to-winograd`, F(6x6, 3x3)) ran 1.1x-42x slower than its direct conv on the same shapes.

Narrower convs gain where their images are small: 32 channels at 56x56 0.83x, 48 at 56x56 0.71x,
32 at 28x28 and 14x14 0.83x, DenseNet's 128 -> 32 at 56x56 / 28x28 / 14x14 0.86x / 0.77x / 0.78x
(at 7x7 1.00x); but 32 channels at 112x112 measured 0.97x and 1.21x in two runs (the transforms'
6.4 MB each way against the products saved): under 64 channels or filters, outputs of at most
56 x 56 pixels are rewritten. Nor is a conv whose transformed input tiles or tile products (16
x tiles x channels, x filters) exceed `max-tile-bytes` (96 MiB): R(2+1)D's 64 -> 144 (1, 3, 3)
convs over 16 stacked 56x56 frames wrote and read back 120 MB of products, the batch matmul over
64 channels at 55% of the FMA peak, 98 ms against the direct conv's 81 (HAL profile, one Zen 4
core; the model 0.95x at one thread, 0.89x at two); R3D-18's 192 -> 64 (its 3 x 3 x 3 convs'
depth taps as channels) wrote 160 MB of input tiles, 121 ms against the direct conv's 102 (the
model 1008 -> 920 ms); S3D's 64 -> 192 over 8 stacked frames (80 MB) measured even direct (0.99x /
1.04x), TextNet's 64 -> 64 at 112x112 (13 MB) 1.03x / 1.06x and ResNet-18's at 63x63 1.08x /
1.05x slower direct.

Applied to a static f32 `linalg.conv_2d_nhwc_hwcf` (any batch: the tiles of all images are the
batch matmul's rows) with a 3x3 window, unit strides and
dilations, a constant filter (`constant_array`), at least `min-channels` input channels and
filters (and the narrow rule above), filters a multiple of 16 (whole vectors in the matmul), an
output of at least 4 x 4, and a zero-filled init. The image is the conv's input zero-padded by one more row / column
where the output height / width is odd (the last tile's extra outputs are sliced off): a
zero pad in front of the conv takes the extra row / column itself.

Numerics: exact in real numbers; in f32 each output is the direct conv's sum of products taken
in another order, through the transforms' sums and differences (the filter's transform in
float64, rounded once). Against a float64 run the Winograd build is closer than the direct
one (two convs: 4.1e-7-7.6e-7 of the largest output against 9.1e-7-2.2e-6, random and
1000.5 + N(0, 1) images): each sum over channels is 9x shorter. It relies on the fast-math
contract (finite values): an inf input pixel reaches the outputs through differences and
products with the transforms' zeros, so outputs the direct conv gives as +-inf come out NaN.

Options: `min-channels` (32: the smallest measured), `max-tile-bytes` (96 MiB). Statistics:
`convs as Winograd F(2x2, 3x3)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import Float32Type, FloatAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.transforms.common.window_ops import NHWC_CONV_NAME, static_window_shapes
from fusionopt.transforms.linalg.channels_last_propagation import widened_pad
from fusionopt.transforms.linalg.constant_arrays import constant_array
from fusionopt.transforms.linalg.elementwise_fusion_utils import pad_value
from fusionopt.transforms.linalg.linalg_attention_key_blocks import padded_with_zeros
from fusionopt.transforms.linalg.winograd_transforms import (conv_output, input_transform, output_transform,
                                                           tile_products, transformed_filter)

MIN_CHANNELS = 32
# Narrow convs (fewer than WIDE channels or filters) are rewritten up to this many output
# pixels: the transforms' traffic grows with the image, the products saved with C x F.
WIDE = 64
NARROW_MAX_PIXELS = 56 * 56
LANES = 16  # f32 lanes of an AVX-512 vector
MIN_OUTPUT = 4  # output rows and columns at least: 2 x 2 tiles
MAX_TILE_BYTES = 96 << 20  # past this the transformed tiles' traffic outweighs the multiplies saved
STATISTIC = "convs as Winograd F(2x2, 3x3)"


def is_zero(value: SSAValue | Operation | None) -> bool:
    """An f32 `arith.constant` 0.0 (the value or its op)."""
    op = value.owner if isinstance(value, SSAValue) else value
    attr = getattr(op, "value", None) if isinstance(op, Operation) and op.name == "arith.constant" else None
    return isinstance(attr, FloatAttr) and attr.value.data == 0.0


def has_zero_init(op: Operation) -> bool:
    init = op.operands[2].owner
    return isinstance(init, Operation) and init.name == "linalg.fill" and is_zero(init.operands[0])


def tile_bytes(output: tuple[int, ...], channels: int, filters: int) -> int:
    """Bytes of the larger of the f32 transformed input tiles and tile products of an N x H x W
    output: 16 values per 2x2 tile and channel, per tile and filter."""
    return 16 * output[0] * ((output[1] + 1) // 2) * ((output[2] + 1) // 2) * max(channels, filters) * 4


def is_winograd_candidate(op: Operation, min_channels: int, max_tile_bytes: int) -> bool:
    """A static f32 3x3 stride-1 undilated NHWC conv over a constant filter of at least
    `min_channels` channels and filters (under 64 of either: at most 56 x 56 output pixels, all
    images together), whole vectors of filters, outputs at least 4 x 4, transformed tiles of at
    most `max_tile_bytes` (`tile_bytes`)."""
    if op.name != NHWC_CONV_NAME or (shapes := static_window_shapes(op, op.name)) is None:
        return False
    image, weight, output = shapes
    if not isinstance(op.operands[1].type.get_element_type(), Float32Type):  # type: ignore[attr-defined]
        return False
    if set(op.stride_values()) != {1} or set(op.dilation_values()) != {1}:  # type: ignore[attr-defined]
        return False
    kh, kw, channels, filters = weight
    narrow = min(channels, filters) < WIDE and output[0] * output[1] * output[2] > NARROW_MAX_PIXELS
    return ((kh, kw) == (3, 3) and min(channels, filters) >= min_channels and not narrow
            and filters % LANES == 0 and min(output[1:3]) >= MIN_OUTPUT and has_zero_init(op)
            and tile_bytes(output, channels, filters) <= max_tile_bytes
            and constant_array(op.operands[1]) is not None)


def padded_image(image: SSAValue, extra: tuple[int, int]) -> list[Operation]:
    """`image` with `extra` more zero rows / columns at the bottom / right: a zero pad in front
    widened (a new pad of its source), else a pad of its own per axis; no ops if none are
    needed."""
    if extra == (0, 0):
        return []
    pad = image.owner
    if isinstance(pad, tensor.PadOp) and not (pad.low or pad.high) and is_zero(pad_value(pad)):
        return [widened_pad(pad, {1: extra[0], 2: extra[1]})]
    pads: list[Operation] = []
    for axis, count in ((1, extra[0]), (2, extra[1])):
        if count:
            source = pads[-1].results[0] if pads else image
            pads.append(padded_with_zeros(source, axis, source.type.get_shape()[axis] + count))  # type: ignore[attr-defined]
    return pads


def winograd_conv(op: Operation) -> list[Operation]:
    """The ops computing `op`'s result by F(2x2, 3x3); its N x H x W x F result last."""
    height, width = op.results[0].type.get_shape()[1:3]  # type: ignore[attr-defined]
    tiles = ((height + 1) // 2, (width + 1) // 2)
    pads = padded_image(op.operands[0], (height % 2, width % 2))
    image = pads[-1].results[0] if pads else op.operands[0]
    filters = transformed_filter(constant_array(op.operands[1]))  # type: ignore[arg-type]
    inputs = input_transform(image, tiles)
    products = tile_products(inputs[-1].results[0], filters)
    outputs = output_transform(products[-1].results[0])
    return [*pads, *inputs, *products, *outputs, *conv_output(outputs[-1].results[0], height, width)]


class ConvToWinograd(RewritePattern):
    def __init__(self, min_channels: int, max_tile_bytes: int):
        self.min_channels = min_channels
        self.max_tile_bytes = max_tile_bytes

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_winograd_candidate(op, self.min_channels, self.max_tile_bytes):
            return
        ops = winograd_conv(op)
        rewriter.replace_op(op, ops, [ops[-1].results[0]])
        pass_statistics.count(STATISTIC)


@dataclass(frozen=True)
class LinalgConvWinogradPass(ModulePass):
    """3x3 stride-1 channels-last convs over constant filters as Winograd F(2x2, 3x3).

    Options:
      min-channels -- rewrite convs with at least this many input channels and filters (32;
                      under 64, outputs of at most 56 x 56 pixels).
      max-tile-bytes -- leave direct a conv whose transformed input tiles or tile products
                        exceed this many bytes (100663296: 96 MiB).
    """

    name = "linalg-conv-winograd"

    min_channels: int = MIN_CHANNELS
    max_tile_bytes: int = MAX_TILE_BYTES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass_statistics.count(STATISTIC, 0)  # reported when nothing is rewritten too
        pattern = ConvToWinograd(self.min_channels, self.max_tile_bytes)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
