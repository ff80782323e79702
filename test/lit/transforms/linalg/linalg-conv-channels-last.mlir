// RUN: fusion-opt %s --split-input-file -p linalg-conv-channels-last | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{min-pixels=1 max-filter-elements=100000}" | filecheck %s --check-prefix=ALL
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last,linalg-fuse-elementwise{aggressive=false}" | filecheck %s --check-prefix=FUSED
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{min-pixels-1x1=1 nt-1x1-max-pixels=63}" | filecheck %s --check-prefix=NT
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{constant-1x1-any-size=false}" | filecheck %s --check-prefix=LIMITED
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{constant-kxk-any-size=false}" | filecheck %s --check-prefix=KXK
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{min-group-filters=32}" | filecheck %s --check-prefix=GROUPS
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{grouped-im2col=false}" | filecheck %s --check-prefix=GATHER
// RUN: fusion-opt %s --split-input-file -p "linalg-conv-channels-last{max-depthwise-group-channels=0}" | filecheck %s --check-prefix=NODW

// The pass's helper modules these cases exercise: linalg/channels_last_propagation.py,
// linalg/grouped_conv_channels_last.py, linalg/grouped_conv_depthwise.py,
// linalg/constant_arrays.py.

// A residual block as torch-mlir writes it (pad, bias-broadcast init, ReLU, residual add):
// both convs become NHWC/HWCF convs; the input is transposed once, before its pad (the pad
// moves to the channels-last dims); each filter is transposed to HWCF; the bias broadcast
// writes channels last; the ReLU between the convs is computed channels last (its loops
// permuted), so no transpose sits between the convs; the residual add reads the second conv
// through a transpose back and is the one NCHW result.
// CHECK-LABEL: func.func @residual_block
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x8x8xf32>, %[[W1:.*]]: tensor<8x8x3x3xf32>, %[[W2:.*]]: tensor<8x8x3x3xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         %[[I1:.*]] = linalg.broadcast ins(%[[B]]{{.*}}tensor<1x8x8x8xf32>) dimensions = [0, 1, 2]
// CHECK:         %[[XT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%[[X]] : tensor<1x8x8x8xf32>)
// CHECK:         %[[XP:.*]] = tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
// CHECK:         %[[F1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d2, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%[[W1]] : tensor<8x8x3x3xf32>) outs(%{{.*}} : tensor<3x3x8x8xf32>)
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XP]], %[[F1]] : tensor<1x10x10x8xf32>, tensor<3x3x8x8xf32>) outs(%[[I1]] : tensor<1x8x8x8xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK:         %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[BACK]], %[[X]] : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>)
// CHECK:         func.return %[[ADD]] : tensor<1x8x8x8xf32>
// FUSED-LABEL: func.func @residual_block
// FUSED-COUNT-2: linalg.conv_2d_nhwc_hwcf
// FUSED:         %[[ADD:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// FUSED:         func.return %[[ADD]]
func.func @residual_block(%x: tensor<1x8x8x8xf32>, %w1: tensor<8x8x3x3xf32>, %w2: tensor<8x8x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %init = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x8x8xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  %rp = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%rp, %w2 : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %x : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%a: f32, %b2: f32, %o: f32):
    %s = arith.addf %a, %b2 : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  func.return %add : tensor<1x8x8x8xf32>
}

// -----

// A ReLU read by the next conv and by a later residual add: computed channels last once; the
// add gets one transpose back.
// CHECK-LABEL: func.func @shared_activation
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x6x6x4xf32>)
// CHECK:         arith.maximumf
// CHECK:         %[[RB:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, {{.*}} ins(%[[R]] : tensor<1x6x6x4xf32>)
// CHECK:         tensor.pad %[[R]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[RB]] : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
func.func @shared_activation(%x: tensor<1x4x6x6xf32>, %w1: tensor<4x4x3x3xf32>, %w2: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %rp = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%rp, %w2 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %r1 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %b2: f32, %o: f32):
    %s = arith.addf %a, %b2 : f32
    linalg.yield %s : f32
  } -> tensor<1x4x6x6xf32>
  func.return %add : tensor<1x4x6x6xf32>
}

// -----

// A strided 3x3 conv and a 1x1 conv (any window and stride of a full conv), a depthwise conv
// (CHW filter -> HWC) and a max pool after its -inf pad (the window operand is only a shape,
// the -inf fill init is rebuilt channels last).
// CHECK-LABEL: func.func @window_kinds
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x16x16xf32>, %[[W:.*]]: tensor<8x4x3x3xf32>, %[[W1:.*]]: tensor<8x4x1x1xf32>, %[[D:.*]]: tensor<4x3x3xf32>, %[[K:.*]]: tensor<3x3xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT:     linalg.pooling_nchw_max
// CHECK:         linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x18x18x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x16x16x4xf32>, tensor<1x1x4x8xf32>) outs(%{{.*}} : tensor<1x16x16x8xf32>)
// CHECK:         %[[DT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[D]] : tensor<4x3x3xf32>) outs(%{{.*}} : tensor<3x3x4xf32>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %[[DT]] : tensor<1x18x18x4xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x16x16x4xf32>)
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x8x8x4xf32>)
// CHECK:         %[[NEG:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.pooling_nhwc_max {{.*}} ins(%[[NEG]], %[[K]] : tensor<1x18x18x4xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x8x8x4xf32>)
func.func @window_kinds(%x: tensor<1x4x16x16xf32>, %w: tensor<8x4x3x3xf32>, %w1: tensor<8x4x1x1xf32>, %d: tensor<4x3x3xf32>, %k: tensor<3x3xf32>)
    -> (tensor<1x8x8x8xf32>, tensor<1x8x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %e8 = tensor.empty() : tensor<1x8x8x8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %strided = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w : tensor<1x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%f8 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %e16 = tensor.empty() : tensor<1x8x16x16xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %one = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x16x16xf32>, tensor<8x4x1x1xf32>) outs(%f16 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %xd = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %ed = tensor.empty() : tensor<1x4x16x16xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xd, %d : tensor<1x4x18x18xf32>, tensor<4x3x3xf32>) outs(%fd : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %xm = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %ep = tensor.empty() : tensor<1x4x8x8xf32>
  %fp = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xm, %k : tensor<1x4x18x18xf32>, tensor<3x3xf32>) outs(%fp : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %strided, %one, %dw, %pool : tensor<1x8x8x8xf32>, tensor<1x8x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x4x8x8xf32>
}

// -----

// Dilated windows: a 5x5 depthwise conv with dilation 2 (LR-ASPP's) and a dilated max pool go
// channels last with their dilations; a dilated full conv stays (the im2col stages take it).
// CHECK-LABEL: func.func @dilated_windows
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x16x16x4xf32>, tensor<5x5x4xf32>) outs(%{{.*}} : tensor<1x8x8x4xf32>)
// CHECK:         linalg.pooling_nhwc_max {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x16x16x4xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x12x12x4xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @dilated_windows(%x: tensor<1x4x16x16xf32>, %d: tensor<4x5x5xf32>, %k: tensor<3x3xf32>, %w: tensor<4x4x3x3xf32>)
    -> (tensor<1x4x8x8xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ed = tensor.empty() : tensor<1x4x8x8xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %d : tensor<1x4x16x16xf32>, tensor<4x5x5xf32>) outs(%fd : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %ep = tensor.empty() : tensor<1x4x12x12xf32>
  %fp = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x4x16x16xf32>, tensor<3x3xf32>) outs(%fp : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) outs(%fc : tensor<1x4x12x12xf32>) -> tensor<1x4x12x12xf32>
  func.return %dw, %pool, %conv : tensor<1x4x8x8xf32>, tensor<1x4x12x12xf32>, tensor<1x4x12x12xf32>
}

// -----

// A constant filter (weights inlined) is transposed here, once: HWCF [0][0][c][f] = FCHW
// [f][c][0][0]; no transpose runs per call.
// CHECK-LABEL: func.func @constant_filter
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>)
// CHECK-NOT:     tensor<2x2x1x1xf32>
func.func @constant_filter(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %c : tensor<1x2x4x4xf32>
}

// -----

// A 1x1 conv over a constant filter past max-filter-elements (257 x 256 = 65792 elements) is
// rewritten all the same: its filter is transposed once, here, so its size costs nothing per
// call. The same conv over a filter argument, and a 3x3 conv over a constant filter that large
// at 4x4 output pixels (under min-pixels), stay NCHW.
// CHECK-LABEL: func.func @large_constant_1x1
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x4x4x256xf32>, tensor<1x1x256x257xf32>
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// With constant-1x1-any-size=false (prefix LIMITED) the constant filter has the limit too.
// LIMITED-LABEL: func.func @large_constant_1x1
// LIMITED-COUNT-3: linalg.conv_2d_nchw_fchw
// LIMITED-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @large_constant_1x1(%x: tensor<1x256x4x4xf32>, %wa: tensor<257x256x1x1xf32>, %x3: tensor<1x256x6x6xf32>)
    -> (tensor<1x257x4x4xf32>, tensor<1x257x4x4xf32>, tensor<1x257x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.0625> : tensor<257x256x1x1xf32>
  %w3 = arith.constant dense<0.03125> : tensor<257x256x3x3xf32>
  %e = tensor.empty() : tensor<1x257x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x257x4x4xf32>) -> tensor<1x257x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x256x4x4xf32>, tensor<257x256x1x1xf32>) outs(%f : tensor<1x257x4x4xf32>) -> tensor<1x257x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x256x4x4xf32>, tensor<257x256x1x1xf32>) outs(%f : tensor<1x257x4x4xf32>) -> tensor<1x257x4x4xf32>
  %k = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x3, %w3 : tensor<1x256x6x6xf32>, tensor<257x256x3x3xf32>) outs(%f : tensor<1x257x4x4xf32>) -> tensor<1x257x4x4xf32>
  func.return %c, %a, %k : tensor<1x257x4x4xf32>, tensor<1x257x4x4xf32>, tensor<1x257x4x4xf32>
}

// -----

// A 3x3 conv over a constant filter past max-filter-elements (128 x 64 x 3 x 3 = 73728
// elements) at 8x8 output pixels is rewritten too: its filter is transposed once, here
// (efficientnet_v2_s's 48 -> 192 and 64 -> 256 3x3 convs: the model 0.71x). The same conv over
// a filter argument stays NCHW. With constant-kxk-any-size=false (prefix KXK) both stay.
// CHECK-LABEL: func.func @large_constant_3x3
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x10x10x64xf32>, tensor<3x3x64x128xf32>
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// KXK-LABEL:     func.func @large_constant_3x3
// LIMITED-LABEL: func.func @large_constant_3x3
// KXK-COUNT-2:   linalg.conv_2d_nchw_fchw
// KXK-NOT:       linalg.conv_2d_nhwc_hwcf
func.func @large_constant_3x3(%x: tensor<1x64x10x10xf32>, %wa: tensor<128x64x3x3xf32>)
    -> (tensor<1x128x8x8xf32>, tensor<1x128x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.0625> : tensor<128x64x3x3xf32>
  %e = tensor.empty() : tensor<1x128x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x64x10x10xf32>, tensor<128x64x3x3xf32>) outs(%f : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x64x10x10xf32>, tensor<128x64x3x3xf32>) outs(%f : tensor<1x128x8x8xf32>) -> tensor<1x128x8x8xf32>
  func.return %c, %a : tensor<1x128x8x8xf32>, tensor<1x128x8x8xf32>
}

// -----

// A 1x1 conv at 2x2 pixels (strided): left NCHW by default (under min-pixels-1x1). Opt-in
// (prefix NT): channels last as a contraction over (n, oh, ow, f, c) that reads the FCHW filter
// collapsed to F x C in place, no transposed copy.
// CHECK-LABEL: func.func @small_1x1
// LIMITED-LABEL: func.func @small_1x1
// KXK-LABEL: func.func @small_1x1
// CHECK:         linalg.conv_2d_nchw_fchw
// NT-LABEL: func.func @small_1x1
// NT-SAME:     (%[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<6x8x1x1xf32>)
// NT-NOT:      linalg.conv_2d
// NT:          %[[F:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2, 3]] : tensor<6x8x1x1xf32> into tensor<6x8xf32>
// NT:          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, (d1 * 2), (d2 * 2), d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[F]] : tensor<1x4x4x8xf32>, tensor<6x8xf32>) outs(%{{.*}} : tensor<1x2x2x6xf32>)
func.func @small_1x1(%x: tensor<1x8x4x4xf32>, %w: tensor<6x8x1x1xf32>) -> tensor<1x6x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%f : tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
  func.return %c : tensor<1x6x2x2xf32>
}

// -----

// A fill shared by a conv's init and another reader: the conv gets a channels-last fill of its
// own, the other reader keeps the original (no transpose of a fill).
// CHECK-LABEL: func.func @shared_fill
// CHECK-DAG:     %[[NCHW:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x6x6xf32>)
// CHECK-DAG:     %[[NHWC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[NHWC]] : tensor<1x6x6x4xf32>)
// CHECK:         func.return %{{.*}}, %[[NCHW]]
func.func @shared_fill(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  func.return %c, %f : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// Not rewritten by default: a dilated full conv, a full conv with 4x4 output pixels (fewer than
// min-pixels), a full conv whose filter has more than max-filter-elements elements, a grouped
// conv. With min-pixels=1 and a larger filter limit (prefix ALL) the small and the large conv
// are rewritten too; the others never are.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw
// CHECK:         linalg.conv_2d_ngchw_fgchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// ALL-LABEL: func.func @not_rewritten
// ALL:           linalg.conv_2d_nchw_fchw
// ALL-NOT:       linalg.conv_2d_nchw_fchw
// ALL:           linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x6x6x4xf32>, tensor<3x3x4x4xf32>
// ALL:           linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x10x10x80xf32>, tensor<3x3x80x100xf32>
// ALL:           linalg.conv_2d_ngchw_fgchw
func.func @not_rewritten(%x: tensor<1x4x9x9xf32>, %w: tensor<4x4x3x3xf32>,
                         %xs: tensor<1x4x6x6xf32>, %xl: tensor<1x80x10x10xf32>, %wl: tensor<100x80x3x3xf32>,
                         %xg: tensor<1x2x2x10x10xf32>, %wg: tensor<2x2x2x3x3xf32>)
    -> (tensor<1x4x5x5xf32>, tensor<1x4x4x4xf32>, tensor<1x100x8x8xf32>, tensor<1x2x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1x4x5x5xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %dilated = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x4x3x3xf32>) outs(%f5 : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %small = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xs, %w : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %el = tensor.empty() : tensor<1x100x8x8xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%el : tensor<1x100x8x8xf32>) -> tensor<1x100x8x8xf32>
  %large = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xl, %wl : tensor<1x80x10x10xf32>, tensor<100x80x3x3xf32>) outs(%fl : tensor<1x100x8x8xf32>) -> tensor<1x100x8x8xf32>
  %eg = tensor.empty() : tensor<1x2x2x8x8xf32>
  %fg = linalg.fill ins(%zero : f32) outs(%eg : tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32>
  %grouped = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x2x10x10xf32>, tensor<2x2x2x3x3xf32>) outs(%fg : tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32>
  func.return %dilated, %small, %large, %grouped : tensor<1x4x5x5xf32>, tensor<1x4x4x4xf32>, tensor<1x100x8x8xf32>, tensor<1x2x2x8x8xf32>
}

// -----

// A batch of 2 (batched inference): the same NHWC forms, the batch the outer dim of each.
// CHECK-LABEL: func.func @batched
// CHECK:         linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<2x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<2x8x8x8xf32>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<2x10x10x8xf32>, tensor<3x3x8xf32>) outs(%{{.*}} : tensor<2x8x8x8xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
func.func @batched(%x: tensor<2x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %d: tensor<8x3x3xf32>) -> tensor<2x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x8xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %d : tensor<2x8x10x10xf32>, tensor<8x3x3xf32>) outs(%f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  func.return %dw : tensor<2x8x8x8xf32>
}

// -----

// A 1x1 conv into a grouped 3x3 conv (2 groups of 16, stride 2, pad 1, a constant filter split
// into groups) and its bias + ReLU: the 1x1 conv writes NHWC, its pad moves channels last, the
// grouped conv is IREE's im2col op over the NHWC image, the groups its batch dim (tap (kh, kw)
// of group g at oh*2 + kh, ow*2 + kw: batch 1), and the matmul batched over the groups writing
// (pixel, group, filter), with the
// filter transposed once to G x (KH*KW*C) x F; no transpose is left between the two convs. With
// min-group-filters=32 (prefix GROUPS) the grouped conv stays; with grouped-im2col=false
// (prefix GATHER) the patches are a gather generic, written out.
// CHECK-LABEL: func.func @grouped_block
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[PAD:.*]] = tensor.pad %[[C1]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[SPLIT:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 10, 10, 2, 16]
// CHECK:         %[[IMG:.*]] = tensor.collapse_shape %[[SPLIT]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x10x10x2x16xf32> into tensor<10x10x2x16xf32>
// CHECK:         %[[PM:.*]] = iree_linalg_ext.im2col strides = [2, 2] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = {{\[\[}}2], [4, 4], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%[[IMG]] : tensor<10x10x2x16xf32>) outs(%{{.*}} : tensor<2x16x144xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<1.250000e-01> : tensor<2x144x16xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[PM]], %[[W]] : tensor<2x16x144xf32>, tensor<2x144x16xf32>) outs(%{{.*}} : tensor<16x2x16xf32>)
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// CHECK-NOT:     tensor<2x16x16x3x3xf32>
// GROUPS-LABEL: func.func @grouped_block
// GROUPS:         linalg.conv_2d_ngchw_gfchw
// GATHER-LABEL: func.func @grouped_block
// GATHER:         %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, ((d2 * 2) + d4), ((d3 * 2) + d5), d0, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>]{{.*}} outs(%{{.*}} : tensor<2x1x4x4x3x3x16xf32>)
// GATHER:         tensor.collapse_shape %[[P]] {{\[\[}}0], [1, 2, 3], [4, 5, 6]] : tensor<2x1x4x4x3x3x16xf32> into tensor<2x16x144xf32>
// GATHER-NOT:     iree_linalg_ext.im2col
func.func @grouped_block(%x: tensor<1x32x8x8xf32>, %w1: tensor<32x32x1x1xf32>, %b: tensor<32xf32>) -> tensor<1x32x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x32x8x8xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x32x8x8xf32>, tensor<32x32x1x1xf32>) outs(%f1 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %pad = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x32x8x8xf32> to tensor<1x32x10x10xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 10, 10] : tensor<1x32x10x10xf32> into tensor<1x2x16x10x10xf32>
  %w = arith.constant dense<1.250000e-01> : tensor<32x16x3x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 16, 3, 3] : tensor<32x16x3x3xf32> into tensor<2x16x16x3x3xf32>
  %e = tensor.empty() : tensor<1x2x16x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x16x4x4xf32>) -> tensor<1x2x16x4x4xf32>
  %conv = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %wg : tensor<1x2x16x10x10xf32>, tensor<2x16x16x3x3xf32>) outs(%f : tensor<1x2x16x4x4xf32>) -> tensor<1x2x16x4x4xf32>
  %v = tensor.collapse_shape %conv [[0], [1, 2], [3], [4]] : tensor<1x2x16x4x4xf32> into tensor<1x32x4x4xf32>
  %e2 = tensor.empty() : tensor<1x32x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %b : tensor<1x32x4x4xf32>, tensor<32xf32>) outs(%e2 : tensor<1x32x4x4xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x32x4x4xf32>
  func.return %g : tensor<1x32x4x4xf32>
}

// -----

// Groups of 4 filters (4 groups of 4 channels) at 6x6 pixels stay NCHW: too small to split into
// depthwise convs, and the filter-first matmul of `linalg-grouped-conv-to-im2col` vectorises
// along the pixels.
// CHECK-LABEL: func.func @narrow_groups
// CHECK:         linalg.conv_2d_ngchw_gfchw
func.func @narrow_groups(%x: tensor<1x4x4x8x8xf32>, %w: tensor<4x4x4x3x3xf32>) -> tensor<1x4x4x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x6x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x6x6xf32>) -> tensor<1x4x4x6x6xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x4x8x8xf32>, tensor<4x4x4x3x3xf32>) outs(%f : tensor<1x4x4x6x6xf32>) -> tensor<1x4x4x6x6xf32>
  func.return %c : tensor<1x4x4x6x6xf32>
}

// -----

// 32 groups of 4 channels and 4 filters at 28x28 (ResNeXt50's first stage): one channels-last
// depthwise conv over the 128 output channels per channel of a group, each reading that channel
// of every group broadcast over the group's filters and padded, each accumulating into the last.
// CHECK-LABEL: func.func @narrow_groups_as_depthwise
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 28, 28, 32, 1]
// CHECK:         linalg.generic {{.*}}ins(%{{.*}} : tensor<1x28x28x32xf32>) outs(%{{.*}} : tensor<1x28x28x32x4xf32>)
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[D0:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x30x30x128xf32>, tensor<3x3x128xf32>) outs(%{{.*}} : tensor<1x28x28x128xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 1] [1, 28, 28, 32, 1]
// CHECK:         %[[D1:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} outs(%[[D0]] : tensor<1x28x28x128xf32>)
// CHECK:         %[[D2:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} outs(%[[D1]] : tensor<1x28x28x128xf32>)
// CHECK:         %[[D3:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} outs(%[[D2]] : tensor<1x28x28x128xf32>)
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         linalg.generic {{.*}}ins(%[[D3]] : tensor<1x28x28x128xf32>)
// NODW-LABEL: func.func @narrow_groups_as_depthwise
// NODW:         linalg.conv_2d_ngchw_gfchw
// NODW-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
func.func @narrow_groups_as_depthwise(%x: tensor<1x128x28x28xf32>, %w: tensor<32x4x4x3x3xf32>) -> tensor<1x128x28x28xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x128x28x28xf32> to tensor<1x128x30x30xf32>
  %xg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 32, 4, 30, 30] : tensor<1x128x30x30xf32> into tensor<1x32x4x30x30xf32>
  %e = tensor.empty() : tensor<1x32x4x28x28xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x4x28x28xf32>) -> tensor<1x32x4x28x28xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %w : tensor<1x32x4x30x30xf32>, tensor<32x4x4x3x3xf32>) outs(%f : tensor<1x32x4x28x28xf32>) -> tensor<1x32x4x28x28xf32>
  %r = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x32x4x28x28xf32> into tensor<1x128x28x28xf32>
  func.return %r : tensor<1x128x28x28xf32>
}

// -----

// The same groups at stride 2 keep the gather + matmul form: broadcasts of every input pixel
// for a quarter of the outputs cost more than the patches.
// CHECK-LABEL: func.func @strided_narrow_groups
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
func.func @strided_narrow_groups(%x: tensor<1x32x4x58x58xf32>, %w: tensor<32x4x4x3x3xf32>) -> tensor<1x32x4x28x28xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x4x28x28xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x4x28x28xf32>) -> tensor<1x32x4x28x28xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x32x4x58x58xf32>, tensor<32x4x4x3x3xf32>) outs(%f : tensor<1x32x4x28x28xf32>) -> tensor<1x32x4x28x28xf32>
  func.return %c : tensor<1x32x4x28x28xf32>
}
