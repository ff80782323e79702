// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// linalg.fill takes a vector value for a tensor or memref of vectors (MLIR allows any element type).
// CHECK-LABEL: func.func @fill_vector
// CHECK: linalg.fill ins(%{{.*}} : vector<2x4xf32>) outs(%{{.*}} : tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>>
func.func @fill_vector(%v: vector<2x4xf32>, %t: tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>> {
  %r = linalg.fill ins(%v : vector<2x4xf32>) outs(%t : tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>>
  return %r : tensor<8xvector<2x4xf32>>
}
