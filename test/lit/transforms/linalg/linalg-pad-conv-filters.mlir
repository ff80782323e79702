// RUN: fusion-opt %s --split-input-file -p linalg-pad-conv-filters | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-pad-conv-filters{max-growth=1.5}" | filecheck %s --check-prefix=GROWTH
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=REGIONS
// RUN: fusion-opt %s --split-input-file -p "linalg-pad-conv-filters{panel-min-channels=0}" | filecheck %s --check-prefix=NOPANEL
// RUN: fusion-opt %s --split-input-file -p "linalg-pad-conv-filters{max-slice-bytes=1024}" | filecheck %s --check-prefix=SLICE
// RUN: fusion-opt %s --split-input-file -p "linalg-pad-conv-filters{kxk-slice-min-taps=0}" | filecheck %s --check-prefix=NOKXK
// RUN: fusion-opt %s --split-input-file -p linalg-pad-conv-filters --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// The pass's helper modules these cases exercise: linalg/padded_values.py and
// linalg/channel_slices.py (every case), linalg/padded_depthwise_readers.py and
// linalg/constant_arrays.py (the depthwise_reader case), linalg/padded_group_readers.py (the
// grouped_im2col cases).

// A 1x1 conv with 10 constant filters computes 16 (six zero filters); its bias + ReLU epilogue
// computes 16 channels too (the bias padded with zeros), and so does the pad in front of the max
// pool, which reads the first 10 through the slice. With max-growth=1.5 (16 / 10 = 1.6) it stays.
// Regions (dispatch-creation-llvm-cpu, `padded-results=0`): the conv with its epilogue; the pad
// a copy IREE forms (no splat to fill); the pool reads the slice.
// CHECK-LABEL: func.func @conv_epilogue_pad_pool
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<1x1x4x16xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x6x6x4xf32>, tensor<1x1x4x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK:         %[[B:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<16xf32>
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[B]] : tensor<1x6x6x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[E]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } : tensor<1x6x6x16xf32> to tensor<1x8x8x16xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 8, 8, 10] [1, 1, 1, 1] : tensor<1x8x8x16xf32> to tensor<1x8x8x10xf32>
// CHECK:         linalg.pooling_nhwc_max {{.*}} ins(%[[S]], %{{.*}} : tensor<1x8x8x10xf32>, tensor<3x3xf32>)
// GROWTH-LABEL: func.func @conv_epilogue_pad_pool
// GROWTH:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x6x6x10xf32>)
// GROWTH-NOT:     tensor.extract_slice
// REGIONS-LABEL: func.func @conv_epilogue_pad_pool
// REGIONS:         flow.dispatch.region -> (tensor<1x6x6x16xf32>)
// REGIONS:           linalg.conv_2d_nhwc_hwcf
// REGIONS:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// REGIONS:         flow.dispatch.region -> (tensor<1x6x6x10xf32>)
// REGIONS:           tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 8, 8, 10] [1, 1, 1, 1] : tensor<1x8x8x16xf32> to tensor<1x8x8x10xf32>
// REGIONS:           linalg.pooling_nhwc_max
func.func @conv_epilogue_pad_pool(%x: tensor<1x6x6x4xf32>) -> tensor<1x6x6x10xf32> {
  %w = arith.constant dense<[[[[0.5, -1.0, 1.5, 2.0, -0.5, 1.0, 0.25, -2.0, 0.75, 1.25], [1.0, 0.5, -0.5, 0.0, 2.0, -1.5, 1.0, 0.5, -0.25, 0.5], [-1.0, 1.0, 0.5, 1.5, 0.0, 0.5, -2.0, 1.0, 1.0, -0.5], [0.25, -0.75, 1.0, -1.0, 0.5, 2.0, 0.5, 0.0, -1.0, 1.5]]]]> : tensor<1x1x4x10xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]> : tensor<10xf32>
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x6x6x10xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x4xf32>, tensor<1x1x4x10xf32>) outs(%f : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %e2 = tensor.empty() : tensor<1x6x6x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x6x6x10xf32>, tensor<10xf32>) outs(%e2 : tensor<1x6x6x10xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x6x6x10xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x6x6x10xf32> to tensor<1x8x8x10xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %e3 = tensor.empty() : tensor<1x6x6x10xf32>
  %f3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x8x10xf32>, tensor<3x3xf32>) outs(%f3 : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  func.return %y : tensor<1x6x6x10xf32>
}

// -----

// The bias broadcast into the conv's init is padded with zeros; the result is read by a conv
// over an argument filter and by an NCHW sum (a reduction): one slice each.
// CHECK-LABEL: func.func @bias_init_two_readers
// CHECK:         %[[BIAS:.*]] = arith.constant dense<[5.000000e-01, {{.*}}, 0.000000e+00]> : tensor<16xf32>
// CHECK:         linalg.broadcast ins(%[[BIAS]]{{ ?}}:{{ ?}}tensor<16xf32>) outs(%{{.*}}{{ ?}}:{{ ?}}tensor<1x4x4x16xf32>) dimensions = [0, 1, 2]
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x4x4x16xf32>
// CHECK-DAG:     %[[S1:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 4, 4, 9] [1, 1, 1, 1] : tensor<1x4x4x16xf32> to tensor<1x4x4x9xf32>
// CHECK-DAG:     %[[S2:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 4, 4, 9] [1, 1, 1, 1] : tensor<1x4x4x16xf32> to tensor<1x4x4x9xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[S1]], %{{.*}} : tensor<1x4x4x9xf32>, tensor<1x1x9x3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[S2]] : tensor<1x4x4x9xf32>)
func.func @bias_init_two_readers(%x: tensor<1x4x4x3xf32>, %w2: tensor<1x1x9x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<9xf32>) {
  %w = arith.constant dense<0.25> : tensor<1x1x3x9xf32>
  %b = arith.constant dense<[0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5]> : tensor<9xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x9xf32>
  %bb = linalg.broadcast ins(%b : tensor<9xf32>) outs(%e : tensor<1x4x4x9xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x9xf32>) outs(%bb : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  %e2 = tensor.empty() : tensor<1x4x4x3xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w2 : tensor<1x4x4x9xf32>, tensor<1x1x9x3xf32>) outs(%f2 : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %e3 = tensor.empty() : tensor<9xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<9xf32>) -> tensor<9xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>], iterator_types = ["reduction", "reduction", "reduction", "parallel"]} ins(%c : tensor<1x4x4x9xf32>) outs(%f3 : tensor<9xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  } -> tensor<9xf32>
  func.return %c2, %sum : tensor<1x4x4x3xf32>, tensor<9xf32>
}

// -----

// Not padded: the epilogue adds an argument along the channels (a residual add), which cannot
// compute padded channels, so it would leave the conv's dispatch.
// CHECK-LABEL: func.func @residual_epilogue
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x4x4x9xf32>)
// CHECK-NOT:     tensor.extract_slice
func.func @residual_epilogue(%x: tensor<1x4x4x3xf32>, %skip: tensor<1x4x4x9xf32>) -> tensor<9xf32> {
  %w = arith.constant dense<0.25> : tensor<1x1x3x9xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x9xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x9xf32>) outs(%f : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  %e2 = tensor.empty() : tensor<1x4x4x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %skip : tensor<1x4x4x9xf32>, tensor<1x4x4x9xf32>) outs(%e2 : tensor<1x4x4x9xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x9xf32>
  %e3 = tensor.empty() : tensor<9xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<9xf32>) -> tensor<9xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>], iterator_types = ["reduction", "reduction", "reduction", "parallel"]} ins(%r : tensor<1x4x4x9xf32>) outs(%f3 : tensor<9xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  } -> tensor<9xf32>
  func.return %sum : tensor<9xf32>
}

// -----

// Not padded: a filter count that is a multiple of 16, a filter argument, and a result the
// function returns (the slice would be a copy).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.extract_slice
// CHECK-COUNT-3: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     tensor.extract_slice
func.func @left_alone(%x: tensor<1x4x4x3xf32>, %w2: tensor<1x1x16x9xf32>) -> (tensor<1x4x4x9xf32>, tensor<1x4x4x9xf32>) {
  %w = arith.constant dense<0.25> : tensor<1x1x3x16xf32>
  %w3 = arith.constant dense<0.5> : tensor<1x1x3x9xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x16xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %e2 = tensor.empty() : tensor<1x4x4x9xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w2 : tensor<1x4x4x16xf32>, tensor<1x1x16x9xf32>) outs(%f2 : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  %c3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w3 : tensor<1x4x4x3xf32>, tensor<1x1x3x9xf32>) outs(%f2 : tensor<1x4x4x9xf32>) -> tensor<1x4x4x9xf32>
  func.return %c2, %c3 : tensor<1x4x4x9xf32>, tensor<1x4x4x9xf32>
}

// -----

// A 1x1 conv over 32 or more input channels whose 400 filters no panel (64, 32) divides computes
// 416 (the next multiple of 32: 448 would add over 1/16), so `linalg-pack-conv-filters` packs it
// in 13 panels of 32. Its residual add cannot compute padded channels, so the slice stays in front
// of it, a 6.4 KB copy at most (max-slice-bytes). With panel-min-channels=0 (only whole vectors)
// or max-slice-bytes=1024 it stays at 400. Regions: the packed conv writes 416 channels; the add
// reads them through the slice.
// CHECK-LABEL: func.func @panel_residual
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<1x1x32x416xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x2x32xf32>, tensor<1x1x32x416xf32>) outs(%{{.*}} : tensor<1x2x2x416xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 2, 2, 400] [1, 1, 1, 1] : tensor<1x2x2x416xf32> to tensor<1x2x2x400xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<1x2x2x400xf32>, tensor<1x2x2x400xf32>)
// GROWTH-LABEL: func.func @panel_residual
// GROWTH:         tensor<1x2x2x416xf32>
// NOPANEL-LABEL: func.func @panel_residual
// NOPANEL-NOT:     tensor.extract_slice
// NOPANEL:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x400xf32>)
// SLICE-LABEL: func.func @panel_residual
// SLICE-NOT:     tensor.extract_slice
// SLICE:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x400xf32>)
// REGIONS-LABEL: func.func @panel_residual
// REGIONS:         flow.dispatch.region -> (tensor<1x2x2x13x32xf32>)
// REGIONS:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x32xf32>, tensor<13x32x32xf32>)
// REGIONS:         flow.dispatch.region -> (tensor<1x2x2x400xf32>)
// REGIONS:           tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 2, 400] [1, 1, 1, 1] : tensor<1x2x2x416xf32> to tensor<1x2x2x400xf32>
func.func @panel_residual(%x: tensor<1x2x2x32xf32>, %skip: tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32> {
  %w = arith.constant dense<0.0625> : tensor<1x1x32x400xf32>
  %b = arith.constant dense<[-2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625]> : tensor<400xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x400xf32>
  %bb = linalg.broadcast ins(%b : tensor<400xf32>) outs(%e : tensor<1x2x2x400xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x32xf32>, tensor<1x1x32x400xf32>) outs(%bb : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %e2 = tensor.empty() : tensor<1x2x2x400xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %skip : tensor<1x2x2x400xf32>, tensor<1x2x2x400xf32>) outs(%e2 : tensor<1x2x2x400xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x400xf32>
  func.return %r : tensor<1x2x2x400xf32>
}

// -----

// Two panel-padded 1x1 convs added (RegNetX's block and its shortcut, or the previous block's
// output): both slices are read alike, so the add + ReLU computes 416 channels from the two
// padded results and the slice moves below it (`channel_slices.MergeSlicedOperands`) to the
// channel sum, which reads it in its region; the add joins a conv's region as its epilogue.
// panel_residual above is the negative: its other operand is not a slice.
// CHECK-LABEL: func.func @panel_residual_of_two_convs
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x416xf32>)
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x416xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[C1]], %[[C2]] : tensor<1x2x2x416xf32>, tensor<1x2x2x416xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[G]][0, 0, 0, 0] [1, 2, 2, 400] [1, 1, 1, 1] : tensor<1x2x2x416xf32> to tensor<1x2x2x400xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<1x2x2x400xf32>)
// NOPANEL-LABEL: func.func @panel_residual_of_two_convs
// NOPANEL:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x400xf32>)
// NOPANEL:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x400xf32>)
func.func @panel_residual_of_two_convs(%x: tensor<1x2x2x32xf32>) -> tensor<400xf32> {
  %w1 = arith.constant dense<0.0625> : tensor<1x1x32x400xf32>
  %w2 = arith.constant dense<-0.03125> : tensor<1x1x32x400xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x400xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x2x32xf32>, tensor<1x1x32x400xf32>) outs(%f : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w2 : tensor<1x2x2x32xf32>, tensor<1x1x32x400xf32>) outs(%f : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %e2 = tensor.empty() : tensor<1x2x2x400xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %c2 : tensor<1x2x2x400xf32>, tensor<1x2x2x400xf32>) outs(%e2 : tensor<1x2x2x400xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x400xf32>
  %es = tensor.empty() : tensor<400xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<400xf32>) -> tensor<400xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>], iterator_types = ["reduction", "reduction", "reduction", "parallel"]} ins(%r : tensor<1x2x2x400xf32>) outs(%fs : tensor<400xf32>) {
  ^bb0(%i: f32, %o: f32):
    %a = arith.addf %i, %o : f32
    linalg.yield %a : f32
  } -> tensor<400xf32>
  func.return %sum : tensor<400xf32>
}

// -----

// Not padded to panels: 16 input channels (fewer than panel-min-channels, 32: such convs are not
// packed) and 200 filters (a multiple of 16 already); and a 3x3 conv's 144 filters (packing
// takes 1x1 filters only).
// CHECK-LABEL: func.func @panel_left_alone
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x200xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x144xf32>)
// CHECK-NOT:     tensor.extract_slice
func.func @panel_left_alone(%x: tensor<1x2x2x16xf32>, %y: tensor<1x4x4x32xf32>) -> (tensor<1x2x2x200xf32>, tensor<1x2x2x144xf32>) {
  %w = arith.constant dense<0.25> : tensor<1x1x16x200xf32>
  %w3 = arith.constant dense<0.5> : tensor<3x3x32x144xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x200xf32>) -> tensor<1x2x2x200xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x16xf32>, tensor<1x1x16x200xf32>) outs(%f : tensor<1x2x2x200xf32>) -> tensor<1x2x2x200xf32>
  %e2 = tensor.empty() : tensor<1x2x2x144xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x2x2x144xf32>) -> tensor<1x2x2x144xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w3 : tensor<1x4x4x32xf32>, tensor<3x3x32x144xf32>) outs(%f2 : tensor<1x2x2x144xf32>) -> tensor<1x2x2x144xf32>
  func.return %c, %c2 : tensor<1x2x2x200xf32>, tensor<1x2x2x144xf32>
}

// -----

// Not padded to panels: the bias + ReLU epilogue reads the conv's result as its init (in place),
// so it cannot move below the slice, and would leave the conv's dispatch.
// CHECK-LABEL: func.func @panel_in_place_epilogue
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x400xf32>)
// CHECK-NOT:     tensor.extract_slice
func.func @panel_in_place_epilogue(%x: tensor<1x2x2x32xf32>) -> tensor<1x2x2x400xf32> {
  %w = arith.constant dense<0.0625> : tensor<1x1x32x400xf32>
  %b = arith.constant dense<[-2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, -2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625]> : tensor<400xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x400xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x32xf32>, tensor<1x1x32x400xf32>) outs(%f : tensor<1x2x2x400xf32>) -> tensor<1x2x2x400xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x2x2x400xf32>, tensor<400xf32>) outs(%c : tensor<1x2x2x400xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x400xf32>
  func.return %r : tensor<1x2x2x400xf32>
}

// -----

// A depthwise conv reading the padded conv's slice (MnasNet's 120 channels, here 10) computes the
// 16 channels too: its filter, a transposing copy of a CHW constant as the channels-last rewrite
// writes it, is computed padded with zeros; its fill init is refilled. The slice moves below it
// and stops at the 1x1 conv that reads it (4 filters: padding would quadruple them).
// CHECK-LABEL: func.func @depthwise_reader
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[C]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK-NOT:     tensor<3x3x10xf32>
// CHECK:         %[[WD:.*]] = arith.constant dense<{{.*}}> : tensor<3x3x16xf32>
// CHECK:         %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]], %[[WD]] : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][0, 0, 0, 0] [1, 6, 6, 10] [1, 1, 1, 1] : tensor<1x6x6x16xf32> to tensor<1x6x6x10xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[S]], %{{.*}} : tensor<1x6x6x10xf32>, tensor<1x1x10x4xf32>)
func.func @depthwise_reader(%x: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %w = arith.constant dense<[[[[-0.80, -1.32, -0.25, 0.42, 1.14, 0.11, -0.55, -0.78, 0.75, 1.63],   [0.27, -1.23, -0.96, 1.60, 0.20, -1.73, -0.08, -1.16, -0.63, -0.49],   [-0.71, 0.55, -0.06, -0.59, 0.41, 0.83, -1.64, -0.26, -0.98, -0.17],   [-1.29, 0.02, -0.04, -0.30, -1.05, -0.40, -1.09, -1.36, 0.22, -1.11]]]]> : tensor<1x1x4x10xf32>
  %wc = arith.constant dense<[[[[1.17, 0.72, -2.00],   [0.27, -1.10, 0.03],   [0.04, -1.99, -0.23]]], [[[-0.26, 0.96, -1.18],   [0.74, -1.10, -0.33],   [-0.84, 1.45, 0.57]]], [[[2.43, 0.64, 0.84],   [0.84, -0.61, -0.07],   [1.35, -0.40, 0.19]]], [[[-0.02, 0.61, -0.36],   [-0.15, 0.24, 0.10],   [-0.86, 0.90, -1.30]]], [[[-1.20, -1.28, 0.97],   [-0.36, -0.97, -1.14],   [0.42, -1.05, -1.27]]], [[[0.61, -1.20, -0.32],   [-0.01, -0.45, -0.05],   [1.34, -0.52, -1.26]]], [[[-1.84, -0.20, -0.35],   [0.27, -0.46, -0.48],   [-0.72, -0.52, 0.16]]], [[[-0.38, 0.10, 1.90],   [0.48, -1.58, 1.73],   [0.35, -0.94, 0.91]]], [[[0.02, -0.62, -0.63],   [-0.99, 0.05, 1.07],   [-0.33, 0.42, 1.88]]], [[[-1.21, 0.26, -0.31],   [-1.06, -1.03, -0.02],   [0.43, -0.53, 0.05]]]]> : tensor<10x1x3x3xf32>
  %w2 = arith.constant dense<[[[[0.72, 0.30, 0.87, 0.46],   [0.49, 1.83, 0.62, 0.13],   [0.71, -0.92, -0.34, 0.79],   [0.63, 1.55, 0.01, -1.46],   [1.95, 1.09, -1.06, 1.38],   [0.03, -1.81, -0.42, -0.51],   [1.59, -0.79, -0.25, -0.28],   [-0.38, -0.91, 0.22, 1.08],   [0.62, -0.93, -1.15, 0.12],   [-0.71, -0.63, -1.68, 1.95]]]]> : tensor<1x1x10x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x10xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x4xf32>, tensor<1x1x4x10xf32>) outs(%f : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x6x6x10xf32> to tensor<1x8x8x10xf32>
  %we = tensor.empty() : tensor<3x3x10xf32>
  %wd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, 0, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wc : tensor<10x1x3x3xf32>) outs(%we : tensor<3x3x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3x10xf32>
  %ed = tensor.empty() : tensor<1x6x6x10xf32>
  %fd = linalg.fill ins(%z : f32) outs(%ed : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %wd : tensor<1x8x8x10xf32>, tensor<3x3x10xf32>) outs(%fd : tensor<1x6x6x10xf32>) -> tensor<1x6x6x10xf32>
  %e2 = tensor.empty() : tensor<1x6x6x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w2 : tensor<1x6x6x10xf32>, tensor<1x1x10x4xf32>) outs(%f2 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %y : tensor<1x6x6x4xf32>
}

// -----

// A 1x1 conv with 12 filters (16 computed) padded for a grouped 3x3 conv over 3 groups of 4
// channels, written as IREE's im2col op over the H x W x G x C image (`linalg-conv-channels-last`):
// the slice moves below the group split (16 -> 4 groups of 4, the slice keeps 3) and the collapse,
// and the im2col op reads the 4 padded groups and still computes 3 (padded_group_readers.py).
// Regions (`padded-results=0`): the conv, its pad (a copy IREE forms, no splat fill), and the
// grouped conv; no slice copy.
// CHECK-LABEL: func.func @grouped_im2col_reader
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x6x6x16xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[C]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[G5:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 4, 4] : tensor<1x8x8x16xf32> into tensor<1x8x8x4x4xf32>
// CHECK:         %[[G4:.*]] = tensor.collapse_shape %[[G5]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x8x8x4x4xf32> into tensor<8x8x4x4xf32>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         iree_linalg_ext.im2col {{.*}} output_sizes = {{\[\[}}3], [6, 6], [3, 3, 4]] {{.*}} ins(%[[G4]] : tensor<8x8x4x4xf32>) outs(%{{.*}} : tensor<3x36x36xf32>)
// REGIONS-LABEL: func.func @grouped_im2col_reader
// REGIONS:         flow.dispatch.region -> (tensor<1x6x6x16xf32>)
// REGIONS:           linalg.conv_2d_nhwc_hwcf
// REGIONS:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// REGIONS:         flow.dispatch.region -> (tensor<36x3x4xf32>)
// REGIONS-NOT:       tensor.extract_slice
// REGIONS:           iree_linalg_ext.im2col
// REGIONS:         func.return
func.func @grouped_im2col_reader(%x: tensor<1x6x6x4xf32>) -> tensor<36x3x4xf32> {
  %w = arith.constant dense<[[[[ 0.  ,  0.3 , -0.27, -0.89, -0.45, -0.99,  0.06,  1.34, -0.49, -0.62,  0.49,  0.36],   [ 0.11, -0.93, -0.03,  0.7 , -1.34, -0.46, -1.9 , -1.29, -1.84, -0.24, -1.27,  0.27],   [ 0.16, -0.19, -2.52, -0.54, -0.05,  0.11, -1.53, -0.48, -0.98, -0.81,  1.06, -0.81],   [-0.03,  0.88, -0.58, -0.11,  0.11,  0.06, -1.23,  0.08,  1.36, -1.55,  0.86,  0.12]]]]> : tensor<1x1x4x12xf32>
  %wg = arith.constant dense<[[[-0.64,  2.  ,  0.76, -1.2 ],  [ 0.07,  0.58, -0.19,  0.68],  [-0.07,  0.67,  1.44, -0.68],  [ 0.2 , -0.46,  0.13, -1.19],  [-0.58, -0.2 ,  0.9 ,  1.15],  [-1.32, -0.79,  0.65, -1.99],  [-0.46, -0.1 ,  1.26,  0.69],  [-0.33, -0.37, -0.25,  1.52],  [-0.43, -0.3 ,  0.35, -0.12],  [-0.2 , -1.11, -0.01, -0.44],  [ 1.17,  0.65, -0.02,  0.67],  [-0.34,  1.05, -0.01,  0.58],  [-1.29,  0.35, -1.69, -2.04],  [-0.3 , -0.9 ,  0.16,  2.24],  [-0.83, -0.62,  0.21,  0.49],  [-0.18, -0.21,  0.7 ,  0.52],  [-1.03, -0.08,  0.04, -1.05],  [ 0.26, -0.86,  0.97,  0.19],  [ 0.09, -0.59, -0.12, -2.  ],  [-1.13,  0.36, -2.13,  0.85],  [-1.75,  0.76, -0.85,  0.78],  [ 0.13, -1.54,  1.25,  1.44],  [-0.07, -0.27, -0.16, -0.98],  [ 1.1 , -0.54, -0.05, -0.79],  [-0.63, -1.28,  1.26, -0.15],  [ 0.97,  0.01, -0.69, -0.33],  [-0.56,  0.01, -0.38, -0.3 ],  [-1.38, -0.81,  1.65, -0.67],  [-1.05,  0.34,  1.41, -1.45],  [-0.21, -0.63, -1.76,  0.73],  [-0.02,  0.07, -0.75,  0.45],  [-0.54, -0.14, -1.11, -1.22],  [ 1.34, -0.51,  0.29, -0.03],  [-0.44, -0.51,  0.63, -0.3 ],  [-0.15,  0.02,  1.18,  0.68],  [ 0.38, -0.56, -1.38,  0.95]], [[ 0.97, -0.14,  0.54,  0.78],  [ 0.83,  0.92, -0.46,  1.51],  [-1.25,  0.86,  0.49,  0.87],  [ 1.88,  1.48, -1.15, -1.69],  [ 0.82, -1.02, -0.01,  0.84],  [-1.64, -2.11,  0.26,  0.04],  [-0.25,  0.04, -0.86, -1.51],  [-0.17, -0.97, -1.64,  0.51],  [-0.06,  0.41, -0.99, -0.66],  [-1.  , -0.89,  0.2 , -0.78],  [ 0.36,  0.34,  2.03, -1.39],  [ 0.89, -0.09, -0.01, -1.45],  [-0.46,  0.74, -0.08,  0.08],  [-0.29,  1.15, -0.02, -2.2 ],  [-0.69, -1.97, -3.25, -0.53],  [ 1.33,  0.05, -1.17, -0.94],  [ 1.13,  0.16,  0.05, -0.05],  [ 0.04,  0.81,  0.55,  0.22],  [-1.04,  0.51, -0.68,  1.09],  [-1.27, -0.14, -0.01, -1.32],  [ 1.72,  1.46, -0.46,  0.77],  [ 0.38, -2.61,  0.25, -0.06],  [ 0.08, -1.08, -0.27, -0.18],  [ 1.19,  0.33, -0.01,  1.53],  [-0.56, -0.39, -1.82,  1.57],  [ 0.96,  0.92,  0.67,  0.11],  [ 0.22, -0.25, -0.2 ,  0.05],  [ 1.51,  0.56, -0.06, -0.58],  [-0.63,  1.6 ,  0.51,  0.07],  [-0.35, -1.11, -0.07,  0.87],  [-0.39, -0.23, -0.22,  0.11],  [-1.59, -0.24, -0.85,  0.88],  [-0.77,  0.58,  1.52, -0.31],  [-0.6 ,  0.19, -0.  , -0.99],  [ 0.46,  2.02, -0.26, -0.2 ],  [-1.04,  0.32, -1.25, -1.11]], [[ 1.28, -0.91,  1.08,  1.52],  [ 0.26,  0.55,  1.95, -0.2 ],  [-0.59, -1.35,  0.04,  1.48],  [ 0.96, -0.94, -0.86, -0.5 ],  [ 0.29, -0.21,  0.21,  0.3 ],  [-0.3 , -0.04,  0.21, -0.08],  [ 0.5 ,  1.87,  0.59,  0.06],  [-1.69,  0.39, -1.95, -1.41],  [ 0.85,  0.71, -0.15, -1.71],  [-0.37, -0.68,  0.64,  2.26],  [ 0.22, -0.78, -1.17, -0.06],  [-0.18, -1.15,  0.12, -1.15],  [ 1.11,  1.06,  1.08, -0.47],  [ 0.51, -0.13, -0.39, -0.34],  [-1.3 , -1.44,  0.79, -0.19],  [ 0.22,  1.  , -1.73, -0.78],  [ 0.18,  0.39, -0.38,  1.03],  [ 0.21, -1.21, -0.93,  0.81],  [ 0.46, -1.9 ,  1.35,  0.6 ],  [ 1.34, -0.38, -0.3 , -1.13],  [ 2.54, -0.18,  1.59, -0.65],  [ 0.16, -1.67, -0.38,  0.98],  [-1.25,  1.07,  0.34, -1.04],  [-0.5 , -0.46, -0.05, -0.54],  [-0.83, -0.3 , -1.03, -1.29],  [-0.05,  0.88, -1.53,  0.  ],  [-0.65, -0.98,  0.85, -0.52],  [ 1.5 , -0.78,  0.39, -0.23],  [-0.75,  0.59, -0.15,  0.6 ],  [-0.05, -1.09, -0.1 ,  0.05],  [ 0.96, -0.91, -0.04, -1.72],  [ 0.65, -1.08, -1.81, -0.06],  [ 1.11, -1.52, -1.09, -0.74],  [-1.13,  0.38, -0.81, -0.72],  [ 0.58, -0.76,  0.43, -0.97],  [-1.21, -1.84,  1.86, -0.32]]]> : tensor<3x36x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x4xf32>, tensor<1x1x4x12xf32>) outs(%f : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x6x6x12xf32> to tensor<1x8x8x12xf32>
  %g5 = tensor.expand_shape %p [[0], [1], [2], [3, 4]] output_shape [1, 8, 8, 3, 4] : tensor<1x8x8x12xf32> into tensor<1x8x8x3x4xf32>
  %g4 = tensor.collapse_shape %g5 [[0, 1], [2], [3], [4]] : tensor<1x8x8x3x4xf32> into tensor<8x8x3x4xf32>
  %pe = tensor.empty() : tensor<3x36x36xf32>
  %pt = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[3], [6, 6], [3, 3, 4]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%g4 : tensor<8x8x3x4xf32>) outs(%pe : tensor<3x36x36xf32>) -> tensor<3x36x36xf32>
  %me = tensor.empty() : tensor<36x3x4xf32>
  %mf = linalg.fill ins(%z : f32) outs(%me : tensor<36x3x4xf32>) -> tensor<36x3x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pt, %wg : tensor<3x36x36xf32>, tensor<3x36x4xf32>) outs(%mf : tensor<36x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<36x3x4xf32>
  func.return %m : tensor<36x3x4xf32>
}

// -----

// The same conv read as 2 groups of 6 channels: the 16 padded channels are no whole number of
// groups, so the slice cannot reach the im2col op and the conv keeps its 12 filters.
// CHECK-LABEL: func.func @grouped_im2col_uneven_groups
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x6x6x12xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         iree_linalg_ext.im2col {{.*}} ins(%{{.*}} : tensor<8x8x2x6xf32>)
func.func @grouped_im2col_uneven_groups(%x: tensor<1x6x6x4xf32>) -> tensor<36x2x6xf32> {
  %w = arith.constant dense<[[[[ 0.24, -0.03,  0.16,  0.05,  1.91, -1.04, -1.56, -1.01, -1.33,  0.75,  0.82, -0.96],   [-1.39, -0.35,  1.39, -2.82,  0.53, -1.08,  1.04, -1.08, -0.29, -1.51, -0.98,  1.39],   [ 0.82, -0.4 , -0.87, -1.89, -0.39, -0.03, -0.08, -0.09, -1.12, -0.07, -0.04,  1.29],   [ 1.87, -0.14, -0.77, -0.06, -0.61, -0.74, -0.06, -1.04,  0.61, -0.1 ,  0.25, -0.18]]]]> : tensor<1x1x4x12xf32>
  %wg = arith.constant dense<[[[-0.73, -0.95, -0.24, -0.55,  0.23, -0.  ],  [-1.36,  0.07, -1.34, -0.62, -0.29, -2.08],  [ 0.09,  0.15, -0.16, -0.42, -0.37, -0.98],  [-0.27, -0.55,  0.09, -1.2 ,  0.24,  0.14],  [-0.14, -0.44,  0.55, -1.66,  0.46,  0.24],  [ 0.28,  0.38, -0.65, -0.26,  0.64,  0.43],  [ 0.21, -1.51,  0.54,  1.17,  1.01,  0.23],  [-1.56,  0.94, -0.15, -2.53,  0.38, -1.49],  [-1.3 , -0.63,  1.27, -0.37,  0.27,  1.75],  [ 1.59, -0.1 , -0.24, -1.26, -0.69,  0.43],  [ 0.4 ,  0.11,  0.99, -0.77, -0.06,  0.73],  [ 0.58,  1.07,  0.4 , -0.31,  0.36, -1.  ],  [-1.64,  0.58, -0.06,  0.31, -1.7 , -0.37],  [-0.6 , -0.86, -2.26, -0.33,  0.9 ,  0.38],  [-0.6 , -0.01,  0.76, -2.76, -0.12,  0.54],  [ 0.68,  1.7 ,  1.14,  0.31,  0.3 ,  0.79],  [-0.54, -0.04,  0.91,  1.96, -0.16, -0.05],  [ 0.2 ,  1.34, -0.03,  1.47, -0.97, -0.19],  [-0.2 ,  0.79,  1.05, -1.51, -0.92,  0.34],  [-0.66, -1.52,  1.04,  0.49,  0.49, -0.48],  [ 1.03, -0.24,  1.1 , -0.91, -0.85,  0.2 ],  [-0.7 ,  0.68,  0.26, -0.92,  0.07, -0.35],  [ 0.92, -0.63, -0.44,  1.21,  2.24,  2.  ],  [ 0.06,  0.22,  1.53, -0.12, -0.98,  0.12],  [ 0.45, -0.83, -1.65, -1.44,  0.67, -0.76],  [-0.14,  0.21,  0.62, -0.33,  0.5 , -0.89],  [-0.36, -1.02,  1.13, -0.03, -0.74, -0.35],  [-0.22,  0.7 , -1.6 , -1.04, -0.38,  2.53],  [ 0.96, -0.11,  0.71,  2.06, -0.23, -0.37],  [ 1.21,  0.49,  0.67, -0.51,  1.92,  1.71],  [ 0.57,  0.68, -2.03,  0.64, -0.19,  0.43],  [ 0.68, -0.34, -1.69,  0.37, -0.74, -0.33],  [-0.6 , -0.34, -2.31,  1.22,  0.25,  1.11],  [ 1.98,  0.02, -1.8 , -0.89, -1.21, -0.5 ],  [ 0.08, -2.  ,  0.34, -1.51,  0.3 , -0.11],  [-0.31, -0.07, -0.54, -0.61, -1.68, -0.03],  [ 1.85,  1.98,  1.32,  0.71, -0.68,  1.44],  [-0.06, -0.07, -0.29,  0.09, -0.44, -0.08],  [-1.08, -0.37,  2.28, -0.07, -0.24,  0.53],  [ 0.71, -1.11, -0.21,  0.92,  0.27,  0.12],  [ 1.55, -0.68,  0.08, -0.52,  1.49, -1.95],  [-0.67, -0.53,  0.66,  0.61,  1.4 , -1.57],  [ 0.75, -0.29, -0.67,  0.54, -0.92, -2.08],  [-0.37, -1.5 , -0.65,  0.37,  0.31,  1.59],  [-0.2 , -1.53, -0.76, -0.92, -1.22,  0.44],  [-0.65, -1.98,  0.7 , -0.11,  0.36,  0.11],  [ 0.63,  0.04,  1.24,  0.42,  0.39,  0.41],  [-1.46, -0.16, -0.26,  0.21, -1.36,  1.63],  [ 0.1 , -1.21, -1.71, -0.28, -0.09, -0.72],  [ 0.09, -0.64,  0.55, -0.72, -0.04,  0.98],  [ 2.57, -1.01, -0.46, -0.84,  0.78, -1.15],  [-0.48, -0.03, -0.98, -0.96, -0.48, -2.1 ],  [-1.45, -0.41,  0.15, -0.19, -1.77, -0.46],  [ 0.8 ,  0.56, -0.08, -0.89,  0.63, -0.58]], [[-1.17, -0.8 ,  1.45,  0.22,  1.16, -0.48],  [ 0.94, -0.6 , -0.16,  2.49,  0.77, -0.5 ],  [-0.08,  0.33,  1.21, -0.49, -1.74, -0.28],  [ 0.02,  0.11,  1.32,  0.32,  0.81, -1.1 ],  [ 0.87,  2.1 ,  0.77,  0.25,  0.15,  1.79],  [-0.93, -0.11,  0.46,  0.74, -0.44,  0.31],  [-0.28,  0.12, -0.13, -1.14, -0.02,  0.88],  [-0.97, -0.24,  0.66, -1.07,  0.18, -1.06],  [ 1.13,  2.31,  2.02, -0.22,  0.74,  0.12],  [ 0.1 ,  1.55, -1.32,  1.06, -0.05,  1.41],  [ 0.19, -0.67,  0.28,  0.74,  0.04,  0.49],  [-0.52, -2.13,  0.9 ,  0.7 ,  0.15,  0.07],  [ 1.04, -0.46, -0.71, -0.19,  1.19, -1.39],  [ 1.19, -0.64, -1.1 ,  1.26, -0.1 , -1.3 ],  [-0.36,  0.93,  1.19, -0.43,  0.41,  0.71],  [-0.64,  0.36, -0.03, -0.54, -0.49,  0.07],  [ 0.03, -0.57, -0.43,  1.11,  0.21,  0.89],  [ 1.2 ,  0.59,  2.27, -0.83,  0.81, -0.32],  [ 1.86,  1.7 , -1.95, -0.97,  0.66,  0.79],  [ 0.74, -0.07,  0.46,  0.65, -0.08,  1.03],  [-2.26,  0.63, -1.03,  0.96, -0.23, -0.89],  [ 0.37, -0.91, -0.91, -1.57, -0.03,  0.5 ],  [ 1.02, -0.14,  1.05,  0.02, -0.09,  0.57],  [ 1.06, -0.34, -0.24, -0.16,  0.08, -0.9 ],  [ 1.03, -0.4 ,  0.46, -0.83,  0.36,  0.39],  [-0.42,  2.02,  0.37,  1.78,  0.96, -0.66],  [-0.38,  0.44,  0.06,  0.05, -0.29, -1.81],  [-0.23, -2.22,  0.37, -0.73, -0.72, -0.22],  [ 0.27, -1.43, -1.75, -1.07, -2.04, -0.97],  [ 1.59, -1.06,  0.65, -1.37,  0.3 , -0.32],  [-0.06,  0.57,  1.76,  0.19,  0.12, -0.97],  [ 0.58, -0.25,  0.83, -0.04,  1.74, -1.98],  [-0.3 ,  0.88, -0.35, -0.79, -0.27, -1.38],  [ 0.12,  2.44,  1.15, -1.11, -0.87, -0.4 ],  [ 1.  , -0.82, -0.69,  0.88,  0.86, -0.37],  [-1.12, -1.55, -0.7 , -2.23,  0.75, -0.63],  [ 0.48,  1.87,  1.17, -1.15,  0.87,  1.16],  [-0.75, -0.95, -0.11, -1.6 ,  1.47, -2.41],  [-1.11, -0.27, -0.23,  0.17,  0.27, -0.21],  [ 1.14, -2.14, -0.  , -0.71,  0.13,  0.22],  [-0.91, -0.64,  0.79,  0.35, -0.68,  2.04],  [ 2.31, -1.46,  0.3 ,  2.51,  0.78,  0.22],  [-0.21, -0.54, -0.21, -0.55,  0.74, -0.4 ],  [-0.44, -1.2 , -0.05, -0.89, -0.18,  1.04],  [ 0.37,  0.5 ,  0.36,  0.06, -0.13, -0.31],  [ 0.76, -1.08,  1.34,  0.03, -0.75, -0.49],  [-0.68,  0.16, -0.72,  1.14, -0.78, -2.27],  [-0.73, -2.01, -0.04,  1.06,  0.65, -1.34],  [-0.76,  1.78,  0.32,  0.  ,  1.06,  2.45],  [ 1.3 ,  0.14,  0.35,  0.62, -0.61, -1.06],  [ 0.05, -0.95, -0.06,  0.1 ,  2.34, -0.85],  [-0.12, -0.16,  0.44,  1.05, -0.49, -0.82],  [-1.64, -0.93,  0.54,  0.05, -1.02, -0.37],  [ 0.03,  0.5 , -0.59, -0.25, -1.82, -1.15]]]> : tensor<2x54x6xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x4xf32>, tensor<1x1x4x12xf32>) outs(%f : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x6x6x12xf32> to tensor<1x8x8x12xf32>
  %g5 = tensor.expand_shape %p [[0], [1], [2], [3, 4]] output_shape [1, 8, 8, 2, 6] : tensor<1x8x8x12xf32> into tensor<1x8x8x2x6xf32>
  %g4 = tensor.collapse_shape %g5 [[0, 1], [2], [3], [4]] : tensor<1x8x8x2x6xf32> into tensor<8x8x2x6xf32>
  %pe = tensor.empty() : tensor<2x36x54xf32>
  %pt = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [6, 6], [3, 3, 6]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%g4 : tensor<8x8x2x6xf32>) outs(%pe : tensor<2x36x54xf32>) -> tensor<2x36x54xf32>
  %me = tensor.empty() : tensor<36x2x6xf32>
  %mf = linalg.fill ins(%z : f32) outs(%me : tensor<36x2x6xf32>) -> tensor<36x2x6xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pt, %wg : tensor<2x36x54xf32>, tensor<2x54x6xf32>) outs(%mf : tensor<36x2x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<36x2x6xf32>
  func.return %m : tensor<36x2x6xf32>
}

// -----

// 1008 filters (a panel-padded 1x1 conv) whose result a group split of 21 x 48 reads (a grouped
// conv's tap slices read it): whole panels would be 1024, which 48 does not divide, so the slice
// would stop above the split. 1056 (33 panels of 32, within 1/8) is 22 groups: the slice moves
// below the split onto whole groups, which the reduction's region reads.
// STATS:         (conv filters padded past whole panels to whole groups) : 1
// CHECK-LABEL: func.func @group_width_no_panel_divides
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x1056xf32>)
// CHECK:         %[[G:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 4, 4, 22, 48] : tensor<1x4x4x1056xf32> into tensor<1x4x4x22x48xf32>
// CHECK:         tensor.extract_slice %[[G]][0, 0, 0, 0, 0] [1, 4, 4, 21, 48] [1, 1, 1, 1, 1] : tensor<1x4x4x22x48xf32> to tensor<1x4x4x21x48xf32>
func.func @group_width_no_panel_divides(%x: tensor<1x2x2x32xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<0.01> : tensor<1x1x32x1008xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x1008xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x1008xf32>) -> tensor<1x2x2x1008xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x32xf32>, tensor<1x1x32x1008xf32>) outs(%f : tensor<1x2x2x1008xf32>) -> tensor<1x2x2x1008xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x2x1008xf32> to tensor<1x4x4x1008xf32>
  %g = tensor.expand_shape %p [[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 21, 48] : tensor<1x4x4x1008xf32> into tensor<1x4x4x21x48xf32>
  %s = tensor.extract_slice %g[0, 1, 1, 0, 0] [1, 2, 2, 21, 48] [1, 1, 1, 1, 1] : tensor<1x4x4x21x48xf32> to tensor<2x2x21x48xf32>
  %er = tensor.empty() : tensor<2x2xf32>
  %fr = linalg.fill ins(%z : f32) outs(%er : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<2x2x21x48xf32>) outs(%fr : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

// Not widened: groups of 16 divide whole panels (1024 = 64 groups), and the slice moves below the
// split as it is.
// STATS:       linalg-pad-conv-filters
// STATS-NEXT:    (conv filters padded to a multiple of the vector width) : 1
// CHECK-LABEL: func.func @group_width_panels_divide
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x2x2x1024xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 4, 4, 63, 16] [1, 1, 1, 1, 1] : tensor<1x4x4x64x16xf32> to tensor<1x4x4x63x16xf32>
func.func @group_width_panels_divide(%x: tensor<1x2x2x32xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<0.01> : tensor<1x1x32x1008xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x1008xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x1008xf32>) -> tensor<1x2x2x1008xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x32xf32>, tensor<1x1x32x1008xf32>) outs(%f : tensor<1x2x2x1008xf32>) -> tensor<1x2x2x1008xf32>
  %p = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x2x1008xf32> to tensor<1x4x4x1008xf32>
  %g = tensor.expand_shape %p [[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 63, 16] : tensor<1x4x4x1008xf32> into tensor<1x4x4x63x16xf32>
  %s = tensor.extract_slice %g[0, 1, 1, 0, 0] [1, 2, 2, 63, 16] [1, 1, 1, 1, 1] : tensor<1x4x4x63x16xf32> to tensor<2x2x63x16xf32>
  %er = tensor.empty() : tensor<2x2xf32>
  %fr = linalg.fill ins(%z : f32) outs(%er : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<2x2x63x16xf32>) outs(%fr : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

// A 3x3 conv over 32 channels (288 products an output, at least kxk-slice-min-taps) into 20
// filters computes 32 though its readers cannot absorb the slice: R(2+1)D's (1, 3, 3) convs,
// over depth slices stacked along H, are transposed back to NCDHW and cropped per slice. The
// slice moves below the transpose and stays above the crop, a copy; IREE's conv kernel ran
// such convs (230, 460, 921 filters) 4-5x slower than over the padded count.
// CHECK-LABEL: func.func @kxk_stacked_crop
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x8x4x32xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 20, 8, 4] [1, 1, 1, 1] : tensor<1x32x8x4xf32> to tensor<1x20x8x4xf32>
// NOKXK-LABEL: func.func @kxk_stacked_crop
// NOKXK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x8x4x20xf32>)
// NOKXK-NOT:     tensor<1x8x4x32xf32>
// REGIONS-LABEL: func.func @kxk_stacked_crop
// REGIONS:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x8x4x32xf32>)
func.func @kxk_stacked_crop(%x: tensor<1x10x6x32xf32>) -> tensor<1x20x2x3x4xf32> {
  %w = arith.constant dense<0.01> : tensor<3x3x32x20xf32>
  %b = arith.constant dense<-0.5> : tensor<20xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x4x20xf32>) -> tensor<1x8x4x20xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x10x6x32xf32>, tensor<3x3x32x20xf32>) outs(%f : tensor<1x8x4x20xf32>) -> tensor<1x8x4x20xf32>
  %et = tensor.empty() : tensor<1x20x8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x4x20xf32>) outs(%et : tensor<1x20x8x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<1x20x8x4xf32>
  %g = tensor.expand_shape %t [[0], [1], [2, 3], [4]] output_shape [1, 20, 2, 4, 4] : tensor<1x20x8x4xf32> into tensor<1x20x2x4x4xf32>
  %s = tensor.extract_slice %g[0, 0, 0, 0, 0] [1, 20, 2, 3, 4] [1, 1, 1, 1, 1] : tensor<1x20x2x4x4xf32> to tensor<1x20x2x3x4xf32>
  %er = tensor.empty() : tensor<1x20x2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %b : tensor<1x20x2x3x4xf32>, tensor<20xf32>) outs(%er : tensor<1x20x2x3x4xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %a = arith.addf %i, %j : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x20x2x3x4xf32>
  func.return %r : tensor<1x20x2x3x4xf32>
}

// -----

// Not padded: a 3x3 conv over 16 channels (144 products an output, under
// kxk-slice-min-taps) whose readers cannot absorb the slice keeps its 20 filters.
// CHECK-LABEL: func.func @kxk_few_taps
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x8x4x20xf32>)
// CHECK-NOT:     tensor<1x8x4x32xf32>
func.func @kxk_few_taps(%x: tensor<1x10x6x16xf32>, %skip: tensor<1x8x4x20xf32>) -> tensor<1x8x4x20xf32> {
  %w = arith.constant dense<0.01> : tensor<3x3x16x20xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x4x20xf32>) -> tensor<1x8x4x20xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x10x6x16xf32>, tensor<3x3x16x20xf32>) outs(%f : tensor<1x8x4x20xf32>) -> tensor<1x8x4x20xf32>
  %e2 = tensor.empty() : tensor<1x8x4x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %skip : tensor<1x8x4x20xf32>, tensor<1x8x4x20xf32>) outs(%e2 : tensor<1x8x4x20xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x8x4x20xf32>
  func.return %r : tensor<1x8x4x20xf32>
}
