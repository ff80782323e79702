// RUN: fusion-opt %s --split-input-file -p graph-fold-conv-affine | filecheck %s
// The pass's helper modules these cases exercise: graph/conv_channels.py.

// Bias, per-channel scale ([F, 1, 1] as ONNX Mul by an initializer writes it, scale first) and
// a shift: one conv on W * s and one canonical bias add (b * s - t).
// CHECK-LABEL: func.func @bias_scale_shift
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[}}[3.000000e+00, 6.000000e+00], [9.000000e+00, 1.200000e+01]], {{\[\[}}1.500000e+00, 7.500000e-01], [4.500000e+00, -3.000000e+00]]], {{\[\[\[}}2.500000e-01, -2.500000e-01], [1.250000e-01, 0.000000e+00]], {{\[\[}}3.750000e-01, 1.250000e-01], [-6.250000e-02, 9.375000e-02]]]]> : tensor<2x2x2x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]] strides = [1, 1] dilations = [1, 1] pads = [0, 0, 1, 1] group = 1
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[-5.500000e+00, 2.875000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [1] : tensor<2xf32> -> tensor<1x2x4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.add %[[Y]], %[[BB]] : tensor<1x2x4x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @bias_scale_shift(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.25], [1.5, -1.0]]], [[[2.0, -2.0], [1.0, 0.0]], [[3.0, 1.0], [-0.5, 0.75]]]]> : tensor<2x2x2x2xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 1, 1] group = 1 : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x4x4xf32>
  %b = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %bb = graph.broadcast %b dims = [1] : tensor<2xf32> -> tensor<1x2x4x4xf32>
  %yb = graph.add %y, %bb : tensor<1x2x4x4xf32>
  %s = arith.constant dense<[[[3.0]], [[0.125]]]> : tensor<2x1x1xf32>
  %sb = graph.broadcast %s dims = [1, 2, 3] : tensor<2x1x1xf32> -> tensor<1x2x4x4xf32>
  %m = graph.mul %sb, %yb : tensor<1x2x4x4xf32>
  %t = arith.constant dense<[7.0, -3.0]> : tensor<2xf32>
  %tb = graph.broadcast %t dims = [1] : tensor<2xf32> -> tensor<1x2x4x4xf32>
  %r = graph.sub %m, %tb : tensor<1x2x4x4xf32>
  func.return %r : tensor<1x2x4x4xf32>
}

// -----

// BatchNormalization as the importer writes it (x * s + t, no conv bias) on a depthwise conv,
// then a ReLU that stays; a division by a splat folds too. The shift already is a canonical
// bias (either operand order), so it is left as written.
// CHECK-LABEL: func.func @depthwise_bn
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[}}[1.000000e+00, -1.000000e+00]]], {{\[\[\[}}-3.000000e+00, 6.000000e+00]]]]> : tensor<2x1x1x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]] strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 1] group = 2
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[2.500000e-01, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [1]
// CHECK-NEXT:    %[[A:.*]] = graph.add %[[BB]], %[[Y]]
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[A]]
// CHECK-NEXT:    func.return %[[R]]
func.func @depthwise_bn(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[2.0, -2.0]]], [[[1.0, -2.0]]]]> : tensor<2x1x1x2xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 1] group = 2 : (tensor<1x2x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x3xf32>
  %s = arith.constant dense<[1.0, -6.0]> : tensor<2xf32>
  %sb = graph.broadcast %s dims = [1] : tensor<2xf32> -> tensor<1x2x3x3xf32>
  %m = graph.mul %y, %sb : tensor<1x2x3x3xf32>
  %d = arith.constant dense<2.0> : tensor<1x2x3x3xf32>
  %q = graph.div %m, %d : tensor<1x2x3x3xf32>
  %t = arith.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %tb = graph.broadcast %t dims = [1] : tensor<2xf32> -> tensor<1x2x3x3xf32>
  %a = graph.add %tb, %q : tensor<1x2x3x3xf32>
  %r = graph.relu %a : tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// -----

// A shift in another form ([1, F, 1, 1] constant) becomes the canonical bias add.
// CHECK-LABEL: func.func @shift_made_canonical
// CHECK-NEXT:    %[[W:.*]] = arith.constant
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]]
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [1] : tensor<2xf32> -> tensor<1x2x2x2xf32>
// CHECK-NEXT:    graph.add %[[Y]], %[[BB]]
func.func @shift_made_canonical(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %t = arith.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %tb = graph.broadcast %t dims = [0, 1, 2, 3] : tensor<1x2x1x1xf32> -> tensor<1x2x2x2xf32>
  %r = graph.add %y, %tb : tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

// -----

// Weights are a function argument: the affine stays elementwise (it fuses into the conv's
// dispatch instead).
// CHECK-LABEL: func.func @argument_weights
// CHECK:         graph.conv %x, %w
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    graph.broadcast
// CHECK-NEXT:    graph.mul
func.func @argument_weights(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %s = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %sb = graph.broadcast %s dims = [1] : tensor<2xf32> -> tensor<1x2x2x2xf32>
  %r = graph.mul %y, %sb : tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}

// -----

// The unscaled conv is also returned: folding would need a second conv, nothing changes.
// CHECK-LABEL: func.func @conv_has_other_user
// CHECK:         %[[Y:.*]] = graph.conv %x, %w
// CHECK:         graph.mul %[[Y]],
// CHECK:         func.return %[[Y]],
func.func @conv_has_other_user(%x: tensor<1x1x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = arith.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %s = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %sb = graph.broadcast %s dims = [1] : tensor<2xf32> -> tensor<1x2x2x2xf32>
  %r = graph.mul %y, %sb : tensor<1x2x2x2xf32>
  func.return %y, %r : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// A scale that varies along a spatial dim is not per channel; a scale that would overflow
// the weights (1e30 * 1e10) is refused: both muls stay.
// CHECK-LABEL: func.func @not_foldable
// CHECK:         graph.conv %x, %w
// CHECK:         graph.mul
// CHECK:         graph.conv %x, %w
// CHECK:         graph.mul
func.func @not_foldable(%x: tensor<1x1x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = arith.constant dense<[[[[1.0e10]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %s = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %sb = graph.broadcast %s dims = [3] : tensor<2xf32> -> tensor<1x2x2x2xf32>
  %r = graph.mul %y, %sb : tensor<1x2x2x2xf32>
  %y2 = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %big = arith.constant dense<[1.0e30, 1.0]> : tensor<2xf32>
  %bigb = graph.broadcast %big dims = [1] : tensor<2xf32> -> tensor<1x2x2x2xf32>
  %r2 = graph.mul %y2, %bigb : tensor<1x2x2x2xf32>
  func.return %r, %r2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// A division by a per-channel constant with a zero: the folded weights would be infinite where
// the unfolded program divides only what the conv computed (its inf or NaN stays its own).
// CHECK-LABEL: func.func @divide_by_zero_channel
// CHECK:         graph.conv %x, %w
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    graph.broadcast
// CHECK-NEXT:    graph.div
func.func @divide_by_zero_channel(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %d = arith.constant dense<[2.0, 0.0]> : tensor<2xf32>
  %db = graph.broadcast %d dims = [1] : tensor<2xf32> -> tensor<1x2x2x2xf32>
  %r = graph.div %y, %db : tensor<1x2x2x2xf32>
  func.return %r : tensor<1x2x2x2xf32>
}
