// RUN: fusion-opt %s --split-input-file -p linalg-conv1d-patches | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-conv1d-patches{iree-conv-width-multiple=0}' | filecheck %s --check-prefix=ALL

// A stride-2 conv over a channels-last row (the unit-row expand of a [1, W, C] activation),
// read by a bias add that drops the unit row through a constant 0: the patch copy reads the
// [1, W, C] rows, each output frame's 3 taps x 3 channels one row of [6, 9]; the matmul's
// weight is the filter's [KW*C, F] reshape; the bias add reads the [1, OW, F] view of it.
// CHECK-LABEL: func.func @row_conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x14x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, ((d0 * 2) + d1), d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[X]] : tensor<1x14x3xf32>) outs(%{{.*}} : tensor<6x3x3xf32>)
// CHECK:         %[[PF:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1, 2]] : tensor<6x3x3xf32> into tensor<6x9xf32>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01], {{.*}} : tensor<9x4xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[PF]], %[[W]] : tensor<6x9xf32>, tensor<9x4xf32>) outs(%{{.*}} : tensor<6x4xf32>)
// CHECK:         %[[F:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [1, 6, 4]
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[F]], %[[B]] : tensor<1x6x4xf32>, tensor<4xf32>)
// CHECK:         func.return %[[R]]
func.func @row_conv(%x: tensor<1x14x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2]], [[-0.1, -0.2, -0.3, -0.4], [-0.5, -0.6, -0.7, -0.8], [-0.9, -1.0, -1.1, -1.2]], [[0.15, 0.25, 0.35, 0.45], [0.55, 0.65, 0.75, 0.85], [0.95, 1.05, 1.15, 1.25]]]]> : tensor<1x3x3x4xf32>
  %xi = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [1, 1, 14, 3] : tensor<1x14x3xf32> into tensor<1x1x14x3xf32>
  %e = tensor.empty() : tensor<1x1x6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x6x4xf32>) -> tensor<1x1x6x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%xi, %w : tensor<1x1x14x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x1x6x4xf32>) -> tensor<1x1x6x4xf32>
  %e2 = tensor.empty() : tensor<1x6x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x1x6x4xf32>, tensor<4xf32>) outs(%e2 : tensor<1x6x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<1x6x4xf32>
  func.return %r : tensor<1x6x4xf32>
}

// -----

// A dilated window over a [1, 1, W, C] image read as it is; the result is the matmul's
// [1, 1, OW, F] view.
// CHECK-LABEL: func.func @dilated_image_row
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, 0, (d0 + (d1 * 2)), d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:         %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<10x9xf32>, tensor<9x4xf32>)
// CHECK:         %[[C:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 10, 4]
// CHECK:         func.return %[[C]]
func.func @dilated_image_row(%x: tensor<1x1x14x3xf32>) -> tensor<1x1x10x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x3x3x4xf32>
  %e = tensor.empty() : tensor<1x1x10x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x10x4xf32>) -> tensor<1x1x10x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x14x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x1x10x4xf32>) -> tensor<1x1x10x4xf32>
  func.return %c : tensor<1x1x10x4xf32>
}

// -----

// A 1x1 window: nothing to gather (linalg-pack-conv-filters takes it as it is).
// CHECK-LABEL: func.func @one_by_one
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.matmul
func.func @one_by_one(%x: tensor<1x1x14x3xf32>) -> tensor<1x1x14x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x1x3x4xf32>
  %e = tensor.empty() : tensor<1x1x14x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x14x4xf32>) -> tensor<1x1x14x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x14x3xf32>, tensor<1x1x3x4xf32>) outs(%f : tensor<1x1x14x4xf32>) -> tensor<1x1x14x4xf32>
  func.return %c : tensor<1x1x14x4xf32>
}

// -----

// A filter argument: not rewritten.
// CHECK-LABEL: func.func @filter_argument
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.matmul
func.func @filter_argument(%x: tensor<1x1x14x3xf32>, %w: tensor<1x3x3x4xf32>) -> tensor<1x1x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x12x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x12x4xf32>) -> tensor<1x1x12x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x14x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x1x12x4xf32>) -> tensor<1x1x12x4xf32>
  func.return %c : tensor<1x1x12x4xf32>
}

// -----

// Two image rows: not rewritten.
// CHECK-LABEL: func.func @two_rows
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.matmul
func.func @two_rows(%x: tensor<1x2x14x3xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x3x3x4xf32>
  %e = tensor.empty() : tensor<1x2x12x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x14x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  func.return %c : tensor<1x2x12x4xf32>
}

// -----

// Channels a multiple of 16: the patch copy carries IREE CPU tiles that copy 16 channels at a
// time in workgroups of 16 frames (IREE's own choice vectorised it across the frames).
// CHECK-LABEL: func.func @sixteen_channels
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, 0, ((d0 * 2) + d1), d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} outs(%{{.*}} : tensor<5x2x16xf32>) attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [16, 2, 16], vector_common_parallel = [1, 1, 16]>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<5x32xf32>, tensor<32x4xf32>)
func.func @sixteen_channels(%x: tensor<1x1x10x16xf32>) -> tensor<1x1x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x2x16x4xf32>
  %e = tensor.empty() : tensor<1x1x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x5x4xf32>) -> tensor<1x1x5x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x16xf32>, tensor<1x2x16x4xf32>) outs(%f : tensor<1x1x5x4xf32>) -> tensor<1x1x5x4xf32>
  func.return %c : tensor<1x1x5x4xf32>
}

// -----

// A stride-1 conv over 16 output frames, a whole number of IREE's 8-pixel tiles: IREE's conv
// kernel runs it without patches, so it stays (with the multiple 0, it is rewritten).
// CHECK-LABEL: func.func @stride_one_whole_tiles
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.matmul
// ALL-LABEL:     func.func @stride_one_whole_tiles
// ALL-NOT:       linalg.conv_2d_nhwc_hwcf
// ALL:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x9xf32>, tensor<9x4xf32>)
func.func @stride_one_whole_tiles(%x: tensor<1x1x18x3xf32>) -> tensor<1x1x16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x3x3x4xf32>
  %e = tensor.empty() : tensor<1x1x16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x18x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32>
  func.return %c : tensor<1x1x16x4xf32>
}

// -----

// The same width at stride 2: IREE's strided conv kernel is the slow one, so it is rewritten.
// CHECK-LABEL: func.func @strided_whole_tiles
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x9xf32>, tensor<9x4xf32>)
// ALL-LABEL:     func.func @strided_whole_tiles
// ALL:           linalg.matmul
func.func @strided_whole_tiles(%x: tensor<1x1x33x3xf32>) -> tensor<1x1x16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x3x3x4xf32>
  %e = tensor.empty() : tensor<1x1x16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%x, %w : tensor<1x1x33x3xf32>, tensor<1x3x3x4xf32>) outs(%f : tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32>
  func.return %c : tensor<1x1x16x4xf32>
}

// -----

// The same whole tiles with 272 filters, over the 256 up to which IREE's conv beat the packed
// patch matmul: rewritten.
// CHECK-LABEL: func.func @stride_one_many_filters
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x9xf32>, tensor<9x272xf32>)
func.func @stride_one_many_filters(%x: tensor<1x1x18x3xf32>) -> tensor<1x1x16x272xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x3x3x272xf32>
  %e = tensor.empty() : tensor<1x1x16x272xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x16x272xf32>) -> tensor<1x1x16x272xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x18x3xf32>, tensor<1x3x3x272xf32>) outs(%f : tensor<1x1x16x272xf32>) -> tensor<1x1x16x272xf32>
  func.return %c : tensor<1x1x16x272xf32>
}
