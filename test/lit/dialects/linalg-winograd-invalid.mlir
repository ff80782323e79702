// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @wrong_alpha(%k: tensor<2x3x3x5xf32>, %e: tensor<4x4x5x2xf32>) -> tensor<4x4x5x2xf32> {
  // expected-error @+1 {{output dimension 0: expected 6, got 4}}
  %f = linalg.winograd_filter_transform fmr(F_4_3) ins(%k : tensor<2x3x3x5xf32>) outs(%e : tensor<4x4x5x2xf32>) -> tensor<4x4x5x2xf32>
  return %f : tensor<4x4x5x2xf32>
}

// -----

func.func @unknown_fmr(%k: tensor<2x3x3x5xf32>, %e: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  // expected-error @+1 {{unknown fmr F_3_3}}
  %f = linalg.winograd_filter_transform fmr(F_3_3) ins(%k : tensor<2x3x3x5xf32>) outs(%e : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  return %f : tensor<6x6x5x2xf32>
}
