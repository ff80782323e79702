// RUN: fusion-opt %s --split-input-file -p linalg-grouped-conv-to-im2col | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-grouped-conv-to-im2col{min-group-channels=8}" | filecheck %s --check-prefix=WIDE
// RUN: fusion-opt %s --split-input-file -p dispatch-creation | filecheck %s --check-prefix=REGIONS

// A grouped 3x3 conv (16 groups of 4 channels, stride 2) becomes the patch gather (each tap's
// input pixel at oh*2 + kh, ow*2 + kw of its group), the filter-first batched matmul over the
// flat patches, and the expand back; its collapsed bias + ReLU reads it as before. Regions:
// the gather, and the matmul with the epilogue (`linalg-sink-reshapes` moves the expand and the
// collapse below it). With min-group-channels=8 (prefix WIDE) it stays.
// CHECK-LABEL: func.func @grouped_conv
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0, d1, ((d4 * 2) + d2), ((d5 * 2) + d3))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<1x16x4x17x17xf32>) outs(%{{.*}} : tensor<16x4x3x3x8x8xf32>)
// CHECK:         %[[PM:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1, 2, 3], [4, 5]] : tensor<16x4x3x3x8x8xf32> into tensor<16x36x64xf32>
// CHECK:         %[[WM:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3, 4]] : tensor<16x4x4x3x3xf32> into tensor<16x4x36xf32>
// CHECK:         %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[WM]], %[[PM]] : tensor<16x4x36xf32>, tensor<16x36x64xf32>) outs(%{{.*}} : tensor<16x4x64xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         %[[O:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2], [3, 4]] output_shape [1, 16, 4, 8, 8] : tensor<16x4x64xf32> into tensor<1x16x4x8x8xf32>
// CHECK:         tensor.collapse_shape %[[O]]
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// WIDE-LABEL: func.func @grouped_conv
// WIDE:         linalg.conv_2d_ngchw_gfchw
// REGIONS-LABEL: func.func @grouped_conv
// REGIONS:         flow.dispatch.region -> (tensor<16x4x3x3x8x8xf32>)
// REGIONS:         flow.dispatch.region -> (tensor<16x4x64xf32>)
// REGIONS:           linalg.generic
// REGIONS:           arith.maximumf
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
// REGIONS:         func.return
func.func @grouped_conv(%x: tensor<1x16x4x17x17xf32>, %w: tensor<16x4x4x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x17x17xf32>, tensor<16x4x4x3x3xf32>) outs(%f : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
  %v = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x16x4x8x8xf32> into tensor<1x64x8x8xf32>
  %e2 = tensor.empty() : tensor<1x64x8x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %b : tensor<1x64x8x8xf32>, tensor<64xf32>) outs(%e2 : tensor<1x64x8x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x64x8x8xf32>
  func.return %g : tensor<1x64x8x8xf32>
}

// -----

// Dilation 2, stride 1, 2 groups of 8 channels into 3 filters each, a bias init: the gather reads
// oh + kh*2, ow + kw*2; the bias init is collapsed with the output. WIDE rewrites it too.
// CHECK-LABEL: func.func @dilated_bias_init
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0, d1, (d4 + (d2 * 2)), (d5 + (d3 * 2)))>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3, 4]] : tensor<1x2x3x6x6xf32> into tensor<2x3x36xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3x72xf32>, tensor<2x72x36xf32>) outs(%{{.*}} : tensor<2x3x36xf32>)
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// WIDE-LABEL: func.func @dilated_bias_init
// WIDE-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @dilated_bias_init(%x: tensor<1x2x8x10x10xf32>, %w: tensor<2x3x8x3x3xf32>, %b: tensor<2x3xf32>) -> tensor<1x2x3x6x6xf32> {
  %e = tensor.empty() : tensor<1x2x3x6x6xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<2x3xf32>) outs(%e : tensor<1x2x3x6x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<1x2x3x6x6xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x8x10x10xf32>, tensor<2x3x8x3x3xf32>) outs(%init : tensor<1x2x3x6x6xf32>) -> tensor<1x2x3x6x6xf32>
  func.return %c : tensor<1x2x3x6x6xf32>
}

// -----

// Negative: a batch of 2, and the fgchw filter layout, stay grouped convs.
// CHECK-LABEL: func.func @not_rewritten
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK:         linalg.conv_2d_ngchw_fgchw
// CHECK-NOT:     tensor.collapse_shape
// WIDE-LABEL: func.func @not_rewritten
// WIDE:         linalg.conv_2d_ngchw_gfchw
func.func @not_rewritten(%x: tensor<2x4x4x10x10xf32>, %w: tensor<4x4x4x3x3xf32>, %x1: tensor<1x4x4x10x10xf32>, %wf: tensor<4x4x4x3x3xf32>)
    -> (tensor<2x4x4x8x8xf32>, tensor<1x4x4x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4x8x8xf32>) -> tensor<2x4x4x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x4x4x10x10xf32>, tensor<4x4x4x3x3xf32>) outs(%f : tensor<2x4x4x8x8xf32>) -> tensor<2x4x4x8x8xf32>
  %e1 = tensor.empty() : tensor<1x4x4x8x8xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  %d = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x1, %wf : tensor<1x4x4x10x10xf32>, tensor<4x4x4x3x3xf32>) outs(%f1 : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  func.return %c, %d : tensor<2x4x4x8x8xf32>, tensor<1x4x4x8x8xf32>
}
