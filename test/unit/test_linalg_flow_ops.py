"""Verifier and parser errors of the added linalg and flow ops, and their Python builders."""

from __future__ import annotations

import textwrap

import pytest
from xdsl.dialects.builtin import ArrayAttr, TensorType, f32
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap
from xdsl.utils.test_value import create_ssa_value

from fusionopt.diagnostics import FusionError
from fusionopt.dialects.flow import DispatchRegionOp, ReturnOp, TensorReshapeOp
from fusionopt.dialects.linalg import BatchMatmulOp, MatmulOp
from fusionopt.dialects.linalg_contraction import _maps_attr
from fusionopt.ir_io import parse_module, print_module


def parse(body: str, args: str, results: str = "") -> str:
    text = f"func.func @f({args}) {results} {{\n{textwrap.dedent(body)}\n}}\n"
    return print_module(parse_module(text, "case.mlir"))


BMM_ARGS = "%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "%0 = linalg.batch_matmul ins(%a, %a : tensor<2x4x8xf32>, tensor<2x4x8xf32>) "
            "outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>",
            "dimension #1 to be 8, but found 4",
        ),
        (
            "%0 = linalg.batch_matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
            "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] "
            "ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) "
            "-> tensor<2x4x16xf32>",
            "indexing maps must have 4 dims, got 3",
        ),
        (
            "%0 = linalg.batch_matmul indexing_maps = [1, 2, 3] "
            "ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) "
            "-> tensor<2x4x16xf32>",
            "expected a list of affine maps",
        ),
        (
            "%0 = linalg.batch_matmul ins(%a : tensor<2x4x8xf32>) outs(%c : tensor<2x4x16xf32>) "
            "-> tensor<2x4x16xf32>",
            "expects 2 inputs and 1 output",
        ),
    ],
    ids=["shape", "map-rank", "not-maps", "arity"],
)
def test_batch_matmul_errors(body: str, message: str):
    with pytest.raises(FusionError, match=message):
        parse(body + "\nfunc.return", BMM_ARGS)


def test_map_arity_must_include_init():
    body = """\
    %0 = linalg.map ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) (%x: f32) {
      linalg.yield %x : f32
    }
    func.return"""
    with pytest.raises(FusionError, match="arity of mapper, but got: 2 and 1"):
        parse(body, "%a: tensor<4xf32>")


def test_map_short_form_with_unknown_payload():
    with pytest.raises(FusionError, match="unknown payload operation 'arith.nope'"):
        parse("%0 = linalg.map { arith.nope } ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>)\n"
              "func.return", "%a: tensor<4xf32>")


def test_dispatch_region_return_types_must_match():
    body = """\
    %0 = flow.dispatch.region -> (tensor<4xf32>) {
      flow.return %a : tensor<8xf32>
    }
    func.return"""
    with pytest.raises(FusionError, match="flow.return types must match"):
        parse(body, "%a: tensor<8xf32>")


def test_flow_return_outside_a_region_is_rejected():
    with pytest.raises(FusionError, match="expects parent op to be one of 'flow.dispatch.region', 'flow.dispatch.workgroups'"):
        parse("flow.return %a : tensor<4xf32>", "%a: tensor<4xf32>")


def test_tensor_update_result_must_be_tied_to_target():
    body = """\
    %c0 = arith.constant 0 : index
    %0 = flow.tensor.update %u, %t[%c0] : tensor<2xf32> -> %u as tensor<4xf32>
    func.return"""
    with pytest.raises(FusionError, match="tied to the target operand"):
        parse(body, "%u: tensor<2xf32>, %t: tensor<4xf32>")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("%0 = flow.tensor.reshape %a : tensor<4x8xf32> -> tensor<30xf32>", "preserve the number"),
        ("%0 = flow.tensor.splat %s : tensor<4xi32>", "expects different type than prior uses: 'i32' vs 'f32'"),
        ("%0 = flow.tensor.empty : tensor<?x8xf32>", "0 result dims for 1 dynamic dimensions"),
        (
            "%c = arith.constant 0 : index\n"
            "%0 = flow.tensor.slice %a[%c for %c] : tensor<4x8xf32> -> tensor<1x1xf32>",
            "expected 2 start indices and lengths",
        ),
    ],
    ids=["reshape-count", "splat-type", "empty-dims", "slice-rank"],
)
def test_flow_tensor_op_errors(body: str, message: str):
    with pytest.raises(FusionError, match=message):
        parse(body + "\nfunc.return", "%a: tensor<4x8xf32>, %s: f32")


def test_builders_produce_printable_ops():
    lhs = create_ssa_value(TensorType(f32, [8, 4]))
    rhs = create_ssa_value(TensorType(f32, [8, 5]))
    init = create_ssa_value(TensorType(f32, [4, 5]))
    transposed_a = _maps_attr(
        (
            AffineMap.from_callable(lambda m, n, k: (k, m)),
            AffineMap.from_callable(lambda m, n, k: (k, n)),
            AffineMap.from_callable(lambda m, n, k: (m, n)),
        )
    )
    matmul = MatmulOp([lhs, rhs], [init], indexing_maps=transposed_a)
    matmul.verify()
    assert matmul.result_types == (init.type,)
    assert not matmul.has_default_indexing_maps()
    assert matmul.get_iterator_types() == ArrayAttr(
        [IteratorTypeAttr.parallel(), IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()]
    )
    assert matmul.get_static_loop_ranges() == (4, 5, 8)

    a = create_ssa_value(TensorType(f32, [2, 4, 8]))
    b = create_ssa_value(TensorType(f32, [2, 8, 16]))
    c = create_ssa_value(TensorType(f32, [2, 4, 16]))
    assert BatchMatmulOp([a, b], [c]).reduction_dims() == (3,)

    block = Block()
    reshape = TensorReshapeOp(a, TensorType(f32, [64]))
    block.add_ops([reshape, ReturnOp([reshape.result])])
    region = DispatchRegionOp([TensorType(f32, [64])], Region(block))
    region.verify()
    assert region.terminator.values[0] is reshape.result
