// RUN: fusion-opt %s --split-input-file -p dispatch-grouped-im2col-cpu-tiles | filecheck %s

// The pass: fusionopt/transforms/dispatch/grouped_im2col_cpu_tiles.py. A grouped 3x3 conv as
// IREE's im2col op and a group-batched matmul in one region (RegNetX's groups of 16 channels):
// one group a workgroup, the most whole 7- (8-) pixel register tiles up to 196 pixels of it.

// -----

// 7x7 output: 49 pixels, tiles of 7.
// CHECK-LABEL: func.func @regnet_7x7
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 49, 16, 0], vector_common_parallel = [1, 7, 16, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @regnet_7x7(%x: tensor<9x9x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<49x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<49x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x49x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x16xf32>) outs(%pe : tensor<2x49x144xf32>) -> tensor<2x49x144xf32>
    %oe = tensor.empty() : tensor<49x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x16xf32>) -> tensor<49x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<49x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<49x2x16xf32>
    flow.return %mm : tensor<49x2x16xf32>
  }
  return %r : tensor<49x2x16xf32>
}

// -----

// 56x56 output: 3136 pixels, workgroups of 196 (16 of them a group).
// CHECK-LABEL: func.func @regnet_56x56
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 196, 16, 0], vector_common_parallel = [1, 7, 16, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @regnet_56x56(%x: tensor<58x58x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<3136x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<3136x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x3136x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [56, 56], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<58x58x2x16xf32>) outs(%pe : tensor<2x3136x144xf32>) -> tensor<2x3136x144xf32>
    %oe = tensor.empty() : tensor<3136x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<3136x2x16xf32>) -> tensor<3136x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x3136x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<3136x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<3136x2x16xf32>
    flow.return %mm : tensor<3136x2x16xf32>
  }
  return %r : tensor<3136x2x16xf32>
}

// -----

// 4x4 output: 16 pixels, which 7 does not divide: tiles of 8.
// CHECK-LABEL: func.func @regnet_4x4
// CHECK:         iree_linalg_ext.im2col
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 16, 16, 0], vector_common_parallel = [1, 8, 16, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @regnet_4x4(%x: tensor<6x6x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<16x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<16x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x16x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [4, 4], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<6x6x2x16xf32>) outs(%pe : tensor<2x16x144xf32>) -> tensor<2x16x144xf32>
    %oe = tensor.empty() : tensor<16x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<16x2x16xf32>) -> tensor<16x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x16x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<16x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<16x2x16xf32>
    flow.return %mm : tensor<16x2x16xf32>
  }
  return %r : tensor<16x2x16xf32>
}

// -----

// Left alone: patches from outside the region (no im2col op).
// CHECK-LABEL: func.func @patches_not_im2col
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @patches_not_im2col(%x: tensor<9x9x2x16xf32>, %w: tensor<2x144x16xf32>, %pa: tensor<2x49x144xf32>) -> tensor<49x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<49x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x49x144xf32>
    
    %oe = tensor.empty() : tensor<49x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x16xf32>) -> tensor<49x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pa, %w : tensor<2x49x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<49x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<49x2x16xf32>
    flow.return %mm : tensor<49x2x16xf32>
  }
  return %r : tensor<49x2x16xf32>
}

// -----

// Left alone: 8 filters a group (half a vector).
// CHECK-LABEL: func.func @eight_filters
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @eight_filters(%x: tensor<9x9x2x16xf32>, %w: tensor<2x144x8xf32>) -> tensor<49x2x8xf32> {
  %r = flow.dispatch.region -> (tensor<49x2x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x49x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x16xf32>) outs(%pe : tensor<2x49x144xf32>) -> tensor<2x49x144xf32>
    %oe = tensor.empty() : tensor<49x2x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x8xf32>) -> tensor<49x2x8xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x144xf32>, tensor<2x144x8xf32>) outs(%init : tensor<49x2x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<49x2x8xf32>
    flow.return %mm : tensor<49x2x8xf32>
  }
  return %r : tensor<49x2x8xf32>
}

// -----

// Left alone: 8 channels a group (K = 72, which 16 does not divide).
// CHECK-LABEL: func.func @eight_channels
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @eight_channels(%x: tensor<9x9x2x8xf32>, %w: tensor<2x72x16xf32>) -> tensor<49x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<49x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x49x72xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 8]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x8xf32>) outs(%pe : tensor<2x49x72xf32>) -> tensor<2x49x72xf32>
    %oe = tensor.empty() : tensor<49x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x16xf32>) -> tensor<49x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x72xf32>, tensor<2x72x16xf32>) outs(%init : tensor<49x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<49x2x16xf32>
    flow.return %mm : tensor<49x2x16xf32>
  }
  return %r : tensor<49x2x16xf32>
}

// -----

// Left alone: 25 pixels (neither 7 nor 8 divides them).
// CHECK-LABEL: func.func @five_by_five
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @five_by_five(%x: tensor<7x7x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<25x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<25x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x25x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [5, 5], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<7x7x2x16xf32>) outs(%pe : tensor<2x25x144xf32>) -> tensor<2x25x144xf32>
    %oe = tensor.empty() : tensor<25x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<25x2x16xf32>) -> tensor<25x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x25x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<25x2x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<25x2x16xf32>
    flow.return %mm : tensor<25x2x16xf32>
  }
  return %r : tensor<25x2x16xf32>
}

// -----

// Left alone: f64.
// CHECK-LABEL: func.func @f64
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @f64(%x: tensor<9x9x2x16xf64>, %w: tensor<2x144x16xf64>) -> tensor<49x2x16xf64> {
  %r = flow.dispatch.region -> (tensor<49x2x16xf64>) {
    %zero = arith.constant 0.0 : f64
    %pe = tensor.empty() : tensor<2x49x144xf64>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x16xf64>) outs(%pe : tensor<2x49x144xf64>) -> tensor<2x49x144xf64>
    %oe = tensor.empty() : tensor<49x2x16xf64>
    %init = linalg.fill ins(%zero : f64) outs(%oe : tensor<49x2x16xf64>) -> tensor<49x2x16xf64>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x144xf64>, tensor<2x144x16xf64>) outs(%init : tensor<49x2x16xf64>) {
    ^bb0(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %s = arith.addf %c, %m : f64
      linalg.yield %s : f64
    } -> tensor<49x2x16xf64>
    flow.return %mm : tensor<49x2x16xf64>
  }
  return %r : tensor<49x2x16xf64>
}

// -----

// Left alone: no dispatch region.
// CHECK-LABEL: func.func @outside_region
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @outside_region(%x: tensor<9x9x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<49x2x16xf32> {
    %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<2x49x144xf32>
  %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x16xf32>) outs(%pe : tensor<2x49x144xf32>) -> tensor<2x49x144xf32>
  %oe = tensor.empty() : tensor<49x2x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x16xf32>) -> tensor<49x2x16xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<49x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<49x2x16xf32>
  return %mm : tensor<49x2x16xf32>
}

// -----

// Left alone: a config of its own (kept).
// CHECK-LABEL: func.func @configured
// CHECK:         compilation_info = "mine"
// CHECK-NOT:     #iree_cpu.lowering_config
func.func @configured(%x: tensor<9x9x2x16xf32>, %w: tensor<2x144x16xf32>) -> tensor<49x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<49x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %pe = tensor.empty() : tensor<2x49x144xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [7, 7], [3, 3, 16]] batch_pos = [2] m_pos = [0, 1] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%x : tensor<9x9x2x16xf32>) outs(%pe : tensor<2x49x144xf32>) -> tensor<2x49x144xf32>
    %oe = tensor.empty() : tensor<49x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<49x2x16xf32>) -> tensor<49x2x16xf32>
    %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<2x49x144xf32>, tensor<2x144x16xf32>) outs(%init : tensor<49x2x16xf32>) attrs = {compilation_info = "mine"} {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %c, %m : f32
      linalg.yield %s : f32
    } -> tensor<49x2x16xf32>
    flow.return %mm : tensor<49x2x16xf32>
  }
  return %r : tensor<49x2x16xf32>
}
