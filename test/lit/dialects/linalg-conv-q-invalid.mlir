// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @missing_zero_points(%img: tensor<1x3x6x6xi8>, %filt: tensor<4x3x3x3xi8>, %init: tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32> {
  // expected-error @+1 {{expects 4 inputs (input, filter, input zero point, filter zero point) and 1 output, but got 2 and 1}}
  %1 = linalg.conv_2d_nchw_fchw_q ins(%img, %filt : tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>)
    outs(%init : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %1 : tensor<1x4x4x4xi32>
}

// -----

func.func @shaped_zero_point(%img: tensor<1x3x6x6xi8>, %filt: tensor<4x3x3x3xi8>, %a: tensor<1xi8>, %b: i8, %init: tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32> {
  // expected-error @+1 {{zero point #2 must be a scalar, got tensor<1xi8>}}
  %1 = linalg.conv_2d_nchw_fchw_q ins(%img, %filt, %a, %b : tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>, tensor<1xi8>, i8)
    outs(%init : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %1 : tensor<1x4x4x4xi32>
}
