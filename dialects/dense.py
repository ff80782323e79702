"""Dense constants without materialising them: compact splats and numpy conversion.

xDSL 0.74 stores `dense<...>` as raw bytes (`DenseIntOrFPElementsAttr.data`), but its parser
expands a splat `dense<0.0> : tensor<4096x4096xf32>` into a 16M-element Python list and 64 MiB
of bytes (minutes and > 1 GB), and its printer unpacks every element to rediscover the splat.

fusionopt keeps MLIR's own representation instead: **a splat stores exactly one element**
(`len(attr.data.data) == element size`), whatever the shape. xDSL's printer already prints such
an attribute as `dense<v> : tensor<...>`, and the verifier accepts it. Invariant: every splat
we create (parser, `numpy_to_dense`) is compact, so equal constants are equal attributes.

Consequence for code reading constants: `attr.get_values()` of a compact splat returns ONE
value. Use `dense_to_numpy(attr)`, which returns the full-shaped array (a zero-copy broadcast
view for splats, `np.frombuffer` for everything else).

API:
- `dense_to_numpy(attr) -> np.ndarray` (read-only; `.copy()` to write)
- `numpy_to_dense(array, type=None) -> DenseIntOrFPElementsAttr` (compact when all equal)
- `splat_dense(value, type)`, `is_compact_splat(attr)`, `is_splat(attr)`, `element_dtype(element_type)`
- `CompactDenseParserMixin`: mix into an xDSL `Parser` subclass so parsing never expands.
"""

from __future__ import annotations

import math
import struct

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DYNAMIC_INDEX,
    ComplexType,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    RankedStructure,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import base
from xdsl.parser import AttrParser
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from fusionopt.dialects.float_literals import round_float_elements, round_to_float_type

_NUMPY_DTYPES: dict[type[Attribute], np.dtype] = {
    Float16Type: np.dtype("<f2"),
    Float32Type: np.dtype("<f4"),
    Float64Type: np.dtype("<f8"),
    IndexType: np.dtype("<i8"),
}
_INT_DTYPES = {
    width: np.dtype(code)
    for width, code in ((1, "<i1"), (8, "<i1"), (16, "<i2"), (32, "<i4"), (64, "<i8"))
}


def element_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype of an element type; bf16 computes as float32 (numpy has no bf16)."""
    if isinstance(element_type, IntegerType) and element_type.width.data in _INT_DTYPES:
        width = element_type.width.data
        return np.dtype(np.bool_) if width == 1 else _INT_DTYPES[width]
    if isinstance(element_type, BFloat16Type):
        return np.dtype(np.float32)
    dtype = _NUMPY_DTYPES.get(type(element_type))
    if dtype is None:
        raise NotImplementedError(f"no numpy dtype for element type {element_type}")
    return dtype


def _storage_dtype(element_type: Attribute) -> np.dtype:
    """How xDSL lays out one element in `data` (i1 as one byte, bf16 as its 16 raw bits)."""
    if isinstance(element_type, BFloat16Type):
        return np.dtype("<u2")
    if isinstance(element_type, IntegerType) and element_type.width.data == 1:
        return np.dtype("<i1")
    return element_dtype(element_type)


def _decode(raw: np.ndarray, element_type: Attribute) -> np.ndarray:
    if isinstance(element_type, BFloat16Type):
        return (raw.astype(np.uint32) << 16).view(np.float32)
    if isinstance(element_type, IntegerType) and element_type.width.data == 1:
        return raw != 0
    return raw


def _all_equal(values: np.ndarray) -> bool:
    """Every element of a flat array of two or more equals the first (a NaN equals nothing);
    most weights differ in their first two, so those are looked at before all."""
    return bool(values[1] == values[0]) and bool((values == values[0]).all())


def _viewed_bytes(array: np.ndarray, storage: np.dtype) -> bytes | None:
    """The bytes object `array` is a whole view of, in the attribute's storage layout: stored as
    it is (immutable), not copied; an ONNX weight imported by `np.frombuffer` is one."""
    base = array.base
    while isinstance(base, np.ndarray):  # a reshape's view of the frombuffer array
        base = base.base
    if isinstance(base, bytes) and array.dtype == storage and array.flags.c_contiguous and array.nbytes == len(base):
        return base  # contiguous and as long as the buffer: the buffer itself
    return None


def _encode(array: np.ndarray, element_type: Attribute) -> bytes:
    if isinstance(element_type, BFloat16Type):
        bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
        # Round to nearest even on the dropped 16 bits, as MLIR's APFloat conversion does.
        rounded = bits + 0x7FFF + ((bits >> 16) & 1)
        return (rounded >> 16).astype("<u2").tobytes()
    if isinstance(element_type, IntegerType) and element_type.width.data == 1:
        # xDSL normalises signless i1 `true` to -1 (0xFF); match it so equal constants compare equal.
        return np.where(np.asarray(array, dtype=bool), -1, 0).astype("<i1").tobytes()
    storage = _storage_dtype(element_type)
    shared = _viewed_bytes(array, storage)
    return shared if shared is not None else np.ascontiguousarray(array, dtype=storage).tobytes()


def is_compact_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """True if `attr` stores one element for a shape with more than one element."""
    count = math.prod(attr.get_shape())
    return count != 1 and len(attr.data.data) == attr.get_element_type().compile_time_size


def is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """xDSL's `attr.is_splat()` (every stored element equals the first; a NaN equals only
    itself), decided on the stored bytes with numpy: xDSL unpacks each element into a Python
    object first, seconds on a model's weights."""
    try:
        values = np.frombuffer(attr.data.data, dtype=_storage_dtype(attr.get_element_type()))
    except NotImplementedError:  # complex elements: rare and small
        return attr.is_splat()
    values = _decode(values, attr.get_element_type())
    if values.size <= 1:
        return values.size == 1
    return _all_equal(values)


def dense_to_numpy(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The constant as a read-only numpy array of its full shape, without copying the bytes."""
    element_type = attr.get_element_type()
    raw = np.frombuffer(attr.data.data, dtype=_storage_dtype(element_type))
    values = _decode(raw, element_type)
    shape = attr.get_shape()
    if is_compact_splat(attr):
        return np.broadcast_to(values[0], shape)
    values = values.reshape(shape)
    values.flags.writeable = False
    return values


def _tensor_type_for(array: np.ndarray) -> TensorType:
    from xdsl.dialects.builtin import f16, f32, f64, i1, i32, i64

    by_dtype = {
        "float16": f16, "float32": f32, "float64": f64, "bool": i1, "int32": i32, "int64": i64
    }
    if array.dtype.name not in by_dtype:
        raise NotImplementedError(f"pass an explicit type for dtype {array.dtype}")
    return TensorType(by_dtype[array.dtype.name], array.shape)


def numpy_to_dense(
    array: np.ndarray, type: RankedStructure | None = None
) -> DenseIntOrFPElementsAttr:
    """A dense attribute holding `array` (cast to `type`'s element type); compact if a splat."""
    array = np.asarray(array)
    type = type or _tensor_type_for(array)
    if tuple(type.get_shape()) != array.shape and array.size != 1:
        raise ValueError(f"array shape {array.shape} does not match {type}")
    element_type = type.get_element_type()
    flat = array.reshape(-1)
    if flat.size >= 1 and (flat.size == 1 or _all_equal(flat)):
        flat = flat[:1]
    return DenseIntOrFPElementsAttr(type, BytesAttr(_encode(flat, element_type)))



def splat_dense(value: float | int | bool, type: RankedStructure) -> DenseIntOrFPElementsAttr:
    """`dense<value> : type`, stored compactly."""
    return numpy_to_dense(np.asarray([value]), type)


def compact_splat_bytes(data: bytes, element_size: int) -> bytes:
    """`data` reduced to its first element if every element equals it (vectorised check)."""
    if len(data) <= element_size or len(data) % element_size:
        return data
    if data[:element_size] != data[element_size : 2 * element_size]:
        return data  # most weights: no need to compare the whole array
    rows = np.frombuffer(data, dtype=np.uint8).reshape(-1, element_size)
    return data[:element_size] if bool((rows == rows[0]).all()) else data


_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


class CompactDenseParserMixin(AttrParser):
    """Parses `dense<...>` straight into (compact) bytes; put it before `Parser` in the bases.

    Same grammar and errors as xDSL's `parse_dense_int_or_fp_elements_attr`, but a splat
    (scalar literal, one-element hex, or an all-equal list) keeps one element, and hex data
    goes through `bytes.fromhex` only.
    """

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure | None
    ) -> DenseIntOrFPElementsAttr:
        start = self._current_token.span.start
        self.parse_punctuation("<", " in dense attribute")
        contents: str | tuple[list, list[int]] | None = None
        if self.parse_optional_punctuation(">") is None:
            contents = self._parse_optional_plain_str_literal()
            if contents is None:
                contents = self._parse_tensor_literal()
            self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        element_type = type.get_element_type()
        if isinstance(element_type, IntegerType) and element_type.width.data > 64:
            # MLIR allows any width; xDSL 0.74 stores at most 64 bits (a NotImplementedError otherwise)
            self.raise_error(f"dense elements of {element_type} are not supported (integers up to 64 bits)",
                             start, self._current_token.span.start)
        count = math.prod(type.get_shape())
        if contents is None:
            if count != 0:
                self.raise_error("Expected at least one element in the dense literal")
            data = b""
        elif isinstance(contents, str):
            data = self._hex_bytes(contents)
        else:
            data = self._literal_bytes(contents, type)
        data = compact_splat_bytes(data, element_type.compile_time_size)
        stored = len(data) // element_type.compile_time_size
        if stored not in (1, count) or len(data) % element_type.compile_time_size:
            self.raise_error(
                f"Shape mismatch in dense literal. Expected {count} elements from the type, "
                f"but got {stored} elements."
            )
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))

    def _parse_optional_plain_str_literal(self) -> str | None:
        """`parse_optional_str_literal`, but a literal without escapes (hex weights) is its
        text between the quotes: xDSL encodes and decodes it, several copies of megabytes."""
        token = self._current_token
        if token.kind == MLIRTokenKind.STRING_LIT and "\\" not in (text := token.span.text):
            self._consume_token(MLIRTokenKind.STRING_LIT)
            return text[1:-1]
        return self.parse_optional_str_literal()

    def _parse_dense_literal_type(self) -> RankedStructure:
        """xDSL's, with its type constraint built once: xDSL rebuilds it for every literal."""
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _DENSE_LITERAL_TYPE.verifies(type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or complex type"
            )
        if any(dim == DYNAMIC_INDEX for dim in type.get_shape()):
            self.raise_error("Dense literal attribute should have a static shape.")
        return type

    def _parse_optional_complex(self):  # type: ignore[override]
        """xDSL's `(real, imaginary)` literal element, with a parse error where xDSL asserts
        (AssertionError) on a pair not closed after its second number: `(1.0, 2.0, 3.0)`."""
        if self._current_token.kind != MLIRTokenKind.L_PAREN:
            return None
        start = self._current_token.span.start
        self._consume_token(MLIRTokenKind.L_PAREN)
        real = _complex_part(*self._parse_bool_int_or_float())
        self.parse_punctuation(",", " in a complex value '(real, imaginary)'")
        imag = _complex_part(*self._parse_bool_int_or_float())
        if len({type(p) for p in (real, imag) if not isinstance(p, BitPattern)}) > 1:  # bits fit either
            self.raise_error("Complex value must be either (float, float) or (int, int)")
        end = self._current_token.span.end
        self.parse_punctuation(")", " to close a complex value '(real, imaginary)'")
        return (real, imag), Span(start, end, self._current_token.span.input)

    def _hex_bytes(self, text: str) -> bytes:
        try:
            return bytes.fromhex(text[2:]) if text.startswith("0x") else bytes.fromhex("!")
        except ValueError:
            self.raise_error("Hex string in denseAttr is invalid")

    def _literal_bytes(self, contents: tuple[list, list[int]], type: RankedStructure) -> bytes:
        elements, shape = contents
        if shape and list(type.get_shape()) != shape:
            self.raise_error(
                f"Shape mismatch in dense literal. Expected {list(type.get_shape())} "
                f"shape from the type, but got {shape} shape."
            )
        element_type = type.get_element_type()
        if not isinstance(element_type, IntegerType) and any(_is_hex(e) for e in elements):
            return self._float_bit_patterns(elements, element_type)
        if isinstance(element_type, ComplexType):
            self._check_complex_elements(elements, element_type)
        if isinstance(element_type, ComplexType) and isinstance(element_type.element_type, AnyFloat):
            values = [tuple(self._complex_float_part(p, element_type.element_type, e.span) for p in e.value)
                      for e in elements]
        else:
            values = [element.to_type(self, element_type) for element in elements]
            values = round_float_elements(values, element_type)  # past the range: +-inf, as MLIR
        try:
            if isinstance(element_type, IntegerType):
                values = [element_type.get_normalized_value(v) for v in values]
            return element_type.pack(values)
        except (ValueError, OverflowError, struct.error):
            self._raise_out_of_range(elements, values, element_type)
            raise

    def _complex_float_part(self, value, element_type: Attribute, span: Span) -> float:
        """A part of a complex float literal: bits as the type's value, a number rounded to it."""
        if isinstance(value, BitPattern):
            width = element_type.compile_time_size
            if value >= 1 << (8 * width):
                self.raise_error("hexadecimal float constant out of range for type", span)
            return element_type.unpack(value.to_bytes(width, "little"), 1)[0]
        if isinstance(value, int):
            self.raise_error("unexpected decimal integer literal for a floating point value", span)
        return round_to_float_type(value, element_type)

    def _check_complex_elements(self, elements: list, element_type: ComplexType) -> None:
        """xDSL asserts (AssertionError) on a plain number for a complex element."""
        inner = element_type.element_type
        if not isinstance(inner, IntegerType | AnyFloat):
            self.raise_error(f"complex element type '{inner}' is not supported in a dense literal")
        for element in elements:
            if not isinstance(element.value, tuple):
                self.raise_error(
                    f"expected a complex element '(real, imaginary)' for element type '{element_type}'",
                    element.span,
                )
            if isinstance(inner, IntegerType) and any(isinstance(p, float) for p in element.value):
                self.raise_error(f"expected integers for element type '{element_type}'", element.span)

    def _raise_out_of_range(self, elements: list, values: list, element_type: Attribute) -> None:
        """MLIR's error at the first element that does not fit `element_type`."""
        for element, value in zip(elements, values, strict=True):
            try:
                if isinstance(element_type, IntegerType):
                    value = element_type.get_normalized_value(value)
                element_type.pack([value])
            except (ValueError, OverflowError, struct.error):
                if isinstance(element_type, IntegerType):
                    self.raise_error("integer constant out of range for attribute", element.span)
                self.raise_error("floating point value too large for attribute", element.span)

    def _float_bit_patterns(self, elements: list, element_type: Attribute) -> bytes:
        """MLIR reads a hex integer in a float tensor (`dense<0xFF800000> : tensor<2xf32>`)
        as the element's bit pattern (how -inf and NaN are spelled), not as a number; a list
        may mix them with numbers (`[1.0, 0x7FC00000]`, as mlir-opt prints NaN)."""
        return b"".join(self._float_element_bytes(e, element_type) for e in elements)

    def _float_element_bytes(self, element, element_type: Attribute) -> bytes:
        if not _is_hex(element):
            return element_type.pack([round_to_float_type(element.to_type(self, element_type), element_type)])
        width = element_type.compile_time_size
        bits = int(element.span.text, 16)
        if bits >= 1 << (8 * width):
            self.raise_error(f"Hexadecimal float literal does not fit in {8 * width} bits", element.span)
        return bits.to_bytes(width, "little")


class BitPattern(int):
    """A hex part of a complex literal: MLIR prints a complex float's inf or NaN part as its
    bits (`(0x7C00,1.000000e+00)`); an integer for integer complex types."""


def _complex_part(value, span: Span):
    return BitPattern(value) if span.text.lower().startswith("0x") else value


def _is_hex(element) -> bool:
    return element.span.text.lower().startswith("0x")
