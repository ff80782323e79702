"""`linalg.reduce` with any number of inputs and inits (MLIR's variadic form; xDSL's takes
one of each), in MLIR's long and short syntax:

    %s, %i = linalg.reduce ins(%v, %k : tensor<16x32xf32>, tensor<16x32xi64>)
                           outs(%s0, %i0 : tensor<16xf32>, tensor<16xi64>)
                           dimensions = [1]
        (%a: f32, %b: i64, %acc: f32, %iacc: i64) { ... linalg.yield %x, %y : f32, i64 }
    %r = linalg.reduce { arith.addf } ins(%v : tensor<16x32xf32>) outs(%s0 : tensor<16xf32>) dimensions = [1]

Every input has the same shape; every init is that shape without the reduced dimensions; the
body takes one element per input, then the running value of each init, and yields the new
running values. The short form `{ op }` applies one binary op to (input, init).
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import linalg as xlinalg
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, ShapedType, TensorType, i64
from xdsl.ir import Block, Region
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

from fusionopt.dialects.linalg_generic import parse_operand_group, print_operand_group


@irdl_op_definition
class ReduceOp(IRDLOperation):
    name = "linalg.reduce"

    inputs = var_operand_def(TensorType | MemRefType)
    inits = var_operand_def(TensorType | MemRefType)
    results_ = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    region = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def input(self):  # xDSL's single-input accessors, still used for the common case
        return self.inputs[0]

    @property
    def init(self):
        return self.inits[0]

    def verify_(self) -> None:
        if not self.inputs or len(self.inputs) != len(self.inits):
            raise VerifyException(f"expects as many inits as inputs (at least one), got {len(self.inputs)} and {len(self.inits)}")
        dims = list(self.dimensions.get_values())
        shape = self.inputs[0].type.get_shape()
        if sorted(set(dims)) != dims or any(d < 0 or d >= len(shape) for d in dims):
            raise VerifyException(f"dimensions {dims} must be increasing and within the input rank {len(shape)}")
        kept = [s for d, s in enumerate(shape) if d not in dims]
        for value in self.inputs:
            if value.type.get_shape() != shape:
                raise VerifyException(f"all inputs must have one shape, got {value.type} and {self.inputs[0].type}")
        for index, (value, init) in enumerate(zip(self.inputs, self.inits)):
            if value.type.get_element_type() != init.type.get_element_type():
                raise VerifyException(f"input #{index} and init #{index} differ in element type")
            if list(init.type.get_shape()) != kept:
                raise VerifyException(f"init #{index} {init.type} must have the input shape without dimensions {dims}: {kept}")
        tensor_inits = [i.type for i in self.inits if isinstance(i.type, TensorType)]
        if list(self.results_.types) != tensor_inits:
            raise VerifyException("the results must have the tensor inits' types")
        block = self.region.block
        expected = [v.type.get_element_type() for v in (*self.inputs, *self.inits)]
        if [a.type for a in block.args] != expected:
            raise VerifyException(f"the body takes {len(expected)} arguments of types {expected}")

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.inits)
        printer.print_string(" dimensions = [")
        printer.print_list(self.dimensions.get_values(), printer.print_int)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string("\n  (")
        printer.print_list(self.region.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.region, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = None
        if parser.parse_optional_punctuation("{"):
            short = (parser.parse_identifier(), parser.parse_optional_attr_dict())
            parser.parse_punctuation("}")
        inputs = parse_operand_group(parser, "ins")
        inits = parse_operand_group(parser, "outs")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        attrs = parser.parse_optional_attr_dict()
        element_types = [v.type.get_element_type() for v in (*inputs, *inits) if isinstance(v.type, ShapedType)]
        if short is None:
            args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_argument)
            region = parser.parse_region(args)
        else:
            region = _short_form_region(parser, short, element_types)
        op = cls(
            operands=[inputs, inits],
            result_types=[[v.type for v in inits if isinstance(v.type, TensorType)]],
            properties={"dimensions": DenseArrayBase.from_list(i64, dims)},
            regions=[region],
        )
        op.attributes |= attrs
        return op


def _short_form_region(parser: Parser, short, element_types) -> Region:
    """`{ op attrs }`: one input and one init; the body is `yield op(input, init)`."""
    name, attrs = short
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None or len(element_types) != 2:
        parser.raise_error(f"the short form needs a known binary op and one input and init, got '{name}'")
    block = Block(arg_types=element_types)
    props = set(op_type.get_irdl_definition().properties) if issubclass(op_type, IRDLOperation) else set()
    payload = op_type.create(
        operands=list(block.args),
        result_types=[element_types[-1]],
        properties={k: v for k, v in attrs.items() if k in props},
        attributes={k: v for k, v in attrs.items() if k not in props},
    )
    block.add_ops([payload, xlinalg.YieldOp(payload.results[0])])
    return Region(block)
