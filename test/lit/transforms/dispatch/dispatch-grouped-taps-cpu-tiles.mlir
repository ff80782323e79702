// RUN: fusion-opt %s --split-input-file -p dispatch-grouped-taps-cpu-tiles | filecheck %s

// The pass: fusionopt/transforms/dispatch/grouped_taps_cpu_tiles.py. A grouped conv as a sum over
// its taps (`linalg-conv-channels-last{grouped-taps=true}`; two taps here for brevity, nine in
// a 3x3 conv): workgroups of whole output rows (up to 128 pixels) of one group's filters, a
// register tile of 7 (8) pixels x 16 (32) filters, one input channel a step.

// -----

// RegNetX's 7x7 stage: 7 rows of 7 a workgroup, 7 pixels x 16 filters a tile.
// CHECK-LABEL: func.func @regnet_7x7
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 7, 1, 16, 0], vector_common_parallel = [1, 1, 7, 1, 16, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @regnet_7x7(%x0: tensor<7x7x2x16xf32>, %x1: tensor<7x7x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x7x7x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x2x16xf32>) -> tensor<1x7x7x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x2x16xf32>, tensor<7x7x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x7x7x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x2x16xf32>
    flow.return %y : tensor<1x7x7x2x16xf32>
  }
  return %r : tensor<1x7x7x2x16xf32>
}

// -----

// 56x56: 2 rows of 56 (112 pixels) a workgroup; 7 divides 56 first.
// CHECK-LABEL: func.func @rows_of_56
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 2, 56, 1, 16, 0], vector_common_parallel = [1, 1, 7, 1, 16, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @rows_of_56(%x0: tensor<56x56x2x16xf32>, %x1: tensor<56x56x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x56x56x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x56x56x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x2x16xf32>) -> tensor<1x56x56x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<56x56x2x16xf32>, tensor<56x56x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x56x56x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x56x56x2x16xf32>
    flow.return %y : tensor<1x56x56x2x16xf32>
  }
  return %r : tensor<1x56x56x2x16xf32>
}

// -----

// 8x8: tiles of 8 pixels; groups of 32 filters take two vectors.
// CHECK-LABEL: func.func @groups_of_32
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 8, 8, 1, 32, 0], vector_common_parallel = [1, 1, 8, 1, 32, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @groups_of_32(%x0: tensor<8x8x2x32xf32>, %x1: tensor<8x8x2x32xf32>, %w0: tensor<2x32x32xf32>, %w1: tensor<2x32x32xf32>) -> tensor<1x8x8x2x32xf32> {
  %r = flow.dispatch.region -> (tensor<1x8x8x2x32xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x8x8x2x32xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x2x32xf32>) -> tensor<1x8x8x2x32xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<8x8x2x32xf32>, tensor<8x8x2x32xf32>, tensor<2x32x32xf32>, tensor<2x32x32xf32>) outs(%init : tensor<1x8x8x2x32xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x8x8x2x32xf32>
    flow.return %y : tensor<1x8x8x2x32xf32>
  }
  return %r : tensor<1x8x8x2x32xf32>
}

// -----

// Groups of 64 filters take one vector (16): no slower than two, half the iree-compile time.
// CHECK-LABEL: func.func @groups_of_64
// CHECK:         linalg.generic
// CHECK-SAME:      distribution = [1, 8, 8, 1, 64, 0], vector_common_parallel = [1, 1, 8, 1, 16, 0], vector_reduction = [0, 0, 0, 0, 0, 1]
func.func @groups_of_64(%x0: tensor<8x8x2x64xf32>, %x1: tensor<8x8x2x64xf32>, %w0: tensor<2x64x64xf32>, %w1: tensor<2x64x64xf32>) -> tensor<1x8x8x2x64xf32> {
  %r = flow.dispatch.region -> (tensor<1x8x8x2x64xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x8x8x2x64xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x2x64xf32>) -> tensor<1x8x8x2x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<8x8x2x64xf32>, tensor<8x8x2x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>) outs(%init : tensor<1x8x8x2x64xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x8x8x2x64xf32>
    flow.return %y : tensor<1x8x8x2x64xf32>
  }
  return %r : tensor<1x8x8x2x64xf32>
}

// -----

// Two groups of 8 filters (filters C x G x F) share a tile's vectors.
// CHECK-LABEL: func.func @paired_groups_of_8
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 4, 28, 2, 8, 0], vector_common_parallel = [1, 1, 7, 2, 8, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @paired_groups_of_8(%x0: tensor<28x28x4x8xf32>, %x1: tensor<28x28x4x8xf32>, %w0: tensor<8x4x8xf32>, %w1: tensor<8x4x8xf32>) -> tensor<1x28x28x4x8xf32> {
  %r = flow.dispatch.region -> (tensor<1x28x28x4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x28x28x4x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x4x8xf32>) -> tensor<1x28x28x4x8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<28x28x4x8xf32>, tensor<28x28x4x8xf32>, tensor<8x4x8xf32>, tensor<8x4x8xf32>) outs(%init : tensor<1x28x28x4x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x28x28x4x8xf32>
    flow.return %y : tensor<1x28x28x4x8xf32>
  }
  return %r : tensor<1x28x28x4x8xf32>
}

// -----

// Batch 2: the slices read through (n, oh, ow, g, c).
// CHECK-LABEL: func.func @batched
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 7, 1, 16, 0], vector_common_parallel = [1, 1, 7, 1, 16, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @batched(%x0: tensor<2x7x7x2x16xf32>, %x1: tensor<2x7x7x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<2x7x7x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<2x7x7x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x7x7x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x2x16xf32>) -> tensor<2x7x7x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<2x7x7x2x16xf32>, tensor<2x7x7x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<2x7x7x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<2x7x7x2x16xf32>
    flow.return %y : tensor<2x7x7x2x16xf32>
  }
  return %r : tensor<2x7x7x2x16xf32>
}

// -----

// An output width of 6: no whole register tile.
// CHECK-LABEL: func.func @width_6
// CHECK:         linalg.generic
// CHECK-NOT:     compilation_info
func.func @width_6(%x0: tensor<6x6x2x16xf32>, %x1: tensor<6x6x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x6x6x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x6x6x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x6x6x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x2x16xf32>) -> tensor<1x6x6x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<6x6x2x16xf32>, tensor<6x6x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x6x6x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x6x6x2x16xf32>
    flow.return %y : tensor<1x6x6x2x16xf32>
  }
  return %r : tensor<1x6x6x2x16xf32>
}

// -----

// Groups of 8 in G x C x F (no vector holds two groups' filters): left.
// CHECK-LABEL: func.func @unpaired_groups_of_8
// CHECK:         linalg.generic
// CHECK-NOT:     compilation_info
func.func @unpaired_groups_of_8(%x0: tensor<7x7x4x8xf32>, %x1: tensor<7x7x4x8xf32>, %w0: tensor<4x8x8xf32>, %w1: tensor<4x8x8xf32>) -> tensor<1x7x7x4x8xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x4x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x4x8xf32>) -> tensor<1x7x7x4x8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x4x8xf32>, tensor<7x7x4x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%init : tensor<1x7x7x4x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x4x8xf32>
    flow.return %y : tensor<1x7x7x4x8xf32>
  }
  return %r : tensor<1x7x7x4x8xf32>
}

// -----

// Products summed with separate multiplies and adds: not the taps form.
// CHECK-LABEL: func.func @mul_add_body
// CHECK:         linalg.generic
// CHECK-NOT:     compilation_info
func.func @mul_add_body(%x0: tensor<7x7x2x16xf32>, %x1: tensor<7x7x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x7x7x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x2x16xf32>) -> tensor<1x7x7x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x2x16xf32>, tensor<7x7x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x7x7x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %m1 = arith.mulf %a1, %b1 : f32
    %p1 = arith.addf %p0, %m1 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x2x16xf32>
    flow.return %y : tensor<1x7x7x2x16xf32>
  }
  return %r : tensor<1x7x7x2x16xf32>
}

// -----

// Outside a dispatch region: left.
// CHECK-LABEL: func.func @no_region
// CHECK:         linalg.generic
// CHECK-NOT:     compilation_info
func.func @no_region(%x0: tensor<7x7x2x16xf32>, %x1: tensor<7x7x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x7x7x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x2x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x2x16xf32>) -> tensor<1x7x7x2x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x2x16xf32>, tensor<7x7x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x7x7x2x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
      %p0 = arith.mulf %a0, %b0 : f32
      %p1 = math.fma %a1, %b1, %p0 : f32
      %s = arith.addf %o, %p1 : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x2x16xf32>
  return %y : tensor<1x7x7x2x16xf32>
}

// -----

// A config of its own stays.
// CHECK-LABEL: func.func @configured
// CHECK:         linalg.generic
// CHECK-SAME:      distribution = [1, 1, 1, 1, 16, 0]
func.func @configured(%x0: tensor<7x7x2x16xf32>, %x1: tensor<7x7x2x16xf32>, %w0: tensor<2x16x16xf32>, %w1: tensor<2x16x16xf32>) -> tensor<1x7x7x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x2x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x2x16xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x2x16xf32>) -> tensor<1x7x7x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x2x16xf32>, tensor<7x7x2x16xf32>, tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%init : tensor<1x7x7x2x16xf32>) attrs =  {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 1, 1, 1, 16, 0], vector_common_parallel = [1, 1, 1, 1, 16, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>} {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x2x16xf32>
    flow.return %y : tensor<1x7x7x2x16xf32>
  }
  return %r : tensor<1x7x7x2x16xf32>
}

// -----

// Three groups of 8 (filters G x C x F): 8 filters of one group a tile, half a vector.
// CHECK-LABEL: func.func @odd_groups_of_8
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 7, 1, 8, 0], vector_common_parallel = [1, 1, 7, 1, 8, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @odd_groups_of_8(%x0: tensor<7x7x3x8xf32>, %x1: tensor<7x7x3x8xf32>, %w0: tensor<3x8x8xf32>, %w1: tensor<3x8x8xf32>) -> tensor<1x7x7x3x8xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x3x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x3x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x3x8xf32>) -> tensor<1x7x7x3x8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x3x8xf32>, tensor<7x7x3x8xf32>, tensor<3x8x8xf32>, tensor<3x8x8xf32>) outs(%init : tensor<1x7x7x3x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x3x8xf32>
    flow.return %y : tensor<1x7x7x3x8xf32>
  }
  return %r : tensor<1x7x7x3x8xf32>
}

// -----

// Groups of 24 (RegNetX-1.6GF): 8 of a group's filters a tile.
// CHECK-LABEL: func.func @groups_of_24
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 7, 1, 24, 0], vector_common_parallel = [1, 1, 7, 1, 8, 0], vector_reduction = [0, 0, 0, 0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @groups_of_24(%x0: tensor<7x7x3x24xf32>, %x1: tensor<7x7x3x24xf32>, %w0: tensor<3x24x24xf32>, %w1: tensor<3x24x24xf32>) -> tensor<1x7x7x3x24xf32> {
  %r = flow.dispatch.region -> (tensor<1x7x7x3x24xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x3x24xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x3x24xf32>) -> tensor<1x7x7x3x24xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x0, %x1, %w0, %w1 : tensor<7x7x3x24xf32>, tensor<7x7x3x24xf32>, tensor<3x24x24xf32>, tensor<3x24x24xf32>) outs(%init : tensor<1x7x7x3x24xf32>) {
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32, %o: f32):
        %p0 = arith.mulf %a0, %b0 : f32
        %p1 = math.fma %a1, %b1, %p0 : f32
        %s = arith.addf %o, %p1 : f32
      linalg.yield %s : f32
    } -> tensor<1x7x7x3x24xf32>
    flow.return %y : tensor<1x7x7x3x24xf32>
  }
  return %r : tensor<1x7x7x3x24xf32>
}
