"""Decimal float constants out of their type's range are +-inf, as MLIR reads them.

The expected bit patterns are what `iree-opt` prints for the same literals (IREE 3.13); the
round-trip test asks iree-opt itself when it is installed."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.arith import ConstantOp

from fusionopt.diagnostics import FusionError
from fusionopt.dialects.dense import dense_to_numpy
from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import run_module
from fusionopt.tools import fusion_run
from support.iree_opt import IREE_OPT, iree_opt

# (literal, type, what iree-opt prints after `arith.constant`)
CASES = [
    ("-3.40282347E+38", "f16", "0xFC00 : f16"),  # torch-mlir's f32 -inf stand-in, cast to half
    ("65520.0", "f16", "0x7C00 : f16"),  # the half-way point to 2^16 rounds to even: +inf
    ("65519.0", "f16", "6.550400e+04 : f16"),  # ... and just below it to the largest half
    ("-3.40282347E+38", "bf16", "0xFF80 : bf16"),
    ("3.5e38", "f32", "0x7F800000 : f32"),
    ("-3.4e39", "f32", "0xFF800000 : f32"),
    ("3.40282357e38", "f32", "0x7F800000 : f32"),
    ("3.4028235e38", "f32", "3.40282347E+38 : f32"),
    ("1.0e999", "f16", "0x7C00 : f16"),  # past the double range too: the double is inf
    ("-1.0e999", "f64", "0xFFF0000000000000 : f64"),
    ("0x0000FC00", "f16", "0xFC00 : f16"),  # hex is a bit pattern; leading zeros are allowed
    ("dense<-3.40282347E+38>", "tensor<f16>", "dense<0xFC00> : tensor<f16>"),
    ("dense<[1.0, 7.0e4]>", "tensor<2xf16>", "dense<[1.000000e+00, 0x7C00]> : tensor<2xf16>"),
    ("dense<[1.0, 3.4e38]>", "tensor<2xbf16>", "dense<[1.000000e+00, 0x7F80]> : tensor<2xbf16>"),
    ("dense<[1.0, -3.5e38]>", "tensor<2xf32>", "dense<[1.000000e+00, 0xFF800000]> : tensor<2xf32>"),
    ("dense<[0x7E00, 7.0e4]>", "tensor<2xf16>", "dense<[0x7E00, 0x7C00]> : tensor<2xf16>"),
    ("dense<[(7.0e4, 1.0), (1.0, -3.5e38)]>", "tensor<2xcomplex<f16>>",
     "dense<[(0x7C00,1.000000e+00), (1.000000e+00,0xFC00)]> : tensor<2xcomplex<f16>>"),
    # ... which is how MLIR prints such a part: bits, read back as bits
    ("dense<(0x7C00, 1.0)>", "tensor<complex<f16>>", "dense<(0x7C00,1.000000e+00)> : tensor<complex<f16>>"),
]


def _module(cases) -> str:
    lines = ["func.func @f() {"]
    for i, (literal, type, _) in enumerate(cases):
        lines.append(f'  %c{i} = arith.constant {literal} : {type}')
    return "\n".join(lines + ["  return", "}"]) + "\n"


def _constants(printed: str) -> list[str]:
    """The `arith.constant` operands, in one spelling: lower case (xDSL prints hex digits and
    exponents lower-case, MLIR upper-case), no blank after a complex element's comma."""
    return [_spelling(line.split("arith.constant", 1)[1]) for line in printed.splitlines()
            if "arith.constant" in line]


def _spelling(text: str) -> str:
    return re.sub(r"\((\S+), ", r"(\1,", text.strip().lower())


@pytest.mark.parametrize("literal, type, expected", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_out_of_range_literal_prints_as_iree_opt_does(literal, type, expected):
    printed = print_module(parse_module(_module([(literal, type, expected)])))
    assert _constants(printed) == [_spelling(expected)]


def test_the_f16_stand_in_is_minus_infinity_with_its_sign_bit():
    module = parse_module("%0 = arith.constant dense<-3.40282347E+38> : tensor<f16>\n")
    const = next(op for op in module.walk() if isinstance(op, ConstantOp))
    values = dense_to_numpy(const.value)
    assert values.dtype == np.float16 and np.isneginf(values).all()
    assert const.value.data.data == b"\x00\xfc"


@pytest.mark.parametrize("text, message", [
    # A decimal integer is still not a float literal (MLIR's rule), however large.
    ("%0 = arith.constant 99999 : f16\n", "unexpected decimal integer literal for a floating point value"),
    # A bit pattern wider than the type is still an error: it is not a number to round.
    ("%0 = arith.constant 0x1FC00 : f16\n", "hexadecimal constant out of range for type"),
])
def test_what_stays_an_error(text, message):
    with pytest.raises(FusionError, match=message):
        parse_module(text)


def test_the_interpreter_computes_with_minus_infinity():
    """A masked-softmax style use: max(x, -inf) is x, and -inf + x is -inf, in f16."""
    text = """func.func @f(%x: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf16>) {
  %ninf = arith.constant dense<-3.40282347E+38> : tensor<3xf16>
  %m = arith.maximumf %x, %ninf : tensor<3xf16>
  %s = arith.addf %x, %ninf : tensor<3xf16>
  return %m, %s : tensor<3xf16>, tensor<3xf16>
}
"""
    x = np.array([-65504.0, 0.0, 2.5], dtype=np.float16)
    high, low = run_module(text, [x])
    np.testing.assert_array_equal(high, x)
    assert np.isneginf(low).all()


def test_fusion_run_reads_the_constant_as_minus_infinity(tmp_path):
    path = tmp_path / "ninf.mlir"
    path.write_text("""func.func @main() -> tensor<2xf16> {
  %ninf = arith.constant dense<-3.40282347E+38> : tensor<2xf16>
  return %ninf : tensor<2xf16>
}
""")
    out = tmp_path / "out.npz"
    with pytest.raises(SystemExit) as exit:
        fusion_run.main([str(path), "--save", str(out)])
    assert exit.value.code == 0
    result = np.load(out)["result0"]
    assert result.dtype == np.float16 and np.isneginf(result).all()


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")
def test_round_trip_against_iree_opt(tmp_path):
    """iree-opt reads our output of every case as it reads the source, and prints the same."""
    text = _module(CASES)
    ours = print_module(parse_module(text))
    from_source, from_ours = iree_opt(text, tmp_path), iree_opt(ours, tmp_path)
    assert _constants(from_ours) == _constants(from_source) == _constants(ours)
    assert _constants(print_module(parse_module(from_source))) == _constants(ours)


def test_graph_pad_value_rounds_as_a_constant_does():
    text = """func.func @f(%a: tensor<2xf16>) -> tensor<3xf16> {
  %r = graph.pad %a low = [1] high = [0] value = -3.40282347E+38 : tensor<2xf16> -> tensor<3xf16>
  return %r : tensor<3xf16>
}
"""
    printed = print_module(parse_module(text))
    assert "value = 0xfc00 : tensor<2xf16>" in printed
    (padded,) = run_module(text, [np.array([1.0, 2.0], dtype=np.float16)])
    np.testing.assert_array_equal(padded, np.array([-np.inf, 1.0, 2.0], dtype=np.float16))
