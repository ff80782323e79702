// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{grouped-taps=true}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-conv-channels-last | filecheck %s --check-prefix=OFF

// linalg-conv-channels-last's grouped-taps option (fusionopt/transforms/linalg/grouped_conv_taps.py,
// set by the CPU pipelines): a grouped conv over a constant f32 filter whose groups fill whole
// vectors (8k filters a group: 16k a group's own AVX-512 vectors, two groups of 8 one, 8k half
// ones), with at most 3x3 taps and an output width
// a multiple of 7 or 8, becomes one generic summing, per input channel, each tap's strided slice
// of the padded NHWC image times that tap's filter. Off (prefix OFF) the im2col form stays.
// RegNetX's groups of 16 at 7x7: nine rank-reduced slices at the taps' offsets, nine G x C x F
// filters, loops (n, oh, ow, g, f, c), the taps fused-multiply-added, then the accumulator.
// CHECK-LABEL: func.func @regnet_groups
// CHECK:         %[[IMG:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 9, 9, 2, 16]
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[IMG]][0, 0, 0, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1] : tensor<1x9x9x2x16xf32> to tensor<7x7x2x16xf32>
// CHECK:         tensor.extract_slice %[[IMG]][0, 0, 1, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1]
// CHECK-COUNT-6: tensor.extract_slice %[[IMG]]
// CHECK:         %[[S8:.*]] = tensor.extract_slice %[[IMG]][0, 2, 2, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1]
// CHECK-COUNT-9: arith.constant dense<1.250000e-01> : tensor<2x16x16xf32>
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>,
// CHECK-SAME:      affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>
// CHECK-SAME:      affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[S0]],
// CHECK-SAME:      outs(%{{.*}} : tensor<1x7x7x2x16xf32>)
// CHECK:           arith.mulf
// CHECK-COUNT-8:   math.fma
// CHECK:           arith.addf
// CHECK:         tensor.collapse_shape %[[Y]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x7x7x2x16xf32> into tensor<1x7x7x32xf32>
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// OFF-LABEL: func.func @regnet_groups
// OFF:         iree_linalg_ext.im2col
// OFF-NOT:     math.fma
func.func @regnet_groups(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x7x7xf32> to tensor<1x32x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 9, 9] : tensor<1x32x9x9xf32> into tensor<1x2x16x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf32> into tensor<2x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x2x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x9x9xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x7x7xf32> into tensor<1x32x7x7xf32>
  func.return %v : tensor<1x32x7x7xf32>
}

// -----

// Two groups of 8 share a vector: the filters C x G x F, so that one channel's filters of
// neighbouring groups are contiguous; stride 2 is the slices' stride (an 8x8 output of 16x16).
// CHECK-LABEL: func.func @paired_groups_of_8
// CHECK:         tensor.extract_slice %{{.*}}[0, 2, 1, 0, 0] [1, 8, 8, 4, 8] [1, 2, 2, 1, 1] : tensor<1x18x18x4x8xf32> to tensor<8x8x4x8xf32>
// CHECK-COUNT-9: arith.constant dense<1.250000e-01> : tensor<8x4x8xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>,
// CHECK-SAME:      affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d3, d4)>
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @paired_groups_of_8(%x: tensor<1x32x16x16xf32>) -> tensor<1x32x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x16x16xf32> to tensor<1x32x18x18xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 4, 8, 18, 18] : tensor<1x32x18x18xf32> into tensor<1x4x8x18x18xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x8x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 8, 8, 3, 3] : tensor<32x8x3x3xf32> into tensor<4x8x8x3x3xf32>
  %e = tensor.empty() : tensor<1x4x8x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x8x8x8xf32>) -> tensor<1x4x8x8x8xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %wg : tensor<1x4x8x18x18xf32>, tensor<4x8x8x3x3xf32>) outs(%f : tensor<1x4x8x8x8xf32>) -> tensor<1x4x8x8x8xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x4x8x8x8xf32> into tensor<1x32x8x8xf32>
  func.return %v : tensor<1x32x8x8xf32>
}

// -----

// Batch 2: the slices keep the batch dim, read through (n, oh, ow, g, c).
// CHECK-LABEL: func.func @batched
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [2, 7, 7, 2, 16] [1, 1, 1, 1, 1] : tensor<2x9x9x2x16xf32> to tensor<2x7x7x2x16xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>,
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @batched(%x: tensor<2x32x7x7xf32>) -> tensor<2x32x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<2x32x7x7xf32> to tensor<2x32x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [2, 2, 16, 9, 9] : tensor<2x32x9x9xf32> into tensor<2x2x16x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf32> into tensor<2x16x16x3x3xf32>
  %e = tensor.empty() : tensor<2x2x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x16x7x7xf32>) -> tensor<2x2x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<2x2x16x9x9xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<2x2x16x7x7xf32>) -> tensor<2x2x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<2x2x16x7x7xf32> into tensor<2x32x7x7xf32>
  func.return %v : tensor<2x32x7x7xf32>
}

// -----

// A filter argument keeps the im2col form (a tap's filter would be a slice copy every call).
// CHECK-LABEL: func.func @filter_argument
// CHECK:         iree_linalg_ext.im2col
// CHECK-NOT:     math.fma
func.func @filter_argument(%x: tensor<1x32x7x7xf32>, %w: tensor<2x16x16x3x3xf32>) -> tensor<1x32x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x7x7xf32> to tensor<1x32x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 9, 9] : tensor<1x32x9x9xf32> into tensor<1x2x16x9x9xf32>
  %e = tensor.empty() : tensor<1x2x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %w : tensor<1x2x16x9x9xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x7x7xf32> into tensor<1x32x7x7xf32>
  func.return %v : tensor<1x32x7x7xf32>
}

// -----

// An output width of 6 takes no 7- or 8-pixel register tile: the im2col form.
// CHECK-LABEL: func.func @width_6
// CHECK:         iree_linalg_ext.im2col
// CHECK-NOT:     math.fma
func.func @width_6(%x: tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x6x6xf32> to tensor<1x32x8x8xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 8, 8] : tensor<1x32x8x8xf32> into tensor<1x2x16x8x8xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf32> into tensor<2x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x2x16x6x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x6x6xf32>) -> tensor<1x2x16x6x6xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x8x8xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<1x2x16x6x6xf32>) -> tensor<1x2x16x6x6xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x6x6xf32> into tensor<1x32x6x6xf32>
  func.return %v : tensor<1x32x6x6xf32>
}

// -----

// Three groups of 8 cannot pair up: each group's 8 filters a half vector, filters G x C x F.
// CHECK-LABEL: func.func @odd_groups_of_8
// CHECK-COUNT-9: arith.constant dense<1.250000e-01> : tensor<3x8x8xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>,
// CHECK-SAME:      affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @odd_groups_of_8(%x: tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x24x7x7xf32> to tensor<1x24x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 3, 8, 9, 9] : tensor<1x24x9x9xf32> into tensor<1x3x8x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<24x8x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 8, 8, 3, 3] : tensor<24x8x3x3xf32> into tensor<3x8x8x3x3xf32>
  %e = tensor.empty() : tensor<1x3x8x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x8x7x7xf32>) -> tensor<1x3x8x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x3x8x9x9xf32>, tensor<3x8x8x3x3xf32>) outs(%f : tensor<1x3x8x7x7xf32>) -> tensor<1x3x8x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x3x8x7x7xf32> into tensor<1x24x7x7xf32>
  func.return %v : tensor<1x24x7x7xf32>
}

// -----

// Groups of 4 fill no vector: left to the other forms.
// CHECK-LABEL: func.func @groups_of_4
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK-NOT:     math.fma
func.func @groups_of_4(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 10, 10] : tensor<1x16x10x10xf32> into tensor<1x4x4x10x10xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<16x4x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 4, 4, 3, 3] : tensor<16x4x3x3xf32> into tensor<4x4x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x4x4x10x10xf32>, tensor<4x4x4x3x3xf32>) outs(%f : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x4x4x8x8xf32> into tensor<1x16x8x8xf32>
  func.return %v : tensor<1x16x8x8xf32>
}

// -----

// f64, and 5x5 windows (25 taps, unmeasured), keep the patch forms (IREE's im2col op; a gather
// for 400 taps a group).
// CHECK-LABEL: func.func @f64_groups
// CHECK:         iree_linalg_ext.im2col
// CHECK-NOT:     math.fma
func.func @f64_groups(%x: tensor<1x32x7x7xf64>) -> tensor<1x32x7x7xf64> {
  %z = arith.constant 0.0 : f64
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f64
  } : tensor<1x32x7x7xf64> to tensor<1x32x9x9xf64>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 9, 9] : tensor<1x32x9x9xf64> into tensor<1x2x16x9x9xf64>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf64>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf64> into tensor<2x16x16x3x3xf64>
  %e = tensor.empty() : tensor<1x2x16x7x7xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<1x2x16x7x7xf64>) -> tensor<1x2x16x7x7xf64>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x9x9xf64>, tensor<2x16x16x3x3xf64>) outs(%f : tensor<1x2x16x7x7xf64>) -> tensor<1x2x16x7x7xf64>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x7x7xf64> into tensor<1x32x7x7xf64>
  func.return %v : tensor<1x32x7x7xf64>
}

// -----

// CHECK-LABEL: func.func @five_by_five
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, (d2 + d4), (d3 + d5), d0, d6)>
// CHECK-NOT:     math.fma
func.func @five_by_five(%x: tensor<1x32x9x9xf32>) -> tensor<1x32x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x9x9xf32> to tensor<1x32x11x11xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 11, 11] : tensor<1x32x11x11xf32> into tensor<1x2x16x11x11xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x5x5xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 5, 5] : tensor<32x16x5x5xf32> into tensor<2x16x16x5x5xf32>
  %e = tensor.empty() : tensor<1x2x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x11x11xf32>, tensor<2x16x16x5x5xf32>) outs(%f : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x7x7xf32> into tensor<1x32x7x7xf32>
  func.return %v : tensor<1x32x7x7xf32>
}

// -----

// RegNetX-1.6GF's groups of 24: three half vectors of one group, filters G x C x F.
// CHECK-LABEL: func.func @groups_of_24
// CHECK-COUNT-9: arith.constant dense<1.250000e-01> : tensor<3x24x24xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @groups_of_24(%x: tensor<1x72x7x7xf32>) -> tensor<1x72x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x72x7x7xf32> to tensor<1x72x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 3, 24, 9, 9] : tensor<1x72x9x9xf32> into tensor<1x3x24x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<72x24x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 24, 24, 3, 3] : tensor<72x24x3x3xf32> into tensor<3x24x24x3x3xf32>
  %e = tensor.empty() : tensor<1x3x24x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x24x7x7xf32>) -> tensor<1x3x24x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x3x24x9x9xf32>, tensor<3x24x24x3x3xf32>) outs(%f : tensor<1x3x24x7x7xf32>) -> tensor<1x3x24x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x3x24x7x7xf32> into tensor<1x72x7x7xf32>
  func.return %v : tensor<1x72x7x7xf32>
}

// -----

// Dilation 2: the taps' slices start 2 pixels apart.
// CHECK-LABEL: func.func @dilated
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 2, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 4, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1]
// CHECK:         tensor.extract_slice %{{.*}}[0, 2, 0, 0, 0] [1, 7, 7, 2, 16] [1, 1, 1, 1, 1]
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @dilated(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x7x7xf32> to tensor<1x32x11x11xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 11, 11] : tensor<1x32x11x11xf32> into tensor<1x2x16x11x11xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf32> into tensor<2x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x2x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x11x11xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<1x2x16x7x7xf32>) -> tensor<1x2x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x7x7xf32> into tensor<1x32x7x7xf32>
  func.return %v : tensor<1x32x7x7xf32>
}

// -----

// ResNeXt50's 32 groups of 16: a pixel of the padded image is 2 KB, and consecutive pixels'
// lines would all start on 2 of the L1's 64 sets; the pad appends one group of zeros to each
// pixel (528 channels, 33 lines), which no slice reads: the slices take the first 32 groups.
// CHECK-LABEL: func.func @pixels_of_2_kb
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 16]
// CHECK:         : tensor<1x7x7x512xf32> to tensor<1x9x9x528xf32>
// CHECK:         %[[IMG:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 9, 9, 33, 16]
// CHECK:         tensor.extract_slice %[[IMG]][0, 0, 0, 0, 0] [1, 7, 7, 32, 16] [1, 1, 1, 1, 1] : tensor<1x9x9x33x16xf32> to tensor<7x7x32x16xf32>
// CHECK-COUNT-8: tensor.extract_slice %[[IMG]]
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<1x7x7x32x16xf32>)
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// OFF-LABEL: func.func @pixels_of_2_kb
// OFF-NOT:     528
func.func @pixels_of_2_kb(%x: tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x512x7x7xf32> to tensor<1x512x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 32, 16, 9, 9] : tensor<1x512x9x9xf32> into tensor<1x32x16x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x32x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x16x7x7xf32>) -> tensor<1x32x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %w : tensor<1x32x16x9x9xf32>, tensor<32x16x16x3x3xf32>) outs(%f : tensor<1x32x16x7x7xf32>) -> tensor<1x32x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x32x16x7x7xf32> into tensor<1x512x7x7xf32>
  func.return %v : tensor<1x512x7x7xf32>
}

// -----

// A pixel of 64 channels (256 bytes) starts on 16 sets: no spare group.
// CHECK-LABEL: func.func @pixels_of_256_bytes
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         tensor.expand_shape %{{.*}} output_shape [1, 9, 9, 4, 16]
// CHECK:         math.fma
func.func @pixels_of_256_bytes(%x: tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x64x7x7xf32> to tensor<1x64x9x9xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 4, 16, 9, 9] : tensor<1x64x9x9xf32> into tensor<1x4x16x9x9xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<4x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x4x16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x16x7x7xf32>) -> tensor<1x4x16x7x7xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %w : tensor<1x4x16x9x9xf32>, tensor<4x16x16x3x3xf32>) outs(%f : tensor<1x4x16x7x7xf32>) -> tensor<1x4x16x7x7xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x4x16x7x7xf32> into tensor<1x64x7x7xf32>
  func.return %v : tensor<1x64x7x7xf32>
}
