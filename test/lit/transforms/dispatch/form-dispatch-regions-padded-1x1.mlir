// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-min-pixels=0}" | filecheck %s --check-prefix=OFF

// A 1x1 conv (4x4 = 16 output pixels) whose ReLU only a pad reads: no region of ours. The conv,
// its init fill (not turned into a splat), the ReLU and the pad stay bare linalg for IREE's own
// formation, which writes the pad in the conv's dispatch. The 3x3 conv reading the pad is ours.
// CHECK-LABEL: func.func @padded_1x1
// CHECK-NOT:     flow.dispatch.region
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NEXT:    %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F]] : tensor<1x8x4x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x8x4x4xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[R]]
// CHECK:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>)
// OFF-LABEL:     func.func @padded_1x1
// OFF:           flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// OFF:             linalg.conv_2d_nchw_fchw {{.*}} tensor<8x16x1x1xf32>
// OFF:           tensor.pad
// OFF:           flow.dispatch.region -> (tensor<1x8x4x4xf32>)
func.func @padded_1x1(%x: tensor<1x16x4x4xf32>, %w: tensor<8x16x1x1xf32>, %k: tensor<8x8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x4xf32>, tensor<8x16x1x1xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %o : tensor<1x8x4x4xf32>
}

// -----

// Formed by us: a padded 1x1 conv over 2x2 pixels (IREE's rank-3 form measured slower there),
// and a padded 1x1 conv whose result is also returned (the pad is not its only reader).
// CHECK-LABEL: func.func @not_left_to_iree
// CHECK:         flow.dispatch.region -> (tensor<1x8x2x2xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @not_left_to_iree(%x: tensor<1x16x2x2xf32>, %y: tensor<1x16x4x4xf32>, %w: tensor<8x16x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x2x2xf32>, tensor<8x16x1x1xf32>) outs(%f : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x2x2xf32> to tensor<1x8x4x4xf32>
  %e4 = tensor.empty() : tensor<1x8x4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w : tensor<1x16x4x4xf32>, tensor<8x16x1x1xf32>) outs(%f4 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %q = tensor.pad %d low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %p, %q, %d : tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>
}
