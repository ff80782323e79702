"""xDSL's `scf` dialect with `scf.if` reading MLIR's full result syntax: MLIR accepts one
result type without parentheses (`scf.if %c -> tensor<4xf32> {`), which IREE's tests use and
xDSL's parser rejects. Everything else is xDSL's; the class stays an `xdsl.dialects.scf.IfOp`,
so passes and the interpreter see no difference.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf as xdsl_scf
from xdsl.dialects.builtin import i1
from xdsl.ir import Dialect, Region
from xdsl.parser import Parser


class IfOp(xdsl_scf.IfOp):
    """`scf.if %cond (-> type | -> (types))? {then} (else {else})? attr-dict`. A plain subclass:
    the IRDL definition is xDSL's, only the parser differs."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        cond = parser.parse_operand(i1)
        return_types = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    return_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                return_types = [parser.parse_type()]
        then_region = cls.parse_region_with_yield(parser)
        else_region = cls.parse_region_with_yield(parser) if parser.parse_optional_keyword("else") else Region()
        attr_dict = parser.parse_optional_attr_dict()
        return cls(cond, return_types, then_region, else_region, attr_dict)


Scf = Dialect(
    "scf",
    [IfOp if op is xdsl_scf.IfOp else op for op in xdsl_scf.Scf.operations],
    list(xdsl_scf.Scf.attributes),
)
