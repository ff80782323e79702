"""IREE's `type{%d0, %d1}` spelling: a shaped type followed by the values of its dynamic
dimensions (flow, iree_encoding and iree_tensor_ext ops all use it)."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer


def dynamic_count(t: Attribute) -> int:
    """How many `?` dimensions `t` has (0 for a non-tensor)."""
    return sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX) if isinstance(t, TensorType) else 0


def parse_optional_dims(parser: Parser) -> list[SSAValue]:
    """`{%d0, %d1}` (index values), or nothing."""
    if not parser.parse_optional_punctuation("{"):
        return []
    dims = parser.parse_comma_separated_list(Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType()))
    parser.parse_punctuation("}")
    return dims


def print_typed(printer: Printer, t: Attribute, dims: Iterable[SSAValue]) -> None:
    """`t`, then `{dims}` when there are any."""
    printer.print_attribute(t)
    dims = list(dims)
    if dims:
        printer.print_string("{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")
