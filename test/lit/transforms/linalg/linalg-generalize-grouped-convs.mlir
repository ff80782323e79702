// RUN: fusion-opt %s --split-input-file -p linalg-generalize-grouped-convs | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu-fewest | filecheck %s --check-prefix=REGIONS

// A grouped 3x3 conv (stride 2, dilation 1) becomes a generic with the named op's own maps and
// payload; with its collapsed bias + ReLU it forms one region holding no named conv and no reshape
// (in the fewest-dispatch pipeline: dispatch-creation makes it gather + batched matmul first).
// CHECK-LABEL: func.func @grouped_conv
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, ((d3 * 2) + d6), ((d4 * 2) + d7))>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: f32, %[[W:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[I]], %[[W]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[O]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// REGIONS-LABEL: func.func @grouped_conv
// REGIONS:         flow.dispatch.region -> (tensor<1x16x4x8x8xf32>)
// REGIONS-NOT:       linalg.conv_2d_ngchw_gfchw
// REGIONS-NOT:       tensor.collapse_shape
// REGIONS:           flow.return
// REGIONS:         flow.tensor.reshape %{{.*}} : tensor<1x16x4x8x8xf32> -> tensor<1x64x8x8xf32>
func.func @grouped_conv(%x: tensor<1x16x4x17x17xf32>, %w: tensor<16x4x4x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x17x17xf32>, tensor<16x4x4x3x3xf32>) outs(%f : tensor<1x16x4x8x8xf32>) -> tensor<1x16x4x8x8xf32>
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

// Negative: ungrouped convs and batch-1 depthwise convs stay named ops (our other stages rewrite
// those, or IREE builds them).
// CHECK-LABEL: func.func @plain_convs
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT:     linalg.generic
func.func @plain_convs(%x: tensor<1x8x10x10xf32>, %w: tensor<8x8x3x3xf32>, %d: tensor<8x3x3xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %g = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %d : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %c, %g : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// A depthwise conv over a batch of 2 (mobilenet_v2 batched): the batch-1 stages leave it named,
// and with its ReLU6 in one region IREE's CPU codegen overflowed its stack; as a generic with the
// op's own maps and payload it builds.
// CHECK-LABEL: func.func @batched_depthwise
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, (d1 + d4), (d2 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<2x8x10x10xf32>, tensor<8x3x3xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// REGIONS-LABEL: func.func @batched_depthwise
// REGIONS:         flow.dispatch.region -> (tensor<2x8x8x8xf32>)
// REGIONS-NOT:       linalg.depthwise_conv_2d_nchw_chw
// REGIONS:           arith.minimumf
// REGIONS:           flow.return
func.func @batched_depthwise(%x: tensor<2x8x10x10xf32>, %d: tensor<8x3x3xf32>) -> tensor<2x8x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %d : tensor<2x8x10x10xf32>, tensor<8x3x3xf32>) outs(%f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.maximumf %i, %z : f32
    %s = arith.minimumf %r, %six : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x8xf32>
  func.return %g : tensor<2x8x8x8xf32>
}

// -----

// The same over a dynamic batch (an export with a symbolic batch axis), strided.
// CHECK-LABEL: func.func @dynamic_batch_depthwise
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, ((d1 * 2) + d4), ((d2 * 2) + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2)>]
// CHECK-SAME:      outs(%{{.*}} : tensor<?x8x4x4xf32>)
func.func @dynamic_batch_depthwise(%x: tensor<?x8x9x9xf32>, %d: tensor<8x3x3xf32>) -> tensor<?x8x4x4xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8x9x9xf32>
  %e = tensor.empty(%n) : tensor<?x8x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x8x4x4xf32>) -> tensor<?x8x4x4xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %d : tensor<?x8x9x9xf32>, tensor<8x3x3xf32>) outs(%f : tensor<?x8x4x4xf32>) -> tensor<?x8x4x4xf32>
  func.return %c : tensor<?x8x4x4xf32>
}

// -----

// A video model's NCDHW 3-D conv (r3d_18's 3x7x7 stem: with its bias + ReLU in one region IREE's
// CPU codegen kept a 64 x 56 x 56 tile on the stack, "Got 802816 bytes") becomes a generic with
// the op's own maps and payload, as IREE's own build does; so does a depthwise one.
// CHECK-LABEL: func.func @conv_3d
// CHECK-NOT:     linalg.conv_3d_ncdhw_fcdhw
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, (d2 + d6), ((d3 * 2) + d7), ((d4 * 2) + d8))>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.depthwise_conv_3d_ncdhw_cdhw
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<1x8x4x4x4xf32>, tensor<8x3x3x3xf32>)
// REGIONS-LABEL: func.func @conv_3d
// REGIONS-NOT:     linalg.conv_3d_ncdhw_fcdhw
// REGIONS:         flow.dispatch.region -> (tensor<1x8x4x4x4xf32>)
func.func @conv_3d(%x: tensor<1x3x6x10x10xf32>, %w: tensor<8x3x3x3x3xf32>, %d: tensor<8x3x3x3xf32>) -> tensor<1x8x2x2x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x4x4x4xf32>) -> tensor<1x8x4x4x4xf32>
  %c = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<[1, 2, 2]> : vector<3xi64>} ins(%x, %w : tensor<1x3x6x10x10xf32>, tensor<8x3x3x3x3xf32>) outs(%f : tensor<1x8x4x4x4xf32>) -> tensor<1x8x4x4x4xf32>
  %e2 = tensor.empty() : tensor<1x8x2x2x2xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x8x2x2x2xf32>) -> tensor<1x8x2x2x2xf32>
  %g = linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%c, %d : tensor<1x8x4x4x4xf32>, tensor<8x3x3x3xf32>) outs(%f2 : tensor<1x8x2x2x2xf32>) -> tensor<1x8x2x2x2xf32>
  func.return %g : tensor<1x8x2x2x2xf32>
}
