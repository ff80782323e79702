"""The verifier rejects a value used by an op outside the module: an op a pass built and then
neither inserted nor erased (`fusionopt.dominance.first_detached_user`). Such an op stays in its
operands' use lists, so `uses` counts it and a later rewrite of the value hands it to a pattern
walker, which crashes trying to place it ("Operation insertion point must have a parent block")."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith

from fusionopt.diagnostics import FusionError
from fusionopt.dominance import first_detached_user
from fusionopt.ir_io import parse_module, verify_module

SOURCE = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = arith.addf %a, %a : tensor<4xf32>
  func.return %b : tensor<4xf32>
}"""


def test_a_built_but_never_inserted_user_is_rejected():
    module = parse_module(SOURCE)
    assert first_detached_user(module) is None
    add = next(op for op in module.walk() if op.name == "arith.addf")
    stray = arith.MulfOp(add.results[0], add.results[0])  # built, never inserted
    owner, user = first_detached_user(module)
    assert (owner, user) == (add, stray)
    with pytest.raises(FusionError, match="has a user outside the IR"):
        verify_module(module)
    stray.erase()  # dropping it clears the uses
    verify_module(module)
