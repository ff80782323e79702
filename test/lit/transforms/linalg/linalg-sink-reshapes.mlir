// RUN: fusion-opt %s --split-input-file -p linalg-sink-reshapes | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation | filecheck %s --check-prefix=REGIONS

// A matmul's rows split by an expand before its bias add (ONNX MatMul over [1, H, W, C]): the
// add runs on the matmul's [64, 32] and the expand follows it, so the region holds no reshape.
// CHECK-LABEL: func.func @matmul_rows_split
// CHECK-SAME:    (%{{.*}}: tensor<64x16xf32>, %{{.*}}: tensor<16x32xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[M]], %[[B]] : tensor<64x32xf32>, tensor<32xf32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 8, 8, 32]
// CHECK:         func.return %[[R]]
// REGIONS-LABEL: func.func @matmul_rows_split
// REGIONS:         flow.dispatch.region -> (tensor<64x32xf32>)
// REGIONS-NOT:       tensor.expand_shape
// REGIONS:           flow.return
// REGIONS:         flow.tensor.reshape
func.func @matmul_rows_split(%a: tensor<64x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<64x16xf32>, tensor<16x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %x = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 8, 8, 32] : tensor<64x32xf32> into tensor<1x8x8x32xf32>
  %e2 = tensor.empty() : tensor<1x8x8x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%e2 : tensor<1x8x8x32xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x32xf32>
  func.return %g : tensor<1x8x8x32xf32>
}

// -----

// A grouped conv's (groups, channels) collapsed to channels before bias + ReLU: the epilogue runs
// on the conv's 5-D result, the bias expanded to [groups, channels], and the collapse follows.
// CHECK-LABEL: func.func @grouped_conv_collapse
// CHECK-SAME:    (%{{.*}}: tensor<1x16x4x10x10xf32>, %{{.*}}: tensor<16x4x4x3x3xf32>, %[[B:.*]]: tensor<64xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_ngchw_gfchw
// CHECK:         %[[BE:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [16, 4] : tensor<64xf32> into tensor<16x4xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>]{{.*}} ins(%[[C]], %[[BE]] : tensor<1x16x4x8x8xf32>, tensor<16x4xf32>)
// CHECK:         tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x16x4x8x8xf32> into tensor<1x64x8x8xf32>
func.func @grouped_conv_collapse(%x: tensor<1x16x4x10x10xf32>, %w: tensor<16x4x4x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x10x10xf32>, tensor<16x4x4x3x3xf32>) outs(%f : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
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

// Negative: a consumer that reads only part of a reassociation group (a bias over the W of the
// split [H, W] rows) has no coarse form; the reshape stays where it is.
// CHECK-LABEL: func.func @partial_group_read
// CHECK:         linalg.matmul
// CHECK:         tensor.expand_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>
func.func @partial_group_read(%a: tensor<64x16xf32>, %w: tensor<16x32xf32>, %b: tensor<8xf32>) -> tensor<8x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<64x16xf32>, tensor<16x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %x = tensor.expand_shape %m [[0, 1], [2]] output_shape [8, 8, 32] : tensor<64x32xf32> into tensor<8x8x32xf32>
  %e2 = tensor.empty() : tensor<8x8x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %b : tensor<8x8x32xf32>, tensor<8xf32>) outs(%e2 : tensor<8x8x32xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<8x8x32xf32>
  func.return %g : tensor<8x8x32xf32>
}

// -----

// Negative: a unit-dim reshape stays (linalg-fold-unit-reshapes' business; IREE builds it), and so
// does a reshape of an elementwise op's result (not a root: nothing to unblock).
// CHECK-LABEL: func.func @unit_and_elementwise_sources
// CHECK:         linalg.matmul
// CHECK-NEXT:    tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, 64, 32]
// CHECK:         linalg.generic
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [8, 8, 32]
// CHECK:         linalg.generic
func.func @unit_and_elementwise_sources(%a: tensor<64x16xf32>, %w: tensor<16x32xf32>, %q: tensor<64x32xf32>) -> (tensor<1x64x32xf32>, tensor<8x8x32xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<64x16xf32>, tensor<16x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %u = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 64, 32] : tensor<64x32xf32> into tensor<1x64x32xf32>
  %e1 = tensor.empty() : tensor<1x64x32xf32>
  %g1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u : tensor<1x64x32xf32>) outs(%e1 : tensor<1x64x32xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.maximumf %i, %z : f32
    linalg.yield %s : f32
  } -> tensor<1x64x32xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<64x32xf32>
  %x = tensor.expand_shape %p [[0, 1], [2]] output_shape [8, 8, 32] : tensor<64x32xf32> into tensor<8x8x32xf32>
  %e2 = tensor.empty() : tensor<8x8x32xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<8x8x32xf32>) outs(%e2 : tensor<8x8x32xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.maximumf %i, %z : f32
    linalg.yield %s : f32
  } -> tensor<8x8x32xf32>
  func.return %g1, %g2 : tensor<1x64x32xf32>, tensor<8x8x32xf32>
}

// -----

// Negative: a residual add of two roots in different layouts (a strided 1x1 conv's NCHW result
// collapsed, and a flat matmul's): moving the collapse would put an expand of the matmul in front
// of the add instead, and back again, so the add stays where it is.
// CHECK-LABEL: func.func @two_roots_two_layouts
// CHECK:         %[[C:.*]] = tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[C]], %{{.*}} : tensor<32x256xf32>, tensor<32x256xf32>)
// CHECK-NOT:     tensor.expand_shape
func.func @two_roots_two_layouts(%x: tensor<1x16x32x32xf32>, %w: tensor<32x16x1x1xf32>, %a: tensor<32x288xf32>, %b: tensor<288x256xf32>) -> tensor<32x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x16x32x32xf32>, tensor<32x16x1x1xf32>) outs(%f : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %v = tensor.collapse_shape %c [[0, 1], [2, 3]] : tensor<1x32x16x16xf32> into tensor<32x256xf32>
  %e2 = tensor.empty() : tensor<32x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<32x256xf32>) -> tensor<32x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x288xf32>, tensor<288x256xf32>) outs(%f2 : tensor<32x256xf32>) -> tensor<32x256xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v, %m : tensor<32x256xf32>, tensor<32x256xf32>) outs(%e2 : tensor<32x256xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<32x256xf32>
  func.return %g : tensor<32x256xf32>
}

// -----

// A gated 1x1 conv as a matmul (LR-ASPP's head): the expand of [C, P] to [1, C, H, W] feeds a
// per-channel bias (read over C alone: the unit batch loop is always 0) and a [1, C, 1, 1]
// gate. Reading a group's non-unit loops is reading the group: the epilogue runs on [C, P]
// and joins the matmul's region.
// CHECK-LABEL: func.func @unit_batch_gate
// CHECK-SAME:    (%{{.*}}: tensor<128x960xf32>, %{{.*}}: tensor<960x196xf32>, %[[B:.*]]: tensor<128xf32>, %{{.*}}: tensor<128x1xf32>)
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK:         %[[G1:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x128x1x1xf32> into tensor<128x1x1xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, 0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[M]], %[[B]], %[[G1]] :
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 128, 14, 14]
// CHECK:         func.return %[[R]]
// REGIONS-LABEL: func.func @unit_batch_gate
// REGIONS:         flow.dispatch.region -> (tensor<128x196xf32>)
// REGIONS:           linalg.matmul
// REGIONS-NEXT:      linalg.generic
// REGIONS:         flow.tensor.reshape %{{.*}} : tensor<128x196xf32> -> tensor<1x128x14x14xf32>
// REGIONS-NOT:     flow.dispatch.region
func.func @unit_batch_gate(%a: tensor<128x960xf32>, %w: tensor<960x196xf32>, %b: tensor<128xf32>, %g: tensor<128x1xf32>) -> tensor<1x128x14x14xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x196xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x196xf32>) -> tensor<128x196xf32>
  %m = linalg.matmul ins(%a, %w : tensor<128x960xf32>, tensor<960x196xf32>) outs(%f : tensor<128x196xf32>) -> tensor<128x196xf32>
  %x = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 128, 14, 14] : tensor<128x196xf32> into tensor<1x128x14x14xf32>
  %gg = tensor.expand_shape %g [[0, 1], [2, 3]] output_shape [1, 128, 1, 1] : tensor<128x1xf32> into tensor<1x128x1x1xf32>
  %e4 = tensor.empty() : tensor<1x128x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b, %gg : tensor<1x128x14x14xf32>, tensor<128xf32>, tensor<1x128x1x1xf32>) outs(%e4 : tensor<1x128x14x14xf32>) {
  ^bb0(%i: f32, %j: f32, %k: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %t = arith.maximumf %s, %z : f32
    %u = arith.mulf %t, %k : f32
    linalg.yield %u : f32
  } -> tensor<1x128x14x14xf32>
  func.return %r : tensor<1x128x14x14xf32>
}

// -----

// A collapse of a contraction's [8, 4, 16] result to [8, 64] read transposed, with a bias over the
// collapsed dim (a packed 1x1 conv's epilogue writing NCHW): the moved epilogue walks the
// contraction's own loops in order (IREE fuses such a reader) and writes [4, 16, 8], which is
// [64, 8] row-major; the bias is read as [4, 16].
// CHECK-LABEL: func.func @collapse_read_transposed
// CHECK:         %[[M:.*]] = linalg.generic {{.*}}"reduction"
// CHECK:         %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 16] : tensor<64xf32> into tensor<4x16xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[M]], %[[B]] : tensor<8x4x16xf32>, tensor<4x16xf32>) outs(%{{.*}} : tensor<4x16x8xf32>)
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2]] : tensor<4x16x8xf32> into tensor<64x8xf32>
// CHECK:         func.return %[[R]]
// REGIONS-LABEL: func.func @collapse_read_transposed
// REGIONS:         flow.dispatch.region -> (tensor<4x16x8xf32>)
// REGIONS-NOT:     flow.dispatch.region
func.func @collapse_read_transposed(%a: tensor<8x32xf32>, %w: tensor<4x32x16xf32>, %b: tensor<64xf32>) -> tensor<64x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w : tensor<8x32xf32>, tensor<4x32x16xf32>) outs(%f : tensor<8x4x16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %p = arith.mulf %i, %j : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4x16xf32>
  %c = tensor.collapse_shape %m [[0], [1, 2]] : tensor<8x4x16xf32> into tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<64x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %b : tensor<8x64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<64x8xf32>
  func.return %t : tensor<64x8xf32>
}

// -----

// The sum of two contractions whose results are collapsed the same way, each collapse read only
// by the sum: the moved sum reads both raw results (the collapse of the second is undone, and
// erased), so one region holds a contraction and the sum.
// CHECK-LABEL: func.func @two_roots_collapsed_alike
// CHECK:         %[[M1:.*]] = linalg.generic {{.*}}"reduction"
// CHECK:         %[[M2:.*]] = linalg.generic {{.*}}"reduction"
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[M1]], %[[M2]] : tensor<8x4x16xf32>, tensor<8x4x16xf32>)
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2]] : tensor<8x4x16xf32> into tensor<8x64xf32>
// CHECK:         func.return %[[R]]
// REGIONS-LABEL: func.func @two_roots_collapsed_alike
// REGIONS:         flow.dispatch.region -> (tensor<8x4x16xf32>)
// REGIONS:         flow.dispatch.region -> (tensor<8x4x16xf32>)
// REGIONS:           flow.return %{{.*}} : tensor<8x4x16xf32>
// REGIONS-NOT:     flow.dispatch.region
func.func @two_roots_collapsed_alike(%a: tensor<8x32xf32>, %w: tensor<4x32x16xf32>, %w2: tensor<4x32x16xf32>) -> tensor<8x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w : tensor<8x32xf32>, tensor<4x32x16xf32>) outs(%f : tensor<8x4x16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %p = arith.mulf %i, %j : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4x16xf32>
  %m2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w2 : tensor<8x32xf32>, tensor<4x32x16xf32>) outs(%f : tensor<8x4x16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %p = arith.mulf %i, %j : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x4x16xf32>
  %c = tensor.collapse_shape %m [[0], [1, 2]] : tensor<8x4x16xf32> into tensor<8x64xf32>
  %c2 = tensor.collapse_shape %m2 [[0], [1, 2]] : tensor<8x4x16xf32> into tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %c2 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  func.return %t : tensor<8x64xf32>
}

// -----

// A grouped conv as the im2col op and its group-batched matmul (`linalg-conv-channels-last`):
// the P x G x F result is split into N x H x W x G x F, then merged into N x H x W x (G*F) for
// its bias and ReLU. The outer collapse moves first, then the expand: the epilogue runs on the
// matmul's P x G x F (the bias read as G x F) and joins the matmul's region, where it was a
// dispatch of its own (RegNetX: one per block).
// CHECK-LABEL: func.func @grouped_matmul_split_then_merged
// CHECK-SAME:    (%{{.*}}: tensor<4x4x2x4xf32>, %{{.*}}: tensor<2x36x4xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         %[[B2:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[M]], %[[B2]] : tensor<4x2x4xf32>, tensor<2x4xf32>)
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1, 2], [3], [4]] output_shape [1, 2, 2, 2, 4]
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x2x2x2x4xf32> into tensor<1x2x2x8xf32>
// CHECK:         func.return %[[R]]
// REGIONS-LABEL: func.func @grouped_matmul_split_then_merged
// REGIONS:         flow.dispatch.region -> (tensor<4x2x4xf32>)
// REGIONS:           iree_linalg_ext.im2col
// REGIONS:           linalg.generic
// REGIONS:           linalg.generic
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
func.func @grouped_matmul_split_then_merged(%img: tensor<4x4x2x4xf32>, %w: tensor<2x36x4xf32>, %b: tensor<8xf32>) -> tensor<1x2x2x8xf32> {
  %z = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<2x4x36xf32>
  %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [2, 2], [3, 3, 4]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%img : tensor<4x4x2x4xf32>) outs(%pe : tensor<2x4x36xf32>) -> tensor<2x4x36xf32>
  %e = tensor.empty() : tensor<4x2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x2x4xf32>) -> tensor<4x2x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x4x36xf32>, tensor<2x36x4xf32>) outs(%f : tensor<4x2x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.mulf %a, %c : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<4x2x4xf32>
  %x = tensor.expand_shape %m [[0, 1, 2], [3], [4]] output_shape [1, 2, 2, 2, 4] : tensor<4x2x4xf32> into tensor<1x2x2x2x4xf32>
  %y = tensor.collapse_shape %x [[0], [1], [2], [3, 4]] : tensor<1x2x2x2x4xf32> into tensor<1x2x2x8xf32>
  %oe = tensor.empty() : tensor<1x2x2x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %b : tensor<1x2x2x8xf32>, tensor<8xf32>) outs(%oe : tensor<1x2x2x8xf32>) {
  ^bb0(%v: f32, %u: f32, %o: f32):
    %s = arith.addf %v, %u : f32
    %q = arith.maximumf %s, %z : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x8xf32>
  func.return %r : tensor<1x2x2x8xf32>
}

// -----

// The same two reshapes over an argument, not a root's result: no region to join, nothing moves.
// CHECK-LABEL: func.func @argument_split_then_merged
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3], [4]]
// CHECK-NEXT:    tensor.collapse_shape
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x8xf32>, tensor<8xf32>)
// REGIONS-LABEL: func.func @argument_split_then_merged
// REGIONS:         flow.dispatch.region -> (tensor<1x2x2x8xf32>)
func.func @argument_split_then_merged(%m: tensor<4x2x4xf32>, %b: tensor<8xf32>) -> tensor<1x2x2x8xf32> {
  %z = arith.constant 0.0 : f32
  %x = tensor.expand_shape %m [[0, 1, 2], [3], [4]] output_shape [1, 2, 2, 2, 4] : tensor<4x2x4xf32> into tensor<1x2x2x2x4xf32>
  %y = tensor.collapse_shape %x [[0], [1], [2], [3, 4]] : tensor<1x2x2x2x4xf32> into tensor<1x2x2x8xf32>
  %oe = tensor.empty() : tensor<1x2x2x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %b : tensor<1x2x2x8xf32>, tensor<8xf32>) outs(%oe : tensor<1x2x2x8xf32>) {
  ^bb0(%v: f32, %u: f32, %o: f32):
    %s = arith.addf %v, %u : f32
    %q = arith.maximumf %s, %z : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x8xf32>
  func.return %r : tensor<1x2x2x8xf32>
}

// -----

// Two roots' epilogues in two layouts meet in a residual add (Swin V2's post-norm residual):
// the expand moves below the add, which then reads the other epilogue through a collapse the
// move built; that collapse is not moved back (it would restore the expand: the pass never ended).
// CHECK-LABEL: func.func @residual_of_two_layouts
// CHECK:         %[[X2:.*]] = linalg.generic {{.*}} ins(%{{[a-z0-9_]+}} : tensor<1x4x4x2x8xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[X2]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x4x4x2x8xf32> into tensor<1x4x4x16xf32>
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %[[C]] : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[S]]
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return %[[E]]
func.func @residual_of_two_layouts(%a: tensor<1x4x4x16x3xf32>, %b: tensor<1x4x4x2x8x3xf32>) -> tensor<1x4x4x2x8xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e4 = tensor.empty() : tensor<1x4x4x16xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<1x4x4x16x3xf32>) outs(%f4 : tensor<1x4x4x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %o, %i : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x16xf32>
  %x1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r1 : tensor<1x4x4x16xf32>) outs(%e4 : tensor<1x4x4x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %one : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x16xf32>
  %e5 = tensor.empty() : tensor<1x4x4x2x8xf32>
  %f5 = linalg.fill ins(%z : f32) outs(%e5 : tensor<1x4x4x2x8xf32>) -> tensor<1x4x4x2x8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%b : tensor<1x4x4x2x8x3xf32>) outs(%f5 : tensor<1x4x4x2x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %o, %i : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x2x8xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%r2 : tensor<1x4x4x2x8xf32>) outs(%e5 : tensor<1x4x4x2x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.mulf %i, %i : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x2x8xf32>
  %x1e = tensor.expand_shape %x1 [[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 2, 8] : tensor<1x4x4x16xf32> into tensor<1x4x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x1e, %x2 : tensor<1x4x4x2x8xf32>, tensor<1x4x4x2x8xf32>) outs(%e5 : tensor<1x4x4x2x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x2x8xf32>
  func.return %sum : tensor<1x4x4x2x8xf32>
}
