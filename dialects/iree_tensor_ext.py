"""IREE's `iree_tensor_ext` ops as IREE 3.13 prints them: tensor bitcasts, compute barriers and
the workgroup count of a dispatch region's `count(...)` region.

    %b = iree_tensor_ext.bitcast %a : tensor<?x4xf32>{%n} -> tensor<?x4xi32>{%n}
    %c = iree_tensor_ext.compute_barrier.start %b : tensor<?x4xi32>{%n} -> tensor<?x4xi32>
    %e = iree_tensor_ext.compute_barrier.end %c : tensor<?x4xi32>{%n} -> tensor<?x4xi32>
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%b0, %b1)

`{%n}` lists name the dynamic dimensions of the type before them. A bitcast reinterprets the
bytes (same total bit count); a barrier returns its operand unchanged and only stops IREE from
moving computation across it.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dynamic_dims import dynamic_count, parse_optional_dims, print_typed
from fusionopt.dialects.iree_tensor_ext_dispatch import DISPATCH_TENSOR_OPS, DispatchTensorType


def _check_dims(op: IRDLOperation, t: Attribute, dims, what: str) -> None:
    if len(dims) != dynamic_count(t):
        raise VerifyException(f"'{op.name}' op {len(dims)} {what} dims for {dynamic_count(t)} dynamic dimensions of {t}")


def bitcast_op(op_name: str, class_name: str) -> type[IRDLOperation]:
    """The bitcast op under `op_name`: `iree_tensor_ext.bitcast` and `flow.tensor.bitcast` are
    the same op at two levels of IREE's pipeline (same syntax, same reinterpretation)."""

    @irdl_op_definition
    class BitCast(IRDLOperation):
        name = op_name
        source = operand_def(TensorType)
        source_dims = var_operand_def(IndexType)
        result_dims = var_operand_def(IndexType)
        result = result_def(TensorType)
        irdl_options = (AttrSizedOperandSegments(as_property=True),)
        traits = traits_def(Pure())

        def verify_(self) -> None:
            _check_dims(self, self.source.type, self.source_dims, "source")
            _check_dims(self, self.result.type, self.result_dims, "result")
            src, res = self.source.type, self.result.type
            static = [d for d in (*src.get_shape(), *res.get_shape()) if d == DYNAMIC_INDEX]
            if not static:
                bits = [math.prod(t.get_shape()) * t.element_type.bitwidth for t in (src, res)]
                if bits[0] != bits[1]:
                    raise VerifyException(f"bitcast from {src} to {res} changes the number of bits")

        @classmethod
        def parse(cls, parser: Parser) -> IRDLOperation:
            source = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            source_type = parser.parse_type()
            source_dims = parse_optional_dims(parser)
            parser.parse_punctuation("->")
            result_type = parser.parse_type()
            result_dims = parse_optional_dims(parser)
            attrs = parser.parse_optional_attr_dict()
            op = cls(operands=[parser.resolve_operand(source, source_type), source_dims, result_dims],
                     result_types=[result_type])
            op.attributes |= attrs
            return op

        def print(self, printer: Printer) -> None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            print_typed(printer, self.source.type, self.source_dims)
            printer.print_string(" -> ")
            print_typed(printer, self.result.type, self.result_dims)
            printer.print_op_attributes(self.attributes)

    BitCast.__name__ = BitCast.__qualname__ = class_name
    return BitCast


BitCastOp = bitcast_op("iree_tensor_ext.bitcast", "BitCastOp")


class _BarrierOp(IRDLOperation):
    """`%r = OP %v : T{dims} -> T`: the value, unchanged."""

    value = operand_def(TensorType)
    value_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    def verify_(self) -> None:
        _check_dims(self, self.value.type, self.value_dims, "value")
        if self.value.type != self.result.type:
            raise VerifyException("result type must be the operand type")

    @classmethod
    def parse(cls, parser: Parser) -> _BarrierOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        dims = parse_optional_dims(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(operands=[parser.resolve_operand(value, value_type), dims], result_types=[result_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        print_typed(printer, self.value.type, self.value_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ComputeBarrierStartOp(_BarrierOp):
    name = "iree_tensor_ext.compute_barrier.start"


@irdl_op_definition
class ComputeBarrierEndOp(_BarrierOp):
    name = "iree_tensor_ext.compute_barrier.end"


@irdl_op_definition
class WorkgroupCountFromSliceOp(IRDLOperation):
    """Three index results (x, y, z workgroups) from the region's workload values."""

    name = "iree_tensor_ext.dispatch.workgroup_count_from_slice"
    workload = var_operand_def(IndexType)
    x = result_def(IndexType)
    y = result_def(IndexType)
    z = result_def(IndexType)
    assembly_format = "`(` $workload `)` attr-dict"
    traits = traits_def(Pure())


IreeTensorExt = Dialect(
    "iree_tensor_ext",
    [BitCastOp, ComputeBarrierStartOp, ComputeBarrierEndOp, WorkgroupCountFromSliceOp, *DISPATCH_TENSOR_OPS],
    [DispatchTensorType],
)
