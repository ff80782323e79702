"""Subclassed xDSL ops check their IRDL definition once per verification, and still make xDSL's
own checks (`fusionopt.dialects.subclass_verify.own_checks`)."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import tensor as xdsl_tensor
from xdsl.dialects.linalg.ops import GenericOp, TransposeOp
from xdsl.irdl import operations as irdl_operations

from fusionopt.dialects.subclass_verify import own_checks
from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module

GENERIC = """
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x4xf32>
  %p = linalg.transpose ins(%t : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) permutation = [0, 1]
  %r = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
  %c = tensor.collapse_shape %r [[0, 1], [2]] : tensor<2x4x4xf32> into tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}
"""


def test_each_op_checks_its_definition_once(monkeypatch):
    module = parse_module(GENERIC)
    calls: dict[str, int] = {}
    original = irdl_operations.OpDef.verify

    def counting(self, op):
        calls[op.name] = calls.get(op.name, 0) + 1
        return original(self, op)

    monkeypatch.setattr(irdl_operations.OpDef, "verify", counting)
    ops = [op for op in module.walk() if op.name in ("linalg.generic", "linalg.transpose", "tensor.expand_shape")]
    for op in ops:
        op.verify(verify_nested_ops=False)
    assert calls == {"linalg.generic": 1, "linalg.transpose": 1, "tensor.expand_shape": 1}


def test_own_checks_are_the_class_bodies_verifiers():
    assert own_checks(GenericOp).__qualname__ == "LinalgStructuredOperation.verify_"
    assert own_checks(TransposeOp).__qualname__ == "TransposeOp.verify_"
    assert own_checks(xdsl_tensor.ExpandShapeOp).__qualname__ == "ExpandShapeOp.verify_"


@pytest.mark.parametrize(("valid", "broken", "message"), [
    # xDSL's structural check of a generic: one indexing map per operand
    ("affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]",
     "affine_map<(d0, d1) -> (d1, d0)>]", "number of indexing_map (1)"),
    # xDSL's reassociation check of an expand_shape
    ("[[0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>\n  %c",
     "[[0], [1, 2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>\n  %c",
     "dimension 0 of collapsed type"),
])
def test_xdsl_checks_still_reject(valid, broken, message):
    assert valid in GENERIC
    with pytest.raises(FusionError, match=re.escape(message)):
        parse_module(GENERIC.replace(valid, broken))
