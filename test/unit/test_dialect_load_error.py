"""A dialect module that fails to import is reported with its own cause (an internal error
naming the dialect, module and exception), never disguised as a parse error of the op text
(it used to read "integer constant out of range for attribute" at the first number)."""

from __future__ import annotations

import pytest

from fusionopt import registry
from fusionopt.diagnostics import FusionError, recording_wrapped_exceptions
from fusionopt.ir_io import parse_module

TEXT = """func.func @f(%a: memref<64x8xf32>, %b: memref<64x8xf32>) {
  linalg.copy ins(%a : memref<64x8xf32>) outs(%b : memref<64x8xf32>)
  return
}"""


def test_broken_dialect_module_shows_real_cause(monkeypatch):
    monkeypatch.setitem(registry._DIALECT_MODULES, "linalg", ("fusionopt.no_such_dialect_module", "Linalg"))
    with recording_wrapped_exceptions() as wrapped, pytest.raises(FusionError) as info:
        parse_module(TEXT, "<t>", ctx=registry.make_context())
    message = str(info.value)
    assert "out of range" not in message
    assert "internal error: 'linalg' failed to load" in message
    assert "fusionopt.no_such_dialect_module" in message and "ModuleNotFoundError" in message
    assert any("DialectLoadError" in entry for entry in wrapped)  # recorded as a bug, not a user error


def test_out_of_range_literal_still_reported():
    with pytest.raises(FusionError, match="integer constant out of range for attribute"):
        parse_module("%c = arith.constant 300 : i8", "<t>")
