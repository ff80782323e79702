"""The `tensor` dialect fusionopt parses: xDSL 0.74's ops plus the upstream ones it lacks.

Added, in MLIR's syntax: `tensor.rank`, `tensor.generate`, `tensor.gather`, `tensor.scatter`.
Replaced: `tensor.pad`, whose xDSL verifier demands a dynamic result dimension wherever a pad
amount is dynamic; MLIR only demands that the result agree with the inferred shape where that
shape is static (`tensor<?x?xf32> to tensor<2x3xf32>` with dynamic pads is valid); and
`tensor.expand_shape`, which xDSL rejects on a 0-d source (`%t [] output_shape [1, 1] :
tensor<f32> into tensor<1x1xf32>`, valid in MLIR).

    %r = tensor.rank %t : tensor<4x?xf32>
    %g = tensor.generate %n {
    ^bb0(%i: index, %j: index):
      tensor.yield %v : f32
    } : tensor<?x3xf32>
    %s = tensor.gather %src[%idx] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4x1x1xf32>
    %d = tensor.scatter %s into %dst[%idx] scatter_dims([1, 2]) unique : (tensor<1x3x4x1x1xf32>, tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<4x5x6xf32>
"""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects import tensor as xdsl_tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, UnitAttr, UnrankedTensorType, i64
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.subclass_verify import own_checks, verify_definition, verify_dynamic_count


def _pad_verify(self) -> None:
    """`tensor.pad` with MLIR's result-shape rule."""
    verify_definition(self)
    source = self.source.type.get_shape()
    low, high = self.static_low.get_values(), self.static_high.get_values()
    if not len(low) == len(high) == len(source):
        raise VerifyException(f"expected {len(source)} low and high pad sizes, got {len(low)} and {len(high)}")
    verify_dynamic_count(self, self.low, low, "low", "static_low")
    verify_dynamic_count(self, self.high, high, "high", "static_high")
    for i, (size, lo, hi, actual) in enumerate(zip(source, low, high, self.result.type.get_shape())):
        inferred = DYNAMIC_INDEX if DYNAMIC_INDEX in (size, lo, hi) else size + lo + hi
        if inferred != DYNAMIC_INDEX and actual != inferred:
            raise VerifyException(f"result dimension {i} is {actual}, but the padded source gives {inferred}")
    if len(self.region.block.args) != len(source):
        raise VerifyException(f"the region needs one index argument per source dimension ({len(source)})")


# A plain subclass (an IRDL re-definition of an op cannot inherit its fields): same name and
# syntax, only the verifier differs; `isinstance(op, xdsl PadOp)` still holds.
PadOp = type("PadOp", (xdsl_tensor.PadOp,), {"verify_": _pad_verify, "__module__": __name__,
                                              "__doc__": _pad_verify.__doc__})


_XDSL_EXPAND_SHAPE_CHECKS = own_checks(xdsl_tensor.ExpandShapeOp)


def _expand_shape_verify(self) -> None:
    """`tensor.expand_shape` with MLIR's rank-0 rule: a 0-d source expands, by the empty
    reassociation `[]`, into a tensor whose dimensions are all static 1 (xDSL's check counts
    reassociation dims and rejects it). As in MLIR, each `?` of the output shape has its value
    (xDSL does not count them)."""
    verify_definition(self)
    verify_dynamic_count(self, self.dynamic_output_shape, self.static_output_shape.get_values(),
                         "output_shape", "static_output_shape")
    if self.src.type.get_shape() or len(self.reassociation):
        return _XDSL_EXPAND_SHAPE_CHECKS(self)
    result = self.result.type.get_shape()
    if len(self.static_output_shape) != len(result):
        raise VerifyException(f"expected {len(result)} output_shape entries, found {len(self.static_output_shape)}")
    if any(d != 1 for d in result):
        raise VerifyException(f"expanding a 0-d tensor needs a result of unit dimensions, got {self.result.type}")


ExpandShapeOp = type("ExpandShapeOp", (xdsl_tensor.ExpandShapeOp,), {
    "verify_": _expand_shape_verify, "__module__": __name__, "__doc__": _expand_shape_verify.__doc__})


@irdl_op_definition
class RankOp(IRDLOperation):
    name = "tensor.rank"
    tensor = operand_def(TensorType)
    rank = result_def(IndexType)
    assembly_format = "$tensor attr-dict `:` type($tensor)"
    traits = traits_def(Pure())


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """A tensor whose element at (i, j, ...) is what the body yields for those indices."""

    name = "tensor.generate"
    dynamic_extents = var_operand_def(IndexType)
    body = region_def("single_block")
    result = result_def(TensorType)
    assembly_format = "$dynamic_extents $body attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        shape = self.result.type.get_shape()
        if len(self.dynamic_extents) != sum(1 for d in shape if d == DYNAMIC_INDEX):
            raise VerifyException("must have as many index operands as dynamic extents in the result type")
        block = self.body.block
        if len(block.args) != len(shape) or any(not isinstance(a.type, IndexType) for a in block.args):
            raise VerifyException(f"the body needs {len(shape)} index arguments, one per dimension")
        last = block.last_op
        if not isinstance(last, xdsl_tensor.YieldOp) or len(last.operands) != 1:
            raise VerifyException("the body must end in tensor.yield of one element")
        if last.operands[0].type != self.result.type.get_element_type():
            raise VerifyException("yielded value type must be the result element type")


def gathered_shape(source: TensorType, indices: TensorType, dims: tuple[int, ...], rank_reduced: bool) -> tuple[int, ...]:
    """MLIR's gather result: the indices' batch dims, then the source with `dims` as 1s (or
    dropped when rank-reduced)."""
    batch = indices.get_shape()[:-1]
    rest = [1 if i in dims else d for i, d in enumerate(source.get_shape()) if not (rank_reduced and i in dims)]
    return (*batch, *rest)


def _check_indexing(source: TensorType, indices: TensorType, dims: tuple[int, ...], slab: TensorType, word: str) -> None:
    if not dims or list(dims) != sorted(set(dims)) or dims[-1] >= source.get_num_dims() or dims[0] < 0:
        raise VerifyException(f"{word}_dims must be strictly increasing dimensions of the source, got {list(dims)}")
    if indices.get_shape()[-1] != len(dims):
        raise VerifyException(f"the last dimension of the indices must be {len(dims)} ({word}_dims size)")
    shapes = (gathered_shape(source, indices, dims, False), gathered_shape(source, indices, dims, True))
    if tuple(slab.get_shape()) not in shapes:
        raise VerifyException(f"expected the slices to have shape {shapes[0]} or rank-reduced {shapes[1]}, got {slab}")


class _IndexedOp(IRDLOperation):
    """Shared syntax of gather/scatter: `... [%indices] <kw>_dims([..]) unique? : functional-type`."""

    unique = opt_prop_def(UnitAttr)
    DIMS: ClassVar[str]

    def _dims(self) -> tuple[int, ...]:
        return tuple(self.properties[self.DIMS].get_values())

    @classmethod
    def _parse_tail(cls, parser: Parser) -> tuple[dict[str, Attribute], list[Attribute], Attribute, dict]:
        parser.parse_keyword(cls.DIMS)
        parser.parse_punctuation("(")
        dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_punctuation(")")
        props: dict[str, Attribute] = {cls.DIMS: DenseArrayBase.from_list(i64, dims)}
        if parser.parse_optional_keyword("unique"):
            props["unique"] = UnitAttr()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        return props, list(ftype.inputs.data), ftype.outputs.data[0], attrs

    def _print_tail(self, printer: Printer) -> None:
        printer.print_string(f"{self.DIMS}([{', '.join(map(str, self._dims()))}])")
        if self.unique:
            printer.print_string(" unique")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result_types[0])


@irdl_op_definition
class GatherOp(_IndexedOp):
    name = "tensor.gather"
    DIMS: ClassVar[str] = "gather_dims"
    source = operand_def(TensorType)
    indices = operand_def(TensorType)
    gather_dims = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_indexing(self.source.type, self.indices.type, self._dims(), self.result.type, "gather")

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        indices = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        props, (source_t, indices_t), result_t, attrs = cls._parse_tail(parser)
        operands = [parser.resolve_operand(source, source_t), parser.resolve_operand(indices, indices_t)]
        op = cls(operands=operands, result_types=[result_t], properties=props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_indexed(printer, self.source, self.indices)
        self._print_tail(printer)


@irdl_op_definition
class ScatterOp(_IndexedOp):
    name = "tensor.scatter"
    DIMS: ClassVar[str] = "scatter_dims"
    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    indices = operand_def(TensorType)
    scatter_dims = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if self.dest.type != self.result.type:
            raise VerifyException("result type must be the destination type")
        _check_indexing(self.dest.type, self.indices.type, self._dims(), self.source.type, "scatter")

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        indices = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        props, types, result_t, attrs = cls._parse_tail(parser)
        if len(types) != 3:
            parser.raise_error("tensor.scatter takes (source, dest, indices) types")
        operands = [parser.resolve_operand(v, t) for v, t in zip((source, dest, indices), types)]
        op = cls(operands=operands, result_types=[result_t], properties=props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" into ")
        _print_indexed(printer, self.dest, self.indices)
        self._print_tail(printer)


def _print_indexed(printer: Printer, base: SSAValue, indices: SSAValue) -> None:
    printer.print_operand(base)
    printer.print_string("[")
    printer.print_operand(indices)
    printer.print_string("] ")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`tensor.reshape %t(%shape) : (T, tensor<Nxi64>) -> U`: the elements of `%t` in the shape
    the values of `%shape` give. Unlike xDSL's op, the source and result may be unranked
    (`tensor<*xf32>`), as MLIR allows."""

    name = "tensor.reshape"
    source = operand_def(TensorType | UnrankedTensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType | UnrankedTensorType)
    assembly_format = "attr-dict $source `(` $shape `)` `:` `(` type($source) `,` type($shape) `)` `->` type($result)"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        source, shape, result = self.source.type, self.shape.type, self.result.type
        if source.get_element_type() != result.get_element_type():
            raise VerifyException("element types of source and result tensor types should be the same")
        if shape.get_num_dims() != 1:
            raise VerifyException("shape tensor must have a rank one")
        length = shape.get_shape()[0]
        if isinstance(result, UnrankedTensorType):
            if length != DYNAMIC_INDEX:
                raise VerifyException("an unranked result needs a shape operand of dynamic length")
            return
        if length != DYNAMIC_INDEX and length != result.get_num_dims():
            raise VerifyException("length of shape operand differs from the result's tensor rank")
        shapes = [t.get_shape() for t in (source, result) if isinstance(t, TensorType)]
        if len(shapes) == 2 and all(d != DYNAMIC_INDEX for s in shapes for d in s) and math.prod(shapes[0]) != math.prod(shapes[1]):
            raise VerifyException("source and result tensor should have the same number of elements")


_ADDED = (PadOp, ExpandShapeOp, RankOp, GenerateOp, GatherOp, ScatterOp, ReshapeOp)
_REPLACED = {op.name for op in _ADDED}

Tensor = Dialect(
    "tensor",
    [op for op in xdsl_tensor.Tensor.operations if op.name not in _REPLACED] + list(_ADDED),
    list(xdsl_tensor.Tensor.attributes),
)
