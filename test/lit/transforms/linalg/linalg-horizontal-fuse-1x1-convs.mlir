// RUN: fusion-opt %s --split-input-file -p linalg-horizontal-fuse-1x1-convs | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-horizontal-fuse-1x1-convs{max-results=2}' | filecheck %s --check-prefix=CAP

// Two 1x1 convs over one input with 16 filters each (an Inception block's 1x1 branch and a
// reduction) => one rank-3 contraction reading the input once, x at (c, h, w), each weight at
// (f, c); each epilogue moves to the (f, h, w) loops and the unit expand_shape follows it (the
// pad of one result stays for region formation to write).
// CHECK-LABEL: func.func @siblings_with_epilogues
// CHECK-SAME:    (%[[X:.*]]: tensor<1x32x4x4xf32>, %[[WA:.*]]: tensor<16x32x1x1xf32>, %[[WB:.*]]: tensor<16x32x1x1xf32>, %[[BA:.*]]: tensor<16xf32>, %[[BB:.*]]: tensor<16xf32>)
// CHECK-DAG:     %[[X3:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2], [3]] : tensor<1x32x4x4xf32> into tensor<32x4x4xf32>
// CHECK-DAG:     %[[A2:.*]] = tensor.collapse_shape %[[WA]] {{\[}}[0], [1, 2, 3]] : tensor<16x32x1x1xf32> into tensor<16x32xf32>
// CHECK-DAG:     %[[B2:.*]] = tensor.collapse_shape %[[WB]] {{\[}}[0], [1, 2, 3]] : tensor<16x32x1x1xf32> into tensor<16x32xf32>
// CHECK-NOT:     linalg.conv_2d
// CHECK:         %[[MA:.*]], %[[MB:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X3]], %[[A2]], %[[B2]] : tensor<32x4x4xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:         } -> (tensor<16x4x4xf32>, tensor<16x4x4xf32>)
// CHECK:         %[[EA:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[MA]], %[[BA]] : tensor<16x4x4xf32>, tensor<16xf32>)
// CHECK:         %[[IA:.*]] = tensor.expand_shape %[[EA]] {{\[}}[0, 1], [2], [3]] output_shape [1, 16, 4, 4] : tensor<16x4x4xf32> into tensor<1x16x4x4xf32>
// CHECK:         %[[EB:.*]] = linalg.generic {{.*}} ins(%[[MB]], %[[BB]] : tensor<16x4x4xf32>, tensor<16xf32>)
// CHECK:         %[[IB:.*]] = tensor.expand_shape %[[EB]]
// CHECK:         %[[P:.*]] = tensor.pad %[[IB]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         func.return %[[IA]], %[[P]]
func.func @siblings_with_epilogues(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>, %ba: tensor<16xf32>, %bb: tensor<16xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %ea = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %ba : tensor<1x16x4x4xf32>, tensor<16xf32>) outs(%e : tensor<1x16x4x4xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wb : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %eb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %bb : tensor<1x16x4x4xf32>, tensor<16xf32>) outs(%e : tensor<1x16x4x4xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x4x4xf32>
  %p = tensor.pad %eb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4x4xf32> to tensor<1x16x6x6xf32>
  func.return %ea, %p : tensor<1x16x4x4xf32>, tensor<1x16x6x6xf32>
}

// -----

// Three siblings, no epilogues: one op with three results (CAP, max-results=2: the first two
// fused, the third left a conv).
// CHECK-LABEL: func.func @three_siblings
// CHECK:         %[[A:.*]], %[[B:.*]], %[[C:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         } -> (tensor<16x4x4xf32>, tensor<16x4x4xf32>, tensor<16x4x4xf32>)
// CHECK-DAG:     tensor.expand_shape %[[A]]
// CHECK-DAG:     tensor.expand_shape %[[B]]
// CHECK-DAG:     tensor.expand_shape %[[C]]
// CHECK-NOT:     linalg.conv_2d
// CAP-LABEL:   func.func @three_siblings
// CAP:           linalg.generic
// CAP:           } -> (tensor<16x4x4xf32>, tensor<16x4x4xf32>)
// CAP:           linalg.conv_2d_nchw_fchw
// CAP-NOT:       linalg.conv_2d
func.func @three_siblings(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>, %wc: tensor<16x32x1x1xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wb : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wc : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  func.return %a, %b, %c : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// -----

// Negative: 16 and 8 filters (results of different shapes cannot share one loop nest).
// CHECK-LABEL: func.func @filter_counts_differ
// CAP-LABEL:   func.func @filter_counts_differ
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
// CHECK-NOT:     iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @filter_counts_differ(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<8x32x1x1xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e8 = tensor.empty() : tensor<1x8x4x4xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wb : tensor<1x32x4x4xf32>, tensor<8x32x1x1xf32>) outs(%f8 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %a, %b : tensor<1x16x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// Negative: stride 2 (ResNet's downsampling shortcut is no stride-1 1x1 conv).
// CHECK-LABEL: func.func @strided
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
func.func @strided(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>) -> (tensor<1x16x2x2xf32>, tensor<1x16x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %wb : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  func.return %a, %b : tensor<1x16x2x2xf32>, tensor<1x16x2x2xf32>
}

// -----

// Negative: two inputs (parallel towers are linalg-horizontal-fuse-contractions' business).
// CHECK-LABEL: func.func @different_inputs
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
func.func @different_inputs(%x: tensor<1x32x4x4xf32>, %y: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %wb : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  func.return %a, %b : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// -----

// Negative: the second weight is computed after the first conv (nothing is moved for it).
// CHECK-LABEL: func.func @weight_computed_later
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
func.func @weight_computed_later(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %we = tensor.empty() : tensor<16x32x1x1xf32>
  %wn = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb : tensor<16x32x1x1xf32>) outs(%we : tensor<16x32x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16x32x1x1xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wn : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  func.return %a, %b : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// -----

// An epilogue that also reads another image in full (a residual add) stays on the 4-D loops,
// behind the expand_shape; the convs still fuse.
// CHECK-LABEL: func.func @epilogue_reads_an_image
// CHECK-SAME:    (%{{.*}}: tensor<1x32x4x4xf32>, %{{.*}}: tensor<16x32x1x1xf32>, %{{.*}}: tensor<16x32x1x1xf32>, %[[R:.*]]: tensor<1x16x4x4xf32>)
// CHECK:         %[[MA:.*]], %{{.*}} = linalg.generic
// CHECK:         %[[A:.*]] = tensor.expand_shape %[[MA]]
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[R]] : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>)
// CHECK-NOT:     linalg.conv_2d
func.func @epilogue_reads_an_image(%x: tensor<1x32x4x4xf32>, %wa: tensor<16x32x1x1xf32>, %wb: tensor<16x32x1x1xf32>, %res: tensor<1x16x4x4xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %res : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) outs(%e : tensor<1x16x4x4xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %t = arith.addf %in, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x16x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wb : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  func.return %s, %b : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}
