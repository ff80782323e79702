"""`iree_linalg_ext.scatter` as IREE 3.13 prints it, and the dialect's op list.

    %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
           ins(%updates, %indices : tensor<4x1x16xf32>, tensor<4x1xi32>)
           outs(%original : tensor<8192x16xf32>) {
         ^bb0(%update: f32, %current: f32):
           iree_linalg_ext.yield %update : f32
         } -> tensor<8192x16xf32>

`indices` is `batch... x depth`; `updates` is `batch... x slice...`. For every batch position,
the slice is written into the trailing dims of `original`, starting at the index along the
dims `dimension_map` names (0 elsewhere); the region combines each update element with the
element it lands on (yield the update: overwrite; `arith.addf`: accumulate). Batches are applied
in order, so repeated indices accumulate (`unique_indices(true)` only promises there are none).
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IndexType, IntegerType, TensorType, i64
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, region_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext


@irdl_op_definition
class ScatterOp(IRDLOperation):
    name = "iree_linalg_ext.scatter"
    updates = operand_def(TensorType)
    indices = operand_def(TensorType)
    original = operand_def(TensorType)
    dimension_map = prop_def(DenseArrayBase)
    unique_indices = prop_def(BoolAttr)
    region = region_def("single_block")
    result = result_def(TensorType)

    def dims(self) -> list[int]:
        return list(self.dimension_map.get_values())

    def batch_rank(self) -> int:
        return self.indices.type.get_num_dims() - 1

    def verify_(self) -> None:
        upd, idx, orig = self.updates.type, self.indices.type, self.original.type
        if self.result.type != orig:
            raise VerifyException("result type must be the original's type")
        if not isinstance(idx.element_type, IntegerType | IndexType):
            raise VerifyException(f"indices must be integers, got {idx}")
        depth, batch = idx.get_shape()[-1], self.batch_rank()
        if depth != len(self.dims()):
            raise VerifyException(f"index depth {depth} differs from dimension_map size {len(self.dims())}")
        if any(not 0 <= d < orig.get_num_dims() for d in self.dims()):
            raise VerifyException(f"dimension_map {self.dims()} names a dim outside the original {orig}")
        if upd.get_shape()[:batch] != idx.get_shape()[:batch]:
            raise VerifyException(f"updates {upd} and indices {idx} differ in their batch dims")
        slice_shape, orig_shape = upd.get_shape()[batch:], orig.get_shape()
        if len(slice_shape) > len(orig_shape) or any(
            s > o for s, o in zip(reversed(slice_shape), reversed(orig_shape)) if s >= 0 and o >= 0
        ):
            raise VerifyException(f"update slice {list(slice_shape)} does not fit the original {orig}")
        block = self.region.block
        element = orig.element_type
        if [a.type for a in block.args] != [upd.element_type, element]:
            raise VerifyException(f"region arguments must be ({upd.element_type}, {element})")
        last = block.last_op
        if not isinstance(last, iree_linalg_ext.YieldOp) or [v.type for v in last.values] != [element]:
            raise VerifyException(f"region must yield one {element}")

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        parser.parse_keyword("dimension_map")
        parser.parse_punctuation("=")
        dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_keyword("unique_indices")
        parser.parse_punctuation("(")
        unique = parser.parse_boolean()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        names = _typed_operands(parser)
        parser.parse_characters("outs")
        outs = _typed_operands(parser)
        if len(names) != 2 or len(outs) != 1:
            parser.raise_error("expected ins(%updates, %indices : ...) outs(%original : ...)")
        region = parser.parse_region()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        op = cls(operands=[*names, *outs], result_types=[result], regions=[region],
                 properties={"dimension_map": DenseArrayBase.from_list(i64, dims), "unique_indices": BoolAttr.from_bool(unique)})
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dimension_map = [{', '.join(map(str, self.dims()))}]")
        printer.print_string(f" unique_indices({'true' if self.unique_indices.value.data else 'false'})")
        printer.print_op_attributes(self.attributes)
        _print_group(printer, "ins", [self.updates, self.indices])
        _print_group(printer, "outs", [self.original])
        printer.print_string(" ")
        printer.print_region(self.region)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


def _print_group(printer: Printer, word: str, values) -> None:
    """` word(%a, %b : A, B)`: the typed operand groups of the ext ops."""
    printer.print_string(f" {word}(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _typed_operands(parser: Parser) -> list:
    """`(%a, %b : A, B)`."""
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{len(names)} operands but {len(types)} types")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types)]


IreeLinalgExt = Dialect("iree_linalg_ext", [*iree_linalg_ext.IreeLinalgExt.operations, ScatterOp], [])
