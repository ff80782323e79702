// RUN: fusion-opt %s --split-input-file -p dispatch-depthwise-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'dispatch-depthwise-cpu-tiles{max-workgroups=4}' | filecheck %s --check-prefix=FEW

// The pass: fusionopt/transforms/dispatch/depthwise_cpu_tiles.py.

// MnasNet's first depthwise conv (112x112x32, 3x3) in its region: 8 pixels x 32 channels a
// register tile, workgroups of 7 rows x 32 channels (16 of them), the 3 taps of a row unrolled.
// With max-workgroups=4 (prefix FEW): 28 rows a workgroup.
// CHECK-LABEL: func.func @mnasnet_first_depthwise
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 7, 112, 32, 0, 0], vector_common_parallel = [1, 1, 8, 32, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 3]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>>, dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// FEW-LABEL: func.func @mnasnet_first_depthwise
// FEW:         distribution = [0, 28, 112, 32, 0, 0]
func.func @mnasnet_first_depthwise(%x: tensor<1x114x114x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x112x112x32xf32> {
  %r = flow.dispatch.region -> (tensor<1x112x112x32xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x112x112x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x112x112x32xf32>) -> tensor<1x112x112x32xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x114x114x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x112x112x32xf32>) -> tensor<1x112x112x32xf32>
    flow.return %c : tensor<1x112x112x32xf32>
  }
  return %r : tensor<1x112x112x32xf32>
}

// -----

// A 5x5 stride-2 conv at 14x14 over 480 channels: 7 pixels a register tile (14 = 2 x 7), 32
// channels of 15 groups of 32 a workgroup, a row of 5 taps a step.
// CHECK-LABEL: func.func @strided_5x5
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 14, 14, 32, 0, 0], vector_common_parallel = [1, 1, 7, 32, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 5]>
func.func @strided_5x5(%x: tensor<1x31x31x480xf32>, %w: tensor<5x5x480xf32>) -> tensor<1x14x14x480xf32> {
  %r = flow.dispatch.region -> (tensor<1x14x14x480xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x14x14x480xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x480xf32>) -> tensor<1x14x14x480xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x31x31x480xf32>, tensor<5x5x480xf32>) outs(%f : tensor<1x14x14x480xf32>) -> tensor<1x14x14x480xf32>
    flow.return %c : tensor<1x14x14x480xf32>
  }
  return %r : tensor<1x14x14x480xf32>
}

// -----

// Left to IREE: a row width neither 8 nor 7 divides (10), channels no multiple of 16 (24), f64,
// and a conv outside any region (nothing formed yet).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compilation_info
// CHECK:         return
func.func @left_alone(%x: tensor<1x12x12x32xf32>, %w: tensor<3x3x32xf32>, %y: tensor<1x10x10x24xf32>, %v: tensor<3x3x24xf32>,
                      %d: tensor<1x10x10x32xf64>, %u: tensor<3x3x32xf64>) -> (tensor<1x10x10x32xf32>, tensor<1x8x8x24xf32>, tensor<1x8x8x32xf64>, tensor<1x10x10x32xf32>) {
  %r1 = flow.dispatch.region -> (tensor<1x10x10x32xf32>) {
    %e = tensor.empty() : tensor<1x10x10x32xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%e : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
    flow.return %c : tensor<1x10x10x32xf32>
  }
  %r2 = flow.dispatch.region -> (tensor<1x8x8x24xf32>) {
    %e = tensor.empty() : tensor<1x8x8x24xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %v : tensor<1x10x10x24xf32>, tensor<3x3x24xf32>) outs(%e : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
    flow.return %c : tensor<1x8x8x24xf32>
  }
  %r3 = flow.dispatch.region -> (tensor<1x8x8x32xf64>) {
    %e = tensor.empty() : tensor<1x8x8x32xf64>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %u : tensor<1x10x10x32xf64>, tensor<3x3x32xf64>) outs(%e : tensor<1x8x8x32xf64>) -> tensor<1x8x8x32xf64>
    flow.return %c : tensor<1x8x8x32xf64>
  }
  %e4 = tensor.empty() : tensor<1x10x10x32xf32>
  %c4 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%e4 : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  return %r1, %r2, %r3, %c4 : tensor<1x10x10x32xf32>, tensor<1x8x8x24xf32>, tensor<1x8x8x32xf64>, tensor<1x10x10x32xf32>
}
