"""`dispatch-grouped-im2col-cpu-tiles`: a grouped conv formed as IREE's im2col op and a
group-batched matmul in one region (`linalg-grouped-conv-to-im2col`) computes one group a
workgroup, up to `MAX_WORKGROUP_ROWS` output pixels of it, in IREE's register tile of 7 (8)
pixels x 16 filters.

IREE 3.13 gives such a region (patches [G, M, K], filters [G, K, N], output [M, G, N]) workgroups
of several groups: RegNetX-400MF's 2 x 3136 at 112x112 two groups by 64 pixels, its 4 x 784 four
by 16, its 10 x 196 two by 49. Each workgroup then gathers the patches of every group it holds
for a few pixels, and the patch rows it reads are far apart in the image. With one group a
workgroup and 196 pixels of it (the same register tile, 7 pixels x 16 filters, K step 16),
measured in regnet_x_400mf on the zen5 VM (HAL profile, one thread, 100 calls): 2 x 3136 372 ->
234 us, 4 x 784 236 -> 117 and 198 -> 116 us, 10 x 196 and 25 x 49 alike; the whole model 0.94x
of its time at one thread and 0.89x at two (10 interleaved rounds; bench/RESULTS.md, "Seven
models on an AMD Zen 5 VM"). Other register tiles (8, 14 or 16 pixels) and workgroups of 28, 49
or 56 pixels were slower or alike.

Applied to the matmul generic (maps (g, m, k), (g, k, n) -> (m, g, n)) of a static f32 region
whose patches come from an `iree_linalg_ext.im2col` in the same region, with no config of its
own: N and K multiples of 16 and M of 7 or 8 (no partial tiles). Only the tiling changes; every
product and each sum's order over K are as IREE's kernel has them. CPU pipelines only.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.conv_1x1_cpu_tiles import LANES
from fusionopt.transforms.dispatch.matmul_cpu_tiles import (
    in_region_unconfigured, multiplies_into_accumulator, whole_or_dividing,
)
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape

IM2COL = "iree_linalg_ext.im2col"
MAX_WORKGROUP_ROWS = 196  # output pixels of one group a workgroup takes, at most
REGISTER_ROWS = (7, 8)  # IREE's own register tile rows for these matmuls, 7 first (measured)

_G, _M, _N, _K = (AffineDimExpr(i) for i in range(4))
GROUP_BATCHED_MAPS = (AffineMap(4, 0, (_G, _M, _K)), AffineMap(4, 0, (_G, _K, _N)), AffineMap(4, 0, (_M, _G, _N)))


def im2col_matmul_extents(op: Operation, maps: tuple[AffineMap, ...], patches: int) -> tuple[int, ...] | None:
    """The loop extents of a static f32 generic with these indexing maps, parallel loops and a
    last reduction one, body `out + lhs * rhs`, whose operand `patches` is an
    `iree_linalg_ext.im2col` made in its region; else None (the im2col tile passes' targets)."""
    if op.name != "linalg.generic" or len(op.results) != 1 or static_f32_shape(op.results[0]) is None:
        return None
    if du.iterator_kinds(op) != ["parallel"] * (maps[0].num_dims - 1) + ["reduction"]:
        return None
    if tuple(du.indexing_maps(op)) != maps or not multiplies_into_accumulator(op):
        return None
    producer = getattr(du.dps_inputs(op)[patches], "op", None)
    if producer is None or producer.name != IM2COL or producer.parent_op() is not op.parent_op():
        return None
    extents = tuple(du.loop_extents(op))
    return None if None in extents else extents


def group_batched_sizes(op: Operation) -> tuple[int, int, int] | None:
    """(M, N, K) of a static f32 group-batched matmul generic over im2col patches made in its
    region (pixels, filters and patch length of one group), else None."""
    extents = im2col_matmul_extents(op, GROUP_BATCHED_MAPS, 0)
    return None if extents is None else extents[1:]


def workgroup_tiles(m: int, n: int, k: int) -> dict[str, list[int]] | None:
    """One group and the most whole register tiles of pixels up to MAX_WORKGROUP_ROWS a
    workgroup; None where a tile would be partial."""
    if n % LANES or k % LANES:
        return None
    rows = next((r for r in REGISTER_ROWS if m % r == 0), None)
    if rows is None:
        return None
    per_group = whole_or_dividing(m, rows, MAX_WORKGROUP_ROWS)
    return {"distribution": [1, per_group, n, 0], "vector_common_parallel": [1, rows, LANES, 0],
            "vector_reduction": [0, 0, 0, LANES]}


class ConfigureGroupBatchedMatmul(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sizes = group_batched_sizes(op)
        if sizes is None or not in_region_unconfigured(op):
            return
        tiles = workgroup_tiles(*sizes)
        if tiles is None:
            return
        set_cpu_config(op, rewriter, tiles, "DoubleTilingExpert", "grouped convs' im2col matmuls given one group a workgroup")


class DispatchGroupedIm2colCpuTilesPass(ModulePass):
    """A grouped conv's im2col patches + group-batched matmul region -> an IREE llvm-cpu config
    of one group and up to 196 of its pixels a workgroup (module docstring)."""

    name = "dispatch-grouped-im2col-cpu-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureGroupBatchedMatmul(), apply_recursively=False).rewrite_module(op)
