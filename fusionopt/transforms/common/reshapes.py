"""Building `tensor.collapse_shape` / `tensor.expand_shape` from reassociation groups, and reading
those groups back.

Shared by the lowering (graph reshapes, conv layouts) and the linalg stage (1x1 convs as
matmuls over flattened pixels), which must print the same reassociation attributes.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter


def reassociation(op: Operation) -> list[list[int]]:
    """The reassociation groups of a `tensor.expand_shape` / `collapse_shape`."""
    return [[int(i.value.data) for i in group.data] for group in op.properties["reassociation"].data]  # type: ignore[union-attr]


def read_collapses_from(value: SSAValue, groups: list[list[int]], replacement: SSAValue,
                        rewriter: PatternRewriter) -> None:
    """Readers of `value` that collapse it by `groups` read `replacement` (the same elements
    already in the collapsed shape) instead."""
    for use in list(value.uses):
        reader = use.operation
        if reader.name == "tensor.collapse_shape" and reassociation(reader) == groups:
            rewriter.replace_op(reader, [], [replacement])


def reassociation_attr(groups: list[list[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in g]) for g in groups])


def collapse(source: SSAValue, groups: list[list[int]], result: TensorType) -> Operation:
    return tensor.CollapseShapeOp.create(
        operands=[source], result_types=[result], properties={"reassociation": reassociation_attr(groups)}
    )


def expand(source: SSAValue, groups: list[list[int]], result: TensorType) -> Operation:
    return tensor.ExpandShapeOp(source, [], reassociation_attr(groups), result.get_shape(), result)


def moves_non_unit_dims(reshape: Operation) -> bool:
    """Some reassociation group of an expand/collapse holds two or more non-unit dims of the
    finer shape: a real split or merge, not the insertion or removal of unit dims."""
    fine = reshape.results[0] if reshape.name == "tensor.expand_shape" else reshape.operands[0]
    shape = fine.type.get_shape()  # type: ignore[attr-defined]
    return any(sum(1 for d in group if shape[d] != 1) >= 2 for group in reassociation(reshape))
