"""slice(reshape(x)) -> reshape(slice(x)) when the cut is a contiguous block of x as well.

A reshape keeps the elements' order, so it splits into groups of consecutive axes with equal
sizes on both sides (`reassociation`: 197x1x1152 -> 1x197x1x3x384 is {197 -> 1x197, 1 -> 1,
1152 -> 3x384}). A slice that, within each group, cuts only the group's outermost non-unit
axis keeps a contiguous run of the group's elements; when that run is whole rows of the
source group's outermost non-unit axis, it is a slice of x too (3x384 at [1:2] is 1152 at
[384:768]). Only when every reader of the reshape is a slice (as `SliceOfTranspose`), so no
reshape is left twice, and not into a transpose that would stay one (`frees_its_transpose`).
Exact: the same elements in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from fusionopt import pass_statistics
from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import shape_of
from fusionopt.transforms.graph.graph_ir import (
    make_slice, moves_only_unit_axes, on_operand_axes, read_only_by_slices, slice_bounds,
)

Group = tuple[list[int], list[int]]  # (source axes, result axes)


def reassociation(source: Sequence[int], result: Sequence[int]) -> list[Group] | None:
    """The reshape's groups of consecutive axes with equal element counts; None for dynamic or
    zero-sized shapes."""
    if any(d <= 0 for d in (*source, *result)):
        return None
    groups: list[Group] = []
    i = j = 0
    while i < len(source) or j < len(result):
        if i == len(source) or j == len(result):
            return None
        group: Group = ([i], [j])
        left, right = source[i], result[j]
        i, j = i + 1, j + 1
        while left != right:
            if left < right and i < len(source):
                group[0].append(i)
                left, i = left * source[i], i + 1
            elif right < left and j < len(result):
                group[1].append(j)
                right, j = right * result[j], j + 1
            else:
                return None
        groups.append(group)
    return groups


def outer_axis(axes: list[int], shape: Sequence[int]) -> tuple[int, int] | None:
    """A group's outermost non-unit axis and the element count of one step along it (the
    product of the axes inside it); None for a group of unit axes."""
    outer = next((a for a in axes if shape[a] != 1), None)
    return None if outer is None else (outer, math.prod(shape[b] for b in axes if b > outer))


def source_bounds(groups: list[Group], source: Sequence[int], result: Sequence[int],
                  bounds: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """The slice of the reshape's operand holding the slice's elements (`bounds`, one pair per
    result axis), or None when some group's cut is not such a run."""
    cut = [(0, size) for size in source]
    for source_axes, result_axes in groups:
        cut_axes = [a for a in result_axes if bounds[a] != (0, result[a])]
        if not cut_axes:
            continue
        outer, source_outer = outer_axis(result_axes, result), outer_axis(source_axes, source)
        if outer is None or source_outer is None or cut_axes != [outer[0]]:
            return None
        (start, end), step = bounds[outer[0]], outer[1]
        axis, rows = source_outer
        if (start * step) % rows or (end * step) % rows:
            return None
        cut[axis] = (start * step // rows, end * step // rows)
    return cut


def frees_its_transpose(producer, bounds: Sequence[tuple[int, int]]) -> bool:
    """Moving the cut above the reshape leaves its operand's producer, if a transpose, moving
    unit axes only (the cut takes one of its moved axes down to 1: MultiheadAttention's QKV
    split). A transpose that stays one is left whole: ShuffleNetV2's channel shuffle cut in
    halves above its transpose became two strided copies, 1.22x slower at two threads."""
    if not isinstance(producer, graph.TransposeOp):
        return True
    sizes = [end - start for start, end in bounds]
    return moves_only_unit_axes(on_operand_axes(producer.perm_values, sizes), producer.perm_values)


class SliceOfReshape(RewritePattern):
    """slice(reshape(x)) -> reshape(slice(x)) (module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        reshape = op.input.owner
        if not isinstance(reshape, graph.ReshapeOp) or not read_only_by_slices(reshape.result):
            return
        source, result = shape_of(reshape.input), shape_of(reshape.result)
        groups = reassociation(source, result)
        bounds = None if groups is None else source_bounds(groups, source, result, slice_bounds(op))
        if bounds is None:
            return
        if not frees_its_transpose(reshape.input.owner, bounds):
            return
        cut = make_slice(reshape.input, bounds)
        rewriter.replace(op, [cut, graph.ReshapeOp(cut.results[0], op.result.type)])
        pass_statistics.count("slices moved above reshapes")
