// RUN: fusion-opt %s --split-input-file -p graph-drop-padding-taps | filecheck %s

// DeepLabV3's ASPP at a small input: a 3x3 conv with dilation 4 (pads 4) over a 4x4 map reads
// the image through its centre tap only: a 1x1 conv over the centre weights, dilation 1, no pads.
// CHECK-LABEL: func.func @dilated_centre_only
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}-4.000000e+00]], {{\[\[}}3.000000e+00]], {{\[\[}}3.000000e+00]]], {{\[\[\[}}0.000000e+00]], {{\[\[}}-4.000000e+00]], {{\[\[}}4.000000e+00]]]]> : tensor<2x3x1x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]] strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @dilated_centre_only(%x: tensor<1x3x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<[[[[0.0, 0.0, 2.0],   [4.0, -4.0, -3.0],   [3.0, 4.0, -2.0]],  [[-2.0, 3.0, -1.0],   [-2.0, 3.0, -2.0],   [-1.0, 1.0, 0.0]],  [[-4.0, -4.0, 3.0],   [2.0, 3.0, 0.0],   [3.0, -2.0, 0.0]]], [[[3.0, -3.0, -2.0],   [-3.0, 0.0, 4.0],   [-3.0, -1.0, -1.0]],  [[4.0, -3.0, 0.0],   [-2.0, -4.0, 2.0],   [-4.0, -2.0, 0.0]],  [[0.0, -3.0, 4.0],   [2.0, 4.0, -4.0],   [2.0, -2.0, 0.0]]]]> : tensor<2x3x3x3xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [4, 4] pads = [4, 4, 4, 4] group = 1 : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// -----

// Only the row axis loses taps (dilation 5 over 4 rows); the columns keep their three taps,
// dilation and pads.
// CHECK-LABEL: func.func @rows_only
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}-2.000000e+00, -1.000000e+00, 3.000000e+00]], {{\[\[}}4.000000e+00, -3.000000e+00, 3.000000e+00]]], {{\[\[\[}}1.000000e+00, -2.000000e+00, -3.000000e+00]], {{\[\[}}-3.000000e+00, 1.000000e+00, 4.000000e+00]]]]> : tensor<2x2x1x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]] strides = [1, 1] dilations = [1, 1] pads = [0, 1, 0, 1] group = 1 : (tensor<1x2x4x6xf32>, tensor<2x2x1x3xf32>) -> tensor<1x2x4x6xf32>
func.func @rows_only(%x: tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32> {
  %w = arith.constant dense<[[[[3.0, -2.0, -4.0],   [-2.0, -1.0, 3.0],   [0.0, -4.0, -1.0]],  [[1.0, 3.0, 2.0],   [4.0, -3.0, 3.0],   [-4.0, 1.0, -2.0]]], [[[-3.0, 1.0, -2.0],   [1.0, -2.0, -3.0],   [2.0, -1.0, 2.0]],  [[2.0, 4.0, -1.0],   [-3.0, 1.0, 4.0],   [4.0, 3.0, 2.0]]]]> : tensor<2x2x3x3xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [5, 1] pads = [5, 1, 5, 1] group = 1 : (tensor<1x2x4x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x6xf32>
  func.return %y : tensor<1x2x4x6xf32>
}

// -----

// Every tap reads the image somewhere (a plain 3x3 conv, and one with a one-sided pad of 2): left
// alone.
// CHECK-LABEL: func.func @every_tap_reads
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    graph.conv %x, %{{.*}} strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1
// CHECK-NEXT:    graph.conv %x, %{{.*}} strides = [1, 1] dilations = [1, 1] pads = [2, 2, 0, 0] group = 1
func.func @every_tap_reads(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) {
  %w = arith.constant dense<[[[[3.0, -4.0, -3.0],   [-2.0, -3.0, 3.0],   [3.0, 1.0, -4.0]]]]> : tensor<1x1x3x3xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1 : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  %z = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [2, 2, 0, 0] group = 1 : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  func.return %y, %z : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>
}

// -----

// A dropped weight that is not finite: 0 * inf is NaN in the input program, so the conv stays.
// An argument filter is not sliced either.
// CHECK-LABEL: func.func @not_dropped
// CHECK:         graph.conv %x, %{{.*}} strides = [1, 1] dilations = [4, 4] pads = [4, 4, 4, 4] group = 1
// CHECK:         graph.conv %x, %f strides = [1, 1] dilations = [4, 4] pads = [4, 4, 4, 4] group = 1
func.func @not_dropped(%x: tensor<1x3x4x4xf32>, %f: tensor<2x3x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = arith.constant dense<[[[[0x7F800000, 4.0, 3.0],   [0.0, 4.0, 4.0],   [4.0, -4.0, 0.0]],  [[1.0, -2.0, -1.0],   [1.0, 3.0, 1.0],   [-3.0, 2.0, 3.0]],  [[-3.0, 0.0, -1.0],   [4.0, -4.0, 0.0],   [4.0, -1.0, -3.0]]], [[[3.0, 4.0, 4.0],   [4.0, -1.0, 2.0],   [4.0, 1.0, 4.0]],  [[1.0, -3.0, 0.0],   [1.0, -2.0, 2.0],   [-1.0, 4.0, -3.0]],  [[1.0, -4.0, -3.0],   [0.0, 0.0, 0.0],   [0.0, 3.0, 0.0]]]]> : tensor<2x3x3x3xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [4, 4] pads = [4, 4, 4, 4] group = 1 : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  %z = graph.conv %x, %f strides = [1, 1] dilations = [4, 4] pads = [4, 4, 4, 4] group = 1 : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  func.return %y, %z : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
