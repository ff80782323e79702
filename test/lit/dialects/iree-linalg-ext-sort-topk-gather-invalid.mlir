// Verifiers of iree_linalg_ext.sort / topk / gather (IREE's rules).
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @sort_region_args(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{region arguments must be [f32, f32] (lhs, rhs per operand)}}
  %0 = iree_linalg_ext.sort dimension(1) outs(%a : tensor<3x4xf32>) {
  ^bb0(%l: f32):
    %c = arith.constant true
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x4xf32>
  func.return
}

// -----

func.func @sort_dimension(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{dimension must be within [0, 2)}}
  %0 = iree_linalg_ext.sort dimension(2) outs(%a : tensor<3x4xf32>) {
  ^bb0(%l: f32, %r: f32):
    %c = arith.cmpf olt, %l, %r : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x4xf32>
  func.return
}

// -----

func.func @topk_other_dim(%v: tensor<2x10xf32>, %ov: tensor<3x3xf32>, %oi: tensor<3x3xi32>) {
  // expected-error@+1 {{output dim #0 must match the input (2), got 3}}
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x10xf32>) outs(%ov, %oi : tensor<3x3xf32>, tensor<3x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x3xf32>, tensor<3x3xi32>
  func.return
}

// -----

func.func @gather_map(%s: tensor<10x9x7xf32>, %i: tensor<4x1xi32>, %o: tensor<4x7xf32>) {
  // expected-error@+1 {{dimension map is invalid: [1]}}
  %0 = iree_linalg_ext.gather dimension_map = [1] ins(%s, %i : tensor<10x9x7xf32>, tensor<4x1xi32>) outs(%o : tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return
}

// -----

func.func @gather_slice(%s: tensor<10x9x7xf32>, %i: tensor<4x1xi32>, %o: tensor<4x2x7xf32>) {
  // expected-error@+1 {{shape of output dim#1 must match source dim#1}}
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i : tensor<10x9x7xf32>, tensor<4x1xi32>) outs(%o : tensor<4x2x7xf32>) -> tensor<4x2x7xf32>
  func.return
}
