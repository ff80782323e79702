"""`linalg.softmax` (upstream MLIR; xDSL 0.74 lacks it), in MLIR's syntax:

    %r = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%o : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>

Semantics (MLIR's decomposition): m = max over `dimension`; e = exp(x - m); r = e / sum(e).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IntegerAttr, TensorType, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    name = "linalg.softmax"
    input = operand_def(TensorType)
    output = operand_def(TensorType)
    dimension = prop_def(IntegerAttr)
    result = result_def(TensorType)

    def verify_(self) -> None:
        t = self.input.type
        if self.output.type.get_shape() != t.get_shape() or self.result.type != self.output.type:
            raise VerifyException(f"input {t}, output {self.output.type} and result {self.result.type} must have one shape")
        if not isinstance(t.element_type, AnyFloat):
            raise VerifyException(f"softmax needs a floating-point input, got {t}")
        if not 0 <= self.dimension.value.data < t.get_num_dims():
            raise VerifyException(f"dimension {self.dimension.value.data} is not a dimension of {t}")

    @classmethod
    def parse(cls, parser: Parser) -> SoftmaxOp:
        parser.parse_keyword("dimension")
        parser.parse_punctuation("(")
        dim = parser.parse_integer()
        parser.parse_punctuation(")")
        operands = []
        for word in ("ins", "outs"):
            parser.parse_characters(word)
            parser.parse_punctuation("(")
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            operands.append(parser.resolve_operand(name, parser.parse_type()))
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        op = cls(operands=operands, result_types=[result], properties={"dimension": IntegerAttr(dim, i64)})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dimension({self.dimension.value.data})")
        for word, value in ((" ins(", self.input), (" outs(", self.output)):
            printer.print_string(word)
            printer.print_operand(value)
            printer.print_string(" : ")
            printer.print_attribute(value.type)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
