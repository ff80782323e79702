// RUN: fusion-opt %s --split-input-file -p linalg-conv-1x1-to-matmul | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-conv-1x1-to-matmul{min-channels=1 strided=true padded-min-pixels=0}' | filecheck %s --check-prefix=ALL
// RUN: fusion-opt %s --split-input-file -p 'linalg-conv-1x1-to-matmul{padded-as-matmul=true}' | filecheck %s --check-prefix=PADDED
// The pass's helper modules these cases exercise: linalg/conv_1x1_sinking.py.

// A stride-1 1x1 conv with torch-mlir's broadcast bias init => F x C . C x (H*W) over a flat
// bias init; its clip consumer is rewritten on the flat shape, and one expand_shape follows.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME:    (%[[X:.*]]: tensor<1x32x4x4xf32>, %[[W:.*]]: tensor<16x32x1x1xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-DAG:     %[[XF:.*]] = tensor.collapse_shape %[[X]] {{.*}} : tensor<1x32x4x4xf32> into tensor<32x16xf32>
// CHECK-DAG:     %[[W2:.*]] = tensor.collapse_shape %[[W]] {{.*}} : tensor<16x32x1x1xf32> into tensor<16x32xf32>
// CHECK-DAG:     %[[INIT:.*]] = linalg.broadcast ins(%[[B]]{{.*}}tensor<16x16xf32>) dimensions = [1]
// CHECK-NOT:     linalg.conv_2d
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[XF]], %[[W2]] : tensor<32x16xf32>, tensor<16x32xf32>) outs(%[[INIT]] : tensor<16x16xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[CLIP:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %{{.*}} : tensor<16x16xf32>, tensor<f32>)
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %[[CLIP]] {{.*}} output_shape [1, 16, 4, 4] : tensor<16x16xf32> into tensor<1x16x4x4xf32>
// CHECK:         func.return %[[OUT]]
func.func @pointwise(%x: tensor<1x32x4x4xf32>, %w: tensor<16x32x1x1xf32>, %b: tensor<16xf32>) -> tensor<1x16x4x4xf32> {
  %six = arith.constant dense<6.0> : tensor<f32>
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x4x4xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%init : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %six : tensor<1x16x4x4xf32>, tensor<f32>) outs(%e : tensor<1x16x4x4xf32>) {
  ^bb0(%in: f32, %hi: f32, %out: f32):
    %m = arith.minimumf %in, %hi : f32
    linalg.yield %m : f32
  } -> tensor<1x16x4x4xf32>
  func.return %c : tensor<1x16x4x4xf32>
}

// -----

// A consumer that reads a one-element tensor at (0, 0, 0, 0) (a dynamically quantized model's
// scale) reads it so on the flat shape too: the expand moves below it (left in the region, IREE
// cannot distribute a matvec root whose consumer reads it through the expand).
// CHECK-LABEL: func.func @one_element_operand
// CHECK:         %[[MM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0, 0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %s : tensor<16x1xf32>, tensor<1x1x1x1xf32>)
// CHECK:         tensor.expand_shape %[[S]]
func.func @one_element_operand(%x: tensor<1x32x1x1xf32>, %w: tensor<16x32x1x1xf32>, %s: tensor<1x1x1x1xf32>) -> tensor<1x16x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x1x1xf32>, tensor<16x32x1x1xf32>) outs(%init : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %s : tensor<1x16x1x1xf32>, tensor<1x1x1x1xf32>) outs(%e : tensor<1x16x1x1xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x16x1x1xf32>
  func.return %c : tensor<1x16x1x1xf32>
}

// -----

// A consumer that also reads an image-shaped operand (which would need a collapse) and one with
// no flat read (transposed) stays on the image shape, and nothing built for it is left behind
// as a user of its operands (the verifier rejects such a user).
// CHECK-LABEL: func.func @consumer_without_flat_read
// CHECK:         %[[MM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         %[[IMG:.*]] = tensor.expand_shape %[[MM]]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IMG]], %y, %y
// CHECK-NOT:     tensor.collapse_shape %y
func.func @consumer_without_flat_read(%x: tensor<1x32x4x4xf32>, %w: tensor<16x32x1x1xf32>, %y: tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x4x4xf32>, tensor<16x32x1x1xf32>) outs(%init : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %y, %y : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) outs(%e : tensor<1x16x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %t: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.mulf %s, %t : f32
    linalg.yield %m : f32
  } -> tensor<1x16x4x4xf32>
  func.return %c : tensor<1x16x4x4xf32>
}

// -----

// A residual add of two flat results reads both flat (no collapse of either); a pad, which
// needs the image layout, reads the expand_shape (2x2 pixels: below padded-min-pixels, so the
// padded convs are ours to rewrite).
// CHECK-LABEL: func.func @residual_then_pad
// CHECK-COUNT-2: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         %[[ADD:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         %[[IMG:.*]] = tensor.expand_shape %[[ADD]]
// CHECK:         tensor.pad %[[IMG]] low[0, 0, 1, 1] high[0, 0, 1, 1]
func.func @residual_then_pad(%x: tensor<1x32x2x2xf32>, %w: tensor<24x32x1x1xf32>, %v: tensor<24x32x1x1xf32>) -> tensor<1x24x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x2x2xf32>) -> tensor<1x24x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x2x2xf32>, tensor<24x32x1x1xf32>) outs(%f : tensor<1x24x2x2xf32>) -> tensor<1x24x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %v : tensor<1x32x2x2xf32>, tensor<24x32x1x1xf32>) outs(%f : tensor<1x24x2x2xf32>) -> tensor<1x24x2x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<1x24x2x2xf32>, tensor<1x24x2x2xf32>) outs(%e : tensor<1x24x2x2xf32>) {
  ^bb0(%i: f32, %j: f32, %out: f32):
    %t = arith.addf %i, %j : f32
    linalg.yield %t : f32
  } -> tensor<1x24x2x2xf32>
  %p = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x24x2x2xf32> to tensor<1x24x4x4xf32>
  func.return %p : tensor<1x24x4x4xf32>
}

// -----

// Stride 2 (ResNet's downsampling shortcut): kept as a conv by default (measured faster in our
// regions); with strided=true a rank-reducing strided slice of the pixels it reads (an odd input
// size: the last row/column is never read), then the contraction over F x OH x OW.
// CHECK-LABEL: func.func @strided
// CHECK:         linalg.conv_2d_nchw_fchw
// ALL-LABEL:   func.func @strided
// ALL-SAME:      (%[[X:.*]]: tensor<1x32x9x9xf32>, %[[W:.*]]: tensor<4x32x1x1xf32>, %[[I:.*]]: tensor<1x4x5x5xf32>)
// ALL-DAG:       %[[S:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 32, 5, 5] [1, 1, 2, 2] : tensor<1x32x9x9xf32> to tensor<32x5x5xf32>
// ALL-DAG:       %[[W2:.*]] = tensor.collapse_shape %[[W]]
// ALL-DAG:       %[[I3:.*]] = tensor.collapse_shape %[[I]] {{.*}} : tensor<1x4x5x5xf32> into tensor<4x5x5xf32>
// ALL:           %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], {{.*}} ins(%[[S]], %[[W2]] : tensor<32x5x5xf32>, tensor<4x32xf32>) outs(%[[I3]] : tensor<4x5x5xf32>)
// ALL:           tensor.expand_shape %[[R]]
// ALL-NOT:       linalg.conv_2d
func.func @strided(%x: tensor<1x32x9x9xf32>, %w: tensor<4x32x1x1xf32>, %init: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x32x9x9xf32>, tensor<4x32x1x1xf32>) outs(%init : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  func.return %r : tensor<1x4x5x5xf32>
}

// -----

// An expansion from 8 channels stays a conv by default (the conv kernel was faster); every
// 1x1 conv is rewritten with min-channels=1.
// CHECK-LABEL: func.func @expansion
// CHECK:         linalg.conv_2d_nchw_fchw
// ALL-LABEL:   func.func @expansion
// ALL-NOT:       linalg.conv_2d
// ALL:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<48x8xf32>)
func.func @expansion(%x: tensor<1x8x8x8xf32>, %w: tensor<48x8x1x1xf32>, %init: tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x8x8xf32>, tensor<48x8x1x1xf32>) outs(%init : tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32>
  func.return %r : tensor<1x48x8x8xf32>
}

// -----

// Filter counts: squeeze-excite's 576-filter expansion is a matmul (max-filters=1024 by
// default), a 1280-filter head over 2x2 pixels stays a conv (its conv kernel was faster).
// CHECK-LABEL: func.func @filter_counts
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<144x1xf32>, tensor<576x144xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} tensor<1280x112x1x1xf32>
// CHECK-NOT:     linalg.conv_2d
func.func @filter_counts(%x: tensor<1x144x1x1xf32>, %w: tensor<576x144x1x1xf32>, %init: tensor<1x576x1x1xf32>, %y: tensor<1x112x2x2xf32>, %h: tensor<1280x112x1x1xf32>, %hinit: tensor<1x1280x2x2xf32>) -> (tensor<1x576x1x1xf32>, tensor<1x1280x2x2xf32>) {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x144x1x1xf32>, tensor<576x144x1x1xf32>) outs(%init : tensor<1x576x1x1xf32>) -> tensor<1x576x1x1xf32>
  %s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %h : tensor<1x112x2x2xf32>, tensor<1280x112x1x1xf32>) outs(%hinit : tensor<1x1280x2x2xf32>) -> tensor<1x1280x2x2xf32>
  func.return %r, %s : tensor<1x576x1x1xf32>, tensor<1x1280x2x2xf32>
}

// -----

// Never rewritten: a 3x3 conv, a depthwise 1x1 conv (not a matmul).
// CHECK-LABEL: func.func @not_1x1
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT:     linalg.generic
// ALL-LABEL:   func.func @not_1x1
// ALL:           linalg.conv_2d_nchw_fchw
// ALL:           linalg.depthwise_conv_2d_nchw_chw
// ALL-NOT:       linalg.generic
func.func @not_1x1(%x: tensor<1x32x10x10xf32>, %w: tensor<4x32x3x3xf32>, %init: tensor<1x4x8x8xf32>, %dw: tensor<32x1x1xf32>, %dinit: tensor<1x32x10x10xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x32x10x10xf32>) {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x10x10xf32>, tensor<4x32x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dw : tensor<1x32x10x10xf32>, tensor<32x1x1xf32>) outs(%dinit : tensor<1x32x10x10xf32>) -> tensor<1x32x10x10xf32>
  func.return %r, %d : tensor<1x4x8x8xf32>, tensor<1x32x10x10xf32>
}

// -----

// A batch of 2: the matmul keeps the batch as a parallel loop over the 4-D tensors.
// CHECK-LABEL: func.func @batched
// ALL-LABEL:   func.func @batched
// CHECK-NOT:     linalg.conv_2d
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<2x32x4x4xf32>, tensor<8x32xf32>) outs(%{{.*}} : tensor<2x8x4x4xf32>)
func.func @batched(%x: tensor<2x32x4x4xf32>, %w: tensor<8x32x1x1xf32>, %init: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x32x4x4xf32>, tensor<8x32x1x1xf32>) outs(%init : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  func.return %r : tensor<2x8x4x4xf32>
}

// -----

// A conv whose epilogue's only reader is a pad, over 4x4 = 16 pixels: kept as a conv, for
// IREE to form as a rank-3 matmul-like that writes the pad in its own dispatch
// (padded-min-pixels=0 rewrites it). The same conv read by a second user is rewritten.
// CHECK-LABEL: func.func @padded_left_to_iree
// CHECK:         %[[KEPT:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[W:.*]] : tensor<1x32x4x4xf32>, tensor<24x32x1x1xf32>)
// CHECK:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[KEPT]] : tensor<1x24x4x4xf32>)
// CHECK:         tensor.pad %[[RELU]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// ALL-LABEL:     func.func @padded_left_to_iree
// ALL-NOT:       linalg.conv_2d_nchw_fchw
func.func @padded_left_to_iree(%x: tensor<1x32x4x4xf32>, %w: tensor<24x32x1x1xf32>, %v: tensor<24x32x1x1xf32>) -> (tensor<1x24x6x6xf32>, tensor<1x24x6x6xf32>, tensor<1x24x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x4x4xf32>) -> tensor<1x24x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x4x4xf32>, tensor<24x32x1x1xf32>) outs(%f : tensor<1x24x4x4xf32>) -> tensor<1x24x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x24x4x4xf32>) outs(%e : tensor<1x24x4x4xf32>) {
  ^bb0(%i: f32, %out: f32):
    %t = arith.maximumf %i, %zero : f32
    linalg.yield %t : f32
  } -> tensor<1x24x4x4xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x24x4x4xf32> to tensor<1x24x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %v : tensor<1x32x4x4xf32>, tensor<24x32x1x1xf32>) outs(%f : tensor<1x24x4x4xf32>) -> tensor<1x24x4x4xf32>
  %q = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x24x4x4xf32> to tensor<1x24x6x6xf32>
  func.return %p, %q, %b : tensor<1x24x6x6xf32>, tensor<1x24x6x6xf32>, tensor<1x24x4x4xf32>
}

// -----

// efficientnet_b0's 1152-filter expansions over 2x2 pixels, read only by a pad (for the 5x5
// depthwise conv): past max-filters they stay convs, whose regions cannot write the pad (a copy
// dispatch); with padded-as-matmul they become matmuls (whose regions write it). The same
// filter count read unpadded, and a 3-channel expansion read unpadded, stay convs either way.
// CHECK-LABEL: func.func @padded_wide_filters
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw
// ALL-LABEL:     func.func @padded_wide_filters
// ALL-COUNT-2:   linalg.conv_2d_nchw_fchw {{.*}} tensor<1152x192x1x1xf32>
// ALL-NOT:       linalg.conv_2d_nchw_fchw
// PADDED-LABEL: func.func @padded_wide_filters
// PADDED:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<192x4xf32>, tensor<1152x192xf32>)
// PADDED:         tensor.pad
// PADDED-COUNT-2: linalg.conv_2d_nchw_fchw
// PADDED-NOT:     linalg.conv_2d_nchw_fchw
func.func @padded_wide_filters(%x: tensor<1x192x2x2xf32>, %w: tensor<1152x192x1x1xf32>, %y: tensor<1x3x2x2xf32>, %v: tensor<8x3x1x1xf32>) -> (tensor<1x1152x6x6xf32>, tensor<1x1152x2x2xf32>, tensor<1x8x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1152x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1152x2x2xf32>) -> tensor<1x1152x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x192x2x2xf32>, tensor<1152x192x1x1xf32>) outs(%f : tensor<1x1152x2x2xf32>) -> tensor<1x1152x2x2xf32>
  %p = tensor.pad %a low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x1152x2x2xf32> to tensor<1x1152x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x192x2x2xf32>, tensor<1152x192x1x1xf32>) outs(%f : tensor<1x1152x2x2xf32>) -> tensor<1x1152x2x2xf32>
  %e8 = tensor.empty() : tensor<1x8x2x2xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %v : tensor<1x3x2x2xf32>, tensor<8x3x1x1xf32>) outs(%f8 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  func.return %p, %b, %c : tensor<1x1152x6x6xf32>, tensor<1x1152x2x2xf32>, tensor<1x8x2x2xf32>
}
