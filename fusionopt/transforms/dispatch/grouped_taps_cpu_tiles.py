"""`dispatch-grouped-taps-cpu-tiles`: a grouped conv formed as a sum over its window's taps
(`grouped_conv_taps`, loops (n, oh, ow, g, f, c)) gets an IREE llvm-cpu config with a register
tile of 7 (8) pixels x 16 (32) filters of one group (8 of two groups of 8, or 8 of one group of
8k: `grouped_conv_taps.register_tile`), one input channel a step, and workgroups of one group's
(two groups') whole filters over up to 128 output pixels of whole rows.

Without a config IREE 3.13 picks its own tiles for a generic of 2T + 1 operands and leaves
partial ones; with this one each step loads every tap's filter vector once and broadcasts each
pixel's channel value into an FMA: 10 groups of 16 at 14x14 ~40 us a call on one zen5 core
(~225 GFLOP/s), where a register tile of 4 pixels (not dividing 14) took 264 us. Filter tiles of 32
for 32 filters a group: ResNeXt50's 32 groups of 32 at 7x7 228 us against 261 with 16. Measured
as single dispatches; the whole-model figures are in bench/RESULTS.md ("Grouped convs as sums
over their taps").

Applied to an unconfigured static f32 generic directly in a `flow.dispatch.region` with the taps
form's maps and body (T image slices (n, oh, ow, g, c), T filters (g, c, f), or (c, g, f) for
paired groups, out (n, oh, ow, g, f); `out + fma(..., x * w)`), groups a register tile holds and
the output width a multiple of 7 or 8. Only the tiling changes: each output's sum order is the
generic's own. CPU pipelines only.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.matmul_cpu_tiles import in_region_unconfigured
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape
from fusionopt.transforms.linalg.grouped_conv_taps import pairs_groups, register_tile, taps_maps, taps_pixel_tile

MAX_WORKGROUP_PIXELS = 128  # output pixels (whole rows) of one group a workgroup takes, at most


def sums_taps(op: Operation, taps: int) -> bool:
    """The body is `yield out + fma(x_T-1, w_T-1, ... fma(x_1, w_1, x_0 * w_0))`."""
    block = op.regions[0].block
    names = [o.name for o in block.ops]
    if names != ["arith.mulf", *["math.fma"] * (taps - 1), "arith.addf", "linalg.yield"]:
        return False
    ops, args = list(block.ops), block.args
    chained = all(list(o.operands[:2]) == [args[i], args[taps + i]] for i, o in enumerate(ops[:taps]))
    links = all(ops[i].operands[2] is ops[i - 1].results[0] for i in range(1, taps))
    add = ops[taps]
    return chained and links and set(add.operands) == {args[-1], ops[taps - 1].results[0]}


def filter_layout(op: Operation, taps: int) -> bool | None:
    """Whether the taps form's filters are C x G x F (paired groups), None if the maps are not
    the taps form's."""
    maps = list(du.indexing_maps(op))
    for batched in (True, False):
        for paired in (True, False):
            image, filters, output = taps_maps(batched, paired)
            if maps == [image] * taps + [filters] * taps + [output]:
                return paired
    return None


def taps_sizes(op: Operation) -> tuple[int, int, int, int] | None:
    """(OH, OW, G, F) of an unconfigured taps-form generic in a region whose filter layout fits
    its groups (C x G x F exactly where two share a vector), else None."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not in_region_unconfigured(op):
        return None
    if static_f32_shape(op.results[0]) is None or du.iterator_kinds(op) != ["parallel"] * 5 + ["reduction"]:
        return None
    taps = len(du.dps_inputs(op)) // 2
    paired = filter_layout(op, taps) if taps >= 1 else None
    if paired is None or not sums_taps(op, taps):
        return None
    _, oh, ow, g, f, _ = du.loop_extents(op)
    if None in (oh, ow, g, f) or pairs_groups(g, f) != paired:
        return None
    return oh, ow, g, f


def taps_tiles(oh: int, ow: int, g: int, f: int) -> dict[str, list[int]] | None:
    """Loops (n, oh, ow, g, f, c): workgroups of whole rows of the register tile's groups, register
    tiles of 7 (8) pixels x `register_tile`'s filters, one channel a step; None where a tile would
    be partial."""
    pixels, tile = taps_pixel_tile(ow), register_tile(g, f)
    if pixels is None or tile is None:
        return None
    groups, filters = tile
    rows = max(r for r in range(1, oh + 1) if oh % r == 0 and (r == 1 or r * ow <= MAX_WORKGROUP_PIXELS))
    return {"distribution": [1, rows, ow, groups, f, 0], "vector_common_parallel": [1, 1, pixels, groups, filters, 0],
            "vector_reduction": [0, 0, 0, 0, 0, 1]}


class ConfigureTapsConv(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sizes = taps_sizes(op)
        tiles = None if sizes is None else taps_tiles(*sizes)
        if tiles is not None:
            set_cpu_config(op, rewriter, tiles, "DoubleTilingExpert", "grouped convs' tap sums given pixel x filter tiles")


class DispatchGroupedTapsCpuTilesPass(ModulePass):
    """A grouped conv's tap-sum generic -> an IREE llvm-cpu config of 7 (8) pixels x 16 (32)
    filters, one channel a step (module docstring)."""

    name = "dispatch-grouped-taps-cpu-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureTapsConv(), apply_recursively=False).rewrite_module(op)
