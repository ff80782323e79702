// The conv / pool verifiers: shapes must agree with strides and dilations.
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @input_too_small(%in: tensor<1x3x32x32xf32>, %f: tensor<16x3x3x3xf32>, %init: tensor<1x16x16x16xf32>) {
  // expected-error@+1 {{has shape's dimension #2 to be greater than or equal to 33, but found 32}}
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %f : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  func.return
}

// -----

func.func @channels(%in: tensor<1x4x34x34xf32>, %f: tensor<16x3x3x3xf32>, %init: tensor<1x16x16x16xf32>) {
  // expected-error@+1 {{inferred input/output operand #1 has shape's dimension #1 to be 4}}
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %f : tensor<1x4x34x34xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  func.return
}

// -----

func.func @three_strides(%in: tensor<1x3x34x34xf32>, %f: tensor<16x3x3x3xf32>, %init: tensor<1x16x16x16xf32>) {
  // expected-error@+1 {{strides must have 2 elements}}
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 2, 2]> : vector<3xi64>} ins(%in, %f : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  func.return
}

// -----

func.func @zero_dilation(%x: tensor<1x4x9x9xf32>, %w: tensor<3x3xf32>, %o: tensor<1x4x4x4xf32>) {
  // expected-error@+1 {{dilations must be positive}}
  %0 = linalg.pooling_nchw_max {dilations = dense<0> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return
}

// -----

func.func @depthwise_rank(%x: tensor<1x4x9x9xf32>, %w: tensor<4x3x3x1xf32>, %o: tensor<1x4x7x7xf32>) {
  // expected-error@+1 {{expected operand #1 of rank 3}}
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x3x3x1xf32>) outs(%o : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  func.return
}
