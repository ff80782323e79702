// RUN: fusion-opt %s --split-input-file -p linalg-transpose-nt-operands | filecheck %s

// Attention's Q . K^T after the head permutes were folded into the maps: K is read as
// [keys, heads, dim] with the reduction (dim) innermost. K is copied to [heads, dim, keys] and
// read row-major.

// CHECK-LABEL: func.func @attention_scores
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x8x16xf32>
// CHECK:       %[[KT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<16x2x8xf32>) outs(%[[E]] : tensor<2x8x16xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:    ins(%{{.*}}, %[[KT]] : tensor<4x2x8xf32>, tensor<2x8x16xf32>)
func.func @attention_scores(%wk: tensor<16x16xf32>, %q: tensor<4x2x8xf32>) -> tensor<2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %kflat = linalg.matmul ins(%wk, %wk : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %k = tensor.expand_shape %kflat [[0], [1, 2]] output_shape [16, 2, 8] : tensor<16x16xf32> into tensor<16x2x8xf32>
  %e = tensor.empty() : tensor<2x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x2x8xf32>, tensor<16x2x8xf32>) outs(%f : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  func.return %s : tensor<2x4x16xf32>
}

// -----

// Negative: a function argument (a weight) is not copied, NT or not.

// CHECK-LABEL: func.func @argument_operand_stays
// CHECK-NOT:   tensor.empty() : tensor<2x8x16xf32>
// CHECK:       affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
func.func @argument_operand_stays(%q: tensor<4x2x8xf32>, %k: tensor<16x2x8xf32>) -> tensor<2x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x2x8xf32>, tensor<16x2x8xf32>) outs(%f : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  func.return %s : tensor<2x4x16xf32>
}

// -----

// Negative: the attention-weights . V contraction already reads V row-major ([keys, heads, dim]
// with keys the reduction): nothing to copy.

// CHECK-LABEL: func.func @row_major_operand_stays
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:   linalg.generic
func.func @row_major_operand_stays(%p: tensor<2x4x16xf32>, %wv: tensor<16x16xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %vflat = linalg.matmul ins(%wv, %wv : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %v = tensor.expand_shape %vflat [[0], [1, 2]] output_shape [16, 2, 8] : tensor<16x16xf32> into tensor<16x2x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16xf32>, tensor<16x2x8xf32>) outs(%f : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  func.return %o : tensor<2x4x8xf32>
}
