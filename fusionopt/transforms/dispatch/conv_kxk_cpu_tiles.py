"""`dispatch-conv-kxk-cpu-tiles`: a formed channels-last k x k conv (ResNet's 3x3 convs) gets an
IREE llvm-cpu config with a register tile of 8 (7) pixels x 32 filters and reduction steps of 4
input channels, one image row (a 7x7 image's every row) by 64 (32) filters a workgroup.

IREE 3.13 gives a `linalg.conv_2d_nhwc_hwcf` (`ConvTileAndDecomposeExpert`) a register tile of 8
pixels x 16 filters: each step over an input channel loads one filter vector and broadcasts 8
pixels for 8 FMAs, and resnet18's 3x3 convs run at ~70 GFLOP/s on one AVX-512 core. With two
vectors of filters the same loads feed 16 FMAs. Measured in resnet18 at 224x224 (zen5 VM, HAL
profile, one thread, two alternating rounds, ms a call, IREE's tile -> this one): its 3x3 convs
over 64 channels 4.9 -> 4.3, 128 4.4 -> 3.4, 256 6.4 -> 4.1-4.6, 512 9.3 -> 4.4-5.3; all its
convs 25.1-26.6 -> 17.7-20.1 (bench/RESULTS.md, "ResNet's 3x3 convs: a wider register tile").
Reduction steps of 8 gained less (19.5-24.7 ms), 4 x 64 tiles less (21.5-22.0 ms); tiles that
leave a remainder of pixels are far slower (IREE does not peel the conv pipeline's tiles), so
the pixel tile must divide the output width.

Applied to a static f32 batch-1 `linalg.conv_2d_nhwc_hwcf` directly in a `flow.dispatch.region`,
with no config of its own, a window larger than 1x1 and undilated (DeepLabV3's dilated convs
were not measured), at least `min-channels` input channels, a multiple of 4 of them, F a
multiple of 32 and the output width a multiple of 8 or 7, or at most 24 (then a whole row by
16 filters a register tile: `register_filters`). A stem's 3
input channels stay IREE's (its reduction step is the channel count). A 1-D conv's one output
row is split into workgroups of at most 512 frames (`workgroup_width`): as one workgroup per 64
filters, HiFi-GAN's convs over 6400-25600 frames ran on one thread of two (the model at two
threads 197-214 -> 142-148 ms, EnCodec 88-100 -> 64-86 ms; one thread unchanged). Only the
tiling changes:
every product and each output's sum order over (kh, kw, c) are IREE's own. CPU pipelines only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common.window_ops import NHWC_CONV_NAME, static_window_shapes
from fusionopt.transforms.dispatch.matmul_cpu_tiles import in_region_unconfigured
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape

FILTERS = 32  # filters a register tile holds: two AVX-512 vectors of f32
WORKGROUP_FILTERS = 64
PIXEL_TILES = (8, 7)  # pixels a register tile holds, the first that divides the output width
WHOLE_ROW_PIXELS = 24  # else a whole row this wide at most, with one vector of filters
LANES = 16  # f32 lanes of an AVX-512 vector
CHANNEL_STEP = 4  # input channels a register tile takes per unrolled step
WHOLE_IMAGE_PIXELS = 64  # output pixels up to which a workgroup takes the whole image
ROW_PART_PIXELS = 512  # output frames a workgroup takes at most of a one-row image


def pixel_tile(width: int) -> int | None:
    """8 or 7 pixels where one divides the output width, else the whole row where it has at most
    WHOLE_ROW_PIXELS (Inception's 17-wide convs), else None."""
    divisor = next((p for p in PIXEL_TILES if width % p == 0), None)
    return divisor if divisor is not None else width if width <= WHOLE_ROW_PIXELS else None


def register_filters(pixels: int) -> int:
    """Filters a register tile holds: 32 (two vectors) for 8 or 7 pixels; one vector of 16 for a
    whole row, whose accumulators (one per pixel) then fit the 32 vector registers. Inception's
    17x17 convs over 192 channels (one Zen 4 core, single dispatches): IREE's own tile (a
    remainder of pixels) 30 GFLOP/s, a row of 17 x 16 filters 113 (1x7 4.92 -> 1.31 ms, 7x1 4.93
    -> 1.32, 3x3 6.41 -> 1.69)."""
    return FILTERS if pixels in PIXEL_TILES else LANES


def workgroup_filters(filters: int) -> int:
    """64 filters a workgroup where 64 divides F, else 32: a remainder workgroup has dynamic
    sizes, which IREE's conv pipeline runs several times slower (googlenet's 96, 160 and 224
    filters: the model 3.6x slower with workgroups of 64)."""
    return WORKGROUP_FILTERS if filters % WORKGROUP_FILTERS == 0 else FILTERS


def workgroup_rows(height: int, width: int, filters: int) -> int:
    """One output row a workgroup; every row of an image of at most WHOLE_IMAGE_PIXELS pixels
    where its filters still make two workgroups or more. Each workgroup streams its filters'
    weights (KH*KW*C x 64) once per row: at 7x7 pixels over 512 channels that is 1.2 MB, past
    the L2, for 7 pixels, and TextNet's 3x3 conv there ran at 55 GFLOP/s (4.19 ms); with the
    whole image a workgroup, 2.84 ms (its 7x7 1x3 / 3x1 convs 0.90x; HAL profile, one thread).
    Two rows a workgroup at 14x14 gained 3-5 %, within noise: not taken."""
    if height * width <= WHOLE_IMAGE_PIXELS and filters // workgroup_filters(filters) >= 2:
        return height
    return 1


def workgroup_width(height: int, width: int, pixels: int) -> int:
    """The whole output row; for an image of one row (a 1-D conv's) the widest part of at most
    ROW_PART_PIXELS that is a whole number of pixel tiles and divides the row (no remainder
    workgroup). A whole row of thousands of frames a workgroup left a 1-D conv one workgroup per
    64 filters: one thread's work however many there are."""
    if height > 1:
        return width
    return max(part for part in range(pixels, min(width, ROW_PART_PIXELS) + 1, pixels) if width % part == 0)


def conv_tiles(height: int, width: int, filters: int, pixels: int) -> dict[str, list[int]]:
    """Loops (n, oh, ow, f, kh, kw, c): workgroups of one output row (a small image's every
    row; a part of a 1-D conv's one row) by 64 (32) filters, register tiles of `pixels` x 32
    (16: `register_filters`) filters, one tap and 4 input channels a step."""
    return {"distribution": [0, workgroup_rows(height, width, filters), workgroup_width(height, width, pixels),
                             workgroup_filters(filters), 0, 0, 0],
            "vector_common_parallel": [1, 1, pixels, register_filters(pixels), 0, 0, 0],
            "vector_reduction": [0, 0, 0, 0, 1, 1, CHANNEL_STEP]}


def tiles_for(op: Operation, min_channels: int) -> dict[str, list[int]] | None:
    """The config's tiles for a conv the pass applies to (module docstring), else None."""
    shapes = static_window_shapes(op, NHWC_CONV_NAME)
    if shapes is None or not in_region_unconfigured(op) or static_f32_shape(op.results[0]) is None:
        return None
    (n, _, _, c), (kh, kw, _, f), (_, oh, ow, _) = shapes[0], shapes[1], shapes[-1]
    if n != 1 or (kh, kw) == (1, 1) or c < min_channels or c % CHANNEL_STEP or f % FILTERS:
        return None
    if op.dilation_values() != (1, 1):  # type: ignore[attr-defined]  # measured undilated only
        return None
    pixels = pixel_tile(ow)
    return None if pixels is None else conv_tiles(oh, ow, f, pixels)


@dataclass
class ConfigureKxkConv(RewritePattern):
    min_channels: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        tiles = tiles_for(op, self.min_channels)
        if tiles is not None:
            set_cpu_config(op, rewriter, tiles, "ConvTileAndDecomposeExpert",
                           "k x k convs given a 32-filter register tile")


@dataclass(frozen=True)
class DispatchConvKxkCpuTilesPass(ModulePass):
    """Formed channels-last k x k convs -> an IREE llvm-cpu config of 8 (7) pixels x 32 filters,
    4 input channels a step (module docstring).

    Options:
      min-channels -- configure only convs with at least this many input channels (16).
    """

    name = "dispatch-conv-kxk-cpu-tiles"

    min_channels: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureKxkConv(self.min_channels), apply_recursively=False).rewrite_module(op)
