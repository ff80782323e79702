// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// iree_linalg_ext.scatter as IREE 3.13 prints it, and upstream linalg.softmax.

// CHECK-LABEL: util.func public @scatter
// CHECK: iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%{{.*}}, %{{.*}} : tensor<3x1x4xf32>, tensor<3x1xi32>) outs(%{{.*}} : tensor<8x4xf32>) {
// CHECK: ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: iree_linalg_ext.yield %{{.*}} : f32
// CHECK: } -> tensor<8x4xf32>
util.func public @scatter(%upd: tensor<3x1x4xf32>, %idx: tensor<3x1xi32>, %orig: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%upd, %idx : tensor<3x1x4xf32>, tensor<3x1xi32>) outs(%orig : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<8x4xf32>
  util.return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
func.func @softmax(%arg0: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<2x16x32xf32>
  %1 = linalg.softmax dimension(2) ins(%arg0 : tensor<2x16x32xf32>) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %1 : tensor<2x16x32xf32>
}
