"""`linalg-pack-matmul-weights`: a `linalg.matmul` over a constant [K, N] weight reads it packed
as [N/P, K, P] panels and computes its result as [M, N/P, P] (P = 64 or 32, the wider that
divides N into two or more panels), with IREE llvm-cpu's register tile of 4 rows x 64 columns
(8 x 32).

The matmul form of `linalg-pack-conv-filters` (its docstring has the why): IREE's matmul kernel
reads the weight row by row, each step of the reduction jumping N x 4 bytes, and a workgroup's
columns re-read a strided column slice from L2 or DRAM. Packed, a workgroup's P columns are one
contiguous K x P panel. Single dispatches with a bias + tanh epilogue (llvm-cpu, one thread,
median of 5 interleaved rounds, unpacked with `dispatch-matmul-cpu-tiles`' 4 x 64 tile ->
packed; bench/packed_weights.py): ConvNeXt's 49 x 3072 . 3072 x 768 9.0 -> 2.4 ms and 3136 x 384
. 384 x 96 8.9 -> 2.3 ms, a ViT's 197 x 384 . 384 x 1536 2.7 -> 2.3 ms (bench/RESULTS.md,
"Packed weights: single dispatches").

Rewrite (static f32, default maps):

    %wp = arith.constant (the weight [K, N] as [N/P, K, P])
    %r  = linalg.generic {(m, no, ni, k): a(m, k) * wp(no, k, ni) -> out(m, no, ni)}
    %o  = tensor.collapse_shape %r [[0], [1, 2]]

When the matmul's only reader splits its rows ([M, N] -> [1, H, W, N]: a linear layer over an
image, ConvNeXt's), the split is folded in: the lhs is read as [1, H, W, K] and the result is
[1, H, W, N/P, P], a 1x1 conv's packed form. As with the convs, `linalg-sink-reshapes` moves
the free collapse below the epilogue (bias, GELU, layer scale, residual add). Workgroups: the
smallest divisor of M with at least `min-rows` rows (all M when none), or with the rows split
the fewest whole image rows with that many pixels, by one panel. Exact: the same products,
summed over K in the matmul's order. CPU pipelines only.

A `linalg.batch_matmul` over a constant [B, K, N] weight (Winograd's tile products: 16 x tiles x
C times the transformed filter, `linalg-conv-winograd`) reads it as [B, N/P, K, P] the same way,
each batch's weight packed alone, loops (b, m, no, ni, k) tiled as the matmul's with one batch a
workgroup. Few rows make that product a stream through its weight (ResNet's 7 x 7 stage: 16 rows
of 16 tiles against 16 MB of U per conv, more than L3 holds for the stage's three): IREE's own tile
ran 16 x 16 x 512 x 512 at 63 GFLOP/s, packed 0.67x of that time; 16 x 49 x 256 x 256 0.86x,
16 x 196 x 128 x 128 0.95x (three distinct weights in a row, llvm-cpu, one thread, medians of 5
interleaved rounds; bench/RESULTS.md, "Winograd's tile products over packed weights").
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.matmul_cpu_tiles import BATCH_MATMUL_MAPS, plain_matmul_sizes
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import static_f32_shape
from fusionopt.transforms.common.reshapes import expand, reassociation
from fusionopt.transforms.linalg.linalg_conv_1x1_to_matmul import erase_dead_init_chain, replace_conv
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.linalg.linalg_pack_conv_filters import (
    collapsed_panels,
    packed_compilation_info,
    packed_init,
    REDUCTION_STEP,
    packed_tiles,
    in_panels,
    packed_weight,
    panel_width,
)
from fusionopt.transforms.linalg.padded_values import constant_from


STATISTIC = "matmul weights packed in panels"
BATCH_STATISTIC = "batch matmul weights packed in panels"


def packable_panel(op: Operation) -> int | None:
    """P for a static f32 `linalg.matmul` over a constant [K, N] weight whose N some panel
    width divides into two or more panels; None otherwise."""
    sizes = plain_matmul_sizes(op)
    if sizes is None or not is_dense_constant(du.dps_inputs(op)[1]):
        return None
    return panel_width(sizes[2])


def packed_maps(row_loops: int) -> list[AffineMapAttr]:
    """Loops (*rows, no, ni, k): lhs (*rows, k), weight (no, k, ni), output (*rows, no, ni)."""
    dims = [AffineDimExpr(i) for i in range(row_loops + 3)]
    *rows, no, ni, k = dims
    maps = (AffineMap(len(dims), 0, (*rows, k)), AffineMap(len(dims), 0, (no, k, ni)),
            AffineMap(len(dims), 0, (*rows, no, ni)))
    return [AffineMapAttr(a) for a in maps]


def row_split(op: Operation) -> Operation | None:
    """The matmul's only reader when it is an expand_shape that splits the rows alone
    ([M, N] -> [*rows, N], unit dims anywhere in rows: a linear layer over [1, H, W, C] or
    [1, T, C]); folding it in makes the packed result [*rows, N/P, P], whose collapse
    linalg-sink-reshapes then moves as a conv's."""
    uses = list(op.results[0].uses)
    reader = uses[0].operation if len(uses) == 1 else None
    if reader is None or reader.name != "tensor.expand_shape" or not du.is_static_tensor(reader.results[0]):
        return None
    shape = reader.results[0].type.get_shape()  # type: ignore[attr-defined]
    columns = reassociation(reader)[-1]
    return reader if all(shape[d] == 1 for d in columns[:-1]) else None


def packable_batch_panel(op: Operation) -> int | None:
    """P for a static f32 `linalg.batch_matmul` with default maps over a constant [B, K, N]
    weight whose N some panel width divides into two or more panels; None otherwise."""
    if op.name != "linalg.batch_matmul" or tuple(du.indexing_maps(op)) != BATCH_MATMUL_MAPS:
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or not is_dense_constant(du.dps_inputs(op)[1]):
        return None
    return panel_width(shapes[1][-1])  # type: ignore[index]


def batch_packed_weight(weight: SSAValue, panel: int) -> SSAValue:
    """A constant [B, K, N] as [B, N/P, K, P]: each batch's weight in panels of P columns."""
    return constant_from(weight, lambda array: in_panels(array, panel))


def batch_packed_maps() -> list[AffineMapAttr]:
    """Loops (b, m, no, ni, k): lhs (b, m, k), weight (b, no, k, ni), output (b, m, no, ni)."""
    b, m, no, ni, k = (AffineDimExpr(i) for i in range(5))
    maps = (AffineMap(5, 0, (b, m, k)), AffineMap(5, 0, (b, no, k, ni)), AffineMap(5, 0, (b, m, no, ni)))
    return [AffineMapAttr(a) for a in maps]


def batch_packed_tiles(rows: int, panel: int, min_rows: int, reduction_step: int) -> dict[str, list[int]]:
    """A matmul's packed tiles (`packed_tiles`) with the batch loop in front: one batch a
    workgroup and a register tile."""
    tiles = packed_tiles([rows], panel, min_rows, reduction_step)
    return {level: [0 if level == "vector_reduction" else 1, *sizes] for level, sizes in tiles.items()}


def rows_first(rows: int) -> list[list[int]]:
    """[M, K] -> [*rows, K]: the rows' dims from M, K alone."""
    return [list(range(rows)), [rows]]


@dataclass
class PackMatmulWeights(RewritePattern):
    min_rows: int
    reduction_step: int = REDUCTION_STEP

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (batch_panel := packable_batch_panel(op)) is not None:
            self.pack_batched(op, batch_panel, rewriter)
            return
        panel = packable_panel(op)
        if panel is None:
            return
        split = row_split(op)
        replaced = split if split is not None else op
        rows = list(replaced.results[0].type.get_shape()[:-1])  # type: ignore[attr-defined]
        init = packed_init(du.dps_inits(op)[0], panel, rows)
        if init is None:
            return
        init_ops, init_value = init
        lhs, rhs = du.dps_inputs(op)
        new_ops: list[Operation] = []
        if split is not None:
            lhs_type = TensorType(lhs.type.get_element_type(), [*rows, lhs.type.get_shape()[1]])  # type: ignore[attr-defined]
            new_ops.append(expand(lhs, rows_first(len(rows)), lhs_type))
            lhs = new_ops[-1].results[0]
        weight = packed_weight(rhs, panel)
        generic = GenericOp(
            [lhs, weight], [init_value], rewriter.move_region_contents_to_new_regions(op.regions[0]),
            packed_maps(len(rows)), [IteratorTypeAttr.parallel()] * (len(rows) + 2) + [IteratorTypeAttr.reduction()],
            [init_value.type],
        )
        generic.attributes["compilation_info"] = packed_compilation_info(packed_tiles(rows, panel, self.min_rows, self.reduction_step))
        result = collapsed_panels(generic.results[0], replaced.results[0].type)  # type: ignore[arg-type]
        new_ops += [weight.owner, *init_ops, generic, result]  # type: ignore[list-item]
        if split is None:
            replace_conv(op, new_ops, result.results[0], rewriter, STATISTIC)
            return
        rewriter.insert_op(new_ops, InsertPoint.before(op))
        rewriter.replace(split, [], [result.results[0]])
        old_init = op.operands[-1].owner
        rewriter.erase(op)
        erase_dead_init_chain(old_init, rewriter)
        pass_statistics.count(STATISTIC)

    def pack_batched(self, op: Operation, panel: int, rewriter: PatternRewriter) -> None:
        """The batch matmul `op` over its weight packed in panels, collapsed back."""
        batch, rows, _ = op.results[0].type.get_shape()  # type: ignore[attr-defined]
        init = packed_init(du.dps_inits(op)[0], panel, [batch, rows])
        if init is None:
            return
        init_ops, init_value = init
        lhs, rhs = du.dps_inputs(op)
        weight = batch_packed_weight(rhs, panel)
        generic = GenericOp(
            [lhs, weight], [init_value], rewriter.move_region_contents_to_new_regions(op.regions[0]),
            batch_packed_maps(), [IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()], [init_value.type],
        )
        generic.attributes["compilation_info"] = packed_compilation_info(
            batch_packed_tiles(rows, panel, self.min_rows, self.reduction_step))
        result = collapsed_panels(generic.results[0], op.results[0].type)  # type: ignore[arg-type]
        replace_conv(op, [weight.owner, *init_ops, generic, result], result.results[0], rewriter, BATCH_STATISTIC)  # type: ignore[list-item]


@dataclass(frozen=True)
class LinalgPackMatmulWeightsPass(ModulePass):
    """`linalg.matmul`s over constant [K, N] weights read them as [N/P, K, P] panels, and
    `linalg.batch_matmul`s over constant [B, K, N] ones as [B, N/P, K, P], with IREE llvm-cpu's
    4 x 64 (8 x 32) register tile (module docstring).

    Options:
      min-rows -- a workgroup holds the smallest divisor of M with at least this many rows
                  (28, as `linalg-pack-conv-filters`' min-pixels).
      reduction-step -- rows of the weight a register tile takes per unrolled step (4, as
                  `linalg-pack-conv-filters`' reduction-step).
    """

    name = "linalg-pack-matmul-weights"

    min_rows: int = 28
    reduction_step: int = REDUCTION_STEP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = PackMatmulWeights(self.min_rows, self.reduction_step)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
