// RUN: fusion-opt %s --split-input-file -p linalg-conv-channels-last | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last,linalg-fuse-elementwise{aggressive=false}" | filecheck %s --check-prefix=FUSED
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{through-views=false}" | filecheck %s --check-prefix=OFF

// linalg-conv-channels-last carrying activations channels last through the views between
// convs (fusionopt/transforms/linalg/channels_last_views.py; option through-views).

// An R(2+1)D block as the ONNX import writes it: the (1, 3, 3) conv over the 4 frames stacked
// along H (each frame padded to 8 rows, the 2 between them cropped after the conv), a ReLU,
// the (3, 1, 1) conv over [N, C, D, H*W] (depth padded), a ReLU. The first conv's result is
// reshaped and cropped channels last (the transpose back sinks below both views), its ReLU
// computed channels last and collapsed and padded so (the next conv's transpose hoists above
// both and cancels): between the convs no transpose is left but the one the ReLU reads, which
// elementwise fusion folds (the FUSED checks: one generic, identity maps). The input (a function
// argument) is transposed once, below its pad and stacking collapse. The second conv's result
// is read by nothing channels last (a ReLU and the function's result): its transpose back stays
// in the conv's epilogue, before its expand, not sunk into the ReLU as a transposing write.
// Without the option (the OFF checks) the first conv's result is transposed back to NCDHW before
// its views, and the ReLU's result into channels last after them.
// CHECK-LABEL: func.func @stacked_frames
// CHECK:         %[[P:.*]] = tensor.pad %[[X:.*]] low[0, 0, 0, 1, 0] high[0, 0, 0, 1, 0]
// CHECK:         %[[S:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x8x4x8x6xf32> into tensor<1x8x32x6xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, {{.*}} ins(%[[S]] : tensor<1x8x32x6xf32>)
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x32x6x16xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[C1]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 4, 8, 6, 16]
// CHECK:         %[[CROP:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0, 0] [1, 4, 6, 6, 16] [1, 1, 1, 1, 1] : tensor<1x4x8x6x16xf32> to tensor<1x4x6x6x16xf32>
// CHECK:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4, d1)>, {{.*}} ins(%[[CROP]] : tensor<1x4x6x6x16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d2, d3)>, {{.*}} ins(%[[BACK]] : tensor<1x16x4x6x6xf32>) outs(%{{.*}} : tensor<1x4x6x6x16xf32>)
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x4x6x6x16xf32> into tensor<1x4x36x16xf32>
// CHECK:         %[[DPAD:.*]] = tensor.pad %[[FLAT]] low[0, 1, 0, 0] high[0, 1, 0, 0]
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[DPAD]], %{{.*}} : tensor<1x6x36x16xf32>, tensor<3x1x16x8xf32>)
// CHECK:         %[[B2:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, {{.*}} ins(%[[C2]] : tensor<1x4x36x8xf32>)
// CHECK:         tensor.expand_shape %[[B2]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 4, 6, 6]
// FUSED-LABEL: func.func @stacked_frames
// FUSED:         %[[CROP:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 4, 6, 6, 16] [1, 1, 1, 1, 1] : tensor<1x4x8x6x16xf32> to tensor<1x4x6x6x16xf32>
// FUSED-NEXT:    tensor.empty() : tensor<1x4x6x6x16xf32>
// FUSED-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], {{.*}} ins(%[[CROP]] : tensor<1x4x6x6x16xf32>)
// FUSED:         %[[FLAT:.*]] = tensor.collapse_shape %[[R]]
// FUSED:         tensor.pad %[[FLAT]] low[0, 1, 0, 0] high[0, 1, 0, 0]
// OFF-LABEL: func.func @stacked_frames
// OFF:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x32x6x16xf32>
// OFF:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, {{.*}} ins(%[[C1]] : tensor<1x32x6x16xf32>)
// OFF:         tensor.expand_shape %[[BACK]] {{\[\[}}0], [1], [2, 3], [4]] output_shape [1, 16, 4, 8, 6]
// OFF:         %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x16x4x6x6xf32> into tensor<1x16x4x36xf32>
// OFF:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, {{.*}} ins(%[[FLAT]] : tensor<1x16x4x36xf32>)
func.func @stacked_frames(%x: tensor<1x8x4x6x6xf32>, %w1: tensor<16x8x1x3x3xf32>, %w2: tensor<8x16x3x1x1xf32>) -> tensor<1x8x4x6x6xf32> {
  %0 = tensor.collapse_shape %w1 [[0], [1], [2, 3], [4]] : tensor<16x8x1x3x3xf32> into tensor<16x8x3x3xf32>
  %1 = tensor.pad %x low[0, 0, 0, 1, 0] high[0, 0, 0, 1, 0] {
  ^bb0(%2: index, %3: index, %4: index, %5: index, %6: index):
    %7 = arith.constant 0.000000e+00 : f32
    tensor.yield %7 : f32
  } : tensor<1x8x4x6x6xf32> to tensor<1x8x4x8x6xf32>
  %8 = tensor.collapse_shape %1 [[0], [1], [2, 3], [4]] : tensor<1x8x4x8x6xf32> into tensor<1x8x32x6xf32>
  %9 = tensor.pad %8 low[0, 0, 0, 1] high[0, 0, 2, 1] {
  ^bb0(%10: index, %11: index, %12: index, %13: index):
    %14 = arith.constant 0.000000e+00 : f32
    tensor.yield %14 : f32
  } : tensor<1x8x32x6xf32> to tensor<1x8x34x8xf32>
  %15 = tensor.empty() : tensor<1x16x32x6xf32>
  %16 = arith.constant 0.000000e+00 : f32
  %17 = linalg.fill ins(%16 : f32) outs(%15 : tensor<1x16x32x6xf32>) -> tensor<1x16x32x6xf32>
  %18 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%9, %0 : tensor<1x8x34x8xf32>, tensor<16x8x3x3xf32>) outs(%17 : tensor<1x16x32x6xf32>) -> tensor<1x16x32x6xf32>
  %19 = tensor.expand_shape %18 [[0], [1], [2, 3], [4]] output_shape [1, 16, 4, 8, 6] : tensor<1x16x32x6xf32> into tensor<1x16x4x8x6xf32>
  %c1 = tensor.extract_slice %19[0, 0, 0, 0, 0] [1, 16, 4, 6, 6] [1, 1, 1, 1, 1] : tensor<1x16x4x8x6xf32> to tensor<1x16x4x6x6xf32>
  %r1 = tensor.empty() : tensor<1x16x4x6x6xf32>
  %r1_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x16x4x6x6xf32>) outs(%r1 : tensor<1x16x4x6x6xf32>) {
  ^bb0(%20: f32, %21: f32):
    %22 = arith.constant 0.000000e+00 : f32
    %23 = arith.maximumf %20, %22 : f32
    linalg.yield %23 : f32
  } -> tensor<1x16x4x6x6xf32>
  %24 = tensor.collapse_shape %r1_1 [[0], [1], [2], [3, 4]] : tensor<1x16x4x6x6xf32> into tensor<1x16x4x36xf32>
  %25 = tensor.collapse_shape %w2 [[0], [1], [2], [3, 4]] : tensor<8x16x3x1x1xf32> into tensor<8x16x3x1xf32>
  %26 = tensor.pad %24 low[0, 0, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%27: index, %28: index, %29: index, %30: index):
    %31 = arith.constant 0.000000e+00 : f32
    tensor.yield %31 : f32
  } : tensor<1x16x4x36xf32> to tensor<1x16x6x36xf32>
  %32 = tensor.empty() : tensor<1x8x4x36xf32>
  %33 = arith.constant 0.000000e+00 : f32
  %34 = linalg.fill ins(%33 : f32) outs(%32 : tensor<1x8x4x36xf32>) -> tensor<1x8x4x36xf32>
  %35 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%26, %25 : tensor<1x16x6x36xf32>, tensor<8x16x3x1xf32>) outs(%34 : tensor<1x8x4x36xf32>) -> tensor<1x8x4x36xf32>
  %c2 = tensor.expand_shape %35 [[0], [1], [2], [3, 4]] output_shape [1, 8, 4, 6, 6] : tensor<1x8x4x36xf32> into tensor<1x8x4x6x6xf32>
  %y = tensor.empty() : tensor<1x8x4x6x6xf32>
  %y_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x8x4x6x6xf32>) outs(%y : tensor<1x8x4x6x6xf32>) {
  ^bb0(%36: f32, %37: f32):
    %38 = arith.constant 0.000000e+00 : f32
    %39 = arith.maximumf %36, %38 : f32
    linalg.yield %39 : f32
  } -> tensor<1x8x4x6x6xf32>
  func.return %y_1 : tensor<1x8x4x6x6xf32>
}

// -----

// Negative: a reshape that splits the channel dim (16 channels as 2 groups of 8, a channel
// shuffle's first step) is not a view the layout passes through: the first conv's result is
// transposed back to NCHW before it and the ReLU's result into channels last after its
// collapse, as before.
// CHECK-LABEL: func.func @split_channels
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x8x8x16xf32>
// CHECK:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, {{.*}} ins(%[[C1]] : tensor<1x8x8x16xf32>)
// CHECK:         %[[G:.*]] = tensor.expand_shape %[[BACK]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 8, 8, 8]
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<1x2x8x8x8xf32>)
// CHECK:         %[[M:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2], [3], [4]]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, {{.*}} ins(%[[M]] : tensor<1x16x8x8xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @split_channels(%x: tensor<1x8x8x8xf32>, %w1: tensor<16x8x3x3xf32>, %w2: tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %c1 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%0: index, %1: index, %2: index, %3: index):
    %4 = arith.constant 0.000000e+00 : f32
    tensor.yield %4 : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %c1_1 = tensor.empty() : tensor<1x16x8x8xf32>
  %c1_2 = arith.constant 0.000000e+00 : f32
  %c1_3 = linalg.fill ins(%c1_2 : f32) outs(%c1_1 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c1_4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c1, %w1 : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%c1_3 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %g = tensor.expand_shape %c1_4 [[0], [1, 2], [3], [4]] output_shape [1, 2, 8, 8, 8] : tensor<1x16x8x8xf32> into tensor<1x2x8x8x8xf32>
  %r = tensor.empty() : tensor<1x2x8x8x8xf32>
  %r_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%g : tensor<1x2x8x8x8xf32>) outs(%r : tensor<1x2x8x8x8xf32>) {
  ^bb0(%5: f32, %6: f32):
    %7 = arith.constant 0.000000e+00 : f32
    %8 = arith.maximumf %5, %7 : f32
    linalg.yield %8 : f32
  } -> tensor<1x2x8x8x8xf32>
  %r2 = tensor.collapse_shape %r_1 [[0], [1, 2], [3], [4]] : tensor<1x2x8x8x8xf32> into tensor<1x16x8x8xf32>
  %y = tensor.pad %r2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%9: index, %10: index, %11: index, %12: index):
    %13 = arith.constant 0.000000e+00 : f32
    tensor.yield %13 : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %y_1 = tensor.empty() : tensor<1x8x8x8xf32>
  %y_2 = arith.constant 0.000000e+00 : f32
  %y_3 = linalg.fill ins(%y_2 : f32) outs(%y_1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y_4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w2 : tensor<1x16x10x10xf32>, tensor<8x16x3x3xf32>) outs(%y_3 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %y_4 : tensor<1x8x8x8xf32>
}

// -----

// Negative: a generic reading its loop indices (the import's pick of every second frame for a
// (1, 1, 1) conv of stride 2: `linalg.index` and `tensor.extract`) is not computed channels
// last (its body would read the permuted loops), so the conv's transpose is not hoisted above
// the pad and collapse to it: it reads the stacked frames, as before.
// CHECK-LABEL: func.func @strided_depth_pick
// CHECK:         %[[PICK:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x2x6x6xf32>)
// CHECK:           linalg.index 4
// CHECK:         %[[P:.*]] = tensor.pad %[[PICK]]
// CHECK:         %[[S:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x8x2x6x6xf32> into tensor<1x8x12x6xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, {{.*}} ins(%[[S]] : tensor<1x8x12x6xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @strided_depth_pick(%x: tensor<1x8x4x6x6xf32>, %w: tensor<16x8x1x1x1xf32>) -> tensor<1x16x2x3x3xf32> {
  %r = tensor.empty() : tensor<1x8x4x6x6xf32>
  %r_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x4x6x6xf32>) outs(%r : tensor<1x8x4x6x6xf32>) {
  ^bb0(%0: f32, %1: f32):
    %2 = arith.constant 0.000000e+00 : f32
    %3 = arith.maximumf %0, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<1x8x4x6x6xf32>
  %4 = arith.constant dense<[0, 2]> : tensor<2xi64>
  %5 = tensor.empty() : tensor<1x8x2x6x6xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<2xi64>) outs(%5 : tensor<1x8x2x6x6xf32>) {
  ^bb0(%7: i64, %8: f32):
    %9 = arith.index_cast %7 : i64 to index
    %10 = arith.constant 4 : index
    %11 = arith.constant 0 : index
    %12 = arith.cmpi slt, %9, %11 : index
    %13 = arith.addi %9, %10 : index
    %14 = arith.select %12, %13, %9 : index
    %15 = linalg.index 0 : index
    %16 = linalg.index 1 : index
    %17 = linalg.index 3 : index
    %18 = linalg.index 4 : index
    %19 = tensor.extract %r_1[%15, %16, %14, %17, %18] : tensor<1x8x4x6x6xf32>
    linalg.yield %19 : f32
  } -> tensor<1x8x2x6x6xf32>
  %20 = tensor.collapse_shape %w [[0], [1], [2], [3, 4]] : tensor<16x8x1x1x1xf32> into tensor<16x8x1x1xf32>
  %21 = tensor.pad %6 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 0] {
  ^bb0(%22: index, %23: index, %24: index, %25: index, %26: index):
    %27 = arith.constant 0.000000e+00 : f32
    tensor.yield %27 : f32
  } : tensor<1x8x2x6x6xf32> to tensor<1x8x2x6x6xf32>
  %28 = tensor.collapse_shape %21 [[0], [1], [2, 3], [4]] : tensor<1x8x2x6x6xf32> into tensor<1x8x12x6xf32>
  %29 = tensor.empty() : tensor<1x16x6x3xf32>
  %30 = arith.constant 0.000000e+00 : f32
  %31 = linalg.fill ins(%30 : f32) outs(%29 : tensor<1x16x6x3xf32>) -> tensor<1x16x6x3xf32>
  %32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%28, %20 : tensor<1x8x12x6xf32>, tensor<16x8x1x1xf32>) outs(%31 : tensor<1x16x6x3xf32>) -> tensor<1x16x6x3xf32>
  %y = tensor.expand_shape %32 [[0], [1], [2, 3], [4]] output_shape [1, 16, 2, 3, 3] : tensor<1x16x6x3xf32> into tensor<1x16x2x3x3xf32>
  func.return %y : tensor<1x16x2x3x3xf32>
}
