// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// Custom-form round trip of linalg.batch_matmul / linalg.matmul with default maps (elided),
// explicit transposing `indexing_maps`, and the generic form with MLIR's hidden region.

// CHECK-LABEL: func.func @batch_matmul
// CHECK: %[[R:.*]] = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: func.return %[[R]]
// GENERIC-LABEL: sym_name = "batch_matmul"
// GENERIC: "linalg.batch_matmul"(%a, %b, %c)
// GENERIC-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// GENERIC-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[O:.*]]: f32):
// GENERIC-NEXT: %[[M:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// GENERIC-NEXT: %[[S:.*]] = "arith.addf"(%[[O]], %[[M]])
// GENERIC-NEXT: "linalg.yield"(%[[S]])
func.func @batch_matmul(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  func.return %0 : tensor<2x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul_transpose_b
// CHECK: linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs = affine_map<(b, m, n, k) -> (b, n, k)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_matmul_transpose_b(%a: tensor<2x4x8xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %0 = linalg.batch_matmul indexing_maps = [#lhs, #rhs, #out] ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  func.return %0 : tensor<2x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_default_and_transposed
// CHECK: linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%at, %b : tensor<8x4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
// Explicit maps equal to the defaults are elided, as mlir-opt does.
// CHECK: linalg.matmul {tag = "x"} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @matmul_default_and_transposed(%a: tensor<4x8xf32>, %at: tensor<8x4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%at, %b : tensor<8x4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {tag = "x"} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %0, %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Integer and mixed-precision contractions widen the operands like MLIR's cast_signed.
// CHECK-LABEL: func.func @matmul_f16_to_f32
// CHECK: linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
// GENERIC-LABEL: sym_name = "matmul_f16_to_f32"
// GENERIC: "arith.extf"
// GENERIC: "arith.extf"
// GENERIC: "arith.mulf"
func.func @matmul_f16_to_f32(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %0 : tensor<4x16xf32>
}
