// Convolution and pooling named ops in torch-mlir/IREE syntax: splat and non-splat strides and
// dilations load, print in MLIR's form (attribute dict in front, dilations before strides) and
// re-read; missing attributes default to 1.
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @convs
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>) outs(%{{.*}} : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CHECK: linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// GEN: "linalg.conv_2d_nchw_fchw"
// GEN: arith.mulf
// GEN-NEXT: "arith.addf"(%[[OUT:[0-9]+]], %{{[0-9]+}})
func.func @convs(%in: tensor<1x3x34x34xf32>, %f: tensor<16x3x3x3xf32>, %init: tensor<1x16x16x16xf32>,
                 %dwf: tensor<16x3x3xf32>, %dwi: tensor<1x16x7x6xf32>,
                 %nhwc: tensor<1x10x10x4xf32>, %hwcf: tensor<3x3x4x8xf32>, %ni: tensor<1x8x8x8xf32>,
                 %g: tensor<1x2x4x10x10xf32>, %gf: tensor<3x2x4x3x3xf32>, %gi: tensor<1x2x3x8x8xf32>,
                 %hwc: tensor<3x3x4xf32>, %hi: tensor<1x8x8x4xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x7x6xf32>, tensor<1x8x8x8xf32>, tensor<1x2x3x8x8xf32>, tensor<1x8x8x4xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %f : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 2]> : vector<2xi64>} ins(%0, %dwf : tensor<1x16x16x16xf32>, tensor<16x3x3xf32>) outs(%dwi : tensor<1x16x7x6xf32>) -> tensor<1x16x7x6xf32>
  %2 = linalg.conv_2d_nhwc_hwcf ins(%nhwc, %hwcf : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%ni : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %3 = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %gf : tensor<1x2x4x10x10xf32>, tensor<3x2x4x3x3xf32>) outs(%gi : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %4 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%nhwc, %hwc : tensor<1x10x10x4xf32>, tensor<3x3x4xf32>) outs(%hi : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %0, %1, %2, %3, %4 : tensor<1x16x16x16xf32>, tensor<1x16x7x6xf32>, tensor<1x8x8x8xf32>, tensor<1x2x3x8x8xf32>, tensor<1x8x8x4xf32>
}

// CHECK-LABEL: func.func @pools
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.pooling_nhwc_max
// CHECK: linalg.pooling_nhwc_sum
// GEN: "linalg.pooling_nchw_max"
// GEN: "arith.maximumf"
func.func @pools(%x: tensor<1x4x9x9xf32>, %w: tensor<3x3xf32>, %o: tensor<1x4x4x4xf32>, %y: tensor<1x9x9x4xf32>, %p: tensor<1x4x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %1 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %2 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%y, %w : tensor<1x9x9x4xf32>, tensor<3x3xf32>) outs(%p : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %3 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%y, %w : tensor<1x9x9x4xf32>, tensor<3x3xf32>) outs(%p : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0, %1, %2, %3 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
