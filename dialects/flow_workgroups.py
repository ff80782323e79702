"""`flow.dispatch.workgroups`: a dispatch whose body works on `!iree_tensor_ext.dispatch.tensor`
bindings (what IREE turns a `flow.dispatch.region` into), as IREE 3.13 prints it:

    %r = flow.dispatch.workgroups[%n](%a, %n) : (tensor<?x4xf32>{%n}, index) -> tensor<?x4xf32>{%n} =
        (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %m: index,
         %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
      ...
      flow.return
    } count(%w: index) -> (index, index, index) { ... }

`[...]` is the workload, `(...)` the captured operands with their types (`{dims}` for `?`
dimensions). A result is either a new tensor `type{dims}` or tied to an operand, `%a{dims}`:
it is then written in place of that operand (`tied_operands` keeps the operand index, -1 for
none). The body's block arguments are the operands (tensors as bindings), then one writeonly
binding per untied result. The optional `count` region computes the workgroup count.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dynamic_dims import dynamic_count, parse_optional_dims, print_typed


def print_count_region(printer: Printer, region: Region) -> None:
    printer.print_string(" count(")
    printer.print_list(region.block.args, printer.print_block_argument)
    printer.print_string(") -> (")
    printer.print_list(region.block.last_op.operand_types if region.block.last_op else (), printer.print_attribute)
    printer.print_string(") ")
    printer.print_region(region, print_entry_block_args=False)


def parse_optional_workload(parser: Parser) -> list:
    """A dispatch's optional `[%w0, %w1, ...]` workload (index operands; `[]` or absent: none)."""
    if not parser.parse_optional_punctuation("[") or parser.parse_optional_punctuation("]"):
        return []
    workload = parser.parse_comma_separated_list(Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType()))
    parser.parse_punctuation("]")
    return workload


def parse_count_region(parser: Parser) -> Region:
    """IREE's workgroup count region, `count(%b0: index, ...) -> (index, index, index) {...}`."""
    if parser.parse_optional_keyword("count") is None:
        return Region()
    args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_argument)
    parser.parse_punctuation("->")
    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return parser.parse_region(args)


@irdl_op_definition
class DispatchWorkgroupsOp(IRDLOperation):
    name = "flow.dispatch.workgroups"
    workload = var_operand_def(IndexType)
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    results_ = var_result_def()
    tied_operands = opt_prop_def(ArrayAttr)
    workgroup_body = region_def()
    workgroup_count = region_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def tied_indices(self) -> list[int]:
        """Per result: the index of the operand it is tied to, -1 for a new tensor."""
        if self.tied_operands is None:
            return [-1] * len(self.results_)
        return [t.value.data for t in self.tied_operands.data]

    def verify_(self) -> None:
        tied = self.tied_indices()
        if len(tied) != len(self.results_):
            raise VerifyException(f"{len(tied)} tied_operands entries for {len(self.results_)} results")
        for index, result in zip(tied, self.results_):
            if index >= len(self.arguments) or (index >= 0 and self.arguments[index].type != result.type):
                raise VerifyException(f"result tied to operand {index} must have that operand's type")
        expected = [dynamic_count(t) for t in self.arguments.types]
        if len(self.argument_dims) != sum(expected):
            raise VerifyException(f"{len(self.argument_dims)} operand dims for {sum(expected)} dynamic dimensions")
        if len(self.result_dims) != sum(dynamic_count(r.type) for r in self.results_):
            raise VerifyException("result dims do not match the results' dynamic dimensions")
        block = self.workgroup_body.blocks.first
        if block is not None:
            bindings = len(self.arguments) + sum(1 for i in tied if i < 0)
            if len(block.args) != bindings:
                raise VerifyException(f"the body takes {len(block.args)} arguments, expected {bindings} (operands, then one per new result)")

    def print(self, printer: Printer) -> None:
        if self.workload:
            printer.print_string("[")
            printer.print_list(self.workload, printer.print_operand)
            printer.print_string("]")
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(") : (")
        arg_dims = iter(self.argument_dims)
        printer.print_list(self.arguments.types, lambda t: print_typed(printer, t, [next(arg_dims) for _ in range(dynamic_count(t))]))
        printer.print_string(") -> (")
        result_dims = iter(self.result_dims)

        def print_result(pair) -> None:
            index, result = pair
            dims = [next(result_dims) for _ in range(dynamic_count(result.type))]
            if index < 0:
                print_typed(printer, result.type, dims)
                return
            printer.print_operand(self.arguments[index])
            if dims:
                printer.print_string("{")
                printer.print_list(dims, printer.print_operand)
                printer.print_string("}")

        printer.print_list(list(zip(self.tied_indices(), self.results_)), print_result)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" =\n")
        with printer.indented():
            printer.print_string("(")
            printer.print_list(self.workgroup_body.block.args, printer.print_block_argument)
            printer.print_string(") ")
        printer.print_region(self.workgroup_body, print_entry_block_args=False)
        if self.workgroup_count.blocks:
            print_count_region(printer, self.workgroup_count)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        workload = parse_optional_workload(parser)
        names = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        typed = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: (parser.parse_type(), parse_optional_dims(parser)))
        if len(typed) != len(names):
            parser.raise_error(f"{len(names)} operands but {len(typed)} types")
        arguments = [parser.resolve_operand(n, t) for n, (t, _) in zip(names, typed)]
        parser.parse_punctuation("->")
        keys = [(n.operand_name, n.index) for n in names]
        if parser.parse_optional_punctuation("("):
            results = [] if parser.parse_optional_punctuation(")") else _parse_results_then_close(parser, keys, arguments)
        else:
            results = [_parse_result(parser, keys, arguments)]
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_punctuation("=")
        block_args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_argument)
        body = parser.parse_region(block_args)
        count = parse_count_region(parser)
        tied = [index for _, _, index in results]
        props: dict[str, Attribute] = {}
        if any(i >= 0 for i in tied):
            props["tied_operands"] = ArrayAttr([IntegerAttr(i, IndexType()) for i in tied])
        op = cls(
            operands=[workload, arguments, [d for _, dims in typed for d in dims], [d for _, dims, _ in results for d in dims]],
            result_types=[[t for t, _, _ in results]],
            regions=[body, count],
            properties=props,
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op


def _parse_results_then_close(parser: Parser, keys, arguments):
    results = parser.parse_comma_separated_list(Parser.Delimiter.NONE, lambda: _parse_result(parser, keys, arguments))
    parser.parse_punctuation(")")
    return results


def _parse_result(parser: Parser, keys, arguments) -> tuple[Attribute, list, int]:
    """`type{dims}` (a new tensor) or `%operand{dims}` (tied): (type, dims, operand index or -1)."""
    tied: UnresolvedOperand | None = parser.parse_optional_unresolved_operand()
    if tied is None:
        t = parser.parse_type()
        return t, parse_optional_dims(parser), -1
    key = (tied.operand_name, tied.index)
    if key not in keys:
        parser.raise_error(f"result tied to %{tied.operand_name}, which is not an operand of the dispatch")
    index = keys.index(key)
    return arguments[index].type, parse_optional_dims(parser), index


@irdl_op_definition
class DispatchTieShapeOp(IRDLOperation):
    """`%b = flow.dispatch.tie_shape %binding : !iree_tensor_ext.dispatch.tensor<...>{%d0, %d1}`:
    names the dynamic dimensions of a binding; its value is the binding."""

    name = "flow.dispatch.tie_shape"
    operand = operand_def()
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    def verify_(self) -> None:
        tensor = getattr(self.operand.type, "tensor", self.operand.type)
        if self.result.type != self.operand.type or len(self.dynamic_dims) != dynamic_count(tensor):
            raise VerifyException(f"expected the operand's type with {dynamic_count(tensor)} dims")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        print_typed(printer, self.result.type, self.dynamic_dims)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(operands=[parser.resolve_operand(name, t), parse_optional_dims(parser)], result_types=[t])
        op.attributes |= parser.parse_optional_attr_dict()
        return op


FLOW_WORKGROUPS_OPS = [DispatchWorkgroupsOp, DispatchTieShapeOp]
