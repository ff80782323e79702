"""Big weights stay bytes end to end: `is_splat`, printing and the size test never unpack them.

xDSL's `get_values` turns each element into a Python object; on a model's weights that is
seconds. These tests make it raise, so any path that goes element by element again fails.
"""

from __future__ import annotations

import textwrap
from io import StringIO

import numpy as np
import pytest
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, bf16, f16, f32, i1, i8, i64
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRTokenKind, StringLiteral

from fusionopt.dialects.dense import compact_splat_bytes, dense_to_numpy, is_splat, numpy_to_dense
from fusionopt.ir_io import MlirPrinter, parse_module, print_module
from fusionopt.safe_lexer import SafeLexer
from fusionopt.transforms.common.dispatch_utils import constant_byte_size, is_clonable_into_dispatch


@pytest.fixture
def no_unpacking(monkeypatch):
    def refuse(self):
        raise AssertionError("a dense constant was unpacked element by element")

    monkeypatch.setattr(DenseIntOrFPElementsAttr, "get_values", refuse)
    monkeypatch.setattr(DenseIntOrFPElementsAttr, "get_attrs", refuse)


def raw_dense(data: bytes, element_type, shape) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr(TensorType(element_type, shape), BytesAttr(data))


CASES = {
    "f32-all-equal": raw_dense(np.full(6, 1.5, "<f4").tobytes(), f32, [6]),
    "f32-last-differs": raw_dense(np.array([1, 1, 1, 2], "<f4").tobytes(), f32, [4]),
    "f32-signed-zeros": raw_dense(np.array([0.0, -0.0, 0.0], "<f4").tobytes(), f32, [3]),
    "f32-nans": raw_dense(np.full(3, np.nan, "<f4").tobytes(), f32, [3]),
    "f32-one-nan": raw_dense(np.array([np.nan], "<f4").tobytes(), f32, [1]),
    "f16-differs": raw_dense(np.array([1, 2], "<f2").tobytes(), f16, [2]),
    "bf16-all-equal": raw_dense(np.array([0x3F80, 0x3F80], "<u2").tobytes(), bf16, [2]),
    "bf16-differs": raw_dense(np.array([0x3F80, 0x3F81], "<u2").tobytes(), bf16, [2]),
    "i1-all-true": raw_dense(b"\xff\xff\xff", i1, [3]),
    "i8-differs": raw_dense(bytes([1, 255]), i8, [2]),
    "i64-all-equal": raw_dense(np.full(5, -7, "<i8").tobytes(), i64, [5]),
    "compact": numpy_to_dense(np.full((4, 4), 3.0, np.float32)),
}


@pytest.mark.parametrize("name", CASES)
def test_is_splat_agrees_with_xdsl(name: str):
    attr = CASES[name]
    assert is_splat(attr) == attr.is_splat()


def test_one_million_f32_round_trip_exactly_without_unpacking(no_unpacking):
    values = np.random.default_rng(0).standard_normal((1000, 1000)).astype(np.float32)
    values[0, :3] = [np.nan, -0.0, np.inf]
    hex_text = '"0x' + values.tobytes().hex().upper() + '"'
    text = textwrap.dedent(
        f"""\
        func.func @f() -> tensor<1000x1000xf32> {{
          %0 = arith.constant dense<{hex_text}> : tensor<1000x1000xf32>
          func.return %0 : tensor<1000x1000xf32>
        }}
        """
    )
    module = parse_module(text)
    (constant,) = [op for op in module.walk() if op.name == "arith.constant"]
    attr = constant.properties["value"]
    assert isinstance(attr.data.data, bytes) and attr.data.data == values.tobytes()
    assert not is_splat(attr)
    assert constant_byte_size(constant) == 4_000_000 and not is_clonable_into_dispatch(constant)
    printed = print_module(module)
    assert f"dense<{hex_text}> : tensor<1000x1000xf32>" in printed
    np.testing.assert_array_equal(dense_to_numpy(only_constant(printed)), values)


def test_printing_matches_xdsl_around_the_hex_threshold():
    """101 elements print as hex, 100 as a list, an all-equal 200 as its one value: xDSL's rules."""
    for count in (100, 101):
        text = print_module(parse_module(module_of(np.arange(count, dtype=np.float32))))
        assert ('"0x' in text) == (count > 100)
    out = StringIO()
    MlirPrinter(stream=out).print_attribute(raw_dense(np.full(200, 2.0, "<f4").tobytes(), f32, [200]))
    assert out.getvalue() == "dense<2.000000e+00> : tensor<200xf32>"


def module_of(values: np.ndarray) -> str:
    hex_text = '"0x' + values.tobytes().hex().upper() + '"'
    ty = f"tensor<{values.size}xf32>"
    body = f"  %0 = arith.constant dense<{hex_text}> : {ty}\n  func.return %0 : {ty}\n"
    return f"func.func @f() -> {ty} {{\n{body}}}\n"


def only_constant(text: str) -> DenseIntOrFPElementsAttr:
    (value,) = [op.properties["value"] for op in parse_module(text).walk() if op.name == "arith.constant"]
    return value


@pytest.fixture
def no_pattern_lexing(monkeypatch):
    """xDSL's string-literal pattern and its escape decoding refuse: a literal without escapes
    must go through `str.find` and reach `bytes.fromhex` as the text between the quotes."""

    class Refuse:
        def match(self, *args):
            raise AssertionError("a plain string literal went through the regular expression")

    def refuse(self):
        raise AssertionError("a plain string literal was decoded escape by escape")

    monkeypatch.setattr(SafeLexer, "_unescaped_characters_regex", Refuse())
    monkeypatch.setattr(StringLiteral, "bytes_contents", property(refuse))


def test_hex_weights_parse_without_the_pattern(no_pattern_lexing):
    values = np.random.default_rng(1).standard_normal(1_000_000).astype(np.float32)
    assert only_constant(module_of(values)).data.data == values.tobytes()


LITERALS = [
    '"0xABCD" x', '"" x', '"plain text" "second"', '"a\\"b" x', '"tab\\tand\\0A" x', '"\\EF\\BB\\BF"',
    '"caf\u00e9 \u00fcber"', '"new\nline"', '"form\ffeed" x', '"vertical\vtab"', '"unterminated',
    '"ends in backslash\\', '"escaped end\\"',
]


def lexed(text: str, fast_path: bool) -> list | str:
    lexer = SafeLexer(Input(text, "<test>"))
    if not fast_path:
        lexer._lex_plain_string_literal = lambda start: None
    tokens = []
    try:
        while (token := lexer.lex()).kind != MLIRTokenKind.EOF:
            tokens.append((token.kind, token.span.start, token.span.end))
    except ParseError as err:
        return f"error: {err}"
    return tokens


@pytest.mark.parametrize("text", LITERALS)
def test_plain_string_fast_path_lexes_as_the_pattern_does(text: str):
    assert lexed(text, fast_path=True) == lexed(text, fast_path=False)


@pytest.mark.parametrize(
    "data, size, compact",
    [
        (np.full(8, 1.5, "<f4").tobytes(), 4, True),
        (np.array([1, 1, 1, 2], "<f4").tobytes(), 4, False),  # the first two agree
        (np.array([1, 2, 1, 1], "<f4").tobytes(), 4, False),
        (b"\x01\x00\x01\x00\x01\x01", 2, False),
        (b"\x07", 1, False),
    ],
)
def test_compact_splat_bytes(data: bytes, size: int, compact: bool):
    assert compact_splat_bytes(data, size) == (data[:size] if compact else data)
