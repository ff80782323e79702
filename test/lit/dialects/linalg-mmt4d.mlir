// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// linalg.mmt4d / linalg.batch_mmt4d (xDSL lacks them), MLIR's syntax and body.

// CHECK-LABEL: func.func @batch_mmt4d
// CHECK: linalg.batch_mmt4d ins(%{{.*}}, %{{.*}} : tensor<2x1x3x4x2xi8>, tensor<2x5x3x8x2xi8>) outs(%{{.*}} : tensor<2x1x5x4x8xi32>) -> tensor<2x1x5x4x8xi32>
func.func @batch_mmt4d(%a: tensor<2x1x3x4x2xi8>, %b: tensor<2x5x3x8x2xi8>, %f: tensor<2x1x5x4x8xi32>) -> tensor<2x1x5x4x8xi32> {
  %0 = linalg.batch_mmt4d ins(%a, %b : tensor<2x1x3x4x2xi8>, tensor<2x5x3x8x2xi8>) outs(%f : tensor<2x1x5x4x8xi32>) -> tensor<2x1x5x4x8xi32>
  return %0 : tensor<2x1x5x4x8xi32>
}

// -----

// CHECK-LABEL: func.func @mmt4d
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%{{.*}} : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
func.func @mmt4d(%c: tensor<1x2x4x8xf32>, %d: tensor<1x2x4x8xf32>, %f: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %1 = linalg.mmt4d ins(%c, %d : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%f : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %1 : tensor<1x1x4x4xf32>
}
