"""`dispatch-transpose-unit-loops`: an all-parallel generic that a dispatch region returns, which
reads its one input transposed and iterates unit loops that input does not read (a batch-1
output dim), computes without those loops; an `expand_shape` gives the region its result back.

Why: IREE 3.13's llvm-cpu backend runs a generic whose one input map is a full permutation of
its loops as a transpose (8 x 8 blocks transposed in registers), but one whose input map leaves
a loop out as a broadcast: each output vector gathered element by element from input rows far
apart. Attention's K, scaled and written [1, heads, dim, keys] for the Q.K^T product, is the
second: vit_s16_6l's (keys 197, heads 6 x dim 64, from rows of 1152) took 112 us a dispatch,
the same generic without its unit loop 10.9 us (one Zen 4 core, HAL profile).

Applied where the input map reads loops only (no constants), the output map is the identity,
the generic is the region's only structured op and what it returns, and static shapes. The
generic computes the same elements. CPU pipelines only.

No options. Statistics: `transposing generics without their unread unit loops`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand
from fusionopt.transforms.linalg.channels_last_propagation import erase_with_dead_inits
from fusionopt.transforms.linalg.linalg_fold_unit_reshapes import dropping_groups

STATISTIC = "transposing generics without their unread unit loops"


def unread_unit_loops(op: Operation) -> list[int] | None:
    """The unit loops the one input of a transposing all-parallel generic (identity output map,
    input read through loops only, its innermost not the output's) does not read; None when
    `op` is no such generic or there are none."""
    if op.name != "linalg.generic" or not du.is_all_parallel(op) or len(du.dps_inputs(op)) != 1:
        return None
    read, write = du.indexing_maps(op)
    if not du.is_identity_map(write) or not read.results or not all(isinstance(e, AffineDimExpr) for e in read.results):
        return None
    extents = du.loop_extents(op)
    read_loops = [e.position for e in read.results]  # type: ignore[attr-defined]
    innermost = len(extents) - 1
    if None in extents or read_loops[-1] == innermost or innermost not in read_loops:
        return None
    unread = [d for d, size in enumerate(extents) if size == 1 and d not in read_loops]
    return unread or None


def is_returned_alone(op: Operation, region: Operation) -> bool:
    """`op` is `region`'s only structured op and its result is all the region returns."""
    returned = region.body.block.last_op.operands  # type: ignore[attr-defined]
    alone = all(o is op or not du.is_linalg(o) for o in region.walk() if o is not region)
    return alone and len(returned) == 1 and returned[0] is op.results[0]


def kept_loops_map(m: AffineMap, dropped: list[bool]) -> AffineMap:
    """`m` over the kept loops only (renumbered in order), its results on the dropped ones gone."""
    on_dropped = [isinstance(e, AffineDimExpr) and dropped[e.position] for e in m.results]
    return m.drop_results(on_dropped).drop_dims(dropped)


def drop_loops(op: Operation, unread: list[int], rewriter: PatternRewriter) -> None:
    """`op` recomputed over its other loops into a new empty; its result expanded back."""
    result_type = op.results[0].type
    shape = list(result_type.get_shape())  # type: ignore[attr-defined]
    dropped = [d in unread for d in range(len(shape))]
    kept = [d for d in range(len(shape)) if not dropped[d]]
    reduced = TensorType(result_type.get_element_type(), [shape[d] for d in kept])  # type: ignore[attr-defined]
    empty = tensor.EmptyOp([], reduced)
    maps = ArrayAttr([AffineMapAttr(kept_loops_map(m, dropped)) for m in du.indexing_maps(op)])
    iterators = ArrayAttr([op.iterator_types.data[d] for d in kept])  # type: ignore[attr-defined]
    generic = GenericOp(list(du.dps_inputs(op)), [empty.tensor], rewriter.move_region_contents_to_new_regions(op.regions[0]),
                        maps, iterators, [reduced])
    back = expand(generic.results[0], dropping_groups(len(shape), kept), result_type)  # type: ignore[arg-type]
    rewriter.insert_op([empty, generic, back], InsertPoint.before(op))
    erase_with_dead_inits(op, rewriter, [back.results[0]])


@dataclass
class DropUnreadUnitLoops(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        region = op.parent_op()
        if not isinstance(region, DispatchRegionOp) or "compilation_info" in op.attributes:
            return
        if (unread := unread_unit_loops(op)) is not None and is_returned_alone(op, region):
            drop_loops(op, unread, rewriter)
            pass_statistics.count(STATISTIC)


@dataclass(frozen=True)
class DispatchTransposeUnitLoopsPass(ModulePass):
    """Transposing generics alone in their regions compute without the unit loops their input
    does not read (module docstring). No options."""

    name = "dispatch-transpose-unit-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass_statistics.count(STATISTIC, 0)
        PatternRewriteWalker(DropUnreadUnitLoops(), apply_recursively=False).rewrite_module(op)
