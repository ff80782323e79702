"""`dispatch-reduction-cpu-tiles`: a region's one row reduction (softmax's max or sum) reads its
whole row as one vector in IREE's llvm-cpu build, and the module is built with IREE's
reassociation of float reductions (`IREE_FLAGS`).

IREE 3.13 reduces a row in vectors of 16 lanes and, without
`--iree-llvmcpu-reassociate-fp-reductions=true` (off by default, at `--iree-opt-level=O0`),
folds each vector into the row's scalar in order: a chain of 16 dependent scalar adds per
vector (a 197 x 384 sum 46-59 us, 7 us with the flag; vit_s16_6l's 13 layer norms 2.1 ->
0.4 ms a call). With the flag a row whose length 16 divides is summed lane-wise; one it does
not (ViT's 197 keys) is still masked vector by vector and reduced in order. Given the whole row
as the reduction tile, the flag's tree reduction covers it: vit_s16_6l's two softmax dispatches
0.50 -> 0.26 ms per layer (6 x 197 x 197, one thread; bench/RESULTS.md, "Row reductions").
A workgroup takes up to `ROWS_PER_WORKGROUP` rows (32) of the innermost parallel loop.

Reassociating a sum is the fast-math contract contractions already rely on (finite values): the
lane-wise tree is no less accurate than the ordered chain (the softmax above: 2e-7 against 8e-7
max error against float64). A max is exact in any order.

Only regions with exactly one reduction op (IREE takes the configured op as the region's root
and accepts one configuration a dispatch; a layer norm's two chained sums keep IREE's tiles),
that reduction over the innermost loop, reading rows contiguously, static f32, rows of
`LANES < n <= MAX_ROW` elements that 16 does not divide (divided rows are split lane-wise by
the flag alone).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.conv_1x1_cpu_tiles import LANES
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import set_cpu_config, static_f32_shape

# The iree-compile flags a module configured by this pass is built with (module docstring).
IREE_FLAGS = ("--iree-llvmcpu-reassociate-fp-reductions=true",)
MAX_ROW = 512  # longest row taken as one vector (32 AVX-512 registers)
# Rows a workgroup reduces: vit_s16_6l's 6 x 197 softmax rows as 42 workgroups instead of 1182
# (one row each) take 0.91x-0.96x of the time of their two dispatches at one thread and
# 0.57x-0.72x at two (HAL profile), where claiming a workgroup costs more than reducing a row.
ROWS_PER_WORKGROUP = 32


def reduces_innermost_row(op: Operation) -> int | None:
    """The row length of a static f32 generic reducing only its last loop over each input's
    innermost dim, else None."""
    if op.name != "linalg.generic" or len(op.results) != 1 or static_f32_shape(op.results[0]) is None:
        return None
    kinds = du.iterator_kinds(op)
    if kinds.count("reduction") != 1 or kinds[-1] != "reduction":
        return None
    inputs = du.dps_inputs(op)
    last = AffineDimExpr(len(kinds) - 1)
    if not inputs or any(static_f32_shape(v) is None or du.operand_map(op, v).results[-1] != last for v in inputs):
        return None
    return du.loop_extents(op)[-1]


def is_only_reduction_in_region(op: Operation) -> bool:
    region = op.parent_op()
    if not isinstance(region, DispatchRegionOp) or "compilation_info" in op.attributes:
        return False
    ops = list(region.body.walk())
    return sum(du.is_linalg(o) and du.has_reduction_loops(o) for o in ops) == 1 and \
        not any("compilation_info" in o.attributes for o in ops)


def workgroup_rows(extents: list[int]) -> list[int]:
    """Distribution tiles of the parallel loops: up to ROWS_PER_WORKGROUP rows of the innermost
    loop of more than one row, one of each outer loop, none of a unit loop."""
    tiles = [int(extent != 1) for extent in extents]
    inner = max((i for i, extent in enumerate(extents) if extent != 1), default=None)
    if inner is not None:
        tiles[inner] = min(extents[inner], ROWS_PER_WORKGROUP)
    return tiles


def whole_row_tiles(op: Operation) -> dict[str, list[int]] | None:
    """IREE tile lists reducing whole rows, up to ROWS_PER_WORKGROUP rows a workgroup, or None
    for an op left as is."""
    row = reduces_innermost_row(op)
    if row is None or not LANES < row <= MAX_ROW or row % LANES == 0 or not is_only_reduction_in_region(op):
        return None
    extents = du.loop_extents(op)[:-1]
    return {"distribution": [*workgroup_rows(extents), 0], "vector_common_parallel": [1] * len(extents) + [0],
            "vector_reduction": [0] * len(extents) + [row]}


class ConfigureRowReduction(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        tiles = whole_row_tiles(op)
        if tiles is None:
            return
        set_cpu_config(op, rewriter, tiles, "DoubleTilingExpert", "row reductions given whole-row vectors")


class DispatchReductionCpuTilesPass(ModulePass):
    """A region's one f32 reduction over rows of 17-512 elements 16 does not divide -> an IREE
    llvm-cpu tile reducing whole rows; modules are built with
    `--iree-llvmcpu-reassociate-fp-reductions=true` (module docstring)."""

    name = "dispatch-reduction-cpu-tiles"
    iree_flags: ClassVar[tuple[str, ...]] = IREE_FLAGS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConfigureRowReduction(), apply_recursively=False).rewrite_module(op)
