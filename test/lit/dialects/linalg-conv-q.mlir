// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// Quantized convolutions keep MLIR's syntax: two scalar zero points after input and filter.

// CHECK-LABEL: func.func @nchw_q
// CHECK: linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>, i8, i8) outs(%{{.*}} : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
func.func @nchw_q(%img: tensor<1x3x6x6xi8>, %filt: tensor<4x3x3x3xi8>, %a: i8, %b: i8, %init: tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32> {
  %1 = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%img, %filt, %a, %b : tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>, i8, i8)
    outs(%init : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %1 : tensor<1x4x4x4xi32>
}

// -----

// CHECK-LABEL: func.func @depthwise_q_dynamic
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
func.func @depthwise_q_dynamic(%arg0 : tensor<?x113x113x64xi8>, %arg1 : tensor<3x3x64xi8>, %arg2 : i32, %arg3 : i32, %init : tensor<?x56x56x64xi32>) -> tensor<?x56x56x64xi32> {
  %2 = linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%arg0, %arg1, %arg2, %arg3 : tensor<?x113x113x64xi8>, tensor<3x3x64xi8>, i32, i32)
      outs(%init : tensor<?x56x56x64xi32>) -> tensor<?x56x56x64xi32>
  return %2 : tensor<?x56x56x64xi32>
}
