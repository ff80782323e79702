"""IREE's `hal.tensor.*` ops, which sit at a program's boundary: they turn the runtime's buffer
views into tensors and back, and order tensor work against fences.

    %t = hal.tensor.import wait(%fence) => %view "input0" : !hal.buffer_view -> tensor<4xf32>
    %v = hal.tensor.export %t "output0" : tensor<4xf32> -> !hal.buffer_view
    %r:2 = hal.tensor.barrier join(%a, %b : tensor<4xf32>, tensor<?xf32>) => %fence : !hal.fence
    %s = hal.tensor.alias wait(%fence) => %t : tensor<4xf32> to %view : !hal.buffer_view

To the values a program computes each is the identity (the interpreter passes a tensor
through), so no pass needs more than their operands and types.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import IndexType, StringAttr, TensorType
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dynamic_dims import dynamic_count, parse_optional_dims, print_typed
from fusionopt.dialects.hal_types import FENCE_TYPE

_SEGMENTS = (AttrSizedOperandSegments(as_property=True),)


def _check_dims(t, dims, what: str) -> None:
    if len(dims) != dynamic_count(t):
        raise VerifyException(f"{len(dims)} {what} dims for {dynamic_count(t)} dynamic dimensions of {t}")


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """`hal.tensor.import`: the tensor a buffer view holds, once `wait_fence` is reached."""

    name = "hal.tensor.import"
    wait_fence = opt_operand_def()
    source = operand_def()
    target_dims = var_operand_def(IndexType)
    target = result_def(TensorType)
    name_ = opt_prop_def(StringAttr, prop_name="name")
    irdl_options = _SEGMENTS

    def print(self, printer: Printer) -> None:
        _print_wait(printer, self.wait_fence)
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_name(printer, self.name_)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        print_typed(printer, self.target.type, self.target_dims)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        fence_name = _parse_wait(parser)
        source_name = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        source = parser.resolve_operand(source_name, parser.parse_type())
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        dims = parse_optional_dims(parser)
        fence = [] if fence_name is None else [parser.resolve_operand(fence_name, _fence_type())]
        op = cls(operands=[fence, source, dims], result_types=[target_type],
                 properties={"name": StringAttr(name)} if name is not None else {})
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def verify_(self) -> None:
        _check_dims(self.target.type, self.target_dims, "target")


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`hal.tensor.export`: a buffer view holding the tensor."""

    name = "hal.tensor.export"
    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    target = result_def()
    name_ = opt_prop_def(StringAttr, prop_name="name")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_name(printer, self.name_)
        printer.print_string(" : ")
        print_typed(printer, self.source.type, self.source_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source_name = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        parser.parse_punctuation(":")
        source = parser.resolve_operand(source_name, parser.parse_type())
        dims = parse_optional_dims(parser)
        parser.parse_punctuation("->")
        op = cls(operands=[source, dims], result_types=[parser.parse_type()],
                 properties={"name": StringAttr(name)} if name is not None else {})
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def verify_(self) -> None:
        _check_dims(self.source.type, self.source_dims, "source")


@irdl_op_definition
class TensorBarrierOp(IRDLOperation):
    """`hal.tensor.barrier join(%a, ... : types) => %fence : !hal.fence`: signals the fence
    once all `sources` are ready; its results are the sources."""

    name = "hal.tensor.barrier"
    sources = var_operand_def(TensorType)
    signal_fence = operand_def()
    results_ = var_result_def(TensorType)

    def verify_(self) -> None:
        if tuple(self.sources.types) != tuple(self.results_.types):
            raise VerifyException("results must have the sources' types")

    def print(self, printer: Printer) -> None:
        printer.print_string(" join(")
        printer.print_list(self.sources, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list(self.sources.types, printer.print_attribute)
        printer.print_string(") => ")
        printer.print_operand(self.signal_fence)
        printer.print_string(" : ")
        printer.print_attribute(self.signal_fence.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("join")
        parser.parse_punctuation("(")
        names = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        _parse_arrow(parser)
        fence_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        fence = parser.resolve_operand(fence_name, parser.parse_type())
        if len(names) != len(types):
            parser.raise_error(f"{len(names)} sources but {len(types)} types")
        sources = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        op = cls(operands=[sources, fence], result_types=[types])
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class TensorAliasOp(IRDLOperation):
    """`hal.tensor.alias (wait(%f) =>)? %t : type{dims} to %storage : type`: the tensor, to be
    written into the given storage; its result is the tensor."""

    name = "hal.tensor.alias"
    wait_fence = opt_operand_def()
    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    storage = operand_def()
    result = result_def(TensorType)
    irdl_options = _SEGMENTS

    def verify_(self) -> None:
        _check_dims(self.source.type, self.source_dims, "source")
        if self.result.type != self.source.type:
            raise VerifyException("the result must have the source's type")

    def print(self, printer: Printer) -> None:
        _print_wait(printer, self.wait_fence)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_typed(printer, self.source.type, self.source_dims)
        printer.print_string(" to ")
        printer.print_operand(self.storage)
        printer.print_string(" : ")
        printer.print_attribute(self.storage.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        fence_name = _parse_wait(parser)
        source_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        dims = parse_optional_dims(parser)
        parser.parse_keyword("to")
        storage_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        storage = parser.resolve_operand(storage_name, parser.parse_type())
        fence = [] if fence_name is None else [parser.resolve_operand(fence_name, _fence_type())]
        op = cls(
            operands=[fence, parser.resolve_operand(source_name, source_type), dims, storage],
            result_types=[source_type],
        )
        op.attributes |= parser.parse_optional_attr_dict()
        return op


def _print_wait(printer: Printer, fence) -> None:
    if fence is not None:
        printer.print_string(" wait(")
        printer.print_operand(fence)
        printer.print_string(") =>")


def _parse_wait(parser: Parser):
    """`wait(%fence) =>`, or nothing: the fence's unresolved name or None."""
    if parser.parse_optional_keyword("wait") is None:
        return None
    parser.parse_punctuation("(")
    fence_name = parser.parse_unresolved_operand()
    parser.parse_punctuation(")")
    _parse_arrow(parser)
    return fence_name


def _parse_arrow(parser: Parser) -> None:
    """`=>`, which xDSL's lexer reads as `=` then `>`."""
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")


def _print_name(printer: Printer, name: StringAttr | None) -> None:
    if name is not None:
        printer.print_string(" ")
        printer.print_attribute(name)


def _fence_type():
    return FENCE_TYPE(StringAttr(""))


HAL_TENSOR_OPS = [TensorImportOp, TensorExportOp, TensorBarrierOp, TensorAliasOp]
