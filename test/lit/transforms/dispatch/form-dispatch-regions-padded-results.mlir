// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-results=0}" | filecheck %s --check-prefix=OFF
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-shared-results=true}" | filecheck %s --check-prefix=SHARED

// A contraction region whose flat result only a pad reads (through an expand_shape, as the
// im2col matmul of a strided conv writes it) stores into the interior of a splat of the padded
// shape, as IREE's own conv dispatches do: no copy dispatch for the pad.
// CHECK-LABEL: func.func @flat_matmul_then_pad
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<1x8x6x6xf32>
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x8x6x6xf32>)
// CHECK:           %[[M:.*]] = linalg.generic {{.*}}"reduction"
// CHECK:           %[[E:.*]] = linalg.generic {{.*}} ins(%[[M]]
// CHECK:           %[[X:.*]] = tensor.expand_shape %[[E]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 8, 4, 4]
// CHECK:           %[[I:.*]] = tensor.insert_slice %[[X]] into %[[S]][0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
// CHECK:           flow.return %[[I]] : tensor<1x8x6x6xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[R]]
// OFF-LABEL: func.func @flat_matmul_then_pad
// OFF:         flow.dispatch.region -> (tensor<8x16xf32>)
// OFF-NOT:       tensor.insert_slice
// OFF:         flow.tensor.reshape
// OFF:         tensor.pad
func.func @flat_matmul_then_pad(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mul = arith.mulf %a, %b : f32
    %s = arith.addf %c, %mul : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x16xf32>) outs(%oe : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %mx = arith.maximumf %a, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<8x16xf32>
  %x = tensor.expand_shape %r [[0, 1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<8x16xf32> into tensor<1x8x4x4xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %padded : tensor<1x8x6x6xf32>
}

// -----

// The pad of the contraction's own result (no reshape), with -inf and only high padding (a
// ceil-mode max pool's pad): the same.
// CHECK-LABEL: func.func @matmul_then_neg_inf_pad
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<9x17xf32>
// CHECK:         flow.dispatch.region -> (tensor<9x17xf32>)
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][0, 0] [8, 16] [1, 1]
// CHECK-NOT:     tensor.pad
func.func @matmul_then_neg_inf_pad(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> tensor<9x17xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %padded = tensor.pad %m low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %ninf : f32
  } : tensor<8x16xf32> to tensor<9x17xf32>
  func.return %padded : tensor<9x17xf32>
}

// -----

// The pad value as the ONNX importer writes it, a constant inside the pad's body: the region
// takes the pad the same way, the constant cloned in front of the fill.
// CHECK-LABEL: func.func @pad_value_in_body
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<10x18xf32>
// CHECK:         flow.dispatch.region -> (tensor<10x18xf32>)
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][1, 1] [8, 16] [1, 1]
// CHECK-NOT:     tensor.pad
// OFF-LABEL:   func.func @pad_value_in_body
// OFF:           tensor.pad
func.func @pad_value_in_body(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> tensor<10x18xf32> {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %padded = tensor.pad %m low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  } : tensor<8x16xf32> to tensor<10x18xf32>
  func.return %padded : tensor<10x18xf32>
}

// -----

// The unpadded result is read too (returned): the region keeps it, the pad stays a copy.
// So with padded-shared-results: the pad reads the result itself, not through a reshape
// (IREE 3.13 fails to build a region storing one value both plain and padded).
// CHECK-LABEL: func.func @result_read_twice
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<8x16xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[R]]
// SHARED-LABEL: func.func @result_read_twice
// SHARED:         %[[R:.*]] = flow.dispatch.region -> (tensor<8x16xf32>)
// SHARED-NOT:       tensor.insert_slice
// SHARED:         tensor.pad %[[R]]
func.func @result_read_twice(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> (tensor<10x18xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %padded = tensor.pad %m low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x16xf32> to tensor<10x18xf32>
  func.return %padded, %m : tensor<10x18xf32>, tensor<8x16xf32>
}

// -----

// Shared through the reshape (a squeeze 1x1 conv's flat result, read by the next 1x1 conv and
// padded for the 3x3 one): with padded-shared-results the region writes the flat result and
// the padded image, as a new last result (one more store, no copy).
// CHECK-LABEL: func.func @reshaped_result_read_twice
// CHECK:         tensor.pad
// SHARED-LABEL: func.func @reshaped_result_read_twice
// SHARED:         %[[R:.*]], %[[P:.*]] = flow.dispatch.region -> (tensor<8x16xf32>, tensor<1x8x6x6xf32>)
// SHARED:           %[[X:.*]] = tensor.expand_shape
// SHARED:           tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
// SHARED-NOT:     tensor.pad
// SHARED:         %[[E:.*]] = flow.tensor.reshape %[[R]]
// SHARED:         return %[[P]], %[[E]]
func.func @reshaped_result_read_twice(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x16xf32>) outs(%oe : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %mx = arith.maximumf %a, %zero : f32
    linalg.yield %mx : f32
  } -> tensor<8x16xf32>
  %x = tensor.expand_shape %r [[0, 1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<8x16xf32> into tensor<1x8x4x4xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %padded, %x : tensor<1x8x6x6xf32>, tensor<1x8x4x4xf32>
}

// -----

// The flat result read by another op and, through a reshape, by the pad (a residual block's
// output: read by the next residual add and, padded, by the next 3x3 conv): the same with
// padded-shared-results.
// CHECK-LABEL: func.func @result_and_reshape_read
// CHECK:         tensor.pad
// SHARED-LABEL: func.func @result_and_reshape_read
// SHARED:         %[[R:.*]], %[[P:.*]] = flow.dispatch.region -> (tensor<8x16xf32>, tensor<1x8x6x6xf32>)
// SHARED:           %[[X:.*]] = tensor.expand_shape
// SHARED:           tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
// SHARED-NOT:     tensor.pad
// SHARED:         return %[[P]], %[[R]]
func.func @result_and_reshape_read(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> (tensor<1x8x6x6xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<8x16xf32> into tensor<1x8x4x4xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %padded, %m : tensor<1x8x6x6xf32>, tensor<8x16xf32>
}

// -----

// Not a contraction region (an elementwise one; a low pad never joins it): the pad stays a
// copy. Nor a pad whose value depends on the position (not one value to fill with).
// CHECK-LABEL: func.func @not_taken
// CHECK:         %[[A:.*]] = flow.dispatch.region -> (tensor<8x16xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[A]] low[1, 1]
// CHECK:         %[[B:.*]] = flow.dispatch.region -> (tensor<8x16xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[B]] low[0, 0] high[1, 1]
// SHARED-LABEL: func.func @not_taken
// SHARED-NOT:     tensor.insert_slice
// SHARED-COUNT-2: tensor.pad
func.func @not_taken(%x: tensor<8x16xf32>, %w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> (tensor<10x18xf32>, tensor<9x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%oe : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ex = math.exp %a : f32
    linalg.yield %ex : f32
  } -> tensor<8x16xf32>
  %pe = tensor.pad %e low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x16xf32> to tensor<10x18xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %pm = tensor.pad %m low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    tensor.yield %fi : f32
  } : tensor<8x16xf32> to tensor<9x17xf32>
  func.return %pe, %pm : tensor<10x18xf32>, tensor<9x17xf32>
}

// -----

// The pad value is a constant defined after the matmul: it moves up, before the fill.
// CHECK-LABEL: func.func @late_pad_value
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[S:.*]] = flow.tensor.splat %[[ONE]] : tensor<10x18xf32>
// CHECK:         flow.dispatch.region -> (tensor<10x18xf32>)
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][1, 1] [8, 16] [1, 1]
// CHECK-NOT:     tensor.pad
func.func @late_pad_value(%w: tensor<8x36xf32>, %p: tensor<36x16xf32>) -> tensor<10x18xf32> {
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%w, %p : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) -> tensor<8x16xf32>
  %one = arith.constant 1.0 : f32
  %padded = tensor.pad %m low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<8x16xf32> to tensor<10x18xf32>
  func.return %padded : tensor<10x18xf32>
}

// -----

// A conv root keeps the copy: IREE 3.13 builds a conv region storing into the padded buffer but
// the module crashes at run time (mobilenet_v3_small's 1x1 convs at 2x2 pixels).
// CHECK-LABEL: func.func @conv_then_pad
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x8x2x2xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[R]] low[0, 0, 2, 2] high[0, 0, 2, 2]
func.func @conv_then_pad(%x: tensor<1x4x2x2xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x2x2xf32>, tensor<8x4x1x1xf32>) outs(%f : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %padded = tensor.pad %c low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x2x2xf32> to tensor<1x8x6x6xf32>
  func.return %padded : tensor<1x8x6x6xf32>
}

// -----

// A generalized conv (a video model's 3-D conv as a generic reading its input through windows,
// `linalg-generalize-grouped-convs`) keeps the copy too: IREE 3.13 fails to build its store into
// the padded buffer ("slice along dimension 4 runs out-of-bounds", r3d_18).
// CHECK-LABEL: func.func @generic_conv_3d_then_pad
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x4x2x2x2xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[R]] low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1]
func.func @generic_conv_3d_then_pad(%x: tensor<1x2x4x4x4xf32>, %w: tensor<4x2x3x3x3xf32>) -> tensor<1x4x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x2x2x2xf32>) -> tensor<1x4x2x2x2xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 + d6, d3 + d7, d4 + d8)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x4x4x4xf32>, tensor<4x2x3x3x3xf32>) outs(%f : tensor<1x4x2x2x2xf32>) {
  ^bb0(%i: f32, %k: f32, %o: f32):
    %m = arith.mulf %i, %k : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x2x2xf32>
  %padded = tensor.pad %c low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1] {
  ^bb0(%a: index, %b: index, %d: index, %g: index, %h: index):
    tensor.yield %zero : f32
  } : tensor<1x4x2x2x2xf32> to tensor<1x4x4x4x4xf32>
  func.return %padded : tensor<1x4x4x4x4xf32>
}

// -----

// A channels-last conv root (linalg-conv-channels-last) writes its pad, at any size (no element
// cap: 1x16x16x8 here is 2048, the 32x32x16 convs of resnet_mini 16384); a second reader of the
// same result keeps the copy (IREE 3.13 computed wrong values when it read the padded buffer's
// interior).
// CHECK-LABEL: func.func @channels_last_conv_then_pad
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<1x18x18x8xf32>
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x18x18x8xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][0, 1, 1, 0] [1, 16, 16, 8] [1, 1, 1, 1]
// CHECK:         %[[T:.*]] = flow.dispatch.region -> (tensor<1x16x16x8xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[T]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// OFF-LABEL: func.func @channels_last_conv_then_pad
// OFF-NOT:       tensor.insert_slice
// OFF-COUNT-2:   tensor.pad
// padded-shared-results leaves the second one too: IREE 3.13's conv pipeline fails to build a
// conv region storing its result twice (resnet18).
// SHARED-LABEL: func.func @channels_last_conv_then_pad
// SHARED:         flow.dispatch.region -> (tensor<1x18x18x8xf32>)
// SHARED:         %[[T:.*]] = flow.dispatch.region -> (tensor<1x16x16x8xf32>)
// SHARED-NOT:       tensor.insert_slice
// SHARED:         tensor.pad %[[T]] low[0, 1, 1, 0] high[0, 1, 1, 0]
func.func @channels_last_conv_then_pad(%x: tensor<1x18x18x4xf32>, %w: tensor<3x3x4x8xf32>) -> (tensor<1x18x18x8xf32>, tensor<1x18x18x8xf32>, tensor<1x16x16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x18x18x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %padded = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x18x18x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %padded2 = tensor.pad %c2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  func.return %padded, %padded2, %c2 : tensor<1x18x18x8xf32>, tensor<1x18x18x8xf32>, tensor<1x16x16x8xf32>
}

// -----

// A channels-last conv region whose result is padded along W only (Inception-v3's 7x1 conv
// feeding a 1x7 one) keeps the copy: IREE 3.13's conv pipeline fails to configure a store into a
// buffer padded along W or C but not H (bench/iree_limits.py,
// channels_last_conv_into_column_padded). The 1x7 conv's result, padded along H, is stored.
// CHECK-LABEL: func.func @channels_last_conv_then_column_pad
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x17x17x8xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[R]] low[0, 0, 3, 0] high[0, 0, 3, 0]
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<1x23x17x8xf32>
// CHECK:         flow.dispatch.region -> (tensor<1x23x17x8xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK:           tensor.insert_slice %{{.*}} into %[[S]][0, 3, 0, 0] [1, 17, 17, 8] [1, 1, 1, 1]
// OFF-LABEL: func.func @channels_last_conv_then_column_pad
// OFF-NOT:       tensor.insert_slice
// OFF-COUNT-2:   tensor.pad
func.func @channels_last_conv_then_column_pad(%x: tensor<1x23x17x8xf32>, %w71: tensor<7x1x8x8xf32>, %w17: tensor<1x7x8x8xf32>) -> tensor<1x23x17x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x17x17x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x17x17x8xf32>) -> tensor<1x17x17x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w71 : tensor<1x23x17x8xf32>, tensor<7x1x8x8xf32>) outs(%f : tensor<1x17x17x8xf32>) -> tensor<1x17x17x8xf32>
  %wide = tensor.pad %c low[0, 0, 3, 0] high[0, 0, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x17x17x8xf32> to tensor<1x17x23x8xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%wide, %w17 : tensor<1x17x23x8xf32>, tensor<1x7x8x8xf32>) outs(%f : tensor<1x17x17x8xf32>) -> tensor<1x17x17x8xf32>
  %tall = tensor.pad %c2 low[0, 3, 0, 0] high[0, 3, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x17x17x8xf32> to tensor<1x23x17x8xf32>
  func.return %tall : tensor<1x23x17x8xf32>
}

// -----

// A channels-last conv region whose epilogue transposes back to NCHW (for a grouped or NCHW-only
// reader) keeps the copy: IREE 3.13 fails to build that padded store or writes wrong values,
// some outside the buffer (bench/iree_limits.py, channels_last_conv_transposed_into_padded).
// CHECK-LABEL: func.func @channels_last_conv_transposed_then_pad
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x8x16x16xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:       tensor.insert_slice
// CHECK:         tensor.pad %[[R]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// OFF-LABEL: func.func @channels_last_conv_transposed_then_pad
// OFF-NOT:       tensor.insert_slice
// OFF:           tensor.pad
func.func @channels_last_conv_transposed_then_pad(%x: tensor<1x16x16x4xf32>, %w: tensor<1x1x4x8xf32>) -> tensor<1x8x18x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x16x4xf32>, tensor<1x1x4x8xf32>) outs(%f : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %te = tensor.empty() : tensor<1x8x16x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x16x16x8xf32>) outs(%te : tensor<1x8x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x16x16xf32>
  %padded = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  func.return %padded : tensor<1x8x18x18xf32>
}

// -----

// Sibling 1x1 convs computed in one loop nest (`linalg-horizontal-fuse-1x1-convs`), each result
// padded for its own next conv: the one region stores both into their padded buffers.
// CHECK-LABEL: func.func @sibling_contractions_padded
// CHECK-DAG:     %[[SA:.*]] = flow.tensor.splat %{{.*}} : tensor<1x16x6x6xf32>
// CHECK-DAG:     %[[SB:.*]] = flow.tensor.splat %{{.*}} : tensor<1x16x8x8xf32>
// CHECK:         %[[RA:.*]], %[[RB:.*]] = flow.dispatch.region -> (tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>)
// CHECK-DAG:       tensor.insert_slice %{{.*}} into %[[SA]][0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1]
// CHECK-DAG:       tensor.insert_slice %{{.*}} into %[[SB]][0, 0, 2, 2] [1, 16, 4, 4] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[RA]], %[[RB]]
func.func @sibling_contractions_padded(%x: tensor<32x4x4xf32>, %wa: tensor<16x32xf32>, %wb: tensor<16x32xf32>) -> (tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %a, %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wa, %wb : tensor<32x4x4xf32>, tensor<16x32xf32>, tensor<16x32xf32>) outs(%f, %f : tensor<16x4x4xf32>, tensor<16x4x4xf32>) {
  ^bb0(%in: f32, %ia: f32, %ib: f32, %oa: f32, %ob: f32):
    %pa = arith.mulf %in, %ia : f32
    %sa = arith.addf %oa, %pa : f32
    %pb = arith.mulf %in, %ib : f32
    %sb = arith.addf %ob, %pb : f32
    linalg.yield %sa, %sb : f32, f32
  } -> (tensor<16x4x4xf32>, tensor<16x4x4xf32>)
  %xa = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [1, 16, 4, 4] : tensor<16x4x4xf32> into tensor<1x16x4x4xf32>
  %pa = tensor.pad %xa low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4x4xf32> to tensor<1x16x6x6xf32>
  %xb = tensor.expand_shape %b [[0, 1], [2], [3]] output_shape [1, 16, 4, 4] : tensor<16x4x4xf32> into tensor<1x16x4x4xf32>
  %pb = tensor.pad %xb low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4x4xf32> to tensor<1x16x8x8xf32>
  func.return %pa, %pb : tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>
}

// -----

// Negative for the second pad: both results padded to the same type. IREE merges the two equal
// splats into one buffer that both stores would claim and fails to build the region, so only
// the first pad is written; the second stays a copy.
// CHECK-LABEL: func.func @sibling_contractions_same_pads
// CHECK:         flow.dispatch.region -> (tensor<1x16x6x6xf32>, tensor<16x4x4xf32>)
// CHECK:           tensor.insert_slice
// CHECK-NOT:       tensor.insert_slice
// CHECK:           flow.return
// CHECK:         tensor.pad
func.func @sibling_contractions_same_pads(%x: tensor<32x4x4xf32>, %wa: tensor<16x32xf32>, %wb: tensor<16x32xf32>) -> (tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %a, %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wa, %wb : tensor<32x4x4xf32>, tensor<16x32xf32>, tensor<16x32xf32>) outs(%f, %f : tensor<16x4x4xf32>, tensor<16x4x4xf32>) {
  ^bb0(%in: f32, %ia: f32, %ib: f32, %oa: f32, %ob: f32):
    %pa = arith.mulf %in, %ia : f32
    %sa = arith.addf %oa, %pa : f32
    %pb = arith.mulf %in, %ib : f32
    %sb = arith.addf %ob, %pb : f32
    linalg.yield %sa, %sb : f32, f32
  } -> (tensor<16x4x4xf32>, tensor<16x4x4xf32>)
  %xa = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [1, 16, 4, 4] : tensor<16x4x4xf32> into tensor<1x16x4x4xf32>
  %pa = tensor.pad %xa low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4x4xf32> to tensor<1x16x6x6xf32>
  %xb = tensor.expand_shape %b [[0, 1], [2], [3]] output_shape [1, 16, 4, 4] : tensor<16x4x4xf32> into tensor<1x16x4x4xf32>
  %pb = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4x4xf32> to tensor<1x16x6x6xf32>
  func.return %pa, %pb : tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>
}

// -----

// Negative: a contraction region whose epilogue transposes (a dense layer's tokens written back
// as an NCHW image, SegFormer's Mix-FFN before its depthwise conv) keeps its pad as a copy:
// IREE 3.13 builds the padded store but writes wrong values, some outside the buffer
// (`transposed_matmul_into_padded` in bench/iree_limits_found.py).
// CHECK-LABEL: func.func @transposed_matmul_then_pad
// CHECK:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x8x16xf32>)
// CHECK-NOT:       tensor.insert_slice
// CHECK:           flow.return
// CHECK:         tensor.pad
// OFF-LABEL:   func.func @transposed_matmul_then_pad
// OFF:           tensor.pad
func.func @transposed_matmul_then_pad(%x: tensor<16x4xf32>, %w: tensor<4x8xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %et = tensor.empty() : tensor<1x8x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<16x8xf32>) outs(%et : tensor<1x8x16xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<1x8x16xf32>
  %img = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<1x8x16xf32> into tensor<1x8x4x4xf32>
  %p = tensor.pad %img low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %p : tensor<1x8x6x6xf32>
}
