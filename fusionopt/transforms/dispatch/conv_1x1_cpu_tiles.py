"""`dispatch-conv-1x1-cpu-tiles`: a formed channels-last 1x1 conv whose filter count IREE cannot
split into wide vectors becomes a contraction generic with the matmul pass's 4 x 64 register
tile (`dispatch-matmul-cpu-tiles`), rows along the image row, remainders peeled.

IREE 3.13 tiles a `linalg.conv_2d_nhwc_hwcf` by splitting its filters F among workgroups and
vectorising a divisor of that share: with a large prime factor in F (ShuffleNetV2's 58, 116
and 232 filters, 29 x 2^k; MobileNetV3's 184, 23 x 8) the vectors are 2 lanes wide and the
conv runs at ~20 GFLOP/s on one AVX-512 core. As a generic over (n, oh, ow, f, c) reading the
HWCF filter through (0, 0, c, f), with workgroups of one image row by 64 filters, register tiles
of 4 pixels x 64 filters (four vectors) and the remainders peeled, it runs at the matmul
kernel's speed, and its epilogue (bias, ReLU, residual add) stays in the dispatch: the same
loops, no reshape. Measured as single dispatches with a ReLU epilogue (llvm-cpu, one thread,
process time, IREE's conv -> the generic): 14x14 116 -> 116 0.26-0.33 -> 0.14 ms, 28x28 58 -> 58
0.23-0.31 -> 0.14-0.17 ms, 7x7 232 -> 232 0.25 -> 0.085 ms, 14x14 80 -> 184 0.25 -> 0.10 ms.
Where F is a multiple of 16 or has no prime factor over `max-small-prime` (IREE finds 8- or
16-lane vectors) IREE's conv was as fast or faster (IREE's conv vs the generic): 72 -> 120 at
28x28 0.16 vs 0.31-0.34 ms, 80 -> 200 0.10 vs 0.12 ms, 24 -> 144 at 56x56 0.30 vs 0.86 ms, 960 ->
160 at 7x7 0.15 vs 0.28 ms, 464 -> 464 at 7x7 0.21 vs 0.33 ms, 1632 -> 272 0.42 vs 0.78 ms; so
only those convs are rewritten, with at least `min-channels` input channels and one whole tile in
each of OW and F.

A channels-last 1x1 conv of 24 or 40 filters (MnasNet's and MobileNetV2's projections, F = 8 x
an odd number) stays IREE's conv with a lowering config of 8-lane vectors over 8 (or 7) pixels,
its workgroups IREE's own (one per 14th of the rows): IREE picks 12- and 10-lane vectors there, a
16-lane vector half masked. On one Zen 4 core (whose 512-bit multiply-adds are two 256-bit
halves) MnasNet's six such convs took 75/120 us (56x56, 48 and 72 channels) and 49/82 us (28x28,
72 and 120 channels) against 85/133 and 66/109 with IREE's choice (HAL profile, six interleaved
rounds), 0.83x of their time; a vector of all 24 or 40 filters measured slower (1.15x the
model). Unmeasured on CPUs whose 512-bit units are whole (Intel Xeon), where an 8-lane vector
has half the multiply-add rate: `narrow-filter-lanes=0` leaves these convs to IREE.

The generic computes every product of the conv once; only the order of the sum over the input
channels may change, as in any conv kernel; the config changes no arithmetic. Stride 1, batch 1,
static f32 shapes only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common.window_ops import NHWC_CONV_NAME, static_window_shapes
from fusionopt.transforms.dispatch.matmul_cpu_tiles import PEELING, DispatchMatmulCpuTilesPass, in_region_unconfigured
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import cpu_compilation_info, set_cpu_config, static_f32_shape

_TILE = DispatchMatmulCpuTilesPass().register_tile()  # the matmul regions' register tile
ROWS, COLUMNS, REDUCTION = _TILE.rows, _TILE.columns, _TILE.reduction  # 4, 64, 16
LANES = 16  # f32 lanes of an AVX-512 vector


def largest_prime_factor(n: int) -> int:
    factor, largest = 2, 1
    while factor * factor <= n:
        while n % factor == 0:
            largest, n = factor, n // factor
        factor += 1
    return max(largest, n) if n > 1 else largest


@dataclass(frozen=True)
class Conv1x1Choice:
    """Which channels-last 1x1 convs get the register tile (module docstring)."""

    min_channels: int
    max_small_prime: int

    def wants(self, op: Operation) -> bool:
        shapes = static_window_shapes(op, NHWC_CONV_NAME)
        if shapes is None or not in_region_unconfigured(op) or static_f32_shape(op.results[0]) is None:
            return False
        if shapes[1][:2] != (1, 1) or op.stride_values() != (1, 1):  # type: ignore[attr-defined]
            return False
        (n, _, _, c), (_, ow, f) = shapes[0], shapes[-1][1:]
        return (n == 1 and c >= self.min_channels and ow >= ROWS and f >= COLUMNS and f % LANES != 0
                and largest_prime_factor(f) > self.max_small_prime)


def contraction_maps() -> list[AffineMapAttr]:
    """Loops (n, oh, ow, f, c): input (n, oh, ow, c), filter (0, 0, c, f), output (n, oh, ow, f)."""
    n, oh, ow, f, c = (AffineDimExpr(i) for i in range(5))
    zero = AffineConstantExpr(0)
    maps = (AffineMap(5, 0, (n, oh, ow, c)), AffineMap(5, 0, (zero, zero, c, f)), AffineMap(5, 0, (n, oh, ow, f)))
    return [AffineMapAttr(m) for m in maps]


def row_tiles(ow: int) -> dict[str, list[int]]:
    """Workgroups of one image row x 64 filters; 4 x 64 register tiles; remainders peeled."""
    return {"distribution": [1, 1, ow, COLUMNS, 0], "vector_common_parallel": [1, 1, ROWS, COLUMNS, 0],
            "vector_reduction": [0, 0, 0, 0, REDUCTION]}


@dataclass
class Conv1x1ToTiledContraction(RewritePattern):
    choice: Conv1x1Choice

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not self.choice.wants(op):
            return
        generic = GenericOp(
            list(op.inputs), list(op.outputs),  # type: ignore[attr-defined]
            rewriter.move_region_contents_to_new_regions(op.regions[0]), contraction_maps(),
            [IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()], [r.type for r in op.results],
        )
        ow = op.results[0].type.get_shape()[2]  # type: ignore[attr-defined]
        generic.attributes["compilation_info"] = cpu_compilation_info(row_tiles(ow), "DoubleTilingExpert", PEELING)
        rewriter.replace(op, [generic], list(generic.results))
        pass_statistics.count("1x1 convs given the matmul register tile")


NARROW_FILTERS = (24, 40)  # the filter counts measured (module docstring)


def narrow_filter_tiles(op: Operation, lanes: int) -> dict[str, list[int]] | None:
    """The lowering config of a formed channels-last 1x1 conv of 24 or 40 filters (module
    docstring), None for any other op: `lanes`-wide vectors over 8 (or 7) pixels of a row."""
    shapes = static_window_shapes(op, NHWC_CONV_NAME)
    if not lanes or shapes is None or not in_region_unconfigured(op) or static_f32_shape(op.results[0]) is None:
        return None
    if shapes[1][:2] != (1, 1) or op.stride_values() != (1, 1):  # type: ignore[attr-defined]
        return None
    (n, _, _, c), (_, oh, ow, f) = shapes[0], shapes[-1]
    rows = 8 if ow % 8 == 0 else 7 if ow % 7 == 0 else 0
    if n != 1 or f not in NARROW_FILTERS or f % lanes or c % lanes or not rows:
        return None
    per_workgroup = oh // 14 if oh % 14 == 0 else 1
    return {"distribution": [0, per_workgroup, ow, f, 0, 0, 0],
            "vector_common_parallel": [1, 1, rows, lanes, 0, 0, 0],
            "vector_reduction": [0, 0, 0, 0, 1, 1, lanes]}


@dataclass
class NarrowFilterConvTiles(RewritePattern):
    lanes: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (tiles := narrow_filter_tiles(op, self.lanes)) is not None:
            set_cpu_config(op, rewriter, tiles, "ConvTileAndDecomposeExpert",
                           "1x1 convs of 24 or 40 filters given 8-lane vectors")


@dataclass(frozen=True)
class DispatchConv1x1CpuTilesPass(ModulePass):
    """Formed channels-last 1x1 convs whose filter count is no multiple of 16 and has a large
    prime factor -> a contraction generic with IREE llvm-cpu's 4 x 64 register tile; those of 24
    or 40 filters keep IREE's conv with 8-lane vectors (module docstring).

    Options:
      min-channels    -- rewrite only convs with at least this many input channels (32: with 24
                         or fewer the tile measured slower than IREE's conv).
      max-small-prime -- rewrite only convs whose filter count has a prime factor above this
                         (16: IREE splits the others into 8- or 16-lane vectors itself).
      narrow-filter-lanes -- the vector width given to 1x1 convs of 24 or 40 filters (8; 0:
                         left to IREE, e.g. on CPUs with whole 512-bit units).
    """

    name = "dispatch-conv-1x1-cpu-tiles"

    min_channels: int = 32
    max_small_prime: int = 16
    narrow_filter_lanes: int = 8

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = Conv1x1ToTiledContraction(Conv1x1Choice(self.min_channels, self.max_small_prime))
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(NarrowFilterConvTiles(self.narrow_filter_lanes), apply_recursively=False).rewrite_module(op)
