"""`dispatch-depthwise-cpu-tiles`: a formed channels-last depthwise conv gets an IREE llvm-cpu
tile with 14-16 vector accumulators, where IREE's own keeps four.

IREE 3.13 tiles `linalg.depthwise_conv_2d_nhwc_hwc` in vectors of 4 pixels x 16 channels (one
AVX-512 register each): four independent accumulators, so each FMA waits on the one before it
in its chain (4 cycles) and the core runs at about a quarter of its FMA rate. This pass gives
the conv 8 (or 7, where the row width is a multiple of 7 but not of 8) pixels x 32 channels (two
registers): 14-16 accumulators. Workgroups are 64, 32 or 16 whole channels by whole rows, the
fewest rows giving at most 16 workgroups. Measured in mnasnet1_0 (llvm-cpu, one thread, HAL
profile, two interleaved rounds of 20 calls): its 17 depthwise convs 1408 / 1351 -> 1097 / 1011 us
in all (112x112x32 3x3 296 -> 227 us, 56x56x80 3x3 137 -> 82 us a call, 7x7x1152 5x5 62 -> 48
us), the dispatch sum 8.4-8.8 -> 7.0-7.4 ms (bench/RESULTS.md, "Depthwise register tiles").

Only static f32 convs with a multiple of 16 channels (`linalg-pad-conv-filters` pads the
others' producers) and a row width that 8 or 7 divides: the tile then has no remainder (IREE's
conv pipeline does not peel one). The tile changes which outputs a step computes, not any sum:
outputs are bit-equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common.window_ops import static_window_shapes
from fusionopt.transforms.dispatch.conv_1x1_cpu_tiles import LANES
from fusionopt.transforms.dispatch.matmul_cpu_tiles import in_region_unconfigured
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape

DEPTHWISE = "linalg.depthwise_conv_2d_nhwc_hwc"
VECTOR_CHANNELS = 32  # two registers of channels per register tile
PIXEL_TILES = (8, 7)  # pixels along a row per register tile, the first that divides the width
# Window widths whose taps along a row are one reduction step: with its pad computed in the
# conv's dispatch (`padded_depthwise.py`), a 5x5 conv stepping one tap at a time ran ~2x slower
# than with its pad apart; a whole row of 5 taps a step, as fast (mnasnet1_0, bench/RESULTS.md).
WHOLE_ROW_WINDOWS = (3, 5)


def row_pixels(width: int) -> int | None:
    return next((p for p in PIXEL_TILES if width % p == 0), None)


def workgroup_channels(channels: int) -> int:
    return next(c for c in (64, 32, LANES) if channels % c == 0)


def workgroup_rows(height: int, channel_groups: int, max_workgroups: int) -> int:
    """The fewest rows, a divisor of the height, giving at most `max_workgroups` workgroups
    with `channel_groups` channel groups (all rows when none does)."""
    return next((r for r in range(1, height + 1) if height % r == 0 and height // r * channel_groups <= max_workgroups),
                height)


def depthwise_tiles(op: Operation, max_workgroups: int) -> dict[str, list[int]] | None:
    """IREE tile lists over loops (n, oh, ow, c, kh, kw), or None for a conv this pass leaves."""
    shapes = static_window_shapes(op, DEPTHWISE)
    if shapes is None or static_f32_shape(op.results[0]) is None or not in_region_unconfigured(op):
        return None
    (_, kw, _), (_, oh, ow, channels) = shapes[1], shapes[-1]
    pixels = row_pixels(ow)
    if pixels is None or channels % LANES:
        return None
    per_group = workgroup_channels(channels)
    rows = workgroup_rows(oh, channels // per_group, max_workgroups)
    return {"distribution": [0, rows, ow, per_group, 0, 0],
            "vector_common_parallel": [1, 1, pixels, min(VECTOR_CHANNELS, per_group), 0, 0],
            "vector_reduction": [0, 0, 0, 0, 1, kw if kw in WHOLE_ROW_WINDOWS else 1]}


@dataclass
class ConfigureDepthwise(RewritePattern):
    max_workgroups: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        tiles = depthwise_tiles(op, self.max_workgroups)
        if tiles is None:
            return
        set_cpu_config(op, rewriter, tiles, "ConvTileAndDecomposeExpert", "depthwise convs given 14-16 accumulators")


@dataclass(frozen=True)
class DispatchDepthwiseCpuTilesPass(ModulePass):
    """Formed channels-last f32 depthwise convs -> IREE llvm-cpu tiles of 8 (7) pixels x 32
    channels (module docstring).

    Options:
      max-workgroups -- at most this many workgroups a conv (16): whole rows by 64, 32 or 16
                        channels, the fewest rows that stay within it.
    """

    name = "dispatch-depthwise-cpu-tiles"

    max_workgroups: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureDepthwise(self.max_workgroups), apply_recursively=False).rewrite_module(op)
