"""`hal.buffer_view.dim`: one dimension of the tensor a buffer view holds, read before the
tensor is imported (IREE's ABI wrappers size a dynamic `hal.tensor.import` this way).

    %d = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
    %t = hal.tensor.import %view : !hal.buffer_view -> tensor<?x4xf32>{%d}
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.hal_types import BUFFER_VIEW_TYPE


@irdl_op_definition
class BufferViewDimOp(IRDLOperation):
    """`hal.buffer_view.dim<%view : !hal.buffer_view>[index] : index`."""

    name = "hal.buffer_view.dim"
    buffer_view = operand_def(BUFFER_VIEW_TYPE)
    index = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, buffer_view, index: int) -> None:
        super().__init__(operands=[buffer_view], result_types=[IndexType()],
                         properties={"index": IntegerAttr(index, IndexType())})

    def verify_(self) -> None:
        if self.index.value.data < 0:
            raise VerifyException(f"'{self.name}' op dimension index {self.index.value.data} is negative")

    @classmethod
    def parse(cls, parser: Parser) -> BufferViewDimOp:
        parser.parse_punctuation("<")
        view = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        view_type = parser.parse_type()
        parser.parse_punctuation(">")
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False, allow_negative=True)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(view, view_type), index)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_operand(self.buffer_view)
        printer.print_string(" : ")
        printer.print_attribute(self.buffer_view.type)
        printer.print_string(f">[{self.index.value.data}] : index")
        printer.print_op_attributes(self.attributes)


HAL_BUFFER_VIEW_OPS = [BufferViewDimOp]
