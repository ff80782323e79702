"""How a consumer walks a producer's loops (IREE: "compatible outer parallel loops"): the
queries `form-dispatch-regions`, its reduction chains and `linalg-interchange-for-fusion` decide
with, so the linalg stage prepares exactly what region formation accepts."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from fusionopt.transforms.common import dispatch_utils as du


def is_transposing(op: Operation) -> bool:
    """An elementwise linalg op one of whose maps does not read its loop dims in order."""
    return du.is_elementwise_linalg(op) and not all(du.reads_dims_in_order(m) for m in du.indexing_maps(op))


def outer_parallel_loops(root: Operation) -> int:
    """Number of leading parallel loops of the root (the loops tile+fuse distributes)."""
    count = 0
    for kind in du.iterator_kinds(root):
        if kind != "parallel":
            break
        count += 1
    return count


def reads_root_result_compatibly(root: Operation, consumer: Operation, value: SSAValue) -> bool:
    """IREE's "compatible outer parallel loops": the consumer must walk the root's outer
    parallel dims of `value` with its own loops in the same order (zeros allowed), i.e. read
    them through an identity map, through every map it reads `value` by: a second read along
    other loops (`x_i > x_j` after the reduction that made x) needs elements of other tiles,
    and IREE's build silently computes it from the tile's own. A permuted read needs
    `linalg-interchange-for-fusion` first.
    IREE tiles an attention root along its output's dims, so an epilogue that reads that output
    in its own loop order walks the same tiles."""
    if root.name == "iree_linalg_ext.attention":
        return reads_in_loop_order(consumer, value)
    root_map = du.result_map(root, list(root.results).index(value))
    consumer_maps = du.operand_maps(consumer, value)
    if root_map is None or not consumer_maps:
        return False
    outer = outer_parallel_loops(root)
    outer_dims = [r is not None and r < outer for r in du.dims_read(root_map)]
    extents = du.loop_extents(consumer)
    non_unit = [d for d in range(len(extents)) if extents[d] != 1]
    return all(_walks_root_dims(outer_dims, m, non_unit) for m in consumer_maps)


def _walks_root_dims(outer_dims: list[bool], consumer_map: AffineMap, non_unit: list[int]) -> bool:
    """`consumer_map` reads the root's outer parallel dims (`outer_dims`) with the consumer's
    loops in order, loops of extent 1 left out (what IREE's FoldUnitExtentDims would drop)."""
    if not consumer_map.is_projected_permutation(allow_zero_in_results=True):
        return False
    walked = [c for outer, c in zip(outer_dims, du.dims_read(consumer_map)) if outer and c is not None]
    walked = [non_unit.index(c) for c in walked if c in non_unit]
    return walked == list(range(len(walked)))


def reads_in_loop_order(consumer: Operation, value: SSAValue) -> bool:
    """`consumer` reads `value`'s non-broadcast dims with its own loops in increasing order
    (loops of extent 1 ignored), through every map it reads `value` by: an elementwise walk, no
    transposition."""
    consumer_maps = du.operand_maps(consumer, value)
    extents = du.loop_extents(consumer)

    def in_order(m: AffineMap) -> bool:
        if not m.is_projected_permutation(allow_zero_in_results=True):
            return False
        walked = [d for d in du.dims_read(m) if d is not None and extents[d] != 1]
        return walked == sorted(walked)
    return bool(consumer_maps) and all(in_order(m) for m in consumer_maps)


def skips_a_loop(value_map: AffineMap, extents: list[int | None]) -> bool:
    """`value_map` uses some loop of extent > 1 in none of its results (a window's `2 * d3 + d1`
    uses both): the consumer broadcasts the value along it."""
    read = value_map.used_dims()
    return any(extent != 1 and loop not in read for loop, extent in enumerate(extents))
