// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{pads-into-depthwise=true}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s --check-prefix=OFF
// The pass's helper modules these cases exercise: dispatch/padded_depthwise.py,
// dispatch/padded_gathers.py (pull_pads_into), common/window_ops.py (takes_its_pad_inside).

// A 1x1 expansion conv's result padded for a 3x3 depthwise conv: the pad is computed in the
// depthwise conv's region, which reads the unpadded result; the conv's region stores it plain.
// Without the option the conv's region stores into a splat IREE fills first.
// CHECK-LABEL: func.func @expansion_then_3x3
// CHECK-NOT:     flow.tensor.splat
// CHECK:         %[[C:.*]] = flow.dispatch.region -> (tensor<1x8x8x16xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:       tensor.insert_slice
// CHECK:         flow.dispatch.region -> (tensor<1x8x8x16xf32>)
// CHECK:           %[[P:.*]] = tensor.pad %[[C]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:           linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]],
// OFF-LABEL:   func.func @expansion_then_3x3
// OFF:           flow.tensor.splat
// OFF:           tensor.insert_slice
func.func @expansion_then_3x3(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> (tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %we = arith.constant dense<0.5> : tensor<1x1x16x16xf32>
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %we : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p = tensor.pad %c0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  func.return %r : tensor<1x8x8x16xf32>
}

// -----

// Stride 2, dilation 2, the pad of a function argument: the same.
// CHECK-LABEL: func.func @strided_dilated_3x3_of_an_argument
// CHECK:         flow.dispatch.region -> (tensor<1x5x5x8xf32>)
// CHECK:           tensor.pad %{{.*}} low[0, 2, 2, 0] high[0, 2, 2, 0]
// CHECK:           linalg.depthwise_conv_2d_nhwc_hwc
// OFF-LABEL:   func.func @strided_dilated_3x3_of_an_argument
// OFF:           tensor.pad
// OFF:           flow.dispatch.region
func.func @strided_dilated_3x3_of_an_argument(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8xf32>) -> (tensor<1x5x5x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x8xf32> to tensor<1x13x13x8xf32>
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x13x13x8xf32>, tensor<3x3x8xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  func.return %r : tensor<1x5x5x8xf32>
}

// -----

// A 5x5 window (MnasNet's): the pad is computed in the conv's region too (with a row of 5
// taps a step, `dispatch-depthwise-cpu-tiles`, as fast as without it, and no copy nor fill).
// CHECK-LABEL: func.func @window_5x5
// CHECK-NOT:     flow.tensor.splat
// CHECK:         flow.dispatch.region -> (tensor<1x8x8x16xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK:         flow.dispatch.region -> (tensor<1x8x8x16xf32>)
// CHECK:           tensor.pad
// CHECK:           linalg.depthwise_conv_2d_nhwc_hwc
func.func @window_5x5(%x: tensor<1x8x8x16xf32>, %w: tensor<5x5x16xf32>) -> (tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %we = arith.constant dense<0.5> : tensor<1x1x16x16xf32>
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %we : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p = tensor.pad %c0 low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x12x12x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x12x12x16xf32>, tensor<5x5x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  func.return %r : tensor<1x8x8x16xf32>
}

// -----

// A 7x7 window (ConvNeXt's): not measured with its pad inside, so the producer's region stores
// the pad (into a splat), as without the option.
// CHECK-LABEL: func.func @window_7x7
// CHECK:         flow.tensor.splat
// CHECK:         flow.dispatch.region -> (tensor<1x14x14x16xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK:           tensor.insert_slice
// CHECK:         flow.dispatch.region -> (tensor<1x8x8x16xf32>)
// CHECK-NOT:       tensor.pad
func.func @window_7x7(%x: tensor<1x8x8x16xf32>, %w: tensor<7x7x16xf32>) -> (tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %we = arith.constant dense<0.5> : tensor<1x1x16x16xf32>
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %we : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p = tensor.pad %c0 low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x14x14x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x14x14x16xf32>, tensor<7x7x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  func.return %r : tensor<1x8x8x16xf32>
}

// -----

// The padded image is also returned: the pad is not the conv's alone and stays outside.
// CHECK-LABEL: func.func @padded_image_read_twice
// CHECK:         tensor.pad
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.pad
// CHECK:           linalg.depthwise_conv_2d_nhwc_hwc
func.func @padded_image_read_twice(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x10x10x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  func.return %r, %p : tensor<1x8x8x16xf32>, tensor<1x10x10x16xf32>
}
