// The CUDA pipeline (dispatch-creation-cuda): a projection at 64 tokens is split along K (its
// partial sums one dispatch, their sum with the bias + tanh epilogue a second), a 1x1 conv stays
// IREE's conv named op (dispatch-creation makes it a matmul), and decomposed attention becomes
// one iree_linalg_ext.attention dispatch.
// RUN: fusion-opt %s -p dispatch-creation-cuda | filecheck %s
// RUN: fusion-opt %data/gpt2_attention_fragment.mlir -p dispatch-creation-cuda | filecheck %s --check-prefix=ATTN
// RUN: fusion-opt %s -p dispatch-creation | filecheck %s --check-prefix=CPU

// CHECK-LABEL: func.func @projection_bias_conv
// CHECK:         flow.dispatch.region -> (tensor<4x1x64x128xf32>) {
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<1x64x128xf32>) {
// CHECK:           ins(%{{.*}} : tensor<4x1x64x128xf32>)
// CHECK:           math.tanh
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<1x16x8x8xf32>) {
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK-NOT:     flow.dispatch.region
// CPU-LABEL: func.func @projection_bias_conv
// CPU-NOT:     linalg.conv_2d_nchw_fchw
// CPU-NOT:     tensor<4x1x64x128xf32>

// ATTN-LABEL: func.func @attention_fragment
// ATTN:         flow.dispatch.region
// ATTN:           iree_linalg_ext.attention
// ATTN-NOT:     flow.dispatch.region
func.func @projection_bias_conv(%x: tensor<1x64x128xf32>, %w: tensor<128x128xf32>, %b: tensor<128xf32>, %img: tensor<1x32x8x8xf32>, %f: tensor<16x32x1x1xf32>) -> (tensor<1x64x128xf32>, tensor<1x16x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x128xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  %m = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x64x128xf32>, tensor<128x128xf32>) outs(%fill : tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x64x128xf32>, tensor<128xf32>) outs(%e : tensor<1x64x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<1x64x128xf32>
  %ce = tensor.empty() : tensor<1x16x8x8xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %f : tensor<1x32x8x8xf32>, tensor<16x32x1x1xf32>) outs(%cf : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  func.return %r, %conv : tensor<1x64x128xf32>, tensor<1x16x8x8xf32>
}
