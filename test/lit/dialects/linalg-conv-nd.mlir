// 1-D / 3-D convolution and pooling, grouped NHWGC convolution, depthwise with a channel
// multiplier and min pooling: load in MLIR's syntax, print it back (iree-opt re-reads it), and
// the generic form shows MLIR's body (min pooling: arith.minimumf).
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: %if iree %{ fusion-opt %s | iree-opt | filecheck %s --check-prefix=IREE %}

// CHECK-LABEL: func.func @convs
// CHECK: linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x9x3xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 3]> : tensor<3xi64>}
// CHECK: linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
// IREE-LABEL: func.func @convs
// IREE: linalg.conv_1d_nwc_wcf
// IREE: linalg.conv_3d_ncdhw_fcdhw
// IREE: linalg.conv_2d_nhwgc_gfhwc
// IREE: linalg.depthwise_conv_2d_nhwc_hwcm
// GEN-LABEL: sym_name = "convs"
// GEN: "linalg.conv_1d_nwc_wcf"
// GEN: arith.mulf
// GEN-NEXT: "arith.addf"
func.func @convs(%x1: tensor<1x9x3xf32>, %k1: tensor<3x3x4xf32>, %o1: tensor<1x4x4xf32>,
                 %x3: tensor<2x6x6x13x12xf32>, %k3: tensor<4x6x2x1x3xf32>, %o3: tensor<2x4x3x13x4xf32>,
                 %xg: tensor<1x6x6x2x3xf32>, %kg: tensor<2x5x3x3x3xf32>, %og: tensor<1x4x4x2x5xf32>,
                 %xm: tensor<2x4x5x2xf32>, %km: tensor<2x2x2x3xf32>, %om: tensor<2x3x4x2x3xf32>)
    -> (tensor<1x4x4xf32>, tensor<2x4x3x13x4xf32>, tensor<1x4x4x2x5xf32>, tensor<2x3x4x2x3xf32>) {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
    ins(%x1, %k1 : tensor<1x9x3xf32>, tensor<3x3x4xf32>) outs(%o1 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %1 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 3]> : tensor<3xi64>}
    ins(%x3, %k3 : tensor<2x6x6x13x12xf32>, tensor<4x6x2x1x3xf32>) outs(%o3 : tensor<2x4x3x13x4xf32>) -> tensor<2x4x3x13x4xf32>
  %2 = linalg.conv_2d_nhwgc_gfhwc ins(%xg, %kg : tensor<1x6x6x2x3xf32>, tensor<2x5x3x3x3xf32>) outs(%og : tensor<1x4x4x2x5xf32>) -> tensor<1x4x4x2x5xf32>
  %3 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%xm, %km : tensor<2x4x5x2xf32>, tensor<2x2x2x3xf32>) outs(%om : tensor<2x3x4x2x3xf32>) -> tensor<2x3x4x2x3xf32>
  return %0, %1, %2, %3 : tensor<1x4x4xf32>, tensor<2x4x3x13x4xf32>, tensor<1x4x4x2x5xf32>, tensor<2x3x4x2x3xf32>
}

// CHECK-LABEL: func.func @pools
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
// CHECK: linalg.pooling_nhwc_min
// CHECK: linalg.pooling_ndhwc_sum
// IREE-LABEL: func.func @pools
// IREE: linalg.pooling_ncw_max
// IREE: linalg.pooling_nhwc_min
// IREE: linalg.pooling_ndhwc_sum
// GEN-LABEL: sym_name = "pools"
// GEN: "arith.maximumf"
// GEN: "arith.minimumf"
func.func @pools(%x: tensor<1x1x4xf32>, %w: tensor<3xf32>, %o: tensor<1x1x2xf32>,
                 %y: tensor<1x4x4x1xf32>, %w2: tensor<3x3xf32>, %p: tensor<1x2x2x1xf32>,
                 %z: tensor<1x4x4x4x1xf32>, %w3: tensor<3x3x3xf32>, %q: tensor<1x2x2x2x1xf32>)
    -> (tensor<1x1x2xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x2x1xf32>) {
  %0 = linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
    ins(%x, %w : tensor<1x1x4xf32>, tensor<3xf32>) outs(%o : tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %1 = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%y, %w2 : tensor<1x4x4x1xf32>, tensor<3x3xf32>) outs(%p : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %2 = linalg.pooling_ndhwc_sum ins(%z, %w3 : tensor<1x4x4x4x1xf32>, tensor<3x3x3xf32>) outs(%q : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
  return %0, %1, %2 : tensor<1x1x2xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x2x1xf32>
}
