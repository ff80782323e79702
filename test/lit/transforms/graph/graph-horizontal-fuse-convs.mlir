// RUN: fusion-opt %s --split-input-file -p graph-horizontal-fuse-convs | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'graph-horizontal-fuse-convs{allow-runtime-concat=true}' | filecheck %s --check-prefix=RUNTIME
// The pass's helper modules these cases exercise: graph/conv_channels.py,
// graph/horizontal_concat_fold.py.

// Inception-style: three sibling 1x1 convs (bias + relu each) over one input become one conv on
// the concatenated filters with one bias add and one relu; lanes are channel slices, and the
// concat of lanes 0 and 1 in order folds into one slice.
// CHECK-LABEL: func.func @inception_siblings
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[}}[1.000000e+00]], {{\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]], {{\[\[}}4.000000e+00]]], {{\[\[\[}}5.000000e+00]], {{\[\[}}6.000000e+00]]], {{\[\[\[}}7.000000e+00]], {{\[\[}}8.000000e+00]]]]> : tensor<4x2x1x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]] strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tensor<4xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [1] : tensor<4xf32> -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.add %[[Y]], %[[BB]]
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[A]]
// CHECK-NEXT:    %[[L2:.*]] = graph.slice %[[R]] axes = [1] starts = [3] ends = [4] : tensor<1x4x3x3xf32> -> tensor<1x1x3x3xf32>
// CHECK-NEXT:    %[[N:.*]] = graph.neg %[[L2]]
// CHECK-NEXT:    %[[L01:.*]] = graph.slice %[[R]] axes = [1] starts = [0] ends = [3] : tensor<1x4x3x3xf32> -> tensor<1x3x3x3xf32>
// CHECK-NEXT:    func.return %[[L01]], %[[N]]
func.func @inception_siblings(%x: tensor<1x2x3x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x1x3x3xf32>) {
  %w0 = arith.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %w1 = arith.constant dense<[[[[3.0]], [[4.0]]], [[[5.0]], [[6.0]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[7.0]], [[8.0]]]]> : tensor<1x2x1x1xf32>
  %b0 = arith.constant dense<[0.1]> : tensor<1xf32>
  %b1 = arith.constant dense<[0.2, 0.3]> : tensor<2xf32>
  %b2 = arith.constant dense<[[[[0.4]]]]> : tensor<1x1x1x1xf32>
  %y0 = graph.conv %x, %w0 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %bb0 = graph.broadcast %b0 dims = [1] : tensor<1xf32> -> tensor<1x1x3x3xf32>
  %a0 = graph.add %y0, %bb0 : tensor<1x1x3x3xf32>
  %r0 = graph.relu %a0 : tensor<1x1x3x3xf32>
  %y1 = graph.conv %x, %w1 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %bb1 = graph.broadcast %b1 dims = [1] : tensor<2xf32> -> tensor<1x2x3x3xf32>
  %a1 = graph.add %bb1, %y1 : tensor<1x2x3x3xf32>
  %r1 = graph.relu %a1 : tensor<1x2x3x3xf32>
  %y2 = graph.conv %x, %w2 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %bb2 = graph.broadcast %b2 dims = [0, 1, 2, 3] : tensor<1x1x1x1xf32> -> tensor<1x1x3x3xf32>
  %a2 = graph.add %y2, %bb2 : tensor<1x1x3x3xf32>
  %r2 = graph.relu %a2 : tensor<1x1x3x3xf32>
  %n = graph.neg %r2 : tensor<1x1x3x3xf32>
  %cat = graph.concat %r0, %r1 axis = 1 : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %cat, %n : tensor<1x3x3x3xf32>, tensor<1x1x3x3xf32>
}

// -----

// Two padded 3x3 convs without epilogue, a third with other pads: the first two batch.
// CHECK-LABEL: func.func @same_window_only
// CHECK:         %[[Y:.*]] = graph.conv %x, %{{.*}} strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1 : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:    graph.slice %[[Y]] axes = [1] starts = [0] ends = [1]
// CHECK-NEXT:    graph.slice %[[Y]] axes = [1] starts = [1] ends = [2]
// CHECK:         graph.conv %x, %{{.*}} pads = [0, 0, 0, 0]
func.func @same_window_only(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %v = arith.constant dense<2.0> : tensor<1x1x3x3xf32>
  %a = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1 : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  %b = graph.conv %x, %v strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1 : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  %c = graph.conv %x, %v strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  func.return %a, %b, %c : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>
}

// -----

// Not siblings: other strides, another kernel size, a group conv, and one member with a relu
// where the other has none. Nothing changes.
// CHECK-LABEL: func.func @no_group
// CHECK-COUNT-5: graph.conv
// CHECK-NOT:     graph.slice
func.func @no_group(%x: tensor<1x2x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x2x1x1xf32>
  %w2 = arith.constant dense<1.0> : tensor<1x2x2x2xf32>
  %wg = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %a = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %b = graph.conv %x, %w strides = [2, 2] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
  %c = graph.conv %x, %w2 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x3x3xf32>
  %d = graph.conv %x, %wg strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 2 : (tensor<1x2x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %e = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %r = graph.relu %e : tensor<1x1x4x4xf32>
  func.return %a, %b, %c, %d, %r : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
}

// -----

// Weights that are arguments are only batched with allow-runtime-concat (a run-time concat).
// CHECK-LABEL: func.func @argument_weights
// CHECK-COUNT-2: graph.conv
// CHECK-NOT:     graph.concat
// RUNTIME-LABEL: func.func @argument_weights
// RUNTIME:         %[[W:.*]] = graph.concat %w0, %w1 axis = 0
// RUNTIME-NEXT:    %[[Y:.*]] = graph.conv %x, %[[W]]
// RUNTIME-NOT:     graph.conv
func.func @argument_weights(%x: tensor<1x2x4x4xf32>, %w0: tensor<1x2x1x1xf32>, %w1: tensor<3x2x1x1xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x3x4x4xf32>) {
  %a = graph.conv %x, %w0 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %b = graph.conv %x, %w1 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  func.return %a, %b : tensor<1x1x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

// A util.func body is fused like a func.func body.
// CHECK-LABEL: util.func public @util_func_siblings
// CHECK:         graph.conv %x, %{{.*}} {{.*}} -> tensor<1x2x3x3xf32>
// CHECK-NOT:     graph.conv
// CHECK:         util.return
// RUNTIME-LABEL: util.func public @util_func_siblings
util.func public @util_func_siblings(%x: tensor<1x2x3x3xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) {
  %w0 = arith.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %w1 = arith.constant dense<[[[[3.0]], [[4.0]]]]> : tensor<1x2x1x1xf32>
  %y0 = graph.conv %x, %w0 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %y1 = graph.conv %x, %w1 strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %r0 = graph.relu %y0 : tensor<1x1x3x3xf32>
  %r1 = graph.relu %y1 : tensor<1x1x3x3xf32>
  util.return %r0, %r1 : tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>
}
