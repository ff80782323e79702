// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-to-mmt4d{min-n=32}' | filecheck %s
// The pass's helper modules these cases exercise: dispatch/matmul_regions_to_mmt4d.py.

// A matmul region over a weight argument, N >= min-n: the activation is packed by a dispatch
// of its own, the weight inside the region, and the bias epilogue reads the unpacked result.

// CHECK-LABEL: func.func @wide_matmul_region
// CHECK:       %[[EX:.*]] = flow.dispatch.region -> (tensor<1x2x16x16x1xf32>) {
// CHECK:         %[[PX:.*]] = linalg.pack %x inner_dims_pos = [1, 2] inner_tiles = [16, 1] into %{{.*}} : tensor<1x32x16xf32> -> tensor<1x2x16x16x1xf32>
// CHECK:         flow.return %[[PX]]
// CHECK:       flow.dispatch.region -> (tensor<1x32x64xf32>) {
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x32x64xf32>)
// CHECK:         %[[W3:.*]] = tensor.expand_shape %w {{.*}} output_shape [1, 16, 64] : tensor<16x64xf32> into tensor<1x16x64xf32>
// CHECK:         %[[PW:.*]] = linalg.pack %[[W3]] outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 1] into %{{.*}} : tensor<1x16x64xf32> -> tensor<1x4x16x16x1xf32>
// CHECK:         %[[FC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x4x16x16xf32>)
// CHECK:         %[[C:.*]] = linalg.batch_mmt4d {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 0, 1, 0, 0, 0, 0]
// CHECK-SAME:      ins(%[[EX]], %[[PW]] : tensor<1x2x16x16x1xf32>, tensor<1x4x16x16x1xf32>) outs(%[[FC]] : tensor<1x2x4x16x16xf32>)
// CHECK:         %[[U:.*]] = linalg.unpack %[[C]] inner_dims_pos = [1, 2] inner_tiles = [16, 16] into %[[F]] : tensor<1x2x4x16x16xf32> -> tensor<1x32x64xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[U]], %b
// CHECK-NOT:     linalg.batch_matmul
func.func @wide_matmul_region(%x: tensor<1x32x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x32x64xf32>) {
    %e = tensor.empty() : tensor<1x32x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x32x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x32x64xf32>
    flow.return %y : tensor<1x32x64xf32>
  }
  func.return %r : tensor<1x32x64xf32>
}

// -----

// Negative: N below min-n (IREE's own kernel measured faster on narrow matmuls).

// CHECK-LABEL: func.func @narrow_n_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.batch_mmt4d
func.func @narrow_n_stays(%x: tensor<1x32x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<1x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x32x16xf32>) {
    %e = tensor.empty() : tensor<1x32x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x32x16xf32>, tensor<16x16xf32>) outs(%f : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x32x16xf32>, tensor<16xf32>) outs(%e : tensor<1x32x16xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x32x16xf32>
    flow.return %y : tensor<1x32x16xf32>
  }
  func.return %r : tensor<1x32x16xf32>
}

// -----

// Negative: a [K, 16] weight tile of K = 512 would not fit IREE's 32 KiB stack limit.

// CHECK-LABEL: func.func @wide_k_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.batch_mmt4d
func.func @wide_k_stays(%x: tensor<1x32x512xf32>, %w: tensor<512x64xf32>, %b: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x32x64xf32>) {
    %e = tensor.empty() : tensor<1x32x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x32x512xf32>, tensor<512x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x32x64xf32>
    flow.return %y : tensor<1x32x64xf32>
  }
  func.return %r : tensor<1x32x64xf32>
}

// -----

// Negative: M is not a multiple of the 16-row tile.

// CHECK-LABEL: func.func @ragged_m_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.batch_mmt4d
func.func @ragged_m_stays(%x: tensor<1x24x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x24x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x24x64xf32>) {
    %e = tensor.empty() : tensor<1x24x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x64xf32>) -> tensor<1x24x64xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x24x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x24x64xf32>) -> tensor<1x24x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x24x64xf32>, tensor<64xf32>) outs(%e : tensor<1x24x64xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x24x64xf32>
    flow.return %y : tensor<1x24x64xf32>
  }
  func.return %r : tensor<1x24x64xf32>
}

// -----

// Negative: the activation is computed inside the region (its pack could not leave it).

// CHECK-LABEL: func.func @activation_in_region_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.batch_mmt4d
func.func @activation_in_region_stays(%w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ex = tensor.empty() : tensor<1x32x16xf32>
  %r = flow.dispatch.region -> (tensor<1x32x64xf32>) {
    %x = linalg.fill ins(%one : f32) outs(%ex : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
    %e = tensor.empty() : tensor<1x32x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x32x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x32x64xf32>
    flow.return %y : tensor<1x32x64xf32>
  }
  func.return %r : tensor<1x32x64xf32>
}

// -----

// Negative: a matmul outside any dispatch region (the pass works on formed regions).

// CHECK-LABEL: func.func @outside_region_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.batch_mmt4d
func.func @outside_region_stays(%x: tensor<1x32x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x32x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x32x64xf32>
  func.return %y : tensor<1x32x64xf32>
}

// -----

// Negative: a 2-D linalg.matmul (not the batch-1 broadcast-weight form) is left alone.

// CHECK-LABEL: func.func @plain_matmul_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.matmul
func.func @plain_matmul_stays(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<32x64xf32>) {
    %e = tensor.empty() : tensor<32x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    flow.return %mm : tensor<32x64xf32>
  }
  func.return %r : tensor<32x64xf32>
}

// -----

// A [1, K, N] weight (the graph lowering's batch_matmul, default maps) is packed as it is.

// CHECK-LABEL: func.func @batch_one_weight
// CHECK:       %[[PX:.*]] = flow.dispatch.region -> (tensor<1x1x4x16x1xf32>)
// CHECK:       flow.dispatch.region -> (tensor<1x16x32xf32>) {
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[PW:.*]] = linalg.pack %w outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 1] into %{{.*}} : tensor<1x4x32xf32> -> tensor<1x2x4x16x1xf32>
// CHECK:         linalg.batch_mmt4d {{.*}} ins(%[[PX]], %[[PW]] : tensor<1x1x4x16x1xf32>, tensor<1x2x4x16x1xf32>)
// CHECK:         linalg.unpack
func.func @batch_one_weight(%x: tensor<1x16x4xf32>, %w: tensor<1x4x32xf32>) -> tensor<1x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x16x32xf32>) {
    %e = tensor.empty() : tensor<1x16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %mm = linalg.batch_matmul ins(%x, %w : tensor<1x16x4xf32>, tensor<1x4x32xf32>) outs(%f : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    flow.return %mm : tensor<1x16x32xf32>
  }
  func.return %r : tensor<1x16x32xf32>
}

// -----

// Negative: a batch of 2 (attention's per-head products) is not a weight projection.

// CHECK-LABEL: func.func @batch_two_stays
// CHECK-NOT:   linalg.pack
// CHECK:       linalg.batch_matmul
func.func @batch_two_stays(%x: tensor<2x16x4xf32>, %w: tensor<2x4x32xf32>) -> tensor<2x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<2x16x32xf32>) {
    %e = tensor.empty() : tensor<2x16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %mm = linalg.batch_matmul ins(%x, %w : tensor<2x16x4xf32>, tensor<2x4x32xf32>) outs(%f : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    flow.return %mm : tensor<2x16x32xf32>
  }
  func.return %r : tensor<2x16x32xf32>
}
