// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{stride-one=false im2col-op=false}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-strided-conv-to-im2col{im2col-op=false}" | filecheck %s --check-prefix=ONE

// The gather form, which convs with more than 32 filters get by default; these small cases
// would get IREE's im2col op instead (linalg-strided-conv-to-im2col-op.mlir), so it is off here.

// A stride-2 3x3 conv with torch-mlir's bias init and a ReLU => a patch gather (C x KH x KW x
// OH x OW), free collapses of patches and filter, a flat F x P contraction over the bias with
// the filter as its left operand (IREE 3.13 gives the swapped order a 2-3x slower kernel), and
// the ReLU carried to the flat layout (one expand at the end).
// CHECK-LABEL: func.func @strided_bias_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x9x9xf32>, %[[W:.*]]: tensor<8x4x3x3xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, ((d3 * 2) + d1), ((d4 * 2) + d2))>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<1x4x9x9xf32>) outs(%{{.*}} : tensor<4x3x3x4x4xf32>)
// CHECK:         %[[PM:.*]] = tensor.collapse_shape %[[P]] {{.*}} : tensor<4x3x3x4x4xf32> into tensor<36x16xf32>
// CHECK:         %[[WM:.*]] = tensor.collapse_shape %[[W]] {{.*}} : tensor<8x4x3x3xf32> into tensor<8x36xf32>
// CHECK:         %[[INIT:.*]] = linalg.broadcast ins(%[[B]]{{.*}}tensor<8x16xf32>) dimensions = [1]
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[WM]], %[[PM]] : tensor<8x36xf32>, tensor<36x16xf32>) outs(%[[INIT]] : tensor<8x16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<8x16xf32>)
// CHECK:         arith.maximumf
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %[[R]] {{.*}} output_shape [1, 8, 4, 4] : tensor<8x16xf32> into tensor<1x8x4x4xf32>
// CHECK:         func.return %[[OUT]]
func.func @strided_bias_relu(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %e2 = tensor.empty() : tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x4x4xf32>) outs(%e2 : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  func.return %r : tensor<1x8x4x4xf32>
}

// -----

// A 7x7 stem over a padded input, strides (2, 3) and dilation 2 go into the gather's map; the
// fill init is rebuilt flat.
// CHECK-LABEL: func.func @stem_padded_dilated
// CHECK:         tensor.pad
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, ((d3 * 2) + (d1 * 2)), ((d4 * 3) + (d2 * 2)))>
// CHECK-SAME:      outs(%{{.*}} : tensor<3x7x7x4x3xf32>)
// CHECK:         tensor.collapse_shape {{.*}} into tensor<147x12xf32>
// CHECK:         tensor.collapse_shape {{.*}} : tensor<5x3x7x7xf32> into tensor<5x147xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x12xf32>)
// CHECK:         tensor.expand_shape {{.*}} output_shape [1, 5, 4, 3] : tensor<5x12xf32> into tensor<1x5x4x3xf32>
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @stem_padded_dilated(%x: tensor<1x3x16x16xf32>, %w: tensor<5x3x7x7xf32>) -> tensor<1x5x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x16x16xf32> to tensor<1x3x22x22xf32>
  %e = tensor.empty() : tensor<1x5x4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%xp, %w : tensor<1x3x22x22xf32>, tensor<5x3x7x7xf32>) outs(%f : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
  func.return %r : tensor<1x5x4x3xf32>
}

// -----

// Not rewritten: a stride-1 3x3 conv with stride-one=false (by default it is: prefix ONE), a
// strided 1x1 conv (the 1x1 pass's decision), a batch of 2, a strided depthwise conv.
// CHECK-LABEL: func.func @not_rewritten
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}} : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}} : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}} : tensor<2x4x9x9xf32>, tensor<4x4x3x3xf32>)
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT:     linalg.generic
// ONE-LABEL:     func.func @not_rewritten
// ONE:           linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<4x3x3x4x4xf32>)
// ONE-NOT:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x6x6xf32>
// ONE:           linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}} : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>)
func.func @not_rewritten(%a: tensor<1x4x6x6xf32>, %wa: tensor<4x4x3x3xf32>, %ia: tensor<1x4x4x4xf32>,
                         %b: tensor<1x4x8x8xf32>, %wb: tensor<4x4x1x1xf32>,
                         %c: tensor<2x4x9x9xf32>, %ic: tensor<2x4x4x4xf32>,
                         %k: tensor<4x3x3xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<2x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %ra = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %wa : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%ia : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %rb = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%b, %wb : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) outs(%ia : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %rc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %wa : tensor<2x4x9x9xf32>, tensor<4x4x3x3xf32>) outs(%ic : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %e = tensor.empty() : tensor<1x4x9x9xf32>
  %rd = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%e, %k : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%ia : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %ra, %rb, %rc, %rd : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<2x4x4x4xf32>, tensor<1x4x4x4xf32>
}
