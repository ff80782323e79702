"""`linalg-shrink-broadcast-generics`: compute a broadcast-invariant generic once, not per copy.

An all-parallel `linalg.generic` whose inputs and payload ignore some of its loops computes
the same value along those loops: it is a broadcast of a smaller computation. torch-mlir's
attention mask is the typical case (bert_mini): a 64-element gather of `attention_mask`,
index arithmetic and bounds asserts included, lands in a 1x1x64x64 generic once elementwise
fusion has absorbed the gather into the broadcast that follows it, so the gather is redone for
each of the 64 query rows. IREE computes the 64 mask values once and broadcasts them
(bench/RESULTS.md, "Per-dispatch times": our 64x64 mask dispatch took 3.8 us, IREE's 1.0).

The rewrite drops the ignored loops: the generic iterates only the loops its value depends
on, and each consumer reads the smaller result through its own indexing map with the dropped
results removed, which is the broadcast, now free inside the consumer's loop nest.

Applied only when it is exact and local:
- the generic is all-parallel with one result written through a permutation, and never reads
  its init (the block's output argument is unused);
- every user reads the result as an input of a `linalg.generic` (a consumer's indexing map is
  the only place the broadcast can go without materialising it), and each of its loops is still
  named by one of its maps afterwards (a reduction over the broadcast loop keeps the broadcast);
- some dropped loop has extent > 1 (unit loops cost nothing).
No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from fusionopt import pass_statistics
from fusionopt.dialects.linalg_generic import GenericOp
from fusionopt.transforms.common import dispatch_utils as du


def loops_the_value_depends_on(op: Operation) -> set[int]:
    """Loops read by some input map or named by a `linalg.index` in the payload."""
    used: set[int] = set()
    for m in du.indexing_maps(op)[: len(du.dps_inputs(op))]:
        used |= m.used_dims()
    for inner in op.regions[0].walk():
        if inner.name == "linalg.index":
            used.add(inner.properties["dim"].value.data)
    return used


def reads_its_init(op: Operation) -> bool:
    block = op.regions[0].block
    return any(arg.uses for arg in block.args[len(du.dps_inputs(op)) :])


def is_generic_input_use(use) -> bool:
    user = use.operation
    return user.name == "linalg.generic" and use.index < len(du.dps_inputs(user))


def droppable_loops(op: Operation) -> list[int]:
    """Loops the generic iterates but its value does not depend on; [] when not applicable."""
    if op.name != "linalg.generic" or len(op.results) != 1 or not du.is_all_parallel(op):
        return []
    out_map = du.result_map(op, 0)
    if out_map is None or not du.is_permutation_map(out_map) or reads_its_init(op):
        return []
    if not op.results[0].uses or not all(is_generic_input_use(u) for u in op.results[0].uses):
        return []
    extents = du.loop_extents(op)
    dropped = sorted(set(range(out_map.num_dims)) - loops_the_value_depends_on(op))
    if not any(extents[d] is None or extents[d] > 1 for d in dropped):
        return []
    positions = result_positions(out_map, dropped)
    if not all(still_names_every_loop(u.operation, op.results[0], positions) for u in op.results[0].uses):
        return []
    return dropped


def result_positions(out_map: AffineMap, loops: list[int]) -> set[int]:
    """Positions of the output map's results that are the given loops."""
    return {i for i, e in enumerate(out_map.results) if e.position in loops}


def smaller_result_static(op: Operation, dropped: list[int]) -> bool:
    """The result without the dropped loops' dims has a static shape (a dynamic one's
    tensor.empty would need sizes the generic does not carry)."""
    positions = result_positions(du.indexing_maps(op)[len(du.dps_inputs(op))], dropped)
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    return all(size != DYNAMIC_INDEX for i, size in enumerate(shape) if i not in positions)


def maps_reading_smaller(user: Operation, value: SSAValue, positions: set[int]) -> list[AffineMap]:
    """`user`'s indexing maps, with `value`'s read losing the results at `positions`."""
    operands = [*du.dps_inputs(user), *du.dps_inits(user)]
    return [without_results(m, positions) if v is value else m for v, m in zip(operands, du.indexing_maps(user))]


def still_names_every_loop(user: Operation, value: SSAValue, positions: set[int]) -> bool:
    """After `value`'s map loses `positions`, every loop of `user` is still read by some map
    (a reduction of the broadcast value may iterate a loop only that read names)."""
    maps = maps_reading_smaller(user, value, positions)
    named = set().union(*(m.used_dims() for m in maps))
    return named == set(range(maps[0].num_dims))


def without_dims(m: AffineMap, dropped: list[int]) -> AffineMap:
    """`m` over the kept loops only (renumbered); `m` must not mention a dropped loop."""
    return m.drop_dims([d in dropped for d in range(m.num_dims)])


def without_results(m: AffineMap, positions: set[int]) -> AffineMap:
    return AffineMap(m.num_dims, m.num_symbols, tuple(e for i, e in enumerate(m.results) if i not in positions))


def renumber_index_ops(op: Operation, kept: list[int]) -> None:
    new_position = {old: new for new, old in enumerate(kept)}
    for inner in op.regions[0].walk():
        if inner.name == "linalg.index":
            dim = inner.properties["dim"]
            inner.properties["dim"] = IntegerAttr(new_position[dim.value.data], dim.type)


def shrunk_generic(op: Operation, dropped: list[int], rewriter: PatternRewriter) -> tuple[Operation, set[int]]:
    """The generic over the loops not dropped, and the result positions that were dropped."""
    maps = du.indexing_maps(op)
    n_in = len(du.dps_inputs(op))
    out_map = maps[n_in]
    kept = [d for d in range(out_map.num_dims) if d not in dropped]
    dropped_positions = result_positions(out_map, dropped)
    result_type = op.results[0].type
    shape = [s for i, s in enumerate(result_type.get_shape()) if i not in dropped_positions]
    empty = tensor.EmptyOp([], TensorType(result_type.element_type, shape))
    new_maps = [without_dims(m, dropped) for m in maps[:n_in]]
    new_maps.append(without_dims(without_results(out_map, dropped_positions), dropped))
    iterators = [op.properties["iterator_types"].data[d] for d in kept]
    renumber_index_ops(op, kept)
    body = op.regions[0].clone()
    new_op = GenericOp(list(du.dps_inputs(op)), [empty.tensor], body, ArrayAttr([AffineMapAttr(m) for m in new_maps]), iterators, [empty.tensor.type])
    rewriter.insert([empty, new_op], InsertPoint.before(op))
    return new_op, dropped_positions


def read_through_smaller(user: Operation, old: SSAValue, new: SSAValue, dropped: set[int]) -> None:
    new_maps = maps_reading_smaller(user, old, dropped)
    du.set_indexing_maps(user, new_maps)
    for i, operand in enumerate(user.operands):
        if operand is old:
            user.operands[i] = new


class ShrinkBroadcastGeneric(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        dropped = droppable_loops(op)
        if not dropped or not smaller_result_static(op, dropped):
            return
        new_op, dropped_positions = shrunk_generic(op, dropped, rewriter)
        old = op.results[0]
        for use in list(old.uses):
            read_through_smaller(use.operation, old, new_op.results[0], dropped_positions)
            rewriter.handle_operation_modification(use.operation)
        rewriter.erase(op)
        pass_statistics.count("broadcast loops dropped", len(dropped))


@dataclass(frozen=True)
class LinalgShrinkBroadcastGenericsPass(ModulePass):
    """Compute an all-parallel generic only over the loops its value depends on; consumers
    broadcast the smaller result through their indexing maps. No options."""

    name = "linalg-shrink-broadcast-generics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ShrinkBroadcastGeneric(), apply_recursively=True).rewrite_module(op)
