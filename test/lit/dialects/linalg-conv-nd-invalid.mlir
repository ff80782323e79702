// Verifiers of the 1-D / 3-D window ops: one stride per spatial dimension, operand ranks and
// shapes that agree with strides and dilations.
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @two_strides_on_1d(%x: tensor<1x9x3xf32>, %k: tensor<3x3x4xf32>, %o: tensor<1x4x4xf32>) {
  // expected-error@+1 {{strides must have 1 elements (one per spatial dimension), got 2}}
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %k : tensor<1x9x3xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  func.return
}

// -----

func.func @input_too_small_3d(%z: tensor<1x4x4x3x1xf32>, %w: tensor<3x3x3xf32>, %q: tensor<1x2x2x2x1xf32>) {
  // expected-error@+1 {{has shape's dimension #3 to be greater than or equal to 4, but found 3}}
  %0 = linalg.pooling_ndhwc_max ins(%z, %w : tensor<1x4x4x3x1xf32>, tensor<3x3x3xf32>) outs(%q : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
  func.return
}

// -----

func.func @multiplier_mismatch(%x: tensor<2x4x5x2xf32>, %k: tensor<2x2x2x3xf32>, %o: tensor<2x3x4x2x4xf32>) {
  // expected-error@+1 {{inferred input/output operand #2 has shape's dimension #4 to be 3}}
  %0 = linalg.depthwise_conv_2d_nhwc_hwcm ins(%x, %k : tensor<2x4x5x2xf32>, tensor<2x2x2x3xf32>) outs(%o : tensor<2x3x4x2x4xf32>) -> tensor<2x3x4x2x4xf32>
  func.return
}

// -----

func.func @rank(%x: tensor<1x9xf32>, %k: tensor<3x3x4xf32>, %o: tensor<1x4x4xf32>) {
  // expected-error@+1 {{expected operand #0 of rank 3}}
  %0 = linalg.conv_1d_nwc_wcf ins(%x, %k : tensor<1x9xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  func.return
}
