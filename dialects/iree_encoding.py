"""IREE's `iree_encoding` dialect: tensor encodings (opaque text, see dialects/opaque.py) and
the ops that put them on and take them off a tensor.

    #enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
    %e = iree_encoding.set_encoding %t : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
    %u = iree_encoding.unset_encoding %e : tensor<?x?xf32, #enc> -> tensor<?x?xf32>{%d0, %d1}

An encoding only changes how a backend lays the tensor out in memory, never its values: to the
interpreter both ops are the identity.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Attribute, Dialect
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
from fusionopt.dialects.opaque import opaque_attribute

ENCODING_ATTRIBUTES = [
    opaque_attribute(f"iree_encoding.{name}")
    for name in ("encoding", "testing", "layout", "matmul_k", "padding", "identity",
                 "unspecialized_encoding", "specialized_encoding", "pad_encoding_layout",
                 "encoding_nop_layout", "unsupported_encoding")
]


def _encoding(t: Attribute) -> Attribute | None:
    enc = t.encoding if isinstance(t, TensorType) else None
    return None if enc is None or type(enc).__name__ == "NoneAttr" else enc


def _check_same_tensor(op: IRDLOperation, source: Attribute, result: Attribute) -> None:
    assert isinstance(source, TensorType) and isinstance(result, TensorType)
    if source.get_shape() != result.get_shape() or source.element_type != result.element_type:
        raise VerifyException(f"'{op.name}' op source {source} and result {result} differ in shape or element type")


@irdl_op_definition
class SetEncodingOp(IRDLOperation):
    """`iree_encoding.set_encoding %src : T -> T<enc>`."""

    name = "iree_encoding.set_encoding"
    source = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict $source `:` type($source) `->` type($result)"

    def verify_(self) -> None:
        _check_same_tensor(self, self.source.type, self.result.type)
        if _encoding(self.result.type) is None:
            raise VerifyException("result of set_encoding must carry an encoding")


@irdl_op_definition
class UnsetEncodingOp(IRDLOperation):
    """`iree_encoding.unset_encoding %src : T<enc> -> T ({%dims})?`: the dims size the result's
    dynamic dimensions."""

    name = "iree_encoding.unset_encoding"
    source = operand_def(TensorType)
    result_dims = var_operand_def(IndexType)
    encoding_dims = var_operand_def(IndexType)  # IREE's third segment; always empty in 3.13 tests
    result = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_same_tensor(self, self.source.type, self.result.type)
        if self.encoding_dims:
            raise VerifyException("encoding dims are not supported")
        if _encoding(self.source.type) is None:
            raise VerifyException("source of unset_encoding must carry an encoding")
        dynamic = dynamic_count(self.result.type)
        if self.result_dims and len(self.result_dims) != dynamic:
            raise VerifyException(f"{len(self.result_dims)} result dims for {dynamic} dynamic dimensions")

    @classmethod
    def parse(cls, parser: Parser) -> UnsetEncodingOp:
        attrs = parser.parse_optional_attr_dict()
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        dims = parse_optional_dims(parser)
        op = cls(operands=[parser.resolve_operand(source, source_type), dims, []], result_types=[result_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        print_typed(printer, self.result.type, self.result_dims)


IreeEncoding = Dialect("iree_encoding", [SetEncodingOp, UnsetEncodingOp], ENCODING_ATTRIBUTES)
