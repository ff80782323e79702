"""Decimal float literals rounded to their type as MLIR rounds them: past the type's range
is +-inf.

MLIR reads a decimal literal as a double (only a literal beyond the double range is
"floating point value too large for attribute") and converts it to the attribute's type
with round-to-nearest-even, which overflows to infinity: `-3.40282347E+38 : f16` (torch-mlir's
f32 -inf stand-in after a cast to half) is -inf (0xFC00), `65520.0 : f16` is +inf, `3.5e38 :
f32` is +inf. xDSL packs with `struct`, which raises OverflowError instead. Hex literals are
bit patterns, not numbers, and are left alone (a pattern wider than the type stays an error).

`round_to_float_type(value, type)` is the conversion; `FloatLiteralParserMixin` applies it to
scalar literals (`1.0e5 : f16`) and `round_float_elements` to dense elements, complex ones too.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    f64,
    i64,
)
from xdsl.ir import Attribute
from xdsl.parser import AttrParser
from xdsl.utils.hints import isa
from xdsl.utils.mlir_lexer import MLIRTokenKind

# Types whose `struct` packing overflows; bf16 (xDSL rounds its bits itself) and f64 (a
# Python float already is one) convert without error.
_NARROW = {Float16Type: np.float16, Float32Type: np.float32}


def round_to_float_type(value: float, type: Attribute) -> float:
    """`value` (a double) rounded to `type` to nearest even, +-inf past its range."""
    dtype = _NARROW.get(type.__class__)
    if dtype is None:
        return value
    with np.errstate(over="ignore"):
        return float(dtype(value))


def round_float_elements(values: list, element_type: Attribute) -> list:
    """Dense literal values (floats, or (real, imaginary) pairs) rounded to `element_type`."""
    if isinstance(element_type, ComplexType) and isinstance(element_type.element_type, AnyFloat):
        inner = element_type.element_type
        return [(round_to_float_type(re, inner), round_to_float_type(im, inner)) for re, im in values]
    if isinstance(element_type, AnyFloat):
        return [round_to_float_type(v, element_type) for v in values]
    return values


class FloatLiteralParserMixin(AttrParser):
    """`number : type` attributes with decimal floats rounded to the type (see module doc);
    put it before `Parser` in the bases. Otherwise xDSL's own rules."""

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        boolean = self.try_parse_builtin_boolean_attr()
        if boolean is not None:
            return boolean
        hexadecimal = self._current_token.text[:2] in ("0x", "0X")
        if (value := self.parse_optional_number()) is None:
            return None
        if self._current_token.kind != MLIRTokenKind.COLON:
            return FloatAttr(value, f64) if isinstance(value, float) else IntegerAttr(value, i64)
        type = self._parse_attribute_type()
        if isinstance(type, AnyFloat):
            if hexadecimal:
                raw = value.to_bytes(type.compile_time_size, "little")
                return FloatAttr(next(type.iter_unpack(raw)), type)
            if isinstance(value, int):  # `7 : f32`: xDSL's rule (out of range: MLIR's error)
                return FloatAttr(float(value), type)
            return FloatAttr(round_to_float_type(value, type), type)
        if isa(type, IntegerType | IndexType):
            if isinstance(value, float):
                self.raise_error("Floating point value is not valid for integer type.")
            return IntegerAttr(value, type)
        self.raise_error("Invalid type given for integer or float attribute.")
