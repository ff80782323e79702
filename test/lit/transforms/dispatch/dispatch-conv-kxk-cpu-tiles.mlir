// RUN: fusion-opt %s --split-input-file -p dispatch-conv-kxk-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "dispatch-conv-kxk-cpu-tiles{min-channels=64}" | filecheck %s --check-prefix=MIN64

// The pass: fusionopt/transforms/dispatch/conv_kxk_cpu_tiles.py. A channels-last 3x3 conv in a
// region: one output row by up to 64 filters a workgroup, 8 pixels (7 where 8 does not divide
// the width) x 32 filters a register tile (where neither divides, a whole row of at most 24 x 16
// filters), one tap and 4 input channels a step.

// -----

// CHECK-LABEL: func.func @resnet_3x3_56
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 1, 56, 64, 0, 0, 0], vector_common_parallel = [1, 1, 8, 32, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 4]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>>
// MIN64-LABEL: func.func @resnet_3x3_56
// MIN64:         compilation_info
func.func @resnet_3x3_56(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = flow.dispatch.region -> (tensor<1x56x56x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    flow.return %c : tensor<1x56x56x64xf32>
  }
  return %r : tensor<1x56x56x64xf32>
}

// -----

// A 14-wide strided output: tiles of 7 pixels; 256 filters, workgroups of 64. Fewer than 64
// input channels with min-channels=64: not configured.
// CHECK-LABEL: func.func @resnet_3x3_strided_14
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 14, 64, 0, 0, 0], vector_common_parallel = [1, 1, 7, 32, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 4]
// MIN64-LABEL: func.func @resnet_3x3_strided_14
// MIN64-NOT:     compilation_info
// MIN64:         return
func.func @resnet_3x3_strided_14(%x: tensor<1x30x30x32xf32>, %w: tensor<3x3x32x256xf32>) -> tensor<1x14x14x256xf32> {
  %r = flow.dispatch.region -> (tensor<1x14x14x256xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x14x14x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x30x30x32xf32>, tensor<3x3x32x256xf32>) outs(%f : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
    flow.return %c : tensor<1x14x14x256xf32>
  }
  return %r : tensor<1x14x14x256xf32>
}

// -----

// 96 filters: workgroups of 32 filters (64 would leave a remainder workgroup, which IREE's conv
// pipeline runs several times slower).
// CHECK-LABEL: func.func @googlenet_3x3_96
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 28, 32, 0, 0, 0], vector_common_parallel = [1, 1, 7, 32, 0, 0, 0]
func.func @googlenet_3x3_96(%x: tensor<1x30x30x64xf32>, %w: tensor<3x3x64x96xf32>) -> tensor<1x28x28x96xf32> {
  %r = flow.dispatch.region -> (tensor<1x28x28x96xf32>) {
    %e = tensor.empty() : tensor<1x28x28x96xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x30x30x64xf32>, tensor<3x3x64x96xf32>) outs(%e : tensor<1x28x28x96xf32>) -> tensor<1x28x28x96xf32>
    flow.return %c : tensor<1x28x28x96xf32>
  }
  return %r : tensor<1x28x28x96xf32>
}

// -----

// Not configured: a stem's 3 input channels, 48 filters (no multiple of 32), a 26-wide output
// (neither 8 nor 7 divides it, wider than a whole-row tile's 24), a 1x1 window, a dilated window, a conv outside any region.
// CHECK-LABEL: func.func @not_configured
// CHECK-NOT:     compilation_info
// CHECK:         return
func.func @not_configured(%s: tensor<1x229x229x3xf32>, %ws: tensor<7x7x3x64xf32>, %x: tensor<1x16x16x32xf32>,
                          %w48: tensor<3x3x32x48xf32>, %x12: tensor<1x28x28x32xf32>, %w: tensor<3x3x32x64xf32>,
                          %w1: tensor<1x1x32x64xf32>) -> (tensor<1x112x112x64xf32>, tensor<1x14x14x48xf32>, tensor<1x26x26x64xf32>, tensor<1x16x16x64xf32>, tensor<1x14x14x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %r:4 = flow.dispatch.region -> (tensor<1x112x112x64xf32>, tensor<1x14x14x48xf32>, tensor<1x26x26x64xf32>, tensor<1x16x16x64xf32>) {
    %e0 = tensor.empty() : tensor<1x112x112x64xf32>
    %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%s, %ws : tensor<1x229x229x3xf32>, tensor<7x7x3x64xf32>) outs(%e0 : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
    %e1 = tensor.empty() : tensor<1x14x14x48xf32>
    %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w48 : tensor<1x16x16x32xf32>, tensor<3x3x32x48xf32>) outs(%e1 : tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32>
    %e2 = tensor.empty() : tensor<1x26x26x64xf32>
    %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x12, %w : tensor<1x28x28x32xf32>, tensor<3x3x32x64xf32>) outs(%e2 : tensor<1x26x26x64xf32>) -> tensor<1x26x26x64xf32>
    %e3 = tensor.empty() : tensor<1x16x16x64xf32>
    %c3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) outs(%e3 : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
    %e5 = tensor.empty() : tensor<1x24x24x64xf32>
    %c5 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x12, %w : tensor<1x28x28x32xf32>, tensor<3x3x32x64xf32>) outs(%e5 : tensor<1x24x24x64xf32>) -> tensor<1x24x24x64xf32>
    flow.return %c0, %c1, %c2, %c3 : tensor<1x112x112x64xf32>, tensor<1x14x14x48xf32>, tensor<1x26x26x64xf32>, tensor<1x16x16x64xf32>
  }
  %e4 = tensor.empty() : tensor<1x14x14x64xf32>
  %c4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%e4 : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %r#0, %r#1, %r#2, %r#3, %c4 : tensor<1x112x112x64xf32>, tensor<1x14x14x48xf32>, tensor<1x26x26x64xf32>, tensor<1x16x16x64xf32>, tensor<1x14x14x64xf32>
}

// -----

// A 7x7 image over 512 filters: a workgroup takes all 7 output rows, so each workgroup's
// 64 filters' weights (1.2 MB) are read once for 49 pixels, not once a row (8 workgroups).
// CHECK-LABEL: func.func @resnet_3x3_7x7_512
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 7, 7, 64, 0, 0, 0], vector_common_parallel = [1, 1, 7, 32, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 4]
func.func @resnet_3x3_7x7_512(%x: tensor<1x9x9x512xf32>, %w: tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x512xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x512xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
    flow.return %c : tensor<1x7x7x512xf32>
  }
  return %r : tensor<1x7x7x512xf32>
}

// -----

// 64 filters at 7x7 would leave one workgroup for the whole conv: one row a workgroup. A 14x14
// image (196 pixels) keeps one row a workgroup too.
// CHECK-LABEL: func.func @small_image_few_filters
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 7, 64, 0, 0, 0]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 14, 64, 0, 0, 0]
func.func @small_image_few_filters(%x: tensor<1x9x9x64xf32>, %w: tensor<3x3x64x64xf32>, %y: tensor<1x16x16x64xf32>, %v: tensor<3x3x64x256xf32>) -> (tensor<1x7x7x64xf32>, tensor<1x14x14x256xf32>) {
  %r = flow.dispatch.region -> (tensor<1x7x7x64xf32>) {
    %e = tensor.empty() : tensor<1x7x7x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x9x9x64xf32>, tensor<3x3x64x64xf32>) outs(%e : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
    flow.return %c : tensor<1x7x7x64xf32>
  }
  %s = flow.dispatch.region -> (tensor<1x14x14x256xf32>) {
    %e = tensor.empty() : tensor<1x14x14x256xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %v : tensor<1x16x16x64xf32>, tensor<3x3x64x256xf32>) outs(%e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
    flow.return %c : tensor<1x14x14x256xf32>
  }
  return %r, %s : tensor<1x7x7x64xf32>, tensor<1x14x14x256xf32>
}

// -----

// Inception's 1x7 conv at 17x17 (neither 8 nor 7 divides 17): a whole output row by 16
// filters a register tile.
// CHECK-LABEL: func.func @inception_1x7_17
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      lowering_config = #iree_cpu.lowering_config<distribution = [0, 1, 17, 64, 0, 0, 0], vector_common_parallel = [1, 1, 17, 16, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 4]>
func.func @inception_1x7_17(%x: tensor<1x17x23x32xf32>, %w: tensor<1x7x32x64xf32>) -> tensor<1x17x17x64xf32> {
  %r = flow.dispatch.region -> (tensor<1x17x17x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x17x17x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x17x17x64xf32>) -> tensor<1x17x17x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x17x23x32xf32>, tensor<1x7x32x64xf32>) outs(%f : tensor<1x17x17x64xf32>) -> tensor<1x17x17x64xf32>
    flow.return %c : tensor<1x17x17x64xf32>
  }
  return %r : tensor<1x17x17x64xf32>
}

// -----

// A 1-D conv's one output row of 3000 frames (EnCodec's 1x3 conv over 64 channels): workgroups
// of 200 frames, the widest whole number of 8-pixel tiles up to 512 that divides the row, so
// the row is 15 workgroups, not one; a row of 40 frames stays whole.
// CHECK-LABEL: func.func @one_row_of_3000_frames
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 200, 64, 0, 0, 0], vector_common_parallel = [1, 1, 8, 32, 0, 0, 0]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      distribution = [0, 1, 40, 64, 0, 0, 0], vector_common_parallel = [1, 1, 8, 32, 0, 0, 0]
func.func @one_row_of_3000_frames(%x: tensor<1x1x3002x64xf32>, %w: tensor<1x3x64x64xf32>, %y: tensor<1x1x42x64xf32>) -> (tensor<1x1x3000x64xf32>, tensor<1x1x40x64xf32>) {
  %r = flow.dispatch.region -> (tensor<1x1x3000x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1x3000x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x3000x64xf32>) -> tensor<1x1x3000x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3002x64xf32>, tensor<1x3x64x64xf32>) outs(%f : tensor<1x1x3000x64xf32>) -> tensor<1x1x3000x64xf32>
    flow.return %c : tensor<1x1x3000x64xf32>
  }
  %s = flow.dispatch.region -> (tensor<1x1x40x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1x40x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x40x64xf32>) -> tensor<1x1x40x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w : tensor<1x1x42x64xf32>, tensor<1x3x64x64xf32>) outs(%f : tensor<1x1x40x64xf32>) -> tensor<1x1x40x64xf32>
    flow.return %c : tensor<1x1x40x64xf32>
  }
  return %r, %s : tensor<1x1x3000x64xf32>, tensor<1x1x40x64xf32>
}
