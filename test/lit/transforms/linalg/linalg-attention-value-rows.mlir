// RUN: fusion-opt %s --split-input-file -p linalg-attention-value-rows | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-attention-value-rows | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p linalg-attention-value-rows --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// RUN: fusion-opt %s --split-input-file -p 'linalg-attention-value-rows{min-scores-bytes=128}' | filecheck %s --check-prefix=AT-MIN
// RUN: fusion-opt %s --split-input-file -p 'linalg-attention-value-rows{min-scores-bytes=129}' | filecheck %s --check-prefix=UNDER-MIN
// STATS-COUNT-3: (attention values copied with their batch dims outermost) : 1
// STATS-NOT:     attention values copied

// GPT-NeoX's V, [keys, heads, dim] (read where the fused QKV projection wrote it): copied into
// [heads, keys, dim] rows, the op reading the copy through (d0, d2, d4).
// With min-scores-bytes (the llvm-cpu pipelines copy only where they raise): 2 heads x 4 x 4
// f32 scores, 128 bytes, copied at a minimum of 128, read in place at 129.
// AT-MIN-LABEL:    func.func @keys_outside_heads
// AT-MIN:            linalg.generic
// UNDER-MIN-LABEL: func.func @keys_outside_heads
// UNDER-MIN-NOT:     linalg.generic
// UNDER-MIN:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
// CHECK-LABEL: func.func @keys_outside_heads
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x4x8xf32>, %[[K:.*]]: tensor<2x4x8xf32>, %[[V:.*]]: tensor<4x2x8xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK:         %[[ROWS:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[V]] : tensor<4x2x8xf32>) outs(%[[E]] : tensor<2x4x8xf32>)
// CHECK:         iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%[[Q]], %[[K]], %[[ROWS]], %{{.*}} : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, f32)
func.func @keys_outside_heads(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x2x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  return %a : tensor<4x2x8xf32>
}

// -----

// Two batch dims (batch, heads) with the keys between them, and a mask: the copy keeps the
// batch dims' order, [batch, heads, keys, dim].
// CHECK-LABEL: func.func @keys_between_batch_dims
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%{{.*}} : tensor<1x4x2x8xf32>) outs(%{{.*}} : tensor<1x2x4x8xf32>)
// CHECK:         iree_linalg_ext.attention <indexing_maps = [{{.*}}, {{.*}}, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>,
func.func @keys_between_batch_dims(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x4x2x8xf32>, %m: tensor<4x4xf32>) -> tensor<1x2x4x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<1x2x4x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>]> ins(%q, %k, %v, %s, %m : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x4x2x8xf32>, f32, tensor<4x4xf32>) outs(%e : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x2x4x8xf32>
  return %a : tensor<1x2x4x8xf32>
}

// -----

// f16 operands: the op computes its scores in f32, so 2 heads x 4 x 4 of them are 128 bytes, as
// the raise counts the decomposed form's f32 scores: copied at a minimum of 128.
// AT-MIN-LABEL:    func.func @f16_keys_outside_heads
// AT-MIN:            linalg.generic {{.*}} ins(%{{.*}} : tensor<4x2x8xf16>) outs(%{{.*}} : tensor<2x4x8xf16>)
// CHECK-LABEL: func.func @f16_keys_outside_heads
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4x2x8xf16>) outs(%{{.*}} : tensor<2x4x8xf16>)
func.func @f16_keys_outside_heads(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<4x2x8xf16>) -> tensor<4x2x8xf16> {
  %s = arith.constant 0.35 : f16
  %e = tensor.empty() : tensor<4x2x8xf16>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x8xf16>, tensor<2x4x8xf16>, tensor<4x2x8xf16>, f16) outs(%e : tensor<4x2x8xf16>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf16>
  return %a : tensor<4x2x8xf16>
}

// -----

// Negative: V already [heads, keys, dim] (Llama's): no copy.
// CHECK-LABEL: func.func @rows_already
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
func.func @rows_already(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  return %a : tensor<4x2x8xf32>
}

// -----

// Negative: V [heads, dim, keys] has no batch dim inside its keys; the pass moves only batch
// dims, so it is read as it is (a key-major copy there is not measured).
// CHECK-LABEL: func.func @columns_before_keys
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
func.func @columns_before_keys(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x2x8xf32> {
  %s = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x2x8xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x8x4xf32>, f32) outs(%e : tensor<4x2x8xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x8xf32>
  return %a : tensor<4x2x8xf32>
}
