// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func @depth(%upd: tensor<3x1x4xf32>, %idx: tensor<3x2xi32>, %orig: tensor<8x4xf32>) {
  // expected-error@+1 {{index depth 2 differs from dimension_map size 1}}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%upd, %idx : tensor<3x1x4xf32>, tensor<3x2xi32>) outs(%orig : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x4xf32>
  util.return
}

// -----

util.func @slice_too_big(%upd: tensor<3x1x5xf32>, %idx: tensor<3x1xi32>, %orig: tensor<8x4xf32>) {
  // expected-error@+1 {{update slice [1, 5] does not fit the original tensor<8x4xf32>}}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%upd, %idx : tensor<3x1x5xf32>, tensor<3x1xi32>) outs(%orig : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x4xf32>
  util.return
}

// -----

func.func @softmax_dim(%arg0: tensor<2x16xf32>, %e: tensor<2x16xf32>) {
  // expected-error@+1 {{dimension 2 is not a dimension of tensor<2x16xf32>}}
  %1 = linalg.softmax dimension(2) ins(%arg0 : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return
}
