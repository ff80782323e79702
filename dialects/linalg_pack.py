"""`linalg.pack` and `linalg.unpack` (upstream ops xDSL 0.74 lacks; formerly `tensor.pack` /
`tensor.unpack`): data-tiling relayouts, in MLIR's syntax and generic form (on tensors with a
result, or on memrefs without one):

    %p = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0]
           inner_dims_pos = [0, 1] inner_tiles = [8, %t] into %dest
           : tensor<13x15xf32> -> tensor<?x2x8x?xf32>
    %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
           inner_tiles = [8, %t] into %out : tensor<?x2x8x?xf32> -> tensor<13x15xf32>

Packing splits each source dimension `inner_dims_pos[i]` into (ceil(size / tile), tile), puts the
outer dimensions in `outer_dims_perm` order and the tiles last, in `inner_dims_pos` order.
Tiles are static (`static_inner_tiles`) or SSA `index` values (MLIR's `kDynamic` marker in
`static_inner_tiles`, the value among the `inner_tiles` operands). The verifier applies MLIR's
rules: unique in-range tile positions, a permutation for `outer_dims_perm`, the packed shape
agreeing with the tiles, and a padding value of the element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, MemRefType, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def packed_shape(unpacked: Sequence[int], inner_pos: Sequence[int], tiles: Sequence[int],
                 outer_perm: Sequence[int]) -> tuple[int, ...]:
    """MLIR's packed type: ceil-divided outer dims (permuted), then the tiles; `?` stays `?`."""
    outer = list(unpacked)
    for pos, tile in zip(inner_pos, tiles):
        size = outer[pos]
        outer[pos] = DYNAMIC_INDEX if size == DYNAMIC_INDEX or tile == DYNAMIC_INDEX else -(-size // tile)
    if outer_perm:
        outer = [outer[p] for p in outer_perm]
    return (*outer, *tiles)


class _PackLike(IRDLOperation):
    """Shared syntax, accessors and verifier of pack and unpack."""

    IS_PACK: ClassVar[bool]
    source = operand_def(TensorType | MemRefType)
    dest = operand_def(TensorType | MemRefType)
    inner_tiles = var_operand_def(IndexType)
    outer_dims_perm = opt_prop_def(DenseArrayBase)
    inner_dims_pos = prop_def(DenseArrayBase)
    static_inner_tiles = prop_def(DenseArrayBase)
    result = opt_result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def inner_pos(self) -> tuple[int, ...]:
        return tuple(self.inner_dims_pos.get_values())

    def outer_perm(self) -> tuple[int, ...]:
        return tuple(self.outer_dims_perm.get_values()) if self.outer_dims_perm else ()

    def static_tiles(self) -> tuple[int, ...]:
        return tuple(self.static_inner_tiles.get_values())

    def unpacked_type(self) -> TensorType:
        return self.source.type if self.IS_PACK else self.dest.type

    def packed_type(self) -> TensorType:
        return self.dest.type if self.IS_PACK else self.source.type

    def verify_(self) -> None:
        rank = self.unpacked_type().get_num_dims()
        pos, tiles, perm = self.inner_pos(), self.static_tiles(), self.outer_perm()
        if len(pos) != len(tiles):
            raise VerifyException("invalid inner_dims_pos vector: one position per inner tile expected")
        if len(set(pos)) != len(pos) or any(p < 0 or p >= rank for p in pos):
            raise VerifyException(f"invalid inner_dims_pos vector {list(pos)} for rank {rank}")
        if perm and sorted(perm) != list(range(rank)):
            raise VerifyException(f"invalid outer_dims_perm vector {list(perm)} for rank {rank}")
        if sum(1 for t in tiles if t == DYNAMIC_INDEX) != len(self.inner_tiles):
            raise VerifyException("one inner_tiles operand is expected per dynamic tile")
        if any(t <= 0 and t != DYNAMIC_INDEX for t in tiles):
            raise VerifyException(f"tile sizes must be positive, got {list(tiles)}")
        if isinstance(self.source.type, MemRefType) != isinstance(self.dest.type, MemRefType):
            raise VerifyException("source and destination must both be tensors or both memrefs")
        if isinstance(self.dest.type, TensorType) and (self.result is None or self.result.type != self.dest.type):
            raise VerifyException("result type must be the destination type")
        if isinstance(self.dest.type, MemRefType) and self.result is not None:
            raise VerifyException("a pack/unpack on memrefs has no result")
        packed = self.packed_type().get_shape()
        for i, (tile, size) in enumerate(zip(tiles, packed[len(packed) - len(tiles):])):
            if tile != size:  # MLIR: a static tile is the packed size, a dynamic one a `?`
                raise VerifyException(
                    f"mismatch in inner tile sizes specified at index {i}: tile "
                    f"{'?' if tile == DYNAMIC_INDEX else tile}, packed dimension {'?' if size == DYNAMIC_INDEX else size}"
                )
        expected = packed_shape(self.unpacked_type().get_shape(), pos, tiles, perm)
        if len(packed) != len(expected) or any(
            a != b and DYNAMIC_INDEX not in (a, b) for a, b in zip(packed, expected)
        ):
            raise VerifyException(
                f"the packed type {self.packed_type()} does not match the tiling: expected shape "
                f"[{', '.join('?' if d == DYNAMIC_INDEX else str(d) for d in expected)}]"
            )
        if self.source.type.get_element_type() != self.dest.type.get_element_type():
            raise VerifyException("source and destination must have the same element type")

    # --- syntax -----------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser):
        source = parser.parse_unresolved_operand()
        padding = None
        if cls.IS_PACK and parser.parse_optional_keyword("padding_value"):
            parser.parse_punctuation("(")
            pad_value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding = (pad_value, parser.parse_type())
            parser.parse_punctuation(")")
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("outer_dims_perm"):
            parser.parse_punctuation("=")
            perm = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
            props["outer_dims_perm"] = DenseArrayBase.from_list(i64, perm)
        parser.parse_keyword("inner_dims_pos")
        parser.parse_punctuation("=")
        pos = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_keyword("inner_tiles")
        parser.parse_punctuation("=")
        entries = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: _parse_tile(parser))
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_t = parser.parse_type()
        parser.parse_punctuation("->")
        dest_t = parser.parse_type()
        props["inner_dims_pos"] = DenseArrayBase.from_list(i64, pos)
        props["static_inner_tiles"] = DenseArrayBase.from_list(
            i64, [e if isinstance(e, int) else DYNAMIC_INDEX for e in entries])
        dynamic = [parser.resolve_operand(e, IndexType()) for e in entries if not isinstance(e, int)]
        operands: list = [parser.resolve_operand(source, source_t), parser.resolve_operand(dest, dest_t)]
        if cls.IS_PACK:
            operands.append([parser.resolve_operand(*padding)] if padding else [])
        operands.append(dynamic)
        results = [dest_t] if isinstance(dest_t, TensorType) else []
        op = cls(operands=operands, result_types=[results], properties=props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        padding = getattr(self, "padding_value", None)
        if padding is not None:
            printer.print_string(" padding_value(")
            printer.print_operand(padding)
            printer.print_string(" : ")
            printer.print_attribute(padding.type)
            printer.print_string(")")
        if self.outer_dims_perm:
            printer.print_string(f" outer_dims_perm = [{', '.join(map(str, self.outer_perm()))}]")
        printer.print_string(f" inner_dims_pos = [{', '.join(map(str, self.inner_pos()))}] inner_tiles = [")
        dynamic = iter(self.inner_tiles)
        for i, tile in enumerate(self.static_tiles()):
            if i:
                printer.print_string(", ")
            if tile == DYNAMIC_INDEX:
                printer.print_operand(next(dynamic))
            else:
                printer.print_string(str(tile))
        printer.print_string("] into ")
        printer.print_operand(self.dest)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)


def _parse_tile(parser: Parser):
    value = parser.parse_optional_integer()
    return value if value is not None else parser.parse_unresolved_operand()


@irdl_op_definition
class PackOp(_PackLike):
    name = "linalg.pack"
    IS_PACK: ClassVar[bool] = True
    source = operand_def(TensorType | MemRefType)
    dest = operand_def(TensorType | MemRefType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)

    def verify_(self) -> None:
        super().verify_()
        if self.padding_value is not None and self.padding_value.type != self.source.type.get_element_type():
            raise VerifyException("expected padding_value to have the source element type")


@irdl_op_definition
class UnPackOp(_PackLike):
    name = "linalg.unpack"
    IS_PACK: ClassVar[bool] = False


PACK_OPS = (PackOp, UnPackOp)

__all__ = ["PACK_OPS", "PackOp", "UnPackOp", "packed_shape"]
