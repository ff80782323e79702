// dispatch-verify-with-iree{target=cuda}: the verdict is the CUDA backend's (sm_80; building needs
// no GPU). A concat-only region IREE 3.13's CUDA codegen rejects is unwrapped; the matmul ->
// expand -> bias region llvm-cpu rejects (dispatch-verify-with-iree.mlir) builds for CUDA and stays.
// REQUIRES: iree
// RUN: fusion-opt %s --split-input-file --verify-diagnostics -p 'dispatch-verify-with-iree{target=cuda}' | filecheck %s

// RoPE's rotate-half as one concat region.
// CHECK-LABEL: func.func @concat_region
// CHECK-NOT:     flow.dispatch.region
// CHECK:         %[[C:.*]] = tensor.concat dim(3)
// CHECK-NEXT:    func.return %[[C]]
func.func @concat_region(%a: tensor<1x4x64x32xf32>, %b: tensor<1x4x64x32xf32>) -> tensor<1x4x64x64xf32> {
  %r = flow.dispatch.region -> (tensor<1x4x64x64xf32>) {
    // expected-remark@+1 {{unwrapped the region of tensor.concat: iree-compile (cuda) rejects it: different memory spaces specified for base memref type}}
    %cat = tensor.concat dim(3) %a, %b : (tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) -> tensor<1x4x64x64xf32>
    flow.return %cat : tensor<1x4x64x64xf32>
  }
  return %r : tensor<1x4x64x64xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_expand_elementwise
// CHECK:         flow.dispatch.region -> (tensor<1x2x2x4xf32>)
// CHECK:           linalg.matmul
// CHECK:           tensor.expand_shape
func.func @matmul_expand_elementwise(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  %r = flow.dispatch.region -> (tensor<1x2x2x4xf32>) {
    %e = tensor.empty() : tensor<4x4xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    %x = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 2, 2, 4] : tensor<4x4xf32> into tensor<1x2x2x4xf32>
    %e2 = tensor.empty() : tensor<1x2x2x4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<1x2x2x4xf32>, tensor<4xf32>) outs(%e2 : tensor<1x2x2x4xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      linalg.yield %s : f32
    } -> tensor<1x2x2x4xf32>
    flow.return %g : tensor<1x2x2x4xf32>
  }
  return %r : tensor<1x2x2x4xf32>
}
