"""`iree_linalg_ext.sort`, `topk` and `gather` as IREE 3.13 prints them, and the dialect's full
op list (attention, scatter, these):

    %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %vals : tensor<3x4xf32>, tensor<3x4xi32>) {
           ^bb0(%l0: f32, %r0: f32, %l1: i32, %r1: i32):
             %c = arith.cmpf ogt, %l0, %r0 : f32
             iree_linalg_ext.yield %c : i1
           } -> tensor<3x4xf32>, tensor<3x4xi32>
    %t:2 = iree_linalg_ext.topk dimension(1) ins(%v[, %i] : ...) outs(%ov, %oi : ...) {
           ^bb0(%a: f32, %b: f32): ... iree_linalg_ext.yield %c : i1 } -> T, U
    %g = iree_linalg_ext.gather dimension_map = [0] ins(%src, %idx : ...) outs(%out : ...) -> T

Semantics. sort: every operand is permuted the same way along `dimension`, so that the region
(given lhs/rhs element pairs of every operand, in operand order) answers "lhs goes first"; the
order of equal elements is kept (stable). topk: the first k (the outputs' extent along
`dimension`) of the values in that order, and their indices (the `ins` indices when given,
else the positions). gather: `out[b..., s...] = source[i_0, ..., i_{d-1}, s...]` where
`i_{dimension_map[j]} = indices[b..., j]` (an index depth of 1 may be left implicit); the
slice is the source's trailing dims after the first d = len(dimension_map).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, IntegerType, TensorType, i64
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext
from fusionopt.dialects.iree_linalg_ext_scatter import ScatterOp, _print_group, _typed_operands


def _parse_dimension(parser: Parser) -> IntegerAttr:
    parser.parse_keyword("dimension")
    parser.parse_punctuation("(")
    value = parser.parse_integer()
    parser.parse_punctuation(")")
    return IntegerAttr(value, i64)


def _parse_results(parser: Parser) -> list[Attribute]:
    if not parser.parse_optional_punctuation("->"):
        return []
    return parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)


def _parse_ordering_op(parser: Parser, ins_required: bool):
    """sort/topk: `dimension(d) attr-dict? [ins(...)] outs(...) region [-> types]`."""
    dimension = _parse_dimension(parser)
    attrs = parser.parse_optional_attr_dict()
    if ins_required:
        parser.parse_characters("ins")
    ins = _typed_operands(parser) if ins_required or parser.parse_optional_characters("ins") else []
    parser.parse_characters("outs")
    outs = _typed_operands(parser)
    region = parser.parse_region()
    return dimension, attrs, ins, outs, region, _parse_results(parser)


def _print_ordering_op(op: IRDLOperation, printer: Printer) -> None:
    printer.print_string(f" dimension({op.dim()})")
    printer.print_op_attributes(op.attributes)
    if op.inputs:
        _print_group(printer, "ins", op.inputs)
    _print_group(printer, "outs", op.outputs)
    printer.print_string(" ")
    printer.print_region(op.region)
    if op.results_:
        printer.print_string(" -> ")
        printer.print_list([r.type for r in op.results_], printer.print_attribute)


def _check_comparator(op: IRDLOperation, element_types: list[Attribute]) -> None:
    block = op.regions[0].block
    expected = [t for e in element_types for t in (e, e)]
    if [a.type for a in block.args] != expected:
        listed = ", ".join(str(t) for t in expected)
        raise VerifyException(f"'{op.name}' op region arguments must be [{listed}] (lhs, rhs per operand)")
    last = block.last_op
    if not isinstance(last, iree_linalg_ext.YieldOp) or [v.type for v in last.values] != [IntegerType(1)]:
        raise VerifyException(f"'{op.name}' op region must yield one i1")


@irdl_op_definition
class SortOp(IRDLOperation):
    name = "iree_linalg_ext.sort"
    inputs = var_operand_def()
    outputs = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr)
    region = region_def("single_block")
    results_ = var_result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def dim(self) -> int:
        return self.dimension.value.data

    def verify_(self) -> None:
        if not self.outputs:
            raise VerifyException("'iree_linalg_ext.sort' op expects at least one output")
        shape = self.outputs[0].type.get_shape()
        if any(o.type.get_shape() != shape for o in self.outputs):
            raise VerifyException("'iree_linalg_ext.sort' op expects all outputs to have the same shape")
        if not 0 <= self.dim() < len(shape):
            raise VerifyException(f"'iree_linalg_ext.sort' op dimension must be within [0, {len(shape)})")
        if [r.type for r in self.results_] != [o.type for o in self.outputs]:
            raise VerifyException("'iree_linalg_ext.sort' op result types must be the output types")
        _check_comparator(self, [o.type.get_element_type() for o in self.outputs])

    @classmethod
    def parse(cls, parser: Parser) -> SortOp:
        dimension, attrs, ins, outs, region, results = _parse_ordering_op(parser, ins_required=False)
        op = cls(operands=[ins, outs], result_types=[results], regions=[region], properties={"dimension": dimension})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ordering_op(self, printer)


@irdl_op_definition
class TopkOp(IRDLOperation):
    name = "iree_linalg_ext.topk"
    # IREE's generic form has no segment sizes: the last two operands are the outputs
    all_operands = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr)
    region = region_def("single_block")
    results_ = var_result_def(TensorType)

    @property
    def inputs(self) -> tuple:
        return tuple(self.all_operands)[:-2]

    @property
    def outputs(self) -> tuple:
        return tuple(self.all_operands)[-2:]

    def dim(self) -> int:
        return self.dimension.value.data

    def verify_(self) -> None:
        if len(self.all_operands) not in (3, 4):
            raise VerifyException("'iree_linalg_ext.topk' op expects ins(values[, indices]) outs(values, indices)")
        values, (out_values, out_indices) = self.inputs[0].type, (o.type for o in self.outputs)
        rank, d = values.get_num_dims(), self.dim()
        if not 0 <= d < rank:
            raise VerifyException(f"'iree_linalg_ext.topk' op dimension must be within [0, {rank})")
        if out_values.get_shape() != out_indices.get_shape() or out_values.get_num_dims() != rank:
            raise VerifyException("'iree_linalg_ext.topk' op output values and indices must have the input's rank and one shape")
        for axis, (a, b) in enumerate(zip(values.get_shape(), out_values.get_shape())):
            if axis != d and a != b and a >= 0 and b >= 0:
                raise VerifyException(f"'iree_linalg_ext.topk' op output dim #{axis} must match the input ({a}), got {b}")
        if out_values.get_element_type() != values.get_element_type():
            raise VerifyException("'iree_linalg_ext.topk' op output values must have the input element type")
        if not isinstance(out_indices.get_element_type(), IntegerType | IndexType):
            raise VerifyException("'iree_linalg_ext.topk' op output indices must be integers")
        if len(self.inputs) == 2 and self.inputs[1].type.get_shape() != values.get_shape():
            raise VerifyException("'iree_linalg_ext.topk' op input indices must have the values' shape")
        if [r.type for r in self.results_] != [out_values, out_indices]:
            raise VerifyException("'iree_linalg_ext.topk' op result types must be the output types")
        block = self.region.block
        element = values.get_element_type()
        if [a.type for a in block.args] != [element, element]:
            raise VerifyException(f"'iree_linalg_ext.topk' op region arguments must be ({element}, {element})")
        last = block.last_op
        if not isinstance(last, iree_linalg_ext.YieldOp) or [v.type for v in last.values] != [IntegerType(1)]:
            raise VerifyException("'iree_linalg_ext.topk' op region must yield one i1")

    @classmethod
    def parse(cls, parser: Parser) -> TopkOp:
        dimension, attrs, ins, outs, region, results = _parse_ordering_op(parser, ins_required=True)
        op = cls(operands=[[*ins, *outs]], result_types=[results], regions=[region], properties={"dimension": dimension})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ordering_op(self, printer)


@irdl_op_definition
class GatherOp(IRDLOperation):
    name = "iree_linalg_ext.gather"
    source = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = operand_def(TensorType)
    dimension_map = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    def dims(self) -> list[int]:
        return list(self.dimension_map.get_values())

    def batch_rank(self) -> int:
        return self.output.type.get_num_dims() - (self.source.type.get_num_dims() - len(self.dims()))

    def verify_(self) -> None:
        src, idx, out = self.source.type, self.indices.type, self.output.type
        dims = self.dims()
        if sorted(dims) != list(range(len(dims))) or len(dims) > src.get_num_dims():
            raise VerifyException(f"'iree_linalg_ext.gather' op dimension map is invalid: {dims}")
        if not isinstance(idx.get_element_type(), IntegerType | IndexType):
            raise VerifyException(f"'iree_linalg_ext.gather' op indices must be integers, got {idx}")
        batch = self.batch_rank()
        if batch < 0:
            raise VerifyException(f"'iree_linalg_ext.gather' op output {out} is too small for the source slice")
        batch_shape = out.get_shape()[:batch]
        implicit = len(dims) == 1 and idx.get_shape() == batch_shape
        if not implicit and idx.get_shape() != (*batch_shape, len(dims)):
            raise VerifyException(
                f"'iree_linalg_ext.gather' op indices {idx} must be the batch shape {list(batch_shape)} "
                f"followed by the index depth {len(dims)}"
            )
        slice_shape = src.get_shape()[len(dims):]
        for axis, (a, b) in enumerate(zip(slice_shape, out.get_shape()[batch:])):
            if a != b and a >= 0 and b >= 0:
                raise VerifyException(
                    f"'iree_linalg_ext.gather' op shape of output dim#{batch + axis} must match source dim#{len(dims) + axis}"
                )
        if src.get_element_type() != out.get_element_type() or self.result.type != out:
            raise VerifyException("'iree_linalg_ext.gather' op result must be the output type, of the source element type")

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        parser.parse_keyword("dimension_map")
        parser.parse_punctuation("=")
        dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        ins = _typed_operands(parser)
        parser.parse_characters("outs")
        outs = _typed_operands(parser)
        if len(ins) != 2 or len(outs) != 1:
            parser.raise_error("expected ins(%source, %indices : ...) outs(%output : ...)")
        results = _parse_results(parser)
        op = cls(operands=[*ins, *outs], result_types=results,
                 properties={"dimension_map": DenseArrayBase.from_list(i64, dims)})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dimension_map = [{', '.join(map(str, self.dims()))}]")
        printer.print_op_attributes(self.attributes)
        _print_group(printer, "ins", [self.source, self.indices])
        _print_group(printer, "outs", [self.output])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


IreeLinalgExt = Dialect(
    "iree_linalg_ext",
    [*iree_linalg_ext.IreeLinalgExt.operations, ScatterOp, SortOp, TopkOp, GatherOp],
    [],
)
