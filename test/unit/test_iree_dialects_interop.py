"""iree-opt re-reads what we print of IREE's dialects (util, iree_encoding, hal, flow's dynamic
forms) and of the upstream tensor ops we added, and the loop ours -> iree-opt -> ours ->
iree-opt reaches a fixpoint (nothing lost on our side). The output of form-dispatch-regions on
dynamic shapes and multi-block bodies is read by iree-opt too."""

from __future__ import annotations

from pathlib import Path

import pytest

from fusionopt.ir_io import parse_module, print_module
from fusionopt.testing import apply_pipeline
from support.iree_opt import IREE_OPT, iree_opt

pytestmark = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not on PATH")

UTIL = """
util.global private mutable @state = dense<0.0> : tensor<4xf32>
util.global private @w : tensor<4xf32>
util.func private @ext(%a: tensor<4xf32>) -> tensor<4xf32> attributes {inlining_policy = #util.inline.never}
util.func public @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %g = util.global.load @state : tensor<4xf32>
  %w = util.global.load immutable @w : tensor<4xf32>
  %b:2 = util.optimization_barrier %a, %g : tensor<4xf32>, tensor<4xf32>
  %c = util.call @ext(%b#0) : (tensor<4xf32>) -> tensor<4xf32>
  util.global.store %c, @state : tensor<4xf32>
  util.return %c : tensor<4xf32>
}
util.initializer {
  %z = arith.constant dense<1.0> : tensor<4xf32>
  util.global.store %z, @w : tensor<4xf32>
  util.return
}
"""

ENCODING_HAL = """
#enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
util.func public @f(%t: tensor<?x?xf32>, %d0: index, %d1: index, %v: !hal.buffer_view)
    -> (tensor<?x?xf32>, tensor<4xf32, #iree_encoding.testing<>>) {
  %e = iree_encoding.set_encoding %t : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
  %u = iree_encoding.unset_encoding %e : tensor<?x?xf32, #enc> -> tensor<?x?xf32>{%d0, %d1}
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %s = iree_encoding.set_encoding %c : tensor<4xf32> -> tensor<4xf32, #iree_encoding.testing<>>
  util.return %u, %s : tensor<?x?xf32>, tensor<4xf32, #iree_encoding.testing<>>
}
"""

FLOW_DYNAMIC = """
util.func public @f(%a: tensor<?x?xf32>, %d0: index, %d1: index) -> (tensor<?x?xf32>, tensor<8xf16>) {
  %r = flow.dispatch.region[%d0, %d1] -> (tensor<?x?xf32>{%d0, %d1}) {
    flow.return %a : tensor<?x?xf32>
  } count(%b0: index, %b1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%b0, %b1)
    flow.return %x, %y, %z : index, index, index
  }
  %p = flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<8xf16>
  %b = iree_tensor_ext.bitcast %r : tensor<?x?xf32>{%d0, %d1} -> tensor<?x?xi32>{%d0, %d1}
  %s = iree_tensor_ext.compute_barrier.start %b : tensor<?x?xi32>{%d0, %d1} -> tensor<?x?xi32>
  %e = iree_tensor_ext.compute_barrier.end %s : tensor<?x?xi32>{%d0, %d1} -> tensor<?x?xi32>
  util.return %r, %p : tensor<?x?xf32>, tensor<8xf16>
}
"""

TENSOR_OPS = """
func.func @f(%t: tensor<4x5x6xf32>, %i: tensor<1x3x2xindex>, %m: index, %c: complex<f32>)
    -> (index, tensor<?x3xf32>, tensor<4x5x6xf32>, tensor<2x2xcomplex<f32>>) {
  %r = tensor.rank %t : tensor<4x5x6xf32>
  %g = tensor.generate %m {
  ^bb0(%a: index, %b: index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3xf32>
  %s = tensor.gather %t[%i] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4x1x1xf32>
  %u = tensor.scatter %s into %t[%i] scatter_dims([1, 2]) unique : (tensor<1x3x4x1x1xf32>, tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<4x5x6xf32>
  %e = tensor.empty() : tensor<2x2xcomplex<f32>>
  %a = tensor.empty() : tensor<1x2x4x8xf32>
  %o = tensor.empty() : tensor<1x1x4x4xf32>
  %mm = linalg.mmt4d ins(%a, %a : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%o : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %f = linalg.fill ins(%c : complex<f32>) outs(%e : tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  return %r, %g, %u, %f : index, tensor<?x3xf32>, tensor<4x5x6xf32>, tensor<2x2xcomplex<f32>>
}
"""

ARITH = """
func.func @f(%t: tensor<4xf32>, %ti: tensor<4xi32>, %vi: vector<4xi8>, %i: index)
    -> (tensor<4xf32>, vector<4xi32>, tensor<4xindex>, tensor<4xf32>, i64) {
  %0 = arith.sitofp %ti : tensor<4xi32> to tensor<4xf32>
  %1 = arith.extui %vi : vector<4xi8> to vector<4xi32>
  %2 = arith.index_castui %ti : tensor<4xi32> to tensor<4xindex>
  %3 = arith.remf %t, %0 : tensor<4xf32>
  %4 = arith.index_castui %i : index to i64
  return %0, %1, %2, %3, %4 : tensor<4xf32>, vector<4xi32>, tensor<4xindex>, tensor<4xf32>, i64
}
"""

SCATTER_SOFTMAX = """
util.func public @f(%upd: tensor<3x1x4xf32>, %idx: tensor<3x1xi32>, %orig: tensor<8x4xf32>, %x: tensor<2x5xf32>)
    -> (tensor<8x4xf32>, tensor<2x5xf32>) {
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%upd, %idx : tensor<3x1x4xf32>, tensor<3x1xi32>) outs(%orig : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %1 = linalg.softmax dimension(1) ins(%x : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  util.return %0, %1 : tensor<8x4xf32>, tensor<2x5xf32>
}
"""

PROGRAMS = {"util": UTIL, "encoding-hal": ENCODING_HAL, "flow-tensor-ext": FLOW_DYNAMIC, "tensor": TENSOR_OPS, "arith": ARITH, "scatter-softmax": SCATTER_SOFTMAX}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_round_trip_through_iree_is_a_fixpoint(name: str, generic: bool, tmp_path: Path):
    ours = print_module(parse_module(PROGRAMS[name]), generic=generic)
    iree_first = iree_opt(ours, tmp_path)
    ours_again = print_module(parse_module(iree_first, "iree.mlir"), generic=generic)
    assert iree_opt(ours_again, tmp_path) == iree_first


@pytest.mark.parametrize("name", PROGRAMS)
def test_we_read_iree_generic_output(name: str, tmp_path: Path):
    iree_generic = iree_opt(PROGRAMS[name], tmp_path, "--mlir-print-op-generic")
    ours = print_module(parse_module(iree_generic, "iree-generic.mlir"))
    assert iree_opt(ours, tmp_path) == iree_opt(PROGRAMS[name], tmp_path)


DYNAMIC_DISPATCH = """
#map0 = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @two_blocks(%arg0: tensor<?x?xf32>, %arg1 : tensor<1x?xf32>, %arg2 : tensor<i32>,
                             %arg3 : index) -> tensor<1x?xf32> {
  %0 = tensor.cast %arg0 : tensor<?x?xf32> to tensor<1x?xf32>
  %1 = tensor.extract_slice %0[0, 20] [1, %arg3] [1, 1] : tensor<1x?xf32> to tensor<1x?xf32>
  %2 = tensor.cast %arg1 : tensor<1x?xf32> to tensor<?x?xf32>
  cf.br ^bb1
^bb1:
  %3 = tensor.cast %1 : tensor<1x?xf32> to tensor<?x?xf32>
  %8 = tensor.empty(%arg3) : tensor<1x?xf32>
  %9 = linalg.generic {indexing_maps = [#map0, #map1, #map1, #map1], iterator_types = ["parallel", "parallel"]}
      ins(%arg2, %3, %2 : tensor<i32>, tensor<?x?xf32>, tensor<?x?xf32>) outs(%8 : tensor<1x?xf32>) {
  ^bb0(%a: i32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %b, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x?xf32>
  util.return %9 : tensor<1x?xf32>
}
"""


def test_dynamic_multiblock_dispatch_output_reads_in_iree(tmp_path: Path):
    text = print_module(apply_pipeline(DYNAMIC_DISPATCH, "dispatch-creation"))
    # One region, as IREE forms for its inline_dag_2: the dynamic slice of the entry block is
    # read inside the consumer's region.
    assert text.count("flow.dispatch.region") == 1 and "tensor.extract_slice" in text
    assert "{%arg3}" in text
    iree_opt(text, tmp_path)
