"""Data-movement `graph` ops: broadcast, reshape, transpose, slice, concat, pad.

`pad` has a hand-written parser/printer: its `value = 0.0` is printed without a type (the type
is the element type of the tensor), which the declarative format cannot express.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from fusionopt.dialects.float_literals import round_to_float_type
from fusionopt.dialects.graph_base import (
    GraphCanonicalization,
    GraphOp,
    I64ArrayConstr,
    check_axes_in_range,
    check_result_element,
    check_result_shape,
    element_of,
    fail,
    graph_op_definition,
    i64_array,
    i64_attr,
    is_float,
    shape_of,
    tensor,
)


@graph_op_definition
class BroadcastOp(GraphOp):
    """Operand dim i maps to result dim dims[i]; its size is 1 or equal to that result dim."""

    name = "graph.broadcast"
    input = operand_def(TensorType)
    dims = prop_def(I64ArrayConstr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = "$input `dims` `=` $dims attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue, dims: Sequence[int], result_type: Attribute):
        super().__init__(operands=[input], properties={"dims": i64_array(dims)},
                         result_types=[result_type])

    @property
    def dims_values(self) -> tuple[int, ...]:
        return self.dims.get_values()

    def verify_semantics(self) -> None:
        in_shape, out_shape, dims = shape_of(self.input), shape_of(self.result), self.dims_values
        check_result_element(self, element_of(self.input))
        if len(dims) != len(in_shape):
            fail(self, f"dims has {len(dims)} entries but the operand has rank {len(in_shape)}")
        if any(b <= a for a, b in zip(dims, dims[1:])):
            fail(self, f"dims {list(dims)} must be strictly increasing")
        for i, d in enumerate(dims):
            if not 0 <= d < len(out_shape):
                fail(self, f"dims entry {d} is out of range for result rank {len(out_shape)}")
            if in_shape[i] not in (1, out_shape[d]):
                fail(self, f"operand dim {i} has size {in_shape[i]}, which must be 1 or equal to "
                     f"result dim {d} (size {out_shape[d]})")


@graph_op_definition
class ReshapeOp(GraphOp):
    name = "graph.reshape"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_semantics(self) -> None:
        check_result_element(self, element_of(self.input))
        n_in, n_out = math.prod(shape_of(self.input)), math.prod(shape_of(self.result))
        if n_in != n_out:
            fail(self, f"operand has {n_in} elements but the result has {n_out}")


@graph_op_definition
class TransposeOp(GraphOp):
    """Result dim i is operand dim perm[i]."""

    name = "graph.transpose"
    input = operand_def(TensorType)
    perm = prop_def(I64ArrayConstr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = "$input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue, perm: Sequence[int]):
        in_type = SSAValue.get(input).type
        shape = [shape_of(in_type)[p] for p in perm]
        super().__init__(operands=[input], properties={"perm": i64_array(perm)},
                         result_types=[tensor(shape, element_of(in_type))])

    @property
    def perm_values(self) -> tuple[int, ...]:
        return self.perm.get_values()

    def verify_semantics(self) -> None:
        shape, perm = shape_of(self.input), self.perm_values
        if sorted(perm) != list(range(len(shape))):
            fail(self, f"perm {list(perm)} is not a permutation of 0..{len(shape) - 1}")
        check_result_element(self, element_of(self.input))
        check_result_shape(self, [shape[p] for p in perm])


def slice_shape(shape, axes, starts, ends) -> list[int]:
    out = list(shape)
    for a, s, e in zip(axes, starts, ends):
        out[a] = e - s
    return out


@graph_op_definition
class SliceOp(GraphOp):
    """Unit-stride slice: along each of `axes`, keep [start, end)."""

    name = "graph.slice"
    input = operand_def(TensorType)
    axes = prop_def(I64ArrayConstr)
    starts = prop_def(I64ArrayConstr)
    ends = prop_def(I64ArrayConstr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = ("$input `axes` `=` $axes `starts` `=` $starts `ends` `=` $ends attr-dict "
                       "`:` type($input) `->` type($result)")

    def __init__(self, input: SSAValue, axes: Sequence[int], starts: Sequence[int],
                 ends: Sequence[int]):
        in_type = SSAValue.get(input).type
        shape = slice_shape(shape_of(in_type), axes, starts, ends)
        props = {"axes": i64_array(axes), "starts": i64_array(starts), "ends": i64_array(ends)}
        super().__init__(operands=[input], properties=props,
                         result_types=[tensor(shape, element_of(in_type))])

    axes_values = property(lambda self: self.axes.get_values())
    starts_values = property(lambda self: self.starts.get_values())
    ends_values = property(lambda self: self.ends.get_values())

    def verify_semantics(self) -> None:
        shape, axes = shape_of(self.input), self.axes_values
        starts, ends = self.starts_values, self.ends_values
        if not len(axes) == len(starts) == len(ends):
            fail(self, f"axes, starts and ends must have the same length, got {len(axes)}, "
                 f"{len(starts)}, {len(ends)}")
        check_axes_in_range(self, "axes", axes, len(shape))
        for a, s, e in zip(axes, starts, ends):
            if not 0 <= s <= e <= shape[a]:
                fail(self, f"slice [{s}, {e}) on axis {a} must satisfy 0 <= start <= end <= "
                     f"{shape[a]}")
        check_result_element(self, element_of(self.input))
        check_result_shape(self, slice_shape(shape, axes, starts, ends))


@graph_op_definition
class ConcatOp(GraphOp):
    name = "graph.concat"
    inputs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure(), GraphCanonicalization())
    assembly_format = "$inputs `axis` `=` $axis attr-dict `:` functional-type($inputs, $result)"

    def __init__(self, inputs: Sequence[SSAValue], axis: int):
        shapes = [shape_of(SSAValue.get(v)) for v in inputs]
        shape = list(shapes[0])
        shape[axis] = sum(s[axis] for s in shapes)
        super().__init__(operands=[list(inputs)], properties={"axis": i64_attr(axis)},
                         result_types=[tensor(shape, element_of(SSAValue.get(inputs[0])))])

    @property
    def axis_value(self) -> int:
        return self.axis.value.data

    def verify_semantics(self) -> None:
        if not self.inputs:
            fail(self, "needs at least one operand")
        first, axis = shape_of(self.inputs[0]), self.axis_value
        if not 0 <= axis < len(first):
            fail(self, f"axis {axis} is out of range for rank {len(first)}")
        for i, v in enumerate(self.inputs):
            if element_of(v) != element_of(self.inputs[0]):
                fail(self, f"operand {i} has element type {element_of(v)}, expected "
                     f"{element_of(self.inputs[0])}")
            s = shape_of(v)
            if len(s) != len(first):
                fail(self, f"operand {i} has rank {len(s)}, expected {len(first)}")
            if any(a != b for d, (a, b) in enumerate(zip(s, first)) if d != axis):
                fail(self, f"operand {i} shape {list(s)} differs from {list(first)} outside "
                     f"axis {axis}")
        check_result_element(self, element_of(self.inputs[0]))
        expected = list(first)
        expected[axis] = sum(shape_of(v)[axis] for v in self.inputs)
        check_result_shape(self, expected)


def pad_value_attr(value: float | int, element: Attribute) -> Attribute:
    """The padding scalar as an attribute of the tensor's element type."""
    if is_float(element):
        if isinstance(value, float):  # a decimal literal past the type's range is +-inf, as in MLIR
            value = round_to_float_type(value, element)
        return FloatAttr(float(value), element)
    return IntegerAttr(int(value), element)


def _print_pad_value(printer: Printer, attr: Attribute) -> None:
    if isinstance(attr, FloatAttr):
        v = attr.value.data
        text = repr(v)
        if math.isfinite(v) and "." in text and "e" not in text:
            printer.print_string(text)  # short form, e.g. `0.0`, as users write it
        else:
            printer.print_float(v, attr.type)  # scientific or hex bits (inf / nan), like MLIR
    else:
        printer.print_int(attr.value.data, attr.type)  # i1 prints as true / false


@graph_op_definition
class PadOp(GraphOp):
    """Constant padding: `low[i]` / `high[i]` elements of `value` before / after dim i."""

    name = "graph.pad"
    input = operand_def(TensorType)
    low = prop_def(I64ArrayConstr)
    high = prop_def(I64ArrayConstr)
    value = prop_def(FloatAttr | IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue, low: Sequence[int], high: Sequence[int],
                 value: float | int | Attribute = 0):
        in_type = SSAValue.get(input).type
        element = element_of(in_type)
        shape = [d + lo + hi for d, lo, hi in zip(shape_of(in_type), low, high)]
        if not isinstance(value, Attribute):
            value = pad_value_attr(value, element)
        props = {"low": i64_array(low), "high": i64_array(high), "value": value}
        super().__init__(operands=[input], properties=props,
                         result_types=[tensor(shape, element)])

    low_values = property(lambda self: self.low.get_values())
    high_values = property(lambda self: self.high.get_values())

    @property
    def value_value(self) -> float | int:
        return self.value.value.data

    def verify_semantics(self) -> None:
        shape, low, high = shape_of(self.input), self.low_values, self.high_values
        if len(low) != len(shape) or len(high) != len(shape):
            fail(self, f"low and high must have one entry per dim (rank {len(shape)}), got "
                 f"{len(low)} and {len(high)}")
        if any(p < 0 for p in (*low, *high)):
            fail(self, f"padding must be non-negative, got low = {list(low)} high = {list(high)}")
        element = element_of(self.input)
        if self.value.type != element:
            fail(self, f"pad value type {self.value.type} must be the element type {element}")
        check_result_element(self, element)
        check_result_shape(self, [d + lo + hi for d, lo, hi in zip(shape, low, high)])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" low = [{', '.join(map(str, self.low_values))}]")
        printer.print_string(f" high = [{', '.join(map(str, self.high_values))}]")
        printer.print_string(" value = ")
        _print_pad_value(printer, self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> PadOp:
        operand = parser.parse_unresolved_operand()
        arrays = {}
        for key in ("low", "high"):
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            arrays[key] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_keyword("value")
        parser.parse_punctuation("=")
        value_pos = parser._current_token.span.start
        value_text = parser._current_token.text
        value_parse = _deferred_value(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        if not isinstance(in_type, TensorType):
            parser.raise_error(f"expected a tensor type, got {in_type}")
        element = in_type.get_element_type()
        if not is_float(element) and isinstance(value_parse[0], float):
            parser.raise_error(f"float pad value {value_text} for integer element type {element}",
                               value_pos, value_pos + len(value_text))
        value = value_parse[1](element)
        op = cls.create(operands=[parser.resolve_operand(operand, in_type)],
                        result_types=[out_type],
                        properties={"low": i64_array(arrays["low"]),
                                    "high": i64_array(arrays["high"]), "value": value},
                        attributes=attrs)
        return op


def _deferred_value(parser: Parser):
    """Parse the pad literal now; build its attribute once the element type is known."""
    token = parser._current_token.span
    token_text = token.text
    number = parser.parse_number(allow_boolean=True, context_msg=" for the pad value")

    def build(element: Attribute) -> Attribute:
        if is_float(element) and isinstance(number, int) and token_text.startswith("0x"):
            if not 0 <= number < 1 << element.bitwidth:
                parser.raise_error("hexadecimal constant out of range for type", token)
            raw = number.to_bytes(element.bitwidth // 8, "little")
            return pad_value_attr(element.unpack(raw, 1)[0], element)
        return pad_value_attr(number, element)

    return number, build

