// RUN: fusion-opt %s --split-input-file -p dispatch-im2col-cpu-tiles | filecheck %s

// The pass: fusionopt/transforms/dispatch/im2col_cpu_tiles.py. A 3x3 conv as IREE's im2col op
// ([K, P] patches of an NCHW image, its pad inside) and a filter-first matmul in one region, as
// the `-fewest` pipelines form it: one patch row a reduction step, `rows` filters x 16 pixels a
// register tile, up to 64 x 64 a workgroup.

// -----

// 32 filters, 1024 pixels, 144 taps: 8-filter register tiles, a workgroup of 32 x 64.
// CHECK-LABEL: func.func @filters_32_at_32x32
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [32, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @filters_32_at_32x32(%x: tensor<16x32x32xf32>, %w: tensor<32x144xf32>) -> tensor<32x1024xf32> {
  %r = flow.dispatch.region -> (tensor<32x1024xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<144x1024xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[32, 32], [16, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<16x32x32xf32>) outs(%pe : tensor<144x1024xf32>) -> tensor<144x1024xf32>
    %oe = tensor.empty() : tensor<32x1024xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<32x1024xf32>) -> tensor<32x1024xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<32x144xf32>, tensor<144x1024xf32>) outs(%init : tensor<32x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<32x1024xf32>
    flow.return %mm : tensor<32x1024xf32>
  }
  return %r : tensor<32x1024xf32>
}

// -----

// Swin2SR's 180 filters: 8 does not divide them, 6 does; workgroups of 60 filters.
// CHECK-LABEL: func.func @filters_180_at_16x16
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [60, 64, 0], vector_common_parallel = [6, 16, 0], vector_reduction = [0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @filters_180_at_16x16(%x: tensor<20x16x16xf32>, %w: tensor<180x180xf32>) -> tensor<180x256xf32> {
  %r = flow.dispatch.region -> (tensor<180x256xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<180x256xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[16, 16], [20, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<20x16x16xf32>) outs(%pe : tensor<180x256xf32>) -> tensor<180x256xf32>
    %oe = tensor.empty() : tensor<180x256xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<180x256xf32>) -> tensor<180x256xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<180x180xf32>, tensor<180x256xf32>) outs(%init : tensor<180x256xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<180x256xf32>
    flow.return %mm : tensor<180x256xf32>
  }
  return %r : tensor<180x256xf32>
}

// -----

// 7 filters at 8x8 (64 pixels), 72 taps: one 7-filter register tile, the whole image a workgroup.
// CHECK-LABEL: func.func @filters_7_at_8x8
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [7, 64, 0], vector_common_parallel = [7, 16, 0], vector_reduction = [0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @filters_7_at_8x8(%x: tensor<8x8x8xf32>, %w: tensor<7x72xf32>) -> tensor<7x64xf32> {
  %r = flow.dispatch.region -> (tensor<7x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<72x64xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[8, 8], [8, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<8x8x8xf32>) outs(%pe : tensor<72x64xf32>) -> tensor<72x64xf32>
    %oe = tensor.empty() : tensor<7x64xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<7x64xf32>) -> tensor<7x64xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<7x72xf32>, tensor<72x64xf32>) outs(%init : tensor<7x64xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<7x64xf32>
    flow.return %mm : tensor<7x64xf32>
  }
  return %r : tensor<7x64xf32>
}

// -----

// A stem's 27 taps (3 channels): IREE's own step (faster there, and quick to build).
// CHECK-LABEL: func.func @stem_taps
// CHECK:         linalg.generic
// CHECK-NOT:     vector_reduction = [0, 0, 1]
func.func @stem_taps(%x: tensor<3x16x16xf32>, %w: tensor<32x27xf32>) -> tensor<32x256xf32> {
  %r = flow.dispatch.region -> (tensor<32x256xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<27x256xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[16, 16], [3, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<3x16x16xf32>) outs(%pe : tensor<27x256xf32>) -> tensor<27x256xf32>
    %oe = tensor.empty() : tensor<32x256xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<32x256xf32>) -> tensor<32x256xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<32x27xf32>, tensor<27x256xf32>) outs(%init : tensor<32x256xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<32x256xf32>
    flow.return %mm : tensor<32x256xf32>
  }
  return %r : tensor<32x256xf32>
}

// -----

// 36 pixels do not fill 16-lane vectors: left to IREE.
// CHECK-LABEL: func.func @pixels_not_whole_vectors
// CHECK:         linalg.generic
// CHECK-NOT:     vector_reduction = [0, 0, 1]
func.func @pixels_not_whole_vectors(%x: tensor<8x6x6xf32>, %w: tensor<16x72xf32>) -> tensor<16x36xf32> {
  %r = flow.dispatch.region -> (tensor<16x36xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<72x36xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[6, 6], [8, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<8x6x6xf32>) outs(%pe : tensor<72x36xf32>) -> tensor<72x36xf32>
    %oe = tensor.empty() : tensor<16x36xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<16x36xf32>) -> tensor<16x36xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<16x72xf32>, tensor<72x36xf32>) outs(%init : tensor<16x36xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<16x36xf32>
    flow.return %mm : tensor<16x36xf32>
  }
  return %r : tensor<16x36xf32>
}

// -----

// A config of its own is kept.
// CHECK-LABEL: func.func @configured_already
// CHECK:         linalg.generic
// CHECK-SAME:      vector_reduction = [0, 0, 4]
func.func @configured_already(%x: tensor<16x32x32xf32>, %w: tensor<32x144xf32>) -> tensor<32x1024xf32> {
  %r = flow.dispatch.region -> (tensor<32x1024xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<144x1024xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[32, 32], [16, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<16x32x32xf32>) outs(%pe : tensor<144x1024xf32>) -> tensor<144x1024xf32>
    %oe = tensor.empty() : tensor<32x1024xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<32x1024xf32>) -> tensor<32x1024xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<32x144xf32>, tensor<144x1024xf32>) outs(%init : tensor<32x1024xf32>) attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [8, 16, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 4]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>} {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<32x1024xf32>
    flow.return %mm : tensor<32x1024xf32>
  }
  return %r : tensor<32x1024xf32>
}

// -----

// Outside a dispatch region: nothing to configure yet.
// CHECK-LABEL: func.func @not_in_a_region
// CHECK:         linalg.generic
// CHECK-NOT:     vector_reduction = [0, 0, 1]
func.func @not_in_a_region(%x: tensor<16x32x32xf32>, %w: tensor<32x144xf32>) -> tensor<32x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<144x1024xf32>
  %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[32, 32], [16, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<16x32x32xf32>) outs(%pe : tensor<144x1024xf32>) -> tensor<144x1024xf32>
  %oe = tensor.empty() : tensor<32x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<32x1024xf32>) -> tensor<32x1024xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<32x144xf32>, tensor<144x1024xf32>) outs(%init : tensor<32x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x1024xf32>
  return %mm : tensor<32x1024xf32>
}

// -----

// A body other than `out + lhs * rhs`: left to IREE.
// CHECK-LABEL: func.func @not_a_multiply_add
// CHECK:         linalg.generic
// CHECK-NOT:     vector_reduction = [0, 0, 1]
func.func @not_a_multiply_add(%x: tensor<16x32x32xf32>, %w: tensor<32x144xf32>) -> tensor<32x1024xf32> {
  %r = flow.dispatch.region -> (tensor<32x1024xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<144x1024xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0] output_sizes = [[32, 32], [16, 3, 3]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] input_pad_low = [0, 1, 1] input_pad_high = [0, 1, 1] pad_value(%zero : f32) ins(%x : tensor<16x32x32xf32>) outs(%pe : tensor<144x1024xf32>) -> tensor<144x1024xf32>
    %oe = tensor.empty() : tensor<32x1024xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<32x1024xf32>) -> tensor<32x1024xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<32x144xf32>, tensor<144x1024xf32>) outs(%init : tensor<32x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.maximumf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<32x1024xf32>
    flow.return %mm : tensor<32x1024xf32>
  }
  return %r : tensor<32x1024xf32>
}
