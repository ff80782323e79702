"""`dispatch-matmul-cpu-tiles`: a formed f32 matmul dispatch gets an IREE llvm-cpu lowering config
whose register tile is a few rows by a wide run of output columns.

IREE 3.13's llvm-cpu backend (without data tiling, its default) gives a matmul region its generic
vectorised kernel with a register tile of 8 rows x 16 columns (one AVX-512 vector per row,
reduction step 16). Each step of that kernel loads 8 broadcast scalars of the activation and one
vector of the weight for 8 FMAs. A tile of 4 rows x 64 columns (4 vectors per row, 16
accumulators) loads 4 scalars and 4 contiguous weight vectors for 16 FMAs, so more of each
cycle goes to arithmetic. Measured (bench/RESULTS.md, "Matmul register tiles on CPU"): the
transformers' contractions run 1.2x-1.9x faster, whole models in 0.56x-0.88x of the time of the
same regions with IREE's choice; [2, 64], [4, 32] and [8, 32] gain less, [4, 16] is 1.18x slower.

The config is IREE's own attribute (`#iree_codegen.compilation_info`, the form IREE's tuner
writes), carried as opaque text that fusion-opt and iree-opt both read back; it names the
llvm-cpu pipeline, so the pass is only in the `-llvm-cpu` pipelines (a CUDA build rejects it).

Applied to `linalg.matmul` ([M, K] x [K, N]), the same as a generic with its maps and `out + lhs *
rhs` (a 1-D conv's im2col contraction, filters x patches: wav2vec2's feature encoder 131 -> 85
ms a call, its 512 x 1536 . 1536 x 199 conv 23 -> 3 ms), and batch-1 `linalg.batch_matmul` over
a [K, N] or [1, K, N] weight (any producer: argument, constant or computed), static f32, directly in a
`flow.dispatch.region`, with no config of its own yet, M a multiple of the row tile and N of the
column tile (no partial register tiles to mask). Also to the multi-result generic of
`linalg-horizontal-fuse-contractions` (one activation, a weight per result, matmul maps): each
result gets a share of the columns' four vectors (2 results 2 each, 3 or more 1 each), so all
the accumulators still fit the 32 vector registers.

Partial register tiles (`partial-tiles`, on by default): a matmul, batch-1 or batched
(`linalg.batch_matmul` [B, M, K] x [B, K, N], attention's contractions, or the same as a
generic `out + lhs * rhs` whose right operand holds b, k, n in any order but n last: torch's
attention times V read in the projection's [T, H, d] layout) whose M or N is not a
multiple of the register tile, but holds at least one whole tile in each, gets the same register
tile with IREE's loop peeling (`enable_loop_peeling` in the translation info: the remainder rows
and columns run as a separate static loop instead of IREE's masked vectors), and workgroups
whose own tiles leave no remainder: rows as above, else all M; `workgroup` columns where they
divide N, else all N; one batch each. A 2-D matmul's columns are the exception
(`column-remainders`): `workgroup` columns and a remainder workgroup, as whole-N workgroups
re-read a weight past L2 for every row strip (a decoder's LM head and gate/up projection). IREE's own kernel masks the remainder and is 3x-30x slower
there: a ViT's 197 tokens (bench/RESULTS.md, "Held-out models at 224x224") 197x384 . 384x1536
15.2 ms -> 2.5 ms, the scores 6 x 197x64 . 64x197 9.1 ms -> 0.31 ms, probabilities times V
(the generic) 0.57 ms -> 0.27 ms. Whole-M or whole-N
workgroups mean fewer of them: measured on one thread only. A batched matmul whose tiles all
fit (the corpus transformers' 64-token attention) keeps IREE's choice (not measured).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.dialects.linalg_contraction import MATMUL_MAPS as MATMUL_MAP_ATTRS
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.linalg.linalg_conv_channels_last import is_dense_constant
from fusionopt.transforms.dispatch.matmul_regions_to_mmt4d import (
    BATCH_MATMUL_MAPS,
    BROADCAST_WEIGHT_MAPS,
    cpu_compilation_info,
    matmul_sizes,
    static_f32_shape,
)

MATMUL_MAPS = tuple(m.data for m in MATMUL_MAP_ATTRS.data)  # linalg.matmul's default (row-major) maps
PEELING = "enable_loop_peeling = true"  # IREE llvm-cpu's translation-info option


def plain_matmul_sizes(op: Operation) -> tuple[int, int, int] | None:
    """(M, K, N) of a static f32 2-D `linalg.matmul` with its default (row-major) maps."""
    if op.name != "linalg.matmul" or tuple(du.indexing_maps(op)) != MATMUL_MAPS:
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or len(shapes) != 3:
        return None
    (m, k), (_, n) = shapes[0], shapes[1]
    return m, k, n


def has_constant_weights(op: Operation) -> bool:
    """`op`'s right operand is a dense constant: Winograd's tile products (16 x P x C times a
    constant 16 x C x F) of one panel of filters (64 or fewer; wider ones are packed by
    `linalg-pack-matmul-weights`), which IREE's own tile runs best (16 x 49 x 256 x 256 0.97 ms
    a call, 1.59 with the partial 4 x 64 tile; 16 x 784 x 64 x 64 and 16 x 196 x 128 x 128
    within 4%)."""
    return is_dense_constant(op.operands[1])


def batched_sizes(op: Operation) -> tuple[int, int, int, int] | None:
    """(B, M, K, N) of a static f32 `linalg.batch_matmul` [B, M, K] x [B, K, N] with B > 1 over
    a weight computed per call (attention's; `has_constant_weights`)."""
    if op.name != "linalg.batch_matmul" or tuple(du.indexing_maps(op)) != BATCH_MATMUL_MAPS:
        return None
    if has_constant_weights(op):
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or len(shapes) != 3 or shapes[0][0] < 2:
        return None
    (b, m, k), n = shapes[0], shapes[1][-1]
    return b, m, k, n


MATMUL_LOOPS = ["parallel", "parallel", "reduction"]  # (m, n, k)


def generic_matmul_sizes(op: Operation) -> tuple[int, int, int] | None:
    """(M, K, N) of a 2-D matmul written as a generic with `linalg.matmul`'s maps (out += lhs *
    rhs): a 1-D conv's im2col contraction, filters x patches (wav2vec2's feature encoder), both
    operands loaded from outside its region. One whose patches an `iree_linalg_ext.im2col` in
    the same region computes keeps IREE's tile: IREE 3.13 fails to build that region with ours
    ("failed to run translation": inception_mini's 5x5 branch under `-fewest`)."""
    if (op.name != "linalg.generic" or len(op.results) != 1 or len(du.dps_inputs(op)) != 2
            or du.iterator_kinds(op) != MATMUL_LOOPS or tuple(du.indexing_maps(op)) != MATMUL_MAPS):
        return None
    region = op.parent_op()
    if region is not None and any(du.defined_inside(v, region) for v in du.dps_inputs(op)):
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or not multiplies_into_accumulator(op):
        return None
    (m, k), (_, n) = shapes[0], shapes[1]
    return m, k, n


BATCHED_LOOPS = ["parallel", "parallel", "parallel", "reduction"]  # (b, m, n, k)


def batched_generic_sizes(op: Operation) -> tuple[int, int, int, int] | None:
    """(B, M, K, N) of a batched matmul written as a generic (out += lhs * rhs over loops
    (b, m, n, k)) reading [B, M, K] and the right operand's b, k, n in any order but n last
    (contiguous columns: what the register tile's vectors load), e.g. torch's attention
    times V read in the [T, H, d] layout of the Q/K/V projection: static f32, B > 1."""
    if (op.name != "linalg.generic" or len(op.results) != 1 or len(du.dps_inputs(op)) != 2
            or du.iterator_kinds(op) != BATCHED_LOOPS):
        return None
    b, m, n, k = (AffineDimExpr(i) for i in range(4))
    lhs, rhs, out = du.indexing_maps(op)
    if (lhs.results, out.results) != ((b, m, k), (b, m, n)) or rhs.results[-1:] != (n,) or set(rhs.results) != {b, k, n}:
        return None
    if not multiplies_into_accumulator(op) or None in (static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))):
        return None
    extents = du.loop_extents(op)
    return (extents[0], extents[1], extents[3], extents[2]) if extents[0] > 1 else None


def multiplies_into_accumulator(op: Operation) -> bool:
    """The body is exactly `yield out + lhs * rhs` (f32)."""
    block = op.regions[0].block
    body = list(block.ops)
    if [o.name for o in body] != ["arith.mulf", "arith.addf", "linalg.yield"]:
        return False
    mul, add, _ = body
    lhs, rhs, acc = block.args
    return set(mul.operands) == {lhs, rhs} and mul.operands[0] is not mul.operands[1] and set(add.operands) == {acc, mul.results[0]}


def whole_or_dividing(extent: int, step: int, cap: int, otherwise: int | None = None) -> int:
    """The largest multiple of `step` up to `cap` that divides `extent`, else `otherwise` (all of
    `extent` by default): a workgroup tile with no remainder (IREE's remainder workgroup has
    dynamic sizes)."""
    fitting = [d for d in range(step, min(extent, cap) + 1, step) if extent % d == 0]
    return max(fitting, default=extent if otherwise is None else otherwise)


@dataclass(frozen=True)
class RegisterTile:
    rows: int
    columns: int
    reduction: int
    workgroup: int
    workgroup_rows: int = 256
    column_remainders: bool = False
    split_rows: bool = False

    def rows_per_workgroup(self, m: int) -> int:
        """The most output rows per workgroup that divide M: a multiple of the register tile's
        rows, at most `workgroup_rows` (`rows` itself when nothing larger divides M)."""
        fitting = [d for d in range(self.rows, min(m, self.workgroup_rows) + 1, self.rows) if m % d == 0]
        return max(fitting, default=self.rows)

    def tiles(self, batched: bool, m: int) -> dict[str, list[int]]:
        """IREE CPU tile lists for M output rows; a batch_matmul's loops are (b, m, n, k)."""
        lead = [0] if batched else []
        return {
            "distribution": lead + [self.rows_per_workgroup(m), self.workgroup, 0],
            "vector_common_parallel": ([1] if batched else []) + [self.rows, self.columns, 0],
            "vector_reduction": lead + [0, 0, self.reduction],
        }

    def fits(self, m: int, n: int) -> bool:
        return m % self.rows == 0 and n % self.columns == 0

    def peelable(self, m: int, n: int) -> bool:
        """Partial register tiles, with at least one whole tile in each of M and N."""
        return not self.fits(m, n) and m >= self.rows and n >= self.columns

    def peeled_tiles(self, lead: list[int], m: int, n: int) -> dict[str, list[int]]:
        """IREE CPU tile lists for partial register tiles: workgroups that divide M (else all
        of it) and `workgroup` columns (with `column_remainders` also where they leave a
        remainder workgroup, unless batched; else all of N), `lead` the batch loop's tiles ([]
        for a 2-D matmul). With `split_rows`, a matmul that would be one workgroup (no batch
        loop distributed) splits its rows instead."""
        rows = whole_or_dividing(m, self.rows, self.workgroup_rows)
        remainder = self.column_remainders and n > self.workgroup and 1 not in lead
        columns = self.workgroup if n % self.workgroup == 0 or remainder else n
        if self.split_rows and (rows, columns) == (m, n) and 1 not in lead:
            rows = whole_or_dividing(m, self.rows, m // 2) if m >= 2 * self.rows else rows
        return {
            "distribution": lead + [rows, columns, 0],
            "vector_common_parallel": [1] * len(lead) + [self.rows, self.columns, 0],
            "vector_reduction": [0] * len(lead) + [0, 0, self.reduction],
        }

    def per_result(self, count: int) -> RegisterTile:
        """The tile of each of `count` results computed together: the columns' vectors shared out
        (four vectors: one result 4, two 2 each, three or more 1 each), so the accumulators of
        all results still fit the registers."""
        if count == 1:
            return self
        vector = self.columns // 4 if self.columns % 4 == 0 else self.columns
        return replace(self, columns=vector * max(1, 4 // count))


def horizontal_sizes(op: Operation) -> tuple[int, int, int, int] | None:
    """(M, K, N, results) of `linalg-horizontal-fuse-contractions`' multi-result generic: one
    activation, one weight per result, the maps of a 2-D matmul or of a batch-1 matmul."""
    count = len(op.results)
    if op.name != "linalg.generic" or count < 2 or len(du.dps_inputs(op)) != count + 1:
        return None
    maps = du.indexing_maps(op)
    weights, outs = set(maps[1:1 + count]), set(maps[1 + count:])
    if len(weights) != 1 or len(outs) != 1:
        return None
    triple = (maps[0], *weights, *outs)
    if triple not in (MATMUL_MAPS, BROADCAST_WEIGHT_MAPS, BATCH_MATMUL_MAPS):
        return None
    shapes = [static_f32_shape(v) for v in (*du.dps_inputs(op), *du.dps_inits(op))]
    if None in shapes or (len(shapes[0]) == 3 and shapes[0][0] != 1):
        return None
    return shapes[0][-2], shapes[0][-1], shapes[-1][-1], count


def tileable_sizes(op: Operation) -> tuple[int, int, int, int] | None:
    """(M, K, N, results) of a matmul this pass may configure: in a region, not configured yet."""
    if not in_region_unconfigured(op):
        return None
    if (sizes := plain_matmul_sizes(op) or generic_matmul_sizes(op) or matmul_sizes(op)) is not None:
        return (*sizes, 1)
    return horizontal_sizes(op)


def in_region_unconfigured(op: Operation) -> bool:
    """`op` sits in a dispatch region with no config yet, in the loops IREE will tile."""
    return ("compilation_info" not in op.attributes and isinstance(op.parent_op(), DispatchRegionOp)
            and not reads_reshaped_strided_slice(op))


def reads_reshaped_strided_slice(op: Operation) -> bool:
    """Whether `op` reads a reshape, made in its region, of a slice that is not one linear range
    (LeViT's subsampled queries: every other pixel's 128 channels of a 7 x 7 x 2 x 128 image,
    collapsed to 49 x 128). IREE cannot fold that reshape into the strided load, so its codegen
    expands `op`'s loops through it (49 rows become 7 x 7) and a lowering config written for
    the region's loops no longer fits: "failed to build pass pipeline", or the rows vectorised
    whole ("large vector sizes"). IREE's own config is chosen after the expansion."""
    for operand in op.operands:
        source = operand.owner
        if not (isinstance(source, Operation) and du.is_reshape(source)):
            continue
        while isinstance(source, Operation) and du.is_reshape(source) and source.parent_op() is op.parent_op():
            source = source.operands[0].owner
        if (isinstance(source, Operation) and source.name == "tensor.extract_slice"
                and source.parent_op() is op.parent_op() and not du.slice_is_contiguous(source)):
            return True
    return False


def peeled_config(op: Operation, tile: RegisterTile) -> dict[str, list[int]] | None:
    """The tile lists of a one-result matmul with partial register tiles, else None."""
    if not in_region_unconfigured(op):
        return None
    if (sizes := plain_matmul_sizes(op) or generic_matmul_sizes(op)) is not None:
        lead = []
    elif (sizes := matmul_sizes(op)) is not None:
        lead = [0]
    elif (batched := batched_sizes(op) or batched_generic_sizes(op)) is not None:
        sizes, lead = batched[1:], [1]
    else:
        return None
    m, _, n = sizes
    return tile.peeled_tiles(lead, m, n) if tile.peelable(m, n) else None


def drop_configs_over_strided_reshapes(module: ModuleOp) -> None:
    """A config the linalg stage wrote (packed weights' panels) on an op that region formation
    then gave a reshaped strided slice to read (`reads_reshaped_strided_slice`) no longer fits
    the loops IREE will tile: the op is left to IREE's own config."""
    for op in list(module.walk()):
        if ("compilation_info" in op.attributes and isinstance(op.parent_op(), DispatchRegionOp)
                and reads_reshaped_strided_slice(op)):
            del op.attributes["compilation_info"]
            pass_statistics.count("configs dropped: the region reshapes a strided slice the op reads")


@dataclass(frozen=True)
class DispatchMatmulCpuTilesPass(ModulePass):
    """f32 matmul regions -> IREE llvm-cpu register tile rows x columns (4 x 64).

    Options:
      rows      -- output rows per register tile (4).
      columns   -- output columns per register tile (64: four AVX-512 f32 vectors).
      reduction -- reduction steps unrolled per register tile (16, IREE's own).
      workgroup -- output columns per workgroup (64).
      workgroup-rows -- most output rows per workgroup (256): the largest multiple of `rows`
                   that divides M, up to this. A workgroup tile that leaves a remainder of M
                   makes IREE's whole dispatch slow (348 x 768 . 768 x 2304 with 64 rows:
                   1.06x of IREE's own choice; with 116: 0.49x), and more rows reuse each
                   weight tile longer (M = 128 and 512: 0.74x and 0.76x of IREE with 64 rows,
                   0.69x with 128 and 256; bench/RESULTS.md, "Matmul workgroups that divide M").
      partial-tiles -- also configure one-result matmuls (batched ones too) whose M or N leaves a
                   partial register tile, with IREE's loop peeling (true).
      column-remainders -- a peeled 2-D matmul whose N is not a multiple of `workgroup` gets
                   `workgroup` columns per workgroup and a remainder workgroup, not all of N in
                   one (true). A decoder's 1000-token LM head or fused gate/up projection (2 x
                   688) as one workgroup runs each 4-row strip across the whole weight (1-1.4 MB,
                   past L2) and gives a second thread nothing; 64-column workgroups keep their
                   64 KB weight strip in L2 for all rows: in the held-out llama, 0.88x (gate/up)
                   and 0.83x (LM head) per dispatch, one thread (bench/RESULTS.md).
      split-rows -- a peeled matmul that would still be one workgroup (all of M and of N)
                   gets its rows split into the largest multiple of `rows` dividing M, at most
                   M / 2, so a second thread has work (true; needs M >= 2 rows). Each such
                   workgroup reads the whole weight.
    """

    name = "dispatch-matmul-cpu-tiles"
    rows: int = 4
    columns: int = 64
    reduction: int = 16
    workgroup: int = 64
    workgroup_rows: int = 256
    partial_tiles: bool = True
    split_rows: bool = True
    column_remainders: bool = True

    def __post_init__(self) -> None:
        sizes = (self.rows, self.columns, self.reduction, self.workgroup, self.workgroup_rows)
        if min(sizes) < 1 or self.workgroup % self.columns or self.workgroup_rows < self.rows:
            raise ValueError("rows, columns, reduction, workgroup and workgroup-rows must be positive, workgroup a "
                             "multiple of columns and workgroup-rows at least rows (IREE tiles a workgroup by whole "
                             f"register tiles), not {sizes}")

    def register_tile(self) -> RegisterTile:
        return RegisterTile(self.rows, self.columns, self.reduction, self.workgroup, self.workgroup_rows,
                            self.column_remainders, self.split_rows)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        drop_configs_over_strided_reshapes(op)
        tile = self.register_tile()
        for matmul in list(op.walk()):
            sizes = tileable_sizes(matmul)
            if sizes is None or not tile.per_result(sizes[3]).fits(sizes[0], sizes[2]):
                if self.partial_tiles:
                    self.configure_peeled(matmul, tile)
                continue
            m, _, n, count = sizes
            own = tile.per_result(count)
            tiles = own.tiles(len(du.indexing_maps(matmul)[0].results) == 3, m)
            matmul.attributes["compilation_info"] = cpu_compilation_info(tiles, "DoubleTilingExpert")
            pass_statistics.count("matmuls given a wide CPU register tile")

    def configure_peeled(self, matmul: Operation, tile: RegisterTile) -> None:
        if (peeled := peeled_config(matmul, tile)) is None:
            return
        if peeled != peeled_config(matmul, replace(tile, split_rows=False)):
            pass_statistics.count("peeled matmuls split over row workgroups")
        if peeled != peeled_config(matmul, replace(tile, column_remainders=False)):
            pass_statistics.count("peeled matmuls given column workgroups with a remainder")
        matmul.attributes["compilation_info"] = cpu_compilation_info(peeled, "DoubleTilingExpert", PEELING)
        pass_statistics.count("matmuls given a wide CPU register tile with peeled remainders")
