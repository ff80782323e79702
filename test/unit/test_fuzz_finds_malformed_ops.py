"""Regressions for the mutation fuzzer's finds on ops written in generic form without their
operands or properties, on dynamic sizes without their values, and on non-ASCII strings.

Causes: fusionopt's plain subclasses of xDSL ops (`tensor.pad`, `tensor.expand_shape`,
`linalg.fill`, `linalg.transpose`, the arith casts) replaced xDSL's generated verifier, and
with it the check of the op's definition, so their own verifier read a missing operand or
property (IndexError, KeyError) or passed and the printer did; a `?` entry of a static size
list without its SSA value passed verification and crashed the printer; `linalg.map`'s parser
took every operand as shaped; and xDSL lexes an escaped non-ASCII string as bytes, so a
printed U+FEFF read back as another attribute.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException

from fusionopt.ir_io import parse_module, print_module
from fusionopt.registry import make_context

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fuzz  # noqa: E402

DYNAMIC = -9223372036854775808
IN, OUT = "tensor<2x34x34x640xf32>", "tensor<2x1024x5760xf32>"
IM2COL_PROPERTIES = ", ".join([
    "strides = array<i64: 1, 1>", "dilations = array<i64: 1, 1>", "static_kernel_size = array<i64: 3, 3>",
    f"static_offsets = array<i64: {DYNAMIC}, 0, 0>",
    "static_output_sizes = [array<i64: 2>, array<i64: 32, 32>, array<i64: 3, 3, 640>]",
    "batch_pos = array<i64: 0>", "m_pos = array<i64: 1, 2>", "k_pos = array<i64: 3>",
    "input_k_perm = array<i64: 0, 1, 2>", "output_perm = array<i64: 0, 1, 2>",
    "static_input_pad_low = array<i64>", "static_input_pad_high = array<i64>",
    "static_output_pad_low = array<i64>", "static_output_pad_high = array<i64>",
    "operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0>",
])

# (input, what it was, the located error it gives now)
MALFORMED = {
    # internal error while printing: IndexError in xDSL's SSAValues.__getitem__
    "pad dynamic low without its value": (f"""func.func @f(%a: tensor<2xf32>) -> tensor<?xf32> {{
  %r = "tensor.pad"(%a) <{{static_low = array<i64: {DYNAMIC}>, static_high = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>}}> ({{
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  }}) : (tensor<2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}}""", "internal error",
        "'tensor.pad' op mismatch in dynamic dims in low and static_low: static_low has 1 dynamic dims while low has 0 values"),
    "expand_shape dynamic size without its value": (f"""func.func @f(%a: tensor<?xf32>) -> tensor<?x2xf32> {{
  %r = "tensor.expand_shape"(%a) <{{reassociation = [[0, 1]], static_output_shape = array<i64: {DYNAMIC}, 2>}}> : (tensor<?xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}}""", "internal error",
        "'tensor.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: "
        "static_output_shape has 1 dynamic dims while output_shape has 0 values"),
    # ... and StopIteration in im2col's printer
    "im2col dynamic offset without its value": (
        f"func.func @f(%a: {IN}, %o: {OUT}) -> {OUT} {{\n"
        f'  %0 = "iree_linalg_ext.im2col"(%a, %o) <{{{IM2COL_PROPERTIES}}}> : ({IN}, {OUT}) -> {OUT}\n'
        f"  return %0 : {OUT}\n}}", "internal error",
        "'iree_linalg_ext.im2col' op mismatch in dynamic dims in offsets and static_offsets: "
        "static_offsets has 1 dynamic dims while offsets has 0 values"),
    # masked internal: KeyError in _checked_transpose_verify
    "transpose without permutation": ("""func.func @f(%a: tensor<2x3xf32>, %o: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = "linalg.transpose"(%a, %o) ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}""", "masked internal", "'linalg.transpose' op property 'permutation' expected"),
    # masked internal: AttributeError in linalg.map's parser (a list comprehension)
    "map of a scalar": ("""func.func @f(%a: f32, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.map { arith.negf } ins(%a : f32) outs(%o : tensor<4xf32>)
  return %r : tensor<4xf32>
}""", "masked internal", "'linalg.map' op operand #0 must be a tensor or memref, but got 'f32'"),
    "map into a scalar": ("""func.func @f(%a: tensor<4xf32>, %o: f32) -> tensor<4xf32> {
  %r = linalg.map { arith.negf } ins(%a : tensor<4xf32>) outs(%o : f32)
  return %r : tensor<4xf32>
}""", "masked internal", "'linalg.map' op operand #1 must be a tensor or memref, but got 'f32'"),
    # masked internal: IndexError in _expand_shape_verify (0-d branch, no operand)
    "expand_shape without source": ("""func.func @f() -> tensor<1xf32> {
  %r = "tensor.expand_shape"() <{reassociation = [], static_output_shape = array<i64: 1>}> : () -> tensor<1xf32>
  return %r : tensor<1xf32>
}""", "masked internal", "'tensor.expand_shape' op Expected at least 1 operand, but got 0"),
    "expand_shape without result": ("""func.func @f(%a: tensor<f32>) {
  "tensor.expand_shape"(%a) <{reassociation = [], static_output_shape = array<i64: 1>}> : (tensor<f32>) -> ()
  return
}""", "masked internal", "'tensor.expand_shape' op Expected 1 result, but got 0"),
    # the same cause in the other plain subclasses
    "pad without source": ("""func.func @f() -> tensor<4xf32> {
  %r = "tensor.pad"() <{static_low = array<i64: 1>, static_high = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  }) : () -> tensor<4xf32>
  return %r : tensor<4xf32>
}""", "masked internal", "'tensor.pad' op expected 1 value for source, but got 0"),
    "fill without value": ("""func.func @f(%o: tensor<4xf32>) -> tensor<4xf32> {
  %r = "linalg.fill"(%o) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}""", "round-trip break", "'linalg.fill' op expects 1 input and 1 output, but got 0 inputs and 1 output"),
    "cast without operand": ("""func.func @f() -> f32 {
  %r = "arith.extf"() : () -> f32
  return %r : f32
}""", "masked internal", "'arith.extf' op requires a single operand"),
    "cast with two results": ("""func.func @f(%a: f16) -> f32 {
  %r, %s = "arith.extf"(%a) : (f16) -> (f32, f32)
  return %r : f32
}""", "round-trip break", "'arith.extf' op requires one result"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_op_is_a_located_error(name):
    text, was, message = MALFORMED[name]
    outcome = fuzz.run_one(text.encode(), "")
    assert outcome.cls == "located error", (was, outcome)
    assert re.match(r"<stdin>:2:\d+: error: " + re.escape(message), outcome.stderr), outcome.stderr


def _plain_subclasses() -> list[type[IRDLOperation]]:
    """Our ops whose `verify_` is not the one `@irdl_op_definition` generated."""
    ctx = make_context()
    for name in ctx.registered_dialect_names:
        if name not in {d.name for d in ctx.loaded_dialects}:
            ctx.load_registered_dialect(name)
    ops = []
    for op in ctx.loaded_ops:
        generated = op.verify_.__qualname__.startswith("get_accessors_from_op_def")
        if op.__module__.startswith("fusionopt.") and issubclass(op, IRDLOperation) and not generated:
            ops.append(op)
    return ops


def test_every_overridden_verifier_checks_the_definition_first():
    """An op with nothing (no operands, results, properties) is a `VerifyException` from
    every verifier that replaced xDSL's, never a crash reading what is not there."""
    ops = _plain_subclasses()
    assert {"tensor.pad", "tensor.expand_shape", "linalg.transpose", "linalg.fill", "arith.extf"} <= {
        op.name for op in ops}
    for op in ops:
        with pytest.raises(VerifyException):
            op.create().verify_()


BOM = "\ufeff"
STRINGS = f"""func.func @"{BOM}f"() attributes {{s = "{BOM}", "{BOM}k" = 1 : i32, u = ["x{BOM}", "é"]}} {{
  return
}}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {{
  %r = linalg.generic {{doc = "{BOM}d", indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} outs(%a : tensor<4xf32>) {{
  ^bb0(%x: f32):
    linalg.yield %x : f32
  }} -> tensor<4xf32>
  return %r : tensor<4xf32>
}}
"""


def test_string_with_u_feff_reads_back_as_the_same_string():
    """The printer escapes U+FEFF as `\\EF\\BB\\BF`; that read back as a bytes attribute (a
    dictionary key or `doc` property then did not parse at all)."""
    module = parse_module(STRINGS)
    printed = print_module(module)
    assert BOM not in printed and "\\EF\\BB\\BF" in printed
    again = parse_module(printed)
    assert again.is_structurally_equivalent(module)
    attrs = next(iter(again.ops)).attributes
    assert attrs["s"] == StringAttr(BOM) and f"{BOM}k" in attrs
    assert print_module(again) == printed
    assert fuzz.run_one(STRINGS.encode(), "").cls == "ok"


def test_invalid_utf8_escapes_stay_bytes():
    printed = print_module(parse_module('func.func @f() attributes {b = "\\FF\\EF"} {\n  return\n}\n'))
    assert '"\\FF\\EF"' in printed
    assert print_module(parse_module(printed)) == printed
