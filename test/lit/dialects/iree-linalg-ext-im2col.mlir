// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// IREE 3.13's syntax: offsets and output_sizes per output dim (batch, M, K), the window and
// channel dims by position, both permutations printed.
// CHECK-LABEL: func.func @im2col
// CHECK: iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = {{\[\[}}2], [32, 32], [3, 3, 640]] batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%{{.*}} : tensor<2x34x34x640xf32>) outs(%{{.*}} : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
func.func @im2col(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32> {
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [3, 3, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return %0 : tensor<2x1024x5760xf32>
}

// -----

// Index values among the offsets and pads, input and output padding with its pad value.
// CHECK-LABEL: func.func @im2col_padded_tile
// CHECK-SAME: %[[M:[a-zA-Z0-9_]+]]: index, %[[K:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index
// CHECK: iree_linalg_ext.im2col {{.*}} offsets = [0, %[[M]], %[[K]]] output_sizes = {{\[\[}}2], [32, 32], [3, 3, 640]] {{.*}} input_pad_low = [0, 1, 1, 0] input_pad_high = [0, 1, 1, 0] output_pad_low = [0, 0, 0] output_pad_high = [0, %[[H]], 0] pad_value(%{{.*}} : f32) ins(
func.func @im2col_padded_tile(%input: tensor<2x34x34x640xf32>, %m_off: index, %k_off: index, %high: index) -> tensor<2x2x4xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<2x2x4xf32>
  %1 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, %m_off, %k_off] output_sizes = [[2], [32, 32], [3, 3, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         input_pad_low = [0, 1, 1, 0] input_pad_high = [0, 1, 1, 0]
         output_pad_low = [0, 0, 0] output_pad_high = [0, %high, 0] pad_value(%cst : f32)
         ins(%input : tensor<2x34x34x640xf32>) outs(%0 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  func.return %1 : tensor<2x2x4xf32>
}

// -----

// NCHW input with the channel first in K (input_k_perm), K before M in the output.
// CHECK-LABEL: func.func @im2col_nchw_k_first
// CHECK: m_pos = [2, 3] k_pos = [1] input_k_perm = [1, 2, 0] output_perm = [0, 2, 1]
func.func @im2col_nchw_k_first(%in: tensor<1x3x5x5xf32>, %out: tensor<1x27x9xf32>) -> tensor<1x27x9xf32> {
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[1], [3, 3], [3, 3, 3]]
         batch_pos = [0] m_pos = [2, 3] k_pos = [1] input_k_perm = [1, 2, 0] output_perm = [0, 2, 1]
         ins(%in : tensor<1x3x5x5xf32>) outs(%out : tensor<1x27x9xf32>) -> tensor<1x27x9xf32>
  func.return %0 : tensor<1x27x9xf32>
}
