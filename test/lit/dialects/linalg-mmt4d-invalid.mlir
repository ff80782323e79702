// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @k_mismatch(%c: tensor<1x2x4x8xf32>, %d: tensor<1x3x4x8xf32>, %f: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{inferred input/output operand #1 has shape's dimension #1 to be 2, but found 3}}
  %1 = linalg.mmt4d ins(%c, %d : tensor<1x2x4x8xf32>, tensor<1x3x4x8xf32>) outs(%f : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return
}
