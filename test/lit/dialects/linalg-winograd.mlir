// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// Winograd transforms (F(4x4, 3x3)) print back in MLIR's syntax.

// CHECK-LABEL: func.func @winograd
// CHECK: linalg.winograd_filter_transform fmr(F_4_3) ins(%{{.*}} : tensor<2x3x3x5xf32>) outs(%{{.*}} : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
// CHECK: linalg.winograd_input_transform fmr(F_4_3) ins(%{{.*}} : tensor<2x6x6x5xf32>) outs(%{{.*}} : tensor<6x6x1x1x2x5xf32>) -> tensor<6x6x1x1x2x5xf32>
// CHECK: linalg.winograd_output_transform fmr(F_4_3) ins(%{{.*}} : tensor<6x6x1x1x2x2xf32>) outs(%{{.*}} : tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xf32>
func.func @winograd(%x: tensor<2x6x6x5xf32>, %k: tensor<2x3x3x5xf32>, %y: tensor<6x6x1x1x2x2xf32>, %o: tensor<2x4x4x2xf32>) -> (tensor<6x6x5x2xf32>, tensor<6x6x1x1x2x5xf32>, tensor<2x4x4x2xf32>) {
  %e0 = tensor.empty() : tensor<6x6x5x2xf32>
  %f = linalg.winograd_filter_transform fmr(F_4_3) ins(%k : tensor<2x3x3x5xf32>) outs(%e0 : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  %e1 = tensor.empty() : tensor<6x6x1x1x2x5xf32>
  %i = linalg.winograd_input_transform fmr(F_4_3) ins(%x : tensor<2x6x6x5xf32>) outs(%e1 : tensor<6x6x1x1x2x5xf32>) -> tensor<6x6x1x1x2x5xf32>
  %r = linalg.winograd_output_transform fmr(F_4_3) ins(%y : tensor<6x6x1x1x2x2xf32>) outs(%o : tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xf32>
  return %f, %i, %r : tensor<6x6x5x2xf32>, tensor<6x6x1x1x2x5xf32>, tensor<2x4x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @winograd_dynamic
// CHECK: linalg.winograd_input_transform fmr(F_2_3) ins(%{{.*}} : tensor<?x?x?x?xf32>) outs(%{{.*}} : tensor<4x4x?x?x?x?xf32>) -> tensor<4x4x?x?x?x?xf32>
func.func @winograd_dynamic(%x: tensor<?x?x?x?xf32>, %e: tensor<4x4x?x?x?x?xf32>) -> tensor<4x4x?x?x?x?xf32> {
  %i = linalg.winograd_input_transform fmr(F_2_3) ins(%x : tensor<?x?x?x?xf32>) outs(%e : tensor<4x4x?x?x?x?xf32>) -> tensor<4x4x?x?x?x?xf32>
  return %i : tensor<4x4x?x?x?x?xf32>
}
