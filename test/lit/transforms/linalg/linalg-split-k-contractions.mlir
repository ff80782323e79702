// RUN: fusion-opt %s --split-input-file -p linalg-split-k-contractions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-split-k-contractions{chunk=64}' | filecheck %s --check-prefix=CHUNK64
// RUN: fusion-opt %s --split-input-file -p 'linalg-split-k-contractions{max-outputs=1024}' | filecheck %s --check-prefix=SMALL
// The pass's helper modules these cases exercise: linalg/contraction_loops.py.

// A transformer projection at 64 tokens (torch-mlir's batch_matmul over a weight read through
// its map): K = 128 is split into 4 parts of 32. The parts are one contraction with the part as
// an outer parallel loop (x and w expanded, no copy), summed into the original zero init.

// CHECK-LABEL: func.func @projection
// CHECK:       %[[X:.*]] = tensor.expand_shape %x {{\[}}[0], [1], [2, 3]] output_shape [1, 64, 4, 32] : tensor<1x64x128xf32> into tensor<1x64x4x32xf32>
// CHECK:       %[[W:.*]] = tensor.expand_shape %w {{\[}}[0, 1], [2]] output_shape [4, 32, 128] : tensor<128x128xf32> into tensor<4x32x128xf32>
// CHECK:       %[[PF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x1x64x128xf32>)
// CHECK:       %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<1x64x4x32xf32>, tensor<4x32x128xf32>) outs(%[[PF]] : tensor<4x1x64x128xf32>)
// CHECK:       arith.mulf
// CHECK:       %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<4x1x64x128xf32>) outs(%f : tensor<1x64x128xf32>)
// CHECK:       func.return %[[S]]
// CHECK-NOT:   linalg.batch_matmul
// CHUNK64-LABEL: func.func @projection
// CHUNK64:       tensor<2x1x64x128xf32>
// SMALL-LABEL: func.func @projection
// SMALL:       linalg.batch_matmul
func.func @projection(%x: tensor<1x64x128xf32>, %w: tensor<128x128xf32>) -> tensor<1x64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  %m = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x64x128xf32>, tensor<128x128xf32>) outs(%f : tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  func.return %m : tensor<1x64x128xf32>
}

// -----

// A plain matmul accumulating into a given tensor: the parts start at zero and the original
// accumulator is added once, by the sum. K = 96 has no divisor giving parts of exactly 32
// and more: the largest S with K / S >= 32 is 3.

// CHECK-LABEL: func.func @accumulate_into_argument
// CHECK:       tensor.expand_shape %a {{\[}}[0], [1, 2]] output_shape [16, 3, 32]
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<3x16x8xf32>)
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<3x16x8xf32>) outs(%acc : tensor<16x8xf32>)
// CHUNK64-LABEL: func.func @accumulate_into_argument
// CHUNK64:       linalg.matmul
func.func @accumulate_into_argument(%a: tensor<16x96xf32>, %b: tensor<96x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<16x96xf32>, tensor<96x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  func.return %m : tensor<16x8xf32>
}

// -----

// Negative: attention's batched contraction (heads read by both inputs) already gives the GPU
// one workgroup set per head: not split.

// CHECK-LABEL: func.func @batched_heads_stay
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.batch_matmul
func.func @batched_heads_stay(%q: tensor<12x64x64xf32>, %k: tensor<12x64x64xf32>) -> tensor<12x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<12x64x64xf32>, tensor<12x64x64xf32>) outs(%f : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
  func.return %s : tensor<12x64x64xf32>
}

// -----

// Negative: a vector-matrix product (one row): IREE's matvec kernel spreads K already.

// CHECK-LABEL: func.func @vecmat_stays
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.matmul
func.func @vecmat_stays(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f : tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %m : tensor<1x256xf32>
}

// -----

// Negative: a reduction too short for two parts of 32.

// CHECK-LABEL: func.func @short_k_stays
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.matmul
func.func @short_k_stays(%a: tensor<64x48xf32>, %b: tensor<48x64xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %m : tensor<64x64xf32>
}

// -----

// Negative: the body does not accumulate by addition (a max of products): partial results
// could not be added.

// CHECK-LABEL: func.func @max_of_products_stays
// CHECK-NOT:   tensor.expand_shape
func.func @max_of_products_stays(%a: tensor<16x128xf32>, %b: tensor<128x16xf32>, %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x128xf32>, tensor<128x16xf32>) outs(%acc : tensor<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %p : f32
    %m = arith.maximumf %o, %s : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  func.return %r : tensor<16x16xf32>
}

// -----

// Negative: a body that reads its loop indices (they would move with the new loop).

// CHECK-LABEL: func.func @index_body_stays
// CHECK-NOT:   tensor.expand_shape
func.func @index_body_stays(%a: tensor<16x128xf32>, %b: tensor<128x16xf32>, %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x128xf32>, tensor<128x16xf32>) outs(%acc : tensor<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %kf : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  func.return %r : tensor<16x16xf32>
}
