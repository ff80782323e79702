// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// linalg.fill takes a vector value for a tensor or memref of vectors (MLIR allows any element type).
// CHECK-LABEL: func.func @fill_vector
// CHECK: linalg.fill ins(%{{.*}} : vector<2x4xf32>) outs(%{{.*}} : tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>>
func.func @fill_vector(%v: vector<2x4xf32>, %t: tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>> {
  %r = linalg.fill ins(%v : vector<2x4xf32>) outs(%t : tensor<8xvector<2x4xf32>>) -> tensor<8xvector<2x4xf32>>
  return %r : tensor<8xvector<2x4xf32>>
}

// -----

// An `index` value fills an index tensor (IREE initializes arg_compare's index output this way).
// CHECK-LABEL: func.func @fill_index
// CHECK: linalg.fill ins(%{{.*}} : index) outs(%{{.*}} : tensor<?xindex>) -> tensor<?xindex>
func.func @fill_index(%c: index, %t: tensor<?xindex>) -> tensor<?xindex> {
  %r = linalg.fill ins(%c : index) outs(%t : tensor<?xindex>) -> tensor<?xindex>
  return %r : tensor<?xindex>
}
