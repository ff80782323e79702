// RUN: fusion-opt %s --split-input-file -p linalg-depthwise-conv-drop-batch | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-depthwise-conv-drop-batch{min-pixels=1}' | filecheck %s --check-prefix=ALL

// ALL-LABEL: func.func @few_pixels
// ALL-NOT:     linalg.depthwise_conv_2d
// ALL:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x3x3xf32>)
// ALL:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8x2xf32>)

// A batch-1 depthwise 3x3 conv with torch-mlir's bias init => a rank-3 generic over
// (oh, ow, c, kh, kw) reading the unit-collapsed input, a rank-3 bias init, one unit expand.
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x6x6xf32>, %[[K:.*]]: tensor<8x3x3xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-DAG:     %[[X3:.*]] = tensor.collapse_shape %[[X]] {{.*}} : tensor<1x8x6x6xf32> into tensor<8x6x6xf32>
// CHECK-DAG:     %[[INIT:.*]] = linalg.broadcast ins(%[[B]]{{.*}}tensor<8x4x4xf32>) dimensions = [1, 2]
// CHECK-NOT:     linalg.depthwise_conv_2d
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, (d0 + d3), (d1 + d4))>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X3]], %[[K]] : tensor<8x6x6xf32>, tensor<8x3x3xf32>) outs(%[[INIT]] : tensor<8x4x4xf32>)
// CHECK:         tensor.expand_shape %[[R]] {{.*}} output_shape [1, 8, 4, 4] : tensor<8x4x4xf32> into tensor<1x8x4x4xf32>
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %k: tensor<8x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) dimensions = [0, 2, 3]
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %r : tensor<1x8x4x4xf32>
}

// -----

// Stride 2 and dilation 2 go into the input map; a fill init is rebuilt rank-3.
// CHECK-LABEL: func.func @strided_dilated
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x4x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, ((d0 * 2) + (d3 * 2)), ((d1 * 2) + (d4 * 2)))>
// CHECK-NOT:     linalg.depthwise_conv_2d
func.func @strided_dilated(%x: tensor<1x4x11x11xf32>, %k: tensor<4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x4x11x11xf32>, tensor<4x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// -----

// Not rewritten at the default min-pixels=16: a 3x3 output (9 pixels) keeps the named op,
// whose kernel measured faster on few pixels; the edge case 16 pixels (8x2) is rewritten.
// CHECK-LABEL: func.func @few_pixels
// CHECK:         linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<1x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8x2xf32>)
// CHECK-NOT:     linalg.depthwise_conv_2d
func.func @few_pixels(%x: tensor<1x4x5x5xf32>, %k: tensor<4x3x3xf32>, %init: tensor<1x4x3x3xf32>, %y: tensor<1x4x10x4xf32>, %i2: tensor<1x4x8x2xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x4x8x2xf32>) {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x4x5x5xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %s = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %k : tensor<1x4x10x4xf32>, tensor<4x3x3xf32>) outs(%i2 : tensor<1x4x8x2xf32>) -> tensor<1x4x8x2xf32>
  func.return %r, %s : tensor<1x4x3x3xf32>, tensor<1x4x8x2xf32>
}

// -----

// Not rewritten: a batch of 2, and a full conv.
// CHECK-LABEL: func.func @not_batch1
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.generic
func.func @not_batch1(%x: tensor<2x4x6x6xf32>, %k: tensor<4x3x3xf32>, %init: tensor<2x4x4x4xf32>, %y: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>, %i2: tensor<1x4x4x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<2x4x6x6xf32>, tensor<4x3x3xf32>) outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%i2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %r, %c : tensor<2x4x4x4xf32>, tensor<1x4x4x4xf32>
}
