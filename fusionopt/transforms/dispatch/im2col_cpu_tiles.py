"""`dispatch-im2col-cpu-tiles`: a k x k conv formed as IREE's im2col op and a filter-first
matmul in one region (the `-fewest` pipelines' NCHW convs, `linalg-strided-conv-to-im2col`'s
im2col op) gets an IREE llvm-cpu config whose reduction step is one patch row.

IREE 3.13 gives such a region (filters [F, K] times patches [K, P], the patches computed per
tile from the image) a reduction step of 15-16 patch rows, and vectorises the im2col of a tile
as one masked read per patch row and pixel vector: 256 of them, fully unrolled (5500 lines of
IR before bufferization). `iree-compile` then spends 8-10 s on each such executable (its
bufferization 5.3 s, empty-tensor elimination 2.4 s): a lone 16 -> 32 3x3 conv at 32x32 took
10.6 s to build through `graph-to-dispatch-llvm-cpu-fewest` against 0.9 s for IREE's own conv,
and Swin2SR's, UnivNet's and UperNet's `-fewest` builds 38-44 s against IREE's 6.5-17.4 s
(bench/RESULTS.md, "Every model builds: a seventh sweep"). With a step of one patch row the
tile's im2col is one row of pixels an iteration, in a loop: the same conv builds in 0.75 s and
runs in 0.46-0.68 ms against 0.62-0.97; resnet_mini's `-fewest` build 42 -> 3.3 s, the module
0.63x of its time, outputs bit-identical (bench/RESULTS.md, "`-fewest` builds: one patch row a
reduction step").

Applied to the matmul generic (maps (f, p, k): (f, k), (k, p) -> (f, p), body `out + lhs *
rhs`) of a static f32 region whose patches come from an `iree_linalg_ext.im2col` in the same
region, with no config of its own, P a multiple of 16 and K at least `MIN_TAPS`: a register
tile of `rows` filters (the first of 8, 7, 6, 4, 2, 1 dividing F) by 16 pixels, a workgroup of
up to 64 filters by 64 pixels (dividing F and P). A stem's 27 patch rows stay IREE's: there its
step builds in 2-3 s and runs faster (a 3 -> 32 3x3/2 stem at 224x224 1.36 ms against 1.86
with one row a step). Only the tiling changes; every product and each sum's order over K are
as IREE's kernel has them (the builds bit-identical). CPU pipelines only.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.transforms.dispatch.conv_1x1_cpu_tiles import LANES
from fusionopt.transforms.dispatch.grouped_im2col_cpu_tiles import im2col_matmul_extents
from fusionopt.transforms.dispatch.matmul_cpu_tiles import in_region_unconfigured, whole_or_dividing
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config

REGISTER_ROWS = (8, 7, 6, 4, 2, 1)  # filters a register tile, the first dividing F
WORKGROUP = 64  # filters and pixels a workgroup, at most
MIN_TAPS = 64  # patch rows (C x KH x KW), at least: a stem's 27 are IREE's

_F, _P, _K = (AffineDimExpr(i) for i in range(3))
FILTER_FIRST_MAPS = (AffineMap(3, 0, (_F, _K)), AffineMap(3, 0, (_K, _P)), AffineMap(3, 0, (_F, _P)))


def filter_first_sizes(op: Operation) -> tuple[int, int, int] | None:
    """(F, P, K) of a static f32 filter-first matmul generic over im2col patches made in its
    region, else None."""
    return im2col_matmul_extents(op, FILTER_FIRST_MAPS, 1)


def row_step_tiles(f: int, p: int, k: int) -> dict[str, list[int]] | None:
    """`rows` filters x 16 pixels a register tile, one patch row a reduction step; None where
    the pixels do not fill whole vectors or the patch is a stem's."""
    if p % LANES or k < MIN_TAPS:
        return None
    rows = next(r for r in REGISTER_ROWS if f % r == 0)
    workgroup = [whole_or_dividing(f, rows, WORKGROUP), whole_or_dividing(p, LANES, WORKGROUP), 0]
    return {"distribution": workgroup, "vector_common_parallel": [rows, LANES, 0], "vector_reduction": [0, 0, 1]}


class ConfigureFilterFirstIm2colMatmul(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        sizes = filter_first_sizes(op)
        if sizes is None or not in_region_unconfigured(op):
            return
        tiles = row_step_tiles(*sizes)
        if tiles is None:
            return
        set_cpu_config(op, rewriter, tiles, "DoubleTilingExpert", "im2col matmuls given one patch row a reduction step")


class DispatchIm2colCpuTilesPass(ModulePass):
    """A k x k conv's im2col patches + filter-first matmul region -> an IREE llvm-cpu config
    with one patch row a reduction step (module docstring)."""

    name = "dispatch-im2col-cpu-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureFilterFirstIm2colMatmul(), apply_recursively=False).rewrite_module(op)
