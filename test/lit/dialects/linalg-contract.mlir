// linalg.batch_reduce_matmul and linalg.contract in MLIR's syntax: default maps are not
// printed, explicit ones are (contract always prints its maps); iree-opt re-reads our output.
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: %if iree %{ fusion-opt %s | iree-opt | filecheck %s --check-prefix=IREE %}

// CHECK-LABEL: func.func @brgemm
// CHECK: linalg.batch_reduce_matmul ins(%{{.*}}, %{{.*}} : tensor<8x16x32xf32>, tensor<8x32x4xf32>) outs(%{{.*}} : tensor<16x4xf32>) -> tensor<16x4xf32>
// CHECK: linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(
// IREE-LABEL: func.func @brgemm
// IREE: linalg.batch_reduce_matmul ins(
// IREE: linalg.batch_reduce_matmul indexing_maps
// GEN-LABEL: sym_name = "brgemm"
// GEN: "linalg.batch_reduce_matmul"
// GEN: arith.mulf
// GEN-NEXT: "arith.addf"
func.func @brgemm(%a: tensor<8x16x32xf32>, %b: tensor<8x32x4xf32>, %c: tensor<16x4xf32>, %bt: tensor<8x4x32xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>) {
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<8x16x32xf32>, tensor<8x32x4xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  %1 = linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>]
    ins(%a, %bt : tensor<8x16x32xf32>, tensor<8x4x32xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0, %1 : tensor<16x4xf32>, tensor<16x4xf32>
}

// CHECK-LABEL: func.func @contract
// CHECK: linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%{{.*}}, %{{.*}} : tensor<2x3x5xf32>, tensor<2x5x7xf32>) outs(%{{.*}} : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
// CHECK: linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<5xf32>, tensor<5x7xf32>) outs(%{{.*}} : tensor<3x7xf32>)
// IREE-LABEL: func.func @contract
// IREE: linalg.contract indexing_maps
// IREE: linalg.contract indexing_maps
func.func @contract(%a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>, %c: tensor<2x3x7xf32>,
                    %v: tensor<5xf32>, %m: tensor<5x7xf32>, %o: tensor<3x7xf32>) -> (tensor<2x3x7xf32>, tensor<3x7xf32>) {
  %0 = linalg.contract
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : tensor<2x3x5xf32>, tensor<2x5x7xf32>) outs(%c : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
  %1 = linalg.contract
      indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%v, %m : tensor<5xf32>, tensor<5x7xf32>) outs(%o : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0, %1 : tensor<2x3x7xf32>, tensor<3x7xf32>
}
