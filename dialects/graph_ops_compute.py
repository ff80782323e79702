"""Compute-heavy `graph` ops: batched `dot`, `reduce_*`, ONNX-style `gather`."""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType
from xdsl.ir import SSAValue
from xdsl.irdl import operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from fusionopt.dialects.graph_base import (
    GraphCanonicalization,
    GraphOp,
    ReduceOp,
    check_result_element,
    check_result_shape,
    element_of,
    fail,
    graph_op_definition,
    i64_attr,
    is_float,
    is_int,
    shape_of,
    tensor,
)


def dot_shape(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> list[int]:
    return [*lhs[:-1], rhs[-1]]


@graph_op_definition
class DotOp(GraphOp):
    """Batched matmul: (B.., M, K) x (B.., K, N) -> (B.., M, N); rank >= 2, same rank."""

    name = "graph.dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = ("$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` "
                       "type($result)")

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        shape = dot_shape(shape_of(SSAValue.get(lhs)), shape_of(SSAValue.get(rhs)))
        super().__init__(operands=[lhs, rhs],
                         result_types=[tensor(shape, element_of(SSAValue.get(lhs)))])

    def verify_semantics(self) -> None:
        lhs, rhs = shape_of(self.lhs), shape_of(self.rhs)
        if len(lhs) < 2 or len(rhs) != len(lhs):
            fail(self, f"operands must have the same rank >= 2, got ranks {len(lhs)} and {len(rhs)}")
        if lhs[:-2] != rhs[:-2]:
            fail(self, f"batch dims must be equal, got {list(lhs[:-2])} and {list(rhs[:-2])}")
        if lhs[-1] != rhs[-2]:
            fail(self, f"contraction dims must match: lhs has K = {lhs[-1]}, rhs has K = {rhs[-2]}")
        element = element_of(self.lhs)
        if element_of(self.rhs) != element:
            fail(self, f"operand element types differ: {element} and {element_of(self.rhs)}")
        if not (is_float(element) or is_int(element)):
            fail(self, f"element type must be a float or i32/i64, got {element}")
        check_result_element(self, element)
        check_result_shape(self, dot_shape(lhs, rhs))


@graph_op_definition
class ReduceSumOp(ReduceOp):
    name = "graph.reduce_sum"


@graph_op_definition
class ReduceMaxOp(ReduceOp):
    name = "graph.reduce_max"


@graph_op_definition
class ReduceMeanOp(ReduceOp):
    name = "graph.reduce_mean"


def gather_shape(table: tuple[int, ...], indices: tuple[int, ...], axis: int) -> list[int]:
    return [*table[:axis], *indices, *table[axis + 1:]]


@graph_op_definition
class GatherOp(GraphOp):
    """ONNX Gather: result = table[..., indices, ...] along `axis` (indices must be in range)."""

    name = "graph.gather"
    table = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = ("$table `,` $indices `axis` `=` $axis attr-dict `:` `(` type($table) `,` "
                       "type($indices) `)` `->` type($result)")

    def __init__(self, table: SSAValue, indices: SSAValue, axis: int = 0):
        t = SSAValue.get(table).type
        shape = gather_shape(shape_of(t), shape_of(SSAValue.get(indices)), axis)
        super().__init__(operands=[table, indices], properties={"axis": i64_attr(axis)},
                         result_types=[tensor(shape, element_of(t))])

    @property
    def axis_value(self) -> int:
        return self.axis.value.data

    def verify_semantics(self) -> None:
        table, axis = shape_of(self.table), self.axis_value
        if not is_int(element_of(self.indices)):
            fail(self, f"indices must have element type i32 or i64, got {self.indices.type}")
        if not 0 <= axis < len(table):
            fail(self, f"axis {axis} is out of range for table rank {len(table)}")
        check_result_element(self, element_of(self.table))
        check_result_shape(self, gather_shape(table, shape_of(self.indices), axis))
