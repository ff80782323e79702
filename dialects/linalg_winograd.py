"""MLIR's Winograd convolution transforms, F(m x m, r x r) with `fmr(F_m_r)`:

    %f = linalg.winograd_filter_transform fmr(F_4_3) ins(%k : tensor<F x r x r x C>) outs(%e : tensor<a x a x C x F>) -> ...
    %i = linalg.winograd_input_transform fmr(F_4_3) ins(%x : tensor<N x H x W x C>) outs(%e : tensor<a x a x tH x tW x N x C>) -> ...
    %o = linalg.winograd_output_transform fmr(F_4_3) ins(%y : tensor<a x a x tH x tW x N x F>) outs(%e : tensor<N x H x W x F>) -> ...

with a = m + r - 1 (a 1 x r or r x 1 kernel keeps 1 in that direction) and output tiles of m.
They come out of MLIR's Winograd rewrite, not out of models: fusionopt reads, verifies and
prints them; the interpreter does not run them (it reports so).
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, StringAttr, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.linalg_generic import parse_operand_group, parse_optional_arrow_types

FMRS = {"F_2_3": (2, 3), "F_4_3": (4, 3), "F_2_5": (2, 5)}


class _WinogradOp(IRDLOperation):
    """`fmr(F_m_r) ins(%a : T) outs(%b : U) (-> U)?`, checked against the transform's shapes."""

    input = operand_def(TensorType | MemRefType)
    output = operand_def(TensorType | MemRefType)
    results_ = var_result_def(TensorType)
    fmr = prop_def(StringAttr)
    RANKS: ClassVar[tuple[int, int]]

    def m_r(self) -> tuple[int, int]:
        return FMRS[self.fmr.data]

    def verify_(self) -> None:
        if self.fmr.data not in FMRS:
            raise VerifyException(f"unknown fmr {self.fmr.data}, expected one of {', '.join(FMRS)}")
        ins, outs = self.input.type.get_shape(), self.output.type.get_shape()
        if (len(ins), len(outs)) != self.RANKS:
            raise VerifyException(f"expects an input of rank {self.RANKS[0]} and an output of rank {self.RANKS[1]}")
        if [r.type for r in self.results_] != ([self.output.type] if isinstance(self.output.type, TensorType) else []):
            raise VerifyException("the result must have the output's type")
        if self.input.type.get_element_type() != self.output.type.get_element_type():
            raise VerifyException("input and output element types differ")
        for what, expected, actual in self.shape_rules(list(ins), list(outs)):
            if DYNAMIC_INDEX not in (expected, actual) and expected != actual:
                raise VerifyException(f"{what}: expected {expected}, got {actual}")

    def shape_rules(self, ins: list[int], outs: list[int]):
        raise NotImplementedError

    def print(self, printer: Printer) -> None:
        printer.print_string(f" fmr({self.fmr.data}) ins(")
        printer.print_operand(self.input)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(") outs(")
        printer.print_operand(self.output)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)
        printer.print_string(")")
        if self.results_:
            printer.print_string(" -> ")
            printer.print_attribute(self.results_[0].type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("fmr")
        parser.parse_punctuation("(")
        fmr = parser.parse_identifier()
        parser.parse_punctuation(")")
        inputs = parse_operand_group(parser, "ins")
        outputs = parse_operand_group(parser, "outs")
        if len(inputs) != 1 or len(outputs) != 1:
            parser.raise_error(f"{cls.name} takes one input and one output")
        result_types = parse_optional_arrow_types(parser)
        op = cls(operands=[inputs[0], outputs[0]], result_types=[list(result_types)], properties={"fmr": StringAttr(fmr)})
        op.attributes |= parser.parse_optional_attr_dict()
        return op


def _alpha(m: int, r: int, kernel: int) -> int:
    return 1 if kernel == 1 else m + r - 1


def _tiles(size: int, m: int, r: int) -> int:
    return DYNAMIC_INDEX if size == DYNAMIC_INDEX else -(-(size - (r - 1)) // m)


@irdl_op_definition
class WinogradFilterTransformOp(_WinogradOp):
    name = "linalg.winograd_filter_transform"
    RANKS: ClassVar[tuple[int, int]] = (4, 4)

    def shape_rules(self, ins, outs):
        m, r = self.m_r()
        f, kh, kw, c = ins
        if kh not in (1, r, DYNAMIC_INDEX) or kw not in (1, r, DYNAMIC_INDEX):
            yield "kernel size", r, kh if kh not in (1, r) else kw
        yield "output dimension 0", _alpha(m, r, kh), outs[0]
        yield "output dimension 1", _alpha(m, r, kw), outs[1]
        yield "output dimension 2 (channels)", c, outs[2]
        yield "output dimension 3 (filters)", f, outs[3]


@irdl_op_definition
class WinogradInputTransformOp(_WinogradOp):
    name = "linalg.winograd_input_transform"
    RANKS: ClassVar[tuple[int, int]] = (4, 6)

    def shape_rules(self, ins, outs):
        m, r = self.m_r()
        n, h, w, c = ins
        yield "output dimension 0", m + r - 1, outs[0]
        yield "output dimension 1", m + r - 1, outs[1]
        yield "output dimension 2 (tiles in height)", _tiles(h, m, r), outs[2]
        yield "output dimension 3 (tiles in width)", _tiles(w, m, r), outs[3]
        yield "output dimension 4 (batch)", n, outs[4]
        yield "output dimension 5 (channels)", c, outs[5]


@irdl_op_definition
class WinogradOutputTransformOp(_WinogradOp):
    name = "linalg.winograd_output_transform"
    RANKS: ClassVar[tuple[int, int]] = (6, 4)

    def shape_rules(self, ins, outs):
        m, r = self.m_r()
        yield "input dimension 0", m + r - 1, ins[0]
        yield "input dimension 1", m + r - 1, ins[1]
        th, tw = ins[2], ins[3]
        yield "output height", DYNAMIC_INDEX if th == DYNAMIC_INDEX else th * m, outs[1]
        yield "output width", DYNAMIC_INDEX if tw == DYNAMIC_INDEX else tw * m, outs[2]
        yield "output batch", ins[4], outs[0]
        yield "output filters", ins[5], outs[3]


WINOGRAD_OPS = (WinogradFilterTransformOp, WinogradInputTransformOp, WinogradOutputTransformOp)
