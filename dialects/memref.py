"""xDSL's `memref` dialect plus MLIR's `memref.transpose`, a view of a memref with its
dimensions permuted (only strides change, no data moves):

    %t = memref.transpose %m (i, j, k) -> (k, j, i) : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<?x?x?xf32, strided<[1, ?, ?]>>
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import memref as xdsl_memref
from xdsl.dialects.builtin import AffineMapAttr, DYNAMIC_INDEX, MemRefType
from xdsl.ir import Dialect
from xdsl.ir.affine import AffineDimExpr
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class TransposeOp(IRDLOperation):
    name = "memref.transpose"
    in_ = operand_def(MemRefType)
    result = result_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        perm = self.permutation.data
        rank = self.in_.type.get_num_dims()
        positions = [e.position for e in perm.results if isinstance(e, AffineDimExpr)]
        if perm.num_dims != rank or sorted(positions) != list(range(rank)) or len(positions) != len(perm.results):
            raise VerifyException(f"expected a permutation of {rank} dimensions, got {perm}")
        shape, result = self.in_.type.get_shape(), self.result.type.get_shape()
        for out_dim, in_dim in enumerate(positions):
            if DYNAMIC_INDEX not in (shape[in_dim], result[out_dim]) and shape[in_dim] != result[out_dim]:
                raise VerifyException(f"result dimension {out_dim} must be input dimension {in_dim} ({shape[in_dim]}), got {result[out_dim]}")
        if self.in_.type.get_element_type() != self.result.type.get_element_type():
            raise VerifyException("the element type must not change")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.in_)
        printer.print_string(f" {self.permutation.data} : ")
        printer.print_attribute(self.in_.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        perm = parser.parse_affine_map()
        parser.parse_punctuation(":")
        source = parser.resolve_operand(name, parser.parse_type())
        parser.parse_keyword("to")
        op = cls(operands=[source], result_types=[parser.parse_type()], properties={"permutation": AffineMapAttr(perm)})
        op.attributes |= parser.parse_optional_attr_dict()
        return op


MemRef = Dialect("memref", [*xdsl_memref.MemRef.operations, TransposeOp], list(xdsl_memref.MemRef.attributes))
