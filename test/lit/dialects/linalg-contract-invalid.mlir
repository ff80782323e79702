// Verifiers of linalg.batch_matmul's broadcasts, linalg.batch_reduce_matmul and linalg.contract.
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @brgemm_k_mismatch(%a: tensor<8x16x32xf32>, %b: tensor<8x31x4xf32>, %c: tensor<16x4xf32>) {
  // expected-error@+1 {{inferred input/output operand #1 has shape's dimension #1 to be 32}}
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<8x16x32xf32>, tensor<8x31x4xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  func.return
}

// -----

func.func @contract_rank(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) {
  // expected-error@+1 {{expected operand #0 of rank 3 (its indexing map)}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  func.return
}

// -----

func.func @contract_unused_loop(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) {
  // expected-error@+1 {{iteration dimension d3 is not used by any operand}}
  %0 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>]
      ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  func.return
}

// -----

func.func @contract_without_maps(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) {
  // expected-error@+1 {{'linalg.contract' expects 'indexing_maps = [...]'}}
  %0 = linalg.contract ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  func.return
}

// -----

func.func @matvec_k_mismatch(%a: tensor<4x8xf32>, %x: tensor<7xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{inferred input/output operand #1 has shape's dimension #0 to be 8, but found 7}}
  %0 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<7xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @batch_vecmat_shapes(%x: tensor<2x8xf32>, %a: tensor<2x4x8xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'linalg.batch_vecmat' op inferred input/output operand #1 has shape's dimension #1 to be 8, but found 4}}
  %0 = linalg.batch_vecmat ins(%x, %a : tensor<2x8xf32>, tensor<2x4x8xf32>) outs(%y : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A batch-broadcast RHS must be [k, n] or [b, k] (MLIR's isValidLhsRhsBroadcastMap): a
// transposed [n, k] is rejected, as iree-compile rejects it.
func.func @batch_matmul_transposed_broadcast_rhs(%a: tensor<1x512x16xf32>, %b: tensor<64x16xf32>, %c: tensor<1x512x64xf32>) {
  // expected-error@+1 {{'linalg.batch_matmul' op Invalid broadcast requested.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<1x512x16xf32>, tensor<64x16xf32>) outs(%c : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  func.return
}

// -----

func.func @batch_matmul_broadcast_lhs_by_n(%a: tensor<64x16xf32>, %b: tensor<1x16x64xf32>, %c: tensor<1x512x64xf32>) {
  // expected-error@+1 {{'linalg.batch_matmul' op Invalid broadcast requested.}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<64x16xf32>, tensor<1x16x64xf32>) outs(%c : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  func.return
}
