"""IREE's `iree_linalg_ext.scan`: a running combination (prefix sum, product, ...) along one
dimension, the combiner given as a region:

    %out, %acc = iree_linalg_ext.scan dimension(1) inclusive(true)
        ins(%x : tensor<8x32xi64>) outs(%o, %a : tensor<8x32xi64>, tensor<8xi64>) {
      ^bb0(%running: i64, %element: i64):
        %s = arith.addi %running, %element : i64
        iree_linalg_ext.yield %s : i64
    } -> tensor<8x32xi64>, tensor<8xi64>

Along each line, inclusive: out[0] = x[0], out[i] = f(out[i-1], x[i]); exclusive: out[0] =
the accumulator's initial value, out[i] = f(out[i-1], x[i-1]). The second result is the
accumulator (the input shape without the scanned dimension) after the last step, which for a
line of one element is its initial value (IREE stores it only when it combines).
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext_argcompare
from fusionopt.dialects.iree_linalg_ext_sort import _parse_dimension, _parse_results, _print_group, _typed_operands


class ScanBase(IRDLOperation):
    """The scan's operands, checks and syntax, shared with torch-mlir's `tm_tensor.scan`
    (dialects/tm_tensor.py); `YIELD` names the terminator of the op's own dialect."""

    YIELD: ClassVar[str]
    inputs = var_operand_def(TensorType)
    outputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr)
    inclusive = prop_def(BoolAttr)
    region = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def dim(self) -> int:
        return self.dimension.value.data

    def is_inclusive(self) -> bool:
        return bool(self.inclusive.value.data)

    def verify_(self) -> None:
        if len(self.inputs) != 1 or len(self.outputs) != 2:
            raise VerifyException("expects one input and two outputs (result, accumulator)")
        source, (out, acc) = self.inputs[0].type, (o.type for o in self.outputs)
        shape, d = list(source.get_shape()), self.dim()
        if not 0 <= d < len(shape):
            raise VerifyException(f"dimension must be within [0, {len(shape)})")
        if list(out.get_shape()) != shape:
            raise VerifyException(f"incompatible input/output shapes: {source} and {out}")
        if list(acc.get_shape()) != shape[:d] + shape[d + 1 :]:
            raise VerifyException(f"incompatible input/accumulator shapes: {source} and {acc} (dimension {d})")
        element = source.get_element_type()
        if {out.get_element_type(), acc.get_element_type()} != {element}:
            raise VerifyException(f"input, output and accumulator must share the element type {element}")
        if self.results_ and [r.type for r in self.results_] != [out, acc]:
            raise VerifyException("result types must be the output types")
        block = self.region.block
        if [a.type for a in block.args] != [element, element]:
            raise VerifyException(f"region arguments must be ({element}, {element}): running value, element")
        last = block.last_op
        if last is None or last.name != self.YIELD or [v.type for v in last.operands] != [element]:
            raise VerifyException(f"region must yield one {element} ({self.YIELD})")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attrs = parser.parse_optional_attr_dict()
        dimension = _parse_dimension(parser)
        parser.parse_keyword("inclusive")
        parser.parse_punctuation("(")
        inclusive = parser.parse_boolean()
        parser.parse_punctuation(")")
        parser.parse_characters("ins")
        ins = _typed_operands(parser)
        parser.parse_characters("outs")
        outs = _typed_operands(parser)
        region = parser.parse_region()
        op = cls(operands=[ins, outs], result_types=[_parse_results(parser)], regions=[region],
                 properties={"dimension": dimension, "inclusive": BoolAttr.from_bool(inclusive)})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)  # IREE reads the dictionary before `dimension`
        printer.print_string(f" dimension({self.dim()}) inclusive({'true' if self.is_inclusive() else 'false'})")
        _print_group(printer, "ins", self.inputs)
        _print_group(printer, "outs", self.outputs)
        printer.print_string(" ")
        printer.print_region(self.region)
        if self.results_:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results_], printer.print_attribute)


@irdl_op_definition
class ScanOp(ScanBase):
    name = "iree_linalg_ext.scan"
    YIELD: ClassVar[str] = "iree_linalg_ext.yield"


# The whole dialect: attention, scatter, sort, topk, gather, arg_compare (earlier modules), scan.
IreeLinalgExt = Dialect("iree_linalg_ext", [*iree_linalg_ext_argcompare.IreeLinalgExt.operations, ScanOp], [])
