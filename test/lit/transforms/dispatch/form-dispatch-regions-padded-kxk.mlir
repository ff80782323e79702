// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-kxk-min-pixels=0}" | filecheck %s --check-prefix=OFF
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-kxk-min-pixels=17}" | filecheck %s --check-prefix=OFF
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-strided-kxk=true}" | filecheck %s --check-prefix=STRIDED

// A stride-1 3x3 conv whose ReLU only a pad reads gets no region of ours (IREE forms it and
// writes the pad in its dispatch); the conv reading the pad is ours. Off with
// padded-kxk-min-pixels=0, or above the conv's 16 output pixels. Its init stays a linalg.fill,
// which IREE clones into the conv's dispatch as in its own input (a flow.tensor.splat init IREE
// 3.13's CUDA conv codegen fails to bufferize).
// CHECK-LABEL: func.func @padded_3x3
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NOT:     flow.tensor.splat
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[F]] : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x8x4x4xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[R]]
// CHECK:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>)
// CHECK-NOT:     flow.dispatch.region
// OFF-LABEL:     func.func @padded_3x3
// OFF:           flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// OFF:             linalg.conv_2d_nchw_fchw {{.*}} tensor<8x8x3x3xf32>
// OFF:           tensor.pad
// OFF:           flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// STRIDED-LABEL: func.func @padded_3x3
// STRIDED:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x8x4x4xf32>
// STRIDED:         tensor.pad
// STRIDED:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// STRIDED-NOT:     flow.dispatch.region
func.func @padded_3x3(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x3x3xf32>, %k: tensor<8x8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return %o : tensor<1x8x4x4xf32>
}

// -----

// Formed by us: a strided 3x3 conv (unless padded-strided-kxk: then IREE forms it and
// writes its pad), and a 3x3 conv whose result is also returned (the pad is not its only
// reader: formed by us either way).
// CHECK-LABEL: func.func @not_left_to_iree
// CHECK:         flow.dispatch.region -> (tensor<1x8x2x2xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2>
// CHECK:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// STRIDED-LABEL: func.func @not_left_to_iree
// STRIDED-NOT:     flow.dispatch.region -> (tensor<1x8x2x2xf32>)
// STRIDED:         %[[S:.*]] = linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2>
// STRIDED-NEXT:    tensor.pad %[[S]]
// STRIDED:         flow.dispatch.region -> (tensor<1x8x4x4xf32>)
// STRIDED:           linalg.conv_2d_nchw_fchw
// STRIDED-NOT:     flow.dispatch.region
func.func @not_left_to_iree(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x3x3xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x8x2x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%f2 : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  %sp = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x2x2xf32> to tensor<1x8x4x4xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %sp, %c, %p : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x6x6xf32>
}
