// RUN: fusion-opt %s --split-input-file -p linalg-collapse-transpose-dims | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=REGIONS

// A CNN's NCHW image written channels last: (h, w) stay adjacent and in order, the batch is a
// unit dim, so the copy is a 3 x 64 -> 64 x 3 transpose between two free reshapes. Regions: the
// 2-D copy reading the argument collapsed (a reshape of its binding), its result expanded
// between regions.
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<1x3x8x8xf32> into tensor<3x64xf32>
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[C]] : tensor<3x64xf32>) outs(%{{.*}} : tensor<64x3xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1, 2], [3]] output_shape [1, 8, 8, 3] : tensor<64x3xf32> into tensor<1x8x8x3xf32>
// CHECK:         func.return %[[E]]
// REGIONS-LABEL: func.func @nchw_to_nhwc
// REGIONS:         flow.dispatch.region -> (tensor<64x3xf32>)
// REGIONS:           tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<1x3x8x8xf32> into tensor<3x64xf32>
// REGIONS:           linalg.generic {{.*}} outs(%{{.*}} : tensor<64x3xf32>)
// REGIONS:         flow.tensor.reshape %{{.*}} : tensor<64x3xf32> -> tensor<1x8x8x3xf32>
func.func @nchw_to_nhwc(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32> {
  %e = tensor.empty() : tensor<1x8x8x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x8x8xf32>) outs(%e : tensor<1x8x8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x8x8x3xf32>
  func.return %g : tensor<1x8x8x3xf32>
}

// -----

// ShuffleNetV2's channel shuffle as a linalg.transpose: the image dims collapse (2x5x16).
// CHECK-LABEL: func.func @channel_shuffle
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4]] : tensor<1x2x5x4x4xi32> into tensor<2x5x16xi32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} outs(%{{.*}} : tensor<5x2x16xi32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3, 4]] output_shape [1, 5, 2, 4, 4] : tensor<5x2x16xi32> into tensor<1x5x2x4x4xi32>
// CHECK-NOT:     linalg.transpose
func.func @channel_shuffle(%x: tensor<1x2x5x4x4xi32>) -> tensor<1x5x2x4x4xi32> {
  %e = tensor.empty() : tensor<1x5x2x4x4xi32>
  %t = linalg.transpose ins(%x : tensor<1x2x5x4x4xi32>) outs(%e : tensor<1x5x2x4x4xi32>) permutation = [0, 2, 1, 3, 4]
  func.return %t : tensor<1x5x2x4x4xi32>
}

// -----

// Unit dims in the middle on both sides join their neighbours: 2x1x3x1x4 -> 4x1x2x3x1 is a
// 6 x 4 -> 4 x 6 transpose.
// CHECK-LABEL: func.func @unit_dims_inside
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4]] : tensor<2x1x3x1x4xf32> into tensor<6x4xf32>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x6xf32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3, 4]] output_shape [4, 1, 2, 3, 1] : tensor<4x6xf32> into tensor<4x1x2x3x1xf32>
func.func @unit_dims_inside(%x: tensor<2x1x3x1x4xf32>) -> tensor<4x1x2x3x1xf32> {
  %e = tensor.empty() : tensor<4x1x2x3x1xf32>
  %t = linalg.transpose ins(%x : tensor<2x1x3x1x4xf32>) outs(%e : tensor<4x1x2x3x1xf32>) permutation = [4, 1, 0, 2, 3]
  func.return %t : tensor<4x1x2x3x1xf32>
}

// -----

// Left alone: a transpose with nothing to collapse (no two dims stay adjacent in order), a copy that does not transpose, a transpose
// with arithmetic in its body, and a dynamic one.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.transpose ins(%{{.*}}{{ ?}}:{{ ?}}tensor<3x4x5xf32>)
// CHECK-COUNT-2: linalg.generic
// CHECK:         linalg.transpose ins(%{{.*}}{{ ?}}:{{ ?}}tensor<1x?x8xf32>)
// CHECK-NOT:     tensor.expand_shape
func.func @left_alone(%x: tensor<3x4x5xf32>, %y: tensor<1x3x8x8xf32>, %d: tensor<1x?x8xf32>) -> (tensor<5x4x3xf32>, tensor<1x3x8x8xf32>, tensor<1x8x8x3xf32>, tensor<8x?x1xf32>) {
  %e = tensor.empty() : tensor<5x4x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x4x5xf32>) outs(%e : tensor<5x4x3xf32>) permutation = [2, 1, 0]
  %e2 = tensor.empty() : tensor<1x3x8x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x3x8x8xf32>) outs(%e2 : tensor<1x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x3x8x8xf32>
  %e3 = tensor.empty() : tensor<1x8x8x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x3x8x8xf32>) outs(%e3 : tensor<1x8x8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x8x8x3xf32>
  %c1 = arith.constant 1 : index
  %n = tensor.dim %d, %c1 : tensor<1x?x8xf32>
  %e4 = tensor.empty(%n) : tensor<8x?x1xf32>
  %dt = linalg.transpose ins(%d : tensor<1x?x8xf32>) outs(%e4 : tensor<8x?x1xf32>) permutation = [2, 1, 0]
  func.return %t, %c, %s, %dt : tensor<5x4x3xf32>, tensor<1x3x8x8xf32>, tensor<1x8x8x3xf32>, tensor<8x?x1xf32>
}
