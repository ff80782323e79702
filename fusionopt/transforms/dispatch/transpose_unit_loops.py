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
from xdsl.ir import Operation, Region
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt import pass_statistics
from fusionopt.dialects.flow import DispatchRegionOp
from fusionopt.dialects.linalg import GenericOp
from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.common.reshapes import expand

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
    shape = op.results[0].type.get_shape() if isinstance(op.results[0].type, TensorType) else None  # type: ignore[attr-defined]
    read_loops = [e.position for e in read.results]  # type: ignore[attr-defined]
    if shape is None or -1 in shape or read_loops[-1] == len(shape) - 1 or len(shape) - 1 not in read_loops:
        return None
    unread = [d for d, size in enumerate(shape) if size == 1 and d not in read_loops]
    return unread or None


def is_returned_alone(op: Operation, region: Operation) -> bool:
    """`op` is `region`'s only structured op and its result is all the region returns."""
    returned = region.body.block.last_op.operands  # type: ignore[attr-defined]
    alone = all(o is op or not du.is_linalg(o) for o in region.walk() if o is not region)
    return alone and len(returned) == 1 and returned[0] is op.results[0]


def kept_loops_map(m: AffineMap, kept: list[int]) -> AffineMap:
    """`m` over the kept loops only (renumbered in order), its results on the others dropped."""
    position = {loop: i for i, loop in enumerate(kept)}
    results = (AffineDimExpr(position[e.position]) for e in m.results if e.position in position)  # type: ignore[attr-defined]
    return AffineMap(len(kept), 0, tuple(results))


def drop_loops(op: Operation, unread: list[int]) -> None:
    """`op` recomputed over its other loops into a new empty; its result expanded back."""
    shape = list(op.results[0].type.get_shape())  # type: ignore[attr-defined]
    kept = [d for d in range(len(shape)) if d not in unread]
    element = op.results[0].type.get_element_type()  # type: ignore[attr-defined]
    reduced = TensorType(element, [shape[d] for d in kept])
    empty = tensor.EmptyOp([], reduced)
    read, write = du.indexing_maps(op)
    iterators = ArrayAttr([op.iterator_types.data[d] for d in kept])  # type: ignore[attr-defined]
    body = Region()
    op.regions[0].move_blocks(body)
    maps = ArrayAttr([AffineMapAttr(kept_loops_map(m, kept)) for m in (read, write)])
    generic = GenericOp(list(du.dps_inputs(op)), [empty.tensor], body, maps, iterators, [reduced])
    back = expand(generic.results[0], expanded_groups(len(shape), kept), TensorType(element, shape))
    Rewriter.insert_op([empty, generic, back], InsertPoint.before(op))
    old_init = du.dps_inits(op)[0].owner
    Rewriter.replace_op(op, [], [back.results[0]])
    if isinstance(old_init, tensor.EmptyOp) and not old_init.results[0].uses:
        Rewriter.erase_op(old_init)


def expanded_groups(rank: int, kept: list[int]) -> list[list[int]]:
    """Reassociation from the kept loops back to all `rank`: each dropped unit loop joins the
    group of the next kept loop (the last kept one's, past the end)."""
    groups: list[list[int]] = [[] for _ in kept]
    index = 0
    for d in range(rank):
        groups[min(index, len(kept) - 1)].append(d)
        if d in kept:
            index += 1
    return groups


@dataclass(frozen=True)
class DispatchTransposeUnitLoopsPass(ModulePass):
    """Transposing generics alone in their regions compute without the unit loops their input
    does not read (module docstring). No options."""

    name = "dispatch-transpose-unit-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass_statistics.count(STATISTIC, 0)
        for generic in [o for o in op.walk() if o.name == "linalg.generic"]:
            region = generic.parent_op()
            if not isinstance(region, DispatchRegionOp) or "compilation_info" in generic.attributes:
                continue
            if (unread := unread_unit_loops(generic)) is not None and is_returned_alone(generic, region):
                drop_loops(generic, unread)
                pass_statistics.count(STATISTIC)
