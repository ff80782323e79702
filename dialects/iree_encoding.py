"""IREE's `iree_encoding` dialect: tensor encodings (opaque text, see dialects/opaque.py) and
the ops that put them on and take them off a tensor.

    #enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
    %e = iree_encoding.set_encoding %t : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
    %u = iree_encoding.unset_encoding %e : tensor<?x?xf32, #enc> -> tensor<?x?xf32>{%d0, %d1}
    %s = iree_encoding.set_encoding %t encoding_dims{%m} : tensor<?x?xf32> -> tensor<?x?xf32, #enc2>

`encoding_dims{...}` gives the values of the encoding's dynamic iteration sizes (each `?` of
its `iteration_sizes = [...]`), which a backend needs to choose tile sizes.

An encoding only changes how a backend lays the tensor out in memory, never its values: to the
interpreter both ops are the identity.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IndexType, TensorType
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
from fusionopt.dialects.opaque import opaque_attribute

ENCODING_ATTRIBUTES = [
    opaque_attribute(f"iree_encoding.{name}")
    for name in ("encoding", "testing", "layout", "matmul_k", "padding", "identity",
                 "unspecialized_encoding", "specialized_encoding", "pad_encoding_layout",
                 "encoding_nop_layout", "unsupported_encoding", "packed_storage")
]


def _encoding(t: Attribute) -> Attribute | None:
    enc = t.encoding if isinstance(t, TensorType) else None
    return None if enc is None or type(enc).__name__ == "NoneAttr" else enc


_ITERATION_SIZES = re.compile(r"iteration_sizes\s*=\s*\[([^\]]*)\]")


def _dynamic_iteration_sizes(encoding: Attribute | None) -> int:
    """How many `?` the encoding's `iteration_sizes` list has (0 without such a list)."""
    body = getattr(getattr(encoding, "body", None), "data", "")
    match = _ITERATION_SIZES.search(body)
    return 0 if match is None else match.group(1).count("?")


def _check_encoding_dims(op: IRDLOperation, encoding: Attribute | None, dims: object) -> None:
    """IREE counts encoding dims only for `#iree_encoding.encoding` (one per dynamic iteration
    size); the testing and padding encodings take any number."""
    if getattr(encoding, "name", "") != "iree_encoding.encoding":
        return
    count = len(dims)  # type: ignore[arg-type]
    expected = _dynamic_iteration_sizes(encoding)
    if count != expected:
        raise VerifyException(
            f"'{op.name}' op encoding expects {expected} dynamic encoding dimension(s), but {count} provided")


def _parse_encoding_dims(parser: Parser) -> list[SSAValue]:
    """`encoding_dims{%a, %b}`, or nothing."""
    if not parser.parse_optional_keyword("encoding_dims"):
        return []
    dims = parse_optional_dims(parser)
    if not dims:
        parser.raise_error("expected '{' and at least one encoding dim after 'encoding_dims'")
    return dims


def _print_encoding_dims(printer: Printer, dims: object) -> None:
    dims = list(dims)  # type: ignore[call-overload]
    if dims:
        printer.print_string(" encoding_dims{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")


def _check_same_tensor(op: IRDLOperation, source: Attribute, result: Attribute) -> None:
    assert isinstance(source, TensorType) and isinstance(result, TensorType)
    if source.get_shape() != result.get_shape() or source.element_type != result.element_type:
        raise VerifyException(f"'{op.name}' op source {source} and result {result} differ in shape or element type")


@irdl_op_definition
class SetEncodingOp(IRDLOperation):
    """`iree_encoding.set_encoding %src (encoding_dims{%d})? : T -> T<enc>`."""

    name = "iree_encoding.set_encoding"
    source = operand_def(TensorType)
    encoding_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_same_tensor(self, self.source.type, self.result.type)
        encoding = _encoding(self.result.type)
        if encoding is None:
            raise VerifyException("result of set_encoding must carry an encoding")
        _check_encoding_dims(self, encoding, self.encoding_dims)

    @classmethod
    def parse(cls, parser: Parser) -> SetEncodingOp:
        attrs = parser.parse_optional_attr_dict()
        source = parser.parse_unresolved_operand()
        encoding_dims = _parse_encoding_dims(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(operands=[parser.resolve_operand(source, source_type), encoding_dims], result_types=[result_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_encoding_dims(printer, self.encoding_dims)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class UnsetEncodingOp(IRDLOperation):
    """`iree_encoding.unset_encoding %src : T<enc> -> T ({%dims})?`: the dims size the result's
    dynamic dimensions."""

    name = "iree_encoding.unset_encoding"
    source = operand_def(TensorType)
    result_dims = var_operand_def(IndexType)
    encoding_dims = var_operand_def(IndexType)
    result = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_same_tensor(self, self.source.type, self.result.type)
        encoding = _encoding(self.source.type)
        if encoding is None:
            raise VerifyException("source of unset_encoding must carry an encoding")
        _check_encoding_dims(self, encoding, self.encoding_dims)
        dynamic = dynamic_count(self.result.type)
        if self.result_dims and len(self.result_dims) != dynamic:
            raise VerifyException(f"{len(self.result_dims)} result dims for {dynamic} dynamic dimensions")

    @classmethod
    def parse(cls, parser: Parser) -> UnsetEncodingOp:
        attrs = parser.parse_optional_attr_dict()
        source = parser.parse_unresolved_operand()
        encoding_dims = _parse_encoding_dims(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        dims = parse_optional_dims(parser)
        op = cls(operands=[parser.resolve_operand(source, source_type), dims, encoding_dims],
                 result_types=[result_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_encoding_dims(printer, self.encoding_dims)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        print_typed(printer, self.result.type, self.result_dims)


IreeEncoding = Dialect("iree_encoding", [SetEncodingOp, UnsetEncodingOp], ENCODING_ATTRIBUTES)
