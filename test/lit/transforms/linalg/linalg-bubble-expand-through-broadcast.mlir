// RUN: fusion-opt %s --split-input-file -p linalg-bubble-expand-through-broadcast | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation | filecheck %s --check-prefix=REGIONS

// torch-mlir's grouped-conv bias: a broadcast to the NCHW output split into groups. The bias is
// expanded instead (channels 48 -> 6 x 8) and broadcast straight into the conv's init, which
// then joins the conv's dispatch.
// CHECK-LABEL: func.func @grouped_conv_bias
// CHECK-SAME:    (%{{.*}}: tensor<1x6x8x18x18xf32>, %{{.*}}: tensor<6x8x8x3x3xf32>, %[[B:.*]]: tensor<48xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [6, 8] : tensor<48xf32> into tensor<6x8xf32>
// CHECK:         %[[I:.*]] = linalg.broadcast ins(%[[E]]{{ ?}}:{{ ?}}tensor<6x8xf32>) outs(%{{.*}}{{ ?}}:{{ ?}}tensor<1x6x8x16x16xf32>) dimensions = [0, 3, 4]
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.conv_2d_ngchw_gfchw {{.*}} outs(%[[I]] : tensor<1x6x8x16x16xf32>)
// dispatch-creation makes the conv a patch gather and a batched matmul
// (linalg-grouped-conv-to-im2col): the bias, broadcast flat, is the matmul's init in its region.
// REGIONS-LABEL: func.func @grouped_conv_bias
// REGIONS:         flow.dispatch.region -> (tensor<6x8x3x3x16x16xf32>)
// REGIONS:         flow.dispatch.region -> (tensor<6x8x256xf32>)
// REGIONS-NEXT:      tensor.empty
// REGIONS-NEXT:      linalg.broadcast {{.*}} dimensions = [2]
// REGIONS-NEXT:      linalg.generic
// REGIONS-NOT:     flow.dispatch.region
func.func @grouped_conv_bias(%x: tensor<1x6x8x18x18xf32>, %w: tensor<6x8x8x3x3xf32>, %bias: tensor<48xf32>) -> tensor<1x6x8x16x16xf32> {
  %e = tensor.empty() : tensor<1x48x16x16xf32>
  %b = linalg.broadcast ins(%bias : tensor<48xf32>) outs(%e : tensor<1x48x16x16xf32>) dimensions = [0, 2, 3]
  %i = tensor.expand_shape %b [[0], [1, 2], [3], [4]] output_shape [1, 6, 8, 16, 16] : tensor<1x48x16x16xf32> into tensor<1x6x8x16x16xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x8x18x18xf32>, tensor<6x8x8x3x3xf32>) outs(%i : tensor<1x6x8x16x16xf32>) -> tensor<1x6x8x16x16xf32>
  func.return %c : tensor<1x6x8x16x16xf32>
}

// -----

// A broadcast dim split by the expand stays broadcast (both parts); the input is not reshaped.
// CHECK-LABEL: func.func @broadcast_dim_split
// REGIONS-LABEL: func.func @broadcast_dim_split
// CHECK-SAME:    (%[[V:.*]]: tensor<4xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.broadcast ins(%[[V]]{{ ?}}:{{ ?}}tensor<4xf32>) outs(%{{.*}}{{ ?}}:{{ ?}}tensor<2x3x4xf32>) dimensions = [0, 1]
func.func @broadcast_dim_split(%v: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e : tensor<6x4xf32>) dimensions = [0]
  %x = tensor.expand_shape %b [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  func.return %x : tensor<2x3x4xf32>
}

// -----

// A generic that is a broadcast (our graph lowering's form: the payload yields its one input,
// read through its loops in order) is taken too; a generic that transposes while it
// broadcasts is not.
// CHECK-LABEL: func.func @generic_broadcast
// CHECK-SAME:    (%[[V:.*]]: tensor<8xf32>, %{{.*}}: tensor<2x8xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [2, 4]
// CHECK:         linalg.broadcast ins(%[[E]]{{ ?}}:{{ ?}}tensor<2x4xf32>) outs(%{{.*}}{{ ?}}:{{ ?}}tensor<1x2x4x3xf32>) dimensions = [0, 3]
// CHECK:         linalg.generic
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]]
#v_rows = affine_map<(d0, d1, d2) -> (d1)>
#t_rows = affine_map<(d0, d1, d2) -> (d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @generic_broadcast(%v: tensor<8xf32>, %t: tensor<2x8xf32>) -> (tensor<1x2x4x3xf32>, tensor<1x2x4x2xf32>) {
  %e = tensor.empty() : tensor<1x8x3xf32>
  %b = linalg.generic {indexing_maps = [#v_rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<8xf32>) outs(%e : tensor<1x8x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x3xf32>
  %x = tensor.expand_shape %b [[0], [1, 2], [3]] output_shape [1, 2, 4, 3] : tensor<1x8x3xf32> into tensor<1x2x4x3xf32>
  %e2 = tensor.empty() : tensor<1x8x2xf32>
  %c = linalg.generic {indexing_maps = [#t_rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<2x8xf32>) outs(%e2 : tensor<1x8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x2xf32>
  %y = tensor.expand_shape %c [[0], [1, 2], [3]] output_shape [1, 2, 4, 2] : tensor<1x8x2xf32> into tensor<1x2x4x2xf32>
  func.return %x, %y : tensor<1x2x4x3xf32>, tensor<1x2x4x2xf32>
}

// -----

// A fill: the expanded init is filled directly.
// CHECK-LABEL: func.func @fill_expanded
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x5xf32>)
func.func @fill_expanded(%c: f32) -> tensor<1x2x3x5xf32> {
  %e = tensor.empty() : tensor<1x6x5xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x6x5xf32>) -> tensor<1x6x5xf32>
  %x = tensor.expand_shape %f [[0], [1, 2], [3]] output_shape [1, 2, 3, 5] : tensor<1x6x5xf32> into tensor<1x2x3x5xf32>
  func.return %x : tensor<1x2x3x5xf32>
}

// -----

// Negative: an expand of anything else (here an elementwise generic's result), and a collapse
// of a broadcast, stay as they are.
// CHECK-LABEL: func.func @not_taken
// CHECK:         linalg.generic
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]]
// CHECK:         linalg.broadcast
// CHECK:         tensor.collapse_shape
func.func @not_taken(%v: tensor<6x4xf32>, %w: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>) {
  %e = tensor.empty() : tensor<6x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6x4xf32>
  %x = tensor.expand_shape %g [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %b = linalg.broadcast ins(%w : tensor<4xf32>) outs(%e : tensor<6x4xf32>) dimensions = [0]
  %c = tensor.collapse_shape %b [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  func.return %x, %c : tensor<2x3x4xf32>, tensor<24xf32>
}
