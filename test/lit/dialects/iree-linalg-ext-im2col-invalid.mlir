// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @position_twice(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) {
  // expected-error@+1 {{batch_pos, m_pos and k_pos must name each input dim once}}
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [3, 3, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [2] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return
}

// -----

func.func @strides_per_window_dim(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) {
  // expected-error@+1 {{strides, dilations and kernel_size need one entry per m_pos dim}}
  %0 = iree_linalg_ext.im2col strides = [1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [3, 3, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return
}

// -----

func.func @k_sizes_short(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) {
  // expected-error@+1 {{the K output sizes must cover the kernel window and k_pos dims}}
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [9, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return
}

// -----

func.func @output_perm_not_a_permutation(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) {
  // expected-error@+1 {{output_perm must permute the 3 output dims}}
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [3, 3, 640]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 1]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return
}

// -----

func.func @padding_without_value(%in: tensor<1x5x5x2xf32>, %out: tensor<1x25x18xf32>) {
  // expected-error@+1 {{padding needs a pad_value of the element type}}
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         offsets = [0, 0, 0] output_sizes = [[1], [5, 5], [3, 3, 2]]
         batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
         input_pad_low = [0, 1, 1, 0] input_pad_high = [0, 1, 1, 0]
         ins(%in : tensor<1x5x5x2xf32>) outs(%out : tensor<1x25x18xf32>) -> tensor<1x25x18xf32>
  func.return
}

// -----

func.func @old_offset_syntax(%in: tensor<2x34x34x640xf32>, %out: tensor<2x1024x5760xf32>) {
  // expected-error@+2 {{Expected 'offsets'}}
  %0 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
         m_offset = [0] * [1] k_offset = [0] * [1] batch_pos = [0] m_pos = [1, 2] k_pos = [3]
         ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  func.return
}
