"""IREE's `check` dialect, the assertions of its end-to-end tests:

    check.expect_eq(%a, %b) : tensor<4xi32>
    check.expect_almost_eq(%a, %b, atol 1.0e-04) : tensor<4xf32>
    check.expect_true(%c) : i32

The interpreter evaluates them (fusionopt/interpreter/check.py): a failed expectation is a
run-time error, as in IREE's test runner. `atol` / `rtol` default to IREE's 1e-4 and 0.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import FloatAttr, f32
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


class _ExpectPair(IRDLOperation):
    """`name(%lhs, %rhs) : type`, both operands of that type."""

    lhs = operand_def()
    rhs = operand_def()

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(f"operands differ in type: {self.lhs.type} vs {self.rhs.type}")

    def _print_tolerances(self, printer: Printer) -> None:
        return None

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        self._print_tolerances(printer)
        printer.print_string(") : ")
        printer.print_attribute(self.lhs.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def _parse_tolerances(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("(")
        lhs_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs_name = parser.parse_unresolved_operand()
        props = cls._parse_tolerances(parser)
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(operands=[parser.resolve_operand(lhs_name, t), parser.resolve_operand(rhs_name, t)], properties=props)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class ExpectEqOp(_ExpectPair):
    """`check.expect_eq`: every element equal."""

    name = "check.expect_eq"


@irdl_op_definition
class ExpectAlmostEqOp(_ExpectPair):
    """`check.expect_almost_eq`: |lhs - rhs| <= atol + rtol * |rhs| elementwise."""

    name = "check.expect_almost_eq"
    atol = opt_prop_def(FloatAttr)
    rtol = opt_prop_def(FloatAttr)

    def _print_tolerances(self, printer: Printer) -> None:
        for key in ("atol", "rtol"):
            value = getattr(self, key)
            if value is not None:
                printer.print_string(f", {key} ")
                printer.print_float(value.value.data, value.type)

    @classmethod
    def _parse_tolerances(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            key = parser.parse_identifier()
            if key not in ("atol", "rtol") or key in props:
                parser.raise_error(f"expected atol or rtol, got {key}")
            props[key] = FloatAttr(parser.parse_float(), f32)
        return props


@irdl_op_definition
class ExpectTrueOp(IRDLOperation):
    """`check.expect_true(%v) : i32`: the value is non-zero."""

    name = "check.expect_true"
    operand = operand_def()
    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"


@irdl_op_definition
class ExpectFalseOp(IRDLOperation):
    """`check.expect_false(%v) : i32`: the value is zero."""

    name = "check.expect_false"
    operand = operand_def()
    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"


Check = Dialect("check", [ExpectEqOp, ExpectAlmostEqOp, ExpectTrueOp, ExpectFalseOp], [])
