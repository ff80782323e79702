"""Our verifier's dynamic-size check (fusionopt/dynamic_sizes.py): a `tensor.empty` or
`tensor.expand_shape` built without the sizes of its `?` dims, as a pass might build it, fails
verification at that op (xDSL 0.74 accepts both); correctly sized ones pass."""

from __future__ import annotations

import pytest
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32
from xdsl.rewriter import InsertPoint, Rewriter

from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module, verify_module, verify_ops
from fusionopt.transforms.common.reshapes import reassociation_attr

SOURCE = """
func.func @f(%x: tensor<?x8xf32>) -> tensor<1x?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %y = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, %n, 8] : tensor<?x8xf32> into tensor<1x?x8xf32>
  %e = tensor.empty(%n) : tensor<1x?x8xf32>
  return %y : tensor<1x?x8xf32>
}
"""


def _module_and_anchor():
    module = parse_module(SOURCE)
    anchor = next(op for op in module.walk() if op.name == "tensor.empty")
    return module, anchor


def test_sized_ops_verify():
    module, _ = _module_and_anchor()
    verify_module(module)


def test_empty_without_its_size_fails_at_that_op():
    module, anchor = _module_and_anchor()
    bad = tensor.EmptyOp([], TensorType(f32, [1, DYNAMIC_INDEX]))
    Rewriter.insert_op(bad, InsertPoint.before(anchor))
    with pytest.raises(FusionError, match="'tensor.empty' op incorrect number of dynamic sizes, has 0, expected 1"):
        verify_module(module)
    with pytest.raises(FusionError, match="incorrect number of dynamic sizes"):
        verify_ops(module, [bad])  # the incremental check after a pass


def test_expand_without_its_size_fails_at_that_op():
    module, anchor = _module_and_anchor()
    func = next(op for op in module.walk() if op.name == "func.func")
    source = func.body.blocks[0].args[0]
    result = TensorType(f32, [1, DYNAMIC_INDEX, 8])
    bad = tensor.ExpandShapeOp(source, [], reassociation_attr([[0, 1], [2]]), result.get_shape(), result)
    Rewriter.insert_op(bad, InsertPoint.before(anchor))
    with pytest.raises(FusionError, match="'tensor.expand_shape' op incorrect number of dynamic sizes, has 0, expected 1"):
        verify_module(module)
