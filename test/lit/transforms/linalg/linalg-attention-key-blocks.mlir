// RUN: fusion-opt %s --split-input-file -p linalg-attention-key-blocks | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-attention-key-blocks | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p linalg-attention-key-blocks --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// RUN: fusion-opt %s --split-input-file -p 'linalg-attention-key-blocks{min-scores-bytes=1280}' | filecheck %s --check-prefix=AT-MIN
// RUN: fusion-opt %s --split-input-file -p 'linalg-attention-key-blocks{min-scores-bytes=1281}' | filecheck %s --check-prefix=UNDER-MIN
// STATS:         (attention ops reading keys in blocks (padded)) : 1
// STATS-NEXT:    linalg-attention-key-blocks
// STATS-NEXT:    (attention ops reading keys in blocks) : 1
// STATS-NEXT:    linalg-attention-key-blocks
// STATS-NEXT:    linalg-attention-key-blocks
// STATS-NEXT:    (attention ops reading keys in blocks (padded)) : 1

// Whisper's encoder attention, small: Q, K, V read as [seq, heads, dim], 40 keys at head dim 64
// (a block of 32 keys). K is copied to [heads, dim, keys] and padded to 64 keys, V to
// [heads, keys, dim] and padded alike, and the op adds a mask of 0 (the 40 keys) and -inf (the
// 24 pads) to the scores. 2 heads x 4 x 40 f32 scores are 1280 bytes: rewritten at a minimum of
// 1280, left at 1281.
// AT-MIN-LABEL:    func.func @keys_outside_heads
// AT-MIN:            tensor.pad
// UNDER-MIN-LABEL: func.func @keys_outside_heads
// UNDER-MIN-NOT:     tensor.pad
// UNDER-MIN:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
// CHECK-LABEL: func.func @keys_outside_heads
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x2x64xf32>, %[[K:.*]]: tensor<40x2x64xf32>, %[[V:.*]]: tensor<40x2x64xf32>)
// CHECK:         %[[KT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%[[K]] : tensor<40x2x64xf32>) outs(%{{.*}} : tensor<2x64x40xf32>)
// CHECK:         %[[KP:.*]] = tensor.pad %[[KT]] low[0, 0, 0] high[0, 0, 24]
// CHECK:           arith.constant 0.000000e+00 : f32
// CHECK:         } : tensor<2x64x40xf32> to tensor<2x64x64xf32>
// CHECK:         %[[VR:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%[[V]] : tensor<40x2x64xf32>) outs(%{{.*}} : tensor<2x40x64xf32>)
// CHECK:         %[[VP:.*]] = tensor.pad %[[VR]] low[0, 0, 0] high[0, 24, 0]
// CHECK:         } : tensor<2x40x64xf32> to tensor<2x64x64xf32>
// CHECK:         %[[M:.*]] = arith.constant dense<[0.000000e+00, {{(0.000000e\+00, )+}}0xff800000, {{(0xff800000, )+}}0xff800000]> : tensor<64xf32>
// CHECK:         iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%[[Q]], %[[KP]], %[[VP]], %{{.*}}, %[[M]] : tensor<4x2x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32, tensor<64xf32>) outs(%{{.*}} : tensor<4x2x64xf32>)
func.func @keys_outside_heads(%q: tensor<4x2x64xf32>, %k: tensor<40x2x64xf32>, %v: tensor<40x2x64xf32>) -> tensor<4x2x64xf32> {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x2x64xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x2x64xf32>, tensor<40x2x64xf32>, tensor<40x2x64xf32>, f32) outs(%e : tensor<4x2x64xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x2x64xf32>
  return %a : tensor<4x2x64xf32>
}

// -----

// 64 keys, two whole blocks of 32: K is only transposed ([heads, keys, dim] -> [heads, dim,
// keys]); V and the op's own mask stay.
// CHECK-LABEL: func.func @whole_blocks_masked
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x4x64xf32>, %[[K:.*]]: tensor<2x64x64xf32>, %[[V:.*]]: tensor<2x64x64xf32>, %[[MASK:.*]]: tensor<4x64xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[KT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%[[K]] : tensor<2x64x64xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%[[Q]], %[[KT]], %[[V]], %{{.*}}, %[[MASK]] :
func.func @whole_blocks_masked(%q: tensor<2x4x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>, %m: tensor<4x64xf32>) -> tensor<2x4x64xf32> {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x4x64xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s, %m : tensor<2x4x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32, tensor<4x64xf32>) outs(%e : tensor<2x4x64xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x64xf32>
  return %a : tensor<2x4x64xf32>
}

// -----

// Left as they are: K already [heads, dim, keys] over whole blocks; a mask of its own where the
// keys need padding (40); head dim 256 (past 128); fewer keys than a block (16 at head dim 64).
// Nor head dims under 32 (16: not measured).
// CHECK-LABEL: func.func @keys_innermost_already
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
// CHECK-LABEL: func.func @own_mask_needs_padding
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s, %m :
// CHECK-LABEL: func.func @head_dim_256
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
// CHECK-LABEL: func.func @head_dim_16
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
// CHECK-LABEL: func.func @fewer_keys_than_a_block
// CHECK-NOT:     linalg.generic
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%q, %k, %v, %s :
func.func @keys_innermost_already(%q: tensor<2x4x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>) -> tensor<2x4x64xf32> {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x4x64xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32) outs(%e : tensor<2x4x64xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x64xf32>
  return %a : tensor<2x4x64xf32>
}
func.func @own_mask_needs_padding(%q: tensor<2x4x64xf32>, %k: tensor<2x40x64xf32>, %v: tensor<2x40x64xf32>, %m: tensor<4x40xf32>) -> tensor<2x4x64xf32> {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x4x64xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s, %m : tensor<2x4x64xf32>, tensor<2x40x64xf32>, tensor<2x40x64xf32>, f32, tensor<4x40xf32>) outs(%e : tensor<2x4x64xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x64xf32>
  return %a : tensor<2x4x64xf32>
}
func.func @head_dim_256(%q: tensor<1x4x256xf32>, %k: tensor<1x40x256xf32>, %v: tensor<1x40x256xf32>) -> tensor<1x4x256xf32> {
  %s = arith.constant 0.0625 : f32
  %e = tensor.empty() : tensor<1x4x256xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<1x4x256xf32>, tensor<1x40x256xf32>, tensor<1x40x256xf32>, f32) outs(%e : tensor<1x4x256xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x4x256xf32>
  return %a : tensor<1x4x256xf32>
}
func.func @head_dim_16(%q: tensor<1x4x16xf32>, %k: tensor<1x40x16xf32>, %v: tensor<1x40x16xf32>) -> tensor<1x4x16xf32> {
  %s = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x4x16xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<1x4x16xf32>, tensor<1x40x16xf32>, tensor<1x40x16xf32>, f32) outs(%e : tensor<1x4x16xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x4x16xf32>
  return %a : tensor<1x4x16xf32>
}
func.func @fewer_keys_than_a_block(%q: tensor<2x4x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x64xf32>) -> tensor<2x4x64xf32> {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x4x64xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<2x4x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, f32) outs(%e : tensor<2x4x64xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x64xf32>
  return %a : tensor<2x4x64xf32>
}

// -----

// 512 keys at head dim 32: 16 blocks of 32 would divide them, but K^T's rows of 2 KB put a block's
// 32 rows in few L1 sets: one more block, 544 keys (the last 32 masked).
// CHECK-LABEL: func.func @row_stride_off_powers_of_two
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 32]
// CHECK:         } : tensor<1x32x512xf32> to tensor<1x32x544xf32>
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0] high[0, 32, 0]
// CHECK:         iree_linalg_ext.attention {{.*}} : tensor<4x1x32xf32>, tensor<1x32x544xf32>, tensor<1x544x32xf32>, f32, tensor<544xf32>)
func.func @row_stride_off_powers_of_two(%q: tensor<4x1x32xf32>, %k: tensor<512x1x32xf32>, %v: tensor<512x1x32xf32>) -> tensor<4x1x32xf32> {
  %s = arith.constant 0.176776692 : f32
  %e = tensor.empty() : tensor<4x1x32xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s : tensor<4x1x32xf32>, tensor<512x1x32xf32>, tensor<512x1x32xf32>, f32) outs(%e : tensor<4x1x32xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<4x1x32xf32>
  return %a : tensor<4x1x32xf32>
}
