// RUN: fusion-opt %s --split-input-file -p linalg-contract-shared-heads | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-contract-shared-heads | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p linalg-contract-shared-heads --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS-COUNT-3: (contractions reading shared K/V heads) : 1
// STATS-NOT:     contractions reading shared

// The decode step's Q.K^T (Llama, grouped-query attention: 2 K/V heads for 8 query heads): the
// repeat of the cache's 2 heads to 8 (a copy generic, then collapses) is gone; the contraction
// reads the 2 heads, its batch split into (kv head, group of 4), the group a second M dim.
// CHECK-LABEL: func.func @decode_scores
// CHECK-SAME:    (%[[Q:.*]]: tensor<8x1x32xf32>, %[[K:.*]]: tensor<1x2x16x32xf32>)
// CHECK-NOT:     tensor<1x2x4x16x32xf32>
// CHECK-DAG:     %[[KS:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]] : tensor<1x2x16x32xf32> into tensor<2x16x32xf32>
// CHECK-DAG:     %[[QS:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [2, 4, 1, 32] : tensor<8x1x32xf32> into tensor<2x4x1x32xf32>
// CHECK:         %[[C:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[QS]], %[[KS]] : tensor<2x4x1x32xf32>, tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x4x1x16xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1], [2], [3]] : tensor<2x4x1x16xf32> into tensor<8x1x16xf32>
// CHECK:         func.return %[[R]]
func.func @decode_scores(%q: tensor<8x1x32xf32>, %k: tensor<1x2x16x32xf32>) -> tensor<8x1x16xf32> {
  %e = tensor.empty() : tensor<1x2x4x16x32xf32>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x32xf32>) outs(%e : tensor<1x2x4x16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x4x16x32xf32>
  %heads = tensor.collapse_shape %rep [[0], [1, 2], [3], [4]] : tensor<1x2x4x16x32xf32> into tensor<1x8x16x32xf32>
  %k8 = tensor.collapse_shape %heads [[0, 1], [2], [3]] : tensor<1x8x16x32xf32> into tensor<8x16x32xf32>
  %z = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<8x1x16xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k8 : tensor<8x1x32xf32>, tensor<8x16x32xf32>) outs(%fs : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  func.return %s : tensor<8x1x16xf32>
}

// -----

// P.V with a repeat that computes (a scaled copy: its value still ignores the group): the
// repeat is computed once per shared head, [1, 2, 16, 32], and read by the contraction.
// CHECK-LABEL: func.func @probs_times_scaled_values
// CHECK:         %[[V:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x16x32xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[VS:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1], [2], [3]] : tensor<1x2x16x32xf32> into tensor<2x16x32xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]{{.*}} ins(%{{.*}}, %[[VS]] : tensor<2x4x3x16xf32>, tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x4x3x32xf32>)
// CHECK-NOT:     tensor<1x2x4x16x32xf32>
func.func @probs_times_scaled_values(%p: tensor<8x3x16xf32>, %v: tensor<1x2x16x32xf32>) -> tensor<8x3x32xf32> {
  %e = tensor.empty() : tensor<1x2x4x16x32xf32>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x16x32xf32>) outs(%e : tensor<1x2x4x16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x16x32xf32>
  %v8 = tensor.collapse_shape %rep [[0, 1, 2], [3], [4]] : tensor<1x2x4x16x32xf32> into tensor<8x16x32xf32>
  %z = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<8x3x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  %o = linalg.batch_matmul ins(%p, %v8 : tensor<8x3x16xf32>, tensor<8x16x32xf32>) outs(%fo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  func.return %o : tensor<8x3x32xf32>
}

// -----

// f16 operands accumulated in f32 (the named op widens its inputs): the new contraction widens
// them in its body.
// CHECK-LABEL: func.func @f16_decode_scores
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x1x32xf16>, tensor<2x16x32xf16>) outs(%{{.*}} : tensor<2x4x1x16xf32>)
// CHECK:           arith.extf {{.*}} : f16 to f32
// CHECK:           arith.extf {{.*}} : f16 to f32
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.batch_matmul
func.func @f16_decode_scores(%q: tensor<8x1x32xf16>, %k: tensor<1x2x16x32xf16>) -> tensor<8x1x16xf32> {
  %e = tensor.empty() : tensor<1x2x4x16x32xf16>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x32xf16>) outs(%e : tensor<1x2x4x16x32xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<1x2x4x16x32xf16>
  %k8 = tensor.collapse_shape %rep [[0, 1, 2], [3], [4]] : tensor<1x2x4x16x32xf16> into tensor<8x16x32xf16>
  %z = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<8x1x16xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k8 : tensor<8x1x32xf16>, tensor<8x16x32xf16>) outs(%fs : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  func.return %s : tensor<8x1x16xf32>
}

// -----

// Negative: the repeat's value depends on the group (linalg.index 2): not a repeat.
// CHECK-LABEL: func.func @group_dependent_copy
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4x16x32xf32>)
// CHECK:         linalg.batch_matmul
func.func @group_dependent_copy(%p: tensor<8x3x16xf32>, %v: tensor<1x2x16x32xf32>) -> tensor<8x3x32xf32> {
  %e = tensor.empty() : tensor<1x2x4x16x32xf32>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x16x32xf32>) outs(%e : tensor<1x2x4x16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %g = linalg.index 2 : index
    %gi = arith.index_cast %g : index to i64
    %gf = arith.sitofp %gi : i64 to f32
    %m = arith.mulf %a, %gf : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x16x32xf32>
  %v8 = tensor.collapse_shape %rep [[0, 1, 2], [3], [4]] : tensor<1x2x4x16x32xf32> into tensor<8x16x32xf32>
  %z = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<8x3x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  %o = linalg.batch_matmul ins(%p, %v8 : tensor<8x3x16xf32>, tensor<8x16x32xf32>) outs(%fo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  func.return %o : tensor<8x3x32xf32>
}

// -----

// Negative: the repeated heads are also returned: they stay materialised, and so does the
// contraction's read of them.
// CHECK-LABEL: func.func @repeat_also_returned
// CHECK:         linalg.batch_matmul
func.func @repeat_also_returned(%p: tensor<8x3x16xf32>, %v: tensor<1x2x16x32xf32>) -> (tensor<8x3x32xf32>, tensor<8x16x32xf32>) {
  %e = tensor.empty() : tensor<1x2x4x16x32xf32>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x16x32xf32>) outs(%e : tensor<1x2x4x16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x4x16x32xf32>
  %v8 = tensor.collapse_shape %rep [[0, 1, 2], [3], [4]] : tensor<1x2x4x16x32xf32> into tensor<8x16x32xf32>
  %z = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<8x3x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  %o = linalg.batch_matmul ins(%p, %v8 : tensor<8x3x16xf32>, tensor<8x16x32xf32>) outs(%fo : tensor<8x3x32xf32>) -> tensor<8x3x32xf32>
  func.return %o, %v8 : tensor<8x3x32xf32>, tensor<8x16x32xf32>
}

// -----

// Negative: a symbolic number of keys (a dynamic export, Nemotron's): the pass takes static
// shapes only (it builds its reshapes without dynamic sizes); the repeat stays.
// CHECK-LABEL: func.func @dynamic_keys
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<1x2x4x?x32xf32>)
// CHECK:         linalg.batch_matmul
func.func @dynamic_keys(%q: tensor<8x1x32xf32>, %k: tensor<1x2x?x32xf32>) -> tensor<8x1x?xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %k, %c2 : tensor<1x2x?x32xf32>
  %e = tensor.empty(%n) : tensor<1x2x4x?x32xf32>
  %rep = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x?x32xf32>) outs(%e : tensor<1x2x4x?x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x4x?x32xf32>
  %heads = tensor.collapse_shape %rep [[0], [1, 2], [3], [4]] : tensor<1x2x4x?x32xf32> into tensor<1x8x?x32xf32>
  %k8 = tensor.collapse_shape %heads [[0, 1], [2], [3]] : tensor<1x8x?x32xf32> into tensor<8x?x32xf32>
  %z = arith.constant 0.000000e+00 : f32
  %es = tensor.empty(%n) : tensor<8x1x?xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<8x1x?xf32>) -> tensor<8x1x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k8 : tensor<8x1x32xf32>, tensor<8x?x32xf32>) outs(%fs : tensor<8x1x?xf32>) -> tensor<8x1x?xf32>
  func.return %s : tensor<8x1x?xf32>
}
