// RUN: fusion-opt %s --split-input-file -p "linalg-pack-conv-filters{min-channels=1}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-pack-conv-filters{min-pixels=8 min-channels=1}" | filecheck %s --check-prefix=ROWS
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=REGIONS
// RUN: fusion-opt %s --split-input-file -p "linalg-pack-conv-filters{min-channels=1 reduction-step=16}" | filecheck %s --check-prefix=STEP16

// With min-channels=1, a 1x1 conv with 96 constant filters over 2 channels reads them as three
// panels of 32, [3, 2, 32] (panel 0: filters 0-31 of channel 0, then of channel 1); the bias
// broadcast into its init is [3, 32] too, the result [1, 4, 4, 3, 32] collapses back. Workgroups:
// the fewest whole rows with 28 pixels (all 4 rows of 4), or 8 with min-pixels=8 (2 rows);
// register tiles of 8 pixels x 32. Through the CPU pipeline (min-channels 32) it stays a conv:
// with 2 input channels the panel is a few cache lines either way.
// CHECK-LABEL: func.func @bias_relu
// CHECK:         %[[W:.*]] = arith.constant dense<"0x000000000000803F{{[0-9A-F]{240}0000C042[0-9A-F]*}}"> : tensor<3x2x32xf32>
// CHECK:         %[[B:.*]] = arith.constant dense<{{\[\[}}0.000000e+00, {{.*}}]]> : tensor<3x32xf32>
// CHECK:         %[[I:.*]] = linalg.broadcast ins(%[[B]]{{ ?}}:{{ ?}}tensor<3x32xf32>) outs(%{{.*}}{{ ?}}:{{ ?}}tensor<1x4x4x3x32xf32>) dimensions = [0, 1, 2]
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<1x4x4x2xf32>, tensor<3x2x32xf32>) outs(%[[I]] : tensor<1x4x4x3x32xf32>)
// CHECK-SAME:      distribution = [1, 4, 4, 1, 32, 0], vector_common_parallel = [1, 1, 8, 1, 32, 0], vector_reduction = [0, 0, 0, 0, 0, 4]
// CHECK-SAME:      enable_loop_peeling = true
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x4x4x3x32xf32> into tensor<1x4x4x96xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<1x4x4x96xf32>)
// ROWS-LABEL:  func.func @bias_relu
// ROWS:          distribution = [1, 2, 4, 1, 32, 0]
// Reduction steps of 4 input channels by default (IREE's 16 spills accumulators), 16 on request.
// STEP16-LABEL: func.func @bias_relu
// STEP16:         vector_common_parallel = [1, 1, 8, 1, 32, 0], vector_reduction = [0, 0, 0, 0, 0, 16]
// REGIONS-LABEL: func.func @bias_relu
// REGIONS-NOT:     compilation_info
// REGIONS:         linalg.conv_2d_nhwc_hwcf
// REGIONS-NOT:     compilation_info
// REGIONS:         func.return
func.func @bias_relu(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x96xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0, 168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0, 176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0, 184.0, 185.0, 186.0, 187.0, 188.0, 189.0, 190.0, 191.0]]]]> : tensor<1x1x2x96xf32>
  %b = arith.constant dense<[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5, 16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5, 20.0, 20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5, 24.0, 24.5, 25.0, 25.5, 26.0, 26.5, 27.0, 27.5, 28.0, 28.5, 29.0, 29.5, 30.0, 30.5, 31.0, 31.5, 32.0, 32.5, 33.0, 33.5, 34.0, 34.5, 35.0, 35.5, 36.0, 36.5, 37.0, 37.5, 38.0, 38.5, 39.0, 39.5, 40.0, 40.5, 41.0, 41.5, 42.0, 42.5, 43.0, 43.5, 44.0, 44.5, 45.0, 45.5, 46.0, 46.5, 47.0, 47.5]> : tensor<96xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x96xf32>
  %bb = linalg.broadcast ins(%b : tensor<96xf32>) outs(%e : tensor<1x4x4x96xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<1x1x2x96xf32>) outs(%bb : tensor<1x4x4x96xf32>) -> tensor<1x4x4x96xf32>
  %e2 = tensor.empty() : tensor<1x4x4x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x4x96xf32>) outs(%e2 : tensor<1x4x4x96xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.maximumf %i, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x96xf32>
  func.return %r : tensor<1x4x4x96xf32>
}

// -----

// A stride-2 1x1 conv (a ResNet downsample) with 128 filters: two panels of 64, the input read at
// every other pixel; its epilogue transposes to NCHW, and through the CPU pipeline it still
// joins the region, reading the packed result in order and writing [1, 2, 64, 4, 4], which is
// [1, 128, 4, 4] row-major (a free reshape).
// CHECK-LABEL: func.func @strided_transposing_epilogue
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 * 2), (d2 * 2), d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x8x8x32xf32>, tensor<2x32x64xf32>) outs(%{{.*}} : tensor<1x4x4x2x64xf32>)
// REGIONS-LABEL: func.func @strided_transposing_epilogue
// REGIONS:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x2x64x4x4xf32>)
// REGIONS:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4x2x64xf32>) attrs = {{ *}}{compilation_info
// REGIONS:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4, d1, d2)>]
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
// REGIONS:         flow.tensor.reshape %[[R]] : tensor<1x2x64x4x4xf32> -> tensor<1x128x4x4xf32>
func.func @strided_transposing_epilogue(%x: tensor<1x8x8x32xf32>) -> tensor<1x128x4x4xf32> {
  %w = arith.constant dense<0.125> : tensor<1x1x32x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x8x8x32xf32>, tensor<1x1x32x128xf32>) outs(%f : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %e2 = tensor.empty() : tensor<1x128x4x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x4x128xf32>) outs(%e2 : tensor<1x128x4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.maximumf %i, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x128x4x4xf32>
  func.return %t : tensor<1x128x4x4xf32>
}

// -----

// A residual add of two packed convs (a ResNet block's last conv and its downsample): through the
// CPU pipeline the add reads both packed results as they are, in one conv's region, which
// returns only the sum.
// REGIONS-LABEL: func.func @two_packed_convs_added
// REGIONS:         %[[C:.*]] = flow.dispatch.region -> (tensor<1x4x4x2x64xf32>)
// REGIONS:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x4x4x2x64xf32>)
// REGIONS:           %[[D:.*]] = linalg.generic {{.*}} attrs = {{ *}}{compilation_info
// REGIONS:           linalg.generic {{.*}} ins(%[[C]], %[[D]] : tensor<1x4x4x2x64xf32>, tensor<1x4x4x2x64xf32>)
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
// REGIONS:         flow.tensor.reshape %[[R]] : tensor<1x4x4x2x64xf32> -> tensor<1x4x4x128xf32>
func.func @two_packed_convs_added(%x: tensor<1x4x4x32xf32>, %y: tensor<1x4x4x48xf32>) -> tensor<1x4x4x128xf32> {
  %w1 = arith.constant dense<0.25> : tensor<1x1x32x128xf32>
  %w2 = arith.constant dense<0.5> : tensor<1x1x48x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x4x32xf32>, tensor<1x1x32x128xf32>) outs(%f : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w2 : tensor<1x4x4x48xf32>, tensor<1x1x48x128xf32>) outs(%f : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %e2 = tensor.empty() : tensor<1x4x4x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %d : tensor<1x4x4x128xf32>, tensor<1x4x4x128xf32>) outs(%e2 : tensor<1x4x4x128xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x128xf32>
  func.return %r : tensor<1x4x4x128xf32>
}

// -----

// Left alone: a filter argument, a 3x3 filter, one panel's worth of filters (64: the filter is
// already laid out as its only panel), a filter count no panel divides (24), batch 2.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-5: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.generic
func.func @left_alone(%x: tensor<1x4x4x8xf32>, %wa: tensor<1x1x8x128xf32>, %x2: tensor<2x4x4x8xf32>) -> (tensor<1x4x4x128xf32>, tensor<1x2x2x128xf32>, tensor<1x4x4x64xf32>, tensor<1x4x4x24xf32>, tensor<2x4x4x128xf32>) {
  %w3 = arith.constant dense<0.25> : tensor<3x3x8x128xf32>
  %w64 = arith.constant dense<0.25> : tensor<1x1x8x64xf32>
  %w24 = arith.constant dense<0.25> : tensor<1x1x8x24xf32>
  %w = arith.constant dense<0.25> : tensor<1x1x8x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %a = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x4x4x8xf32>, tensor<1x1x8x128xf32>) outs(%f : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
  %e3 = tensor.empty() : tensor<1x2x2x128xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<1x2x2x128xf32>) -> tensor<1x2x2x128xf32>
  %k = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w3 : tensor<1x4x4x8xf32>, tensor<3x3x8x128xf32>) outs(%f3 : tensor<1x2x2x128xf32>) -> tensor<1x2x2x128xf32>
  %e64 = tensor.empty() : tensor<1x4x4x64xf32>
  %f64 = linalg.fill ins(%z : f32) outs(%e64 : tensor<1x4x4x64xf32>) -> tensor<1x4x4x64xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w64 : tensor<1x4x4x8xf32>, tensor<1x1x8x64xf32>) outs(%f64 : tensor<1x4x4x64xf32>) -> tensor<1x4x4x64xf32>
  %e24 = tensor.empty() : tensor<1x4x4x24xf32>
  %f24 = linalg.fill ins(%z : f32) outs(%e24 : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %n = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w24 : tensor<1x4x4x8xf32>, tensor<1x1x8x24xf32>) outs(%f24 : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %eb = tensor.empty() : tensor<2x4x4x128xf32>
  %fb = linalg.fill ins(%z : f32) outs(%eb : tensor<2x4x4x128xf32>) -> tensor<2x4x4x128xf32>
  %b = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x2, %w : tensor<2x4x4x8xf32>, tensor<1x1x8x128xf32>) outs(%fb : tensor<2x4x4x128xf32>) -> tensor<2x4x4x128xf32>
  func.return %a, %k, %o, %n, %b : tensor<1x4x4x128xf32>, tensor<1x2x2x128xf32>, tensor<1x4x4x64xf32>, tensor<1x4x4x24xf32>, tensor<2x4x4x128xf32>
}
