"""IREE's `iree_linalg_ext.arg_compare`: the best element along one dimension and its index,
"best" decided by a comparator region (`ogt` gives argmax, `olt` argmin):

    %v, %i = iree_linalg_ext.arg_compare dimension(1)
        ins(%x : tensor<4x128xf32>) outs(%v0, %i0 : tensor<4xf32>, tensor<4xi32>)
        (index_base(%b : index))? {
      ^bb0(%candidate: f32, %best: f32):
        %c = arith.cmpf ogt, %candidate, %best : f32
        iree_linalg_ext.yield %c : i1
    } -> tensor<4xf32>, tensor<4xi32>

The outs hold the starting best value and index; scanning the line in order, a candidate
replaces the best when the comparator yields true, its index being its position plus
`index_base` (0 without it). Ties keep the earlier element, as a strict comparator implies.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext
from fusionopt.dialects import iree_linalg_ext_sort
from fusionopt.dialects.iree_linalg_ext_sort import _parse_dimension, _parse_results, _print_group, _typed_operands


@irdl_op_definition
class ArgCompareOp(IRDLOperation):
    name = "iree_linalg_ext.arg_compare"
    inputs = var_operand_def(TensorType)
    outputs = var_operand_def(TensorType)
    index_base = opt_operand_def(IndexType)
    results_ = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr)
    region = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def dim(self) -> int:
        return self.dimension.value.data

    def verify_(self) -> None:
        if len(self.inputs) != 1 or len(self.outputs) != 2:
            raise VerifyException("expects one input and two outputs (value, index)")
        values, (out_values, out_indices) = self.inputs[0].type, (o.type for o in self.outputs)
        d, shape = self.dim(), list(values.get_shape())
        if not 0 <= d < len(shape):
            raise VerifyException(f"dimension must be within [0, {len(shape)})")
        kept = shape[:d] + shape[d + 1 :]
        for out in (out_values, out_indices):
            if list(out.get_shape()) != kept:
                raise VerifyException(f"outputs must have the input shape without dimension {d}: {kept}, got {out}")
        if out_values.get_element_type() != values.get_element_type():
            raise VerifyException("the output value must have the input element type")
        if not isinstance(out_indices.get_element_type(), IntegerType | IndexType):
            raise VerifyException("the output index must be an integer")
        if [r.type for r in self.results_] != [out_values, out_indices]:
            raise VerifyException("result types must be the output types")
        element = values.get_element_type()
        block = self.region.block
        if [a.type for a in block.args] != [element, element]:
            raise VerifyException(f"region arguments must be ({element}, {element}): candidate, best")
        last = block.last_op
        if not isinstance(last, iree_linalg_ext.YieldOp) or [v.type for v in last.values] != [IntegerType(1)]:
            raise VerifyException("region must yield one i1")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attrs = parser.parse_optional_attr_dict()
        dimension = _parse_dimension(parser)
        attrs |= parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        ins = _typed_operands(parser)
        parser.parse_characters("outs")
        outs = _typed_operands(parser)
        base = []
        if parser.parse_optional_characters("index_base"):
            parser.parse_punctuation("(")
            base = [parser.parse_operand()]
            parser.parse_punctuation(":")
            parser.parse_type()
            parser.parse_punctuation(")")
        region = parser.parse_region()
        op = cls(operands=[ins, outs, base], result_types=[_parse_results(parser)], regions=[region],
                 properties={"dimension": dimension})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)  # IREE reads the dictionary before `dimension`
        printer.print_string(f" dimension({self.dim()})")
        _print_group(printer, "ins", self.inputs)
        _print_group(printer, "outs", self.outputs)
        if self.index_base is not None:
            printer.print_string(" index_base(")
            printer.print_operand(self.index_base)
            printer.print_string(" : index)")
        printer.print_string(" ")
        printer.print_region(self.region)
        if self.results_:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results_], printer.print_attribute)


# The whole dialect: attention, scatter, sort, topk, gather (earlier modules), arg_compare.
IreeLinalgExt = Dialect("iree_linalg_ext", [*iree_linalg_ext_sort.IreeLinalgExt.operations, ArgCompareOp], [])
