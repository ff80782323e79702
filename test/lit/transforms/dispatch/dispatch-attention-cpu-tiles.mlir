// RUN: fusion-opt %s --split-input-file -p dispatch-attention-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'dispatch-attention-cpu-tiles{workgroup=32 rows=4 keys=16}' | filecheck %s --check-prefix=OPTS
// RUN: fusion-opt %s --split-input-file -p 'dispatch-attention-cpu-tiles{partial-tiles=false}' | filecheck %s --check-prefix=NOPARTIAL
// RUN: not fusion-opt %s -p 'dispatch-attention-cpu-tiles{workgroup=0}' 2>&1 | filecheck %s --check-prefix=BADOPT
// RUN: not fusion-opt %s -p 'dispatch-attention-cpu-tiles{keys=-1}' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: error: pass 'dispatch-attention-cpu-tiles': workgroup must be positive and rows and keys not negative
// RUN: fusion-opt %s --split-input-file -p dispatch-attention-cpu-tiles --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS-COUNT-3: (attention ops given a CPU register tile) : 1
// STATS:         (attention ops given a CPU register tile) : 2
// STATS-COUNT-2: (attention ops given a CPU register tile) : 1
// STATS:         (attention ops given a CPU register tile) : 3
// STATS-NOT:     attention ops given

// bert_mini's attention region as linalg-raise-attention and form-dispatch-regions leave it: Q,
// K, V read as [seq, head, dim] (loops b, m, k2, k1, n), a mask over the keys. Head dim 64:
// 8 query rows x 8 keys per step, the whole head dim; the workgroup takes 64 query rows.

// CHECK-LABEL: func.func @bert_layer
// CHECK:       iree_linalg_ext.attention <indexing_maps = [{{.*}}]> {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0, 0, 64], vector_common_parallel = [1, 8, 0, 0, 64], vector_reduction = [0, 0, 8, 0, 0]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<LinalgExtTileAndVectorize>>>} ins(
// OPTS-LABEL:  func.func @bert_layer
// OPTS:        distribution = [1, 32, 0, 0, 64], vector_common_parallel = [1, 4, 0, 0, 64], vector_reduction = [0, 0, 16, 0, 0]
func.func @bert_layer(%q: tensor<64x2x64xf32>, %k: tensor<64x2x64xf32>, %v: tensor<64x2x64xf32>, %mask: tensor<64xf32>) -> tensor<64x2x64xf32> {
  %s = arith.constant 0.125 : f32
  %r = flow.dispatch.region -> (tensor<64x2x64xf32>) {
    %e = tensor.empty() : tensor<64x2x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s, %mask : tensor<64x2x64xf32>, tensor<64x2x64xf32>, tensor<64x2x64xf32>, f32, tensor<64xf32>) outs(%e : tensor<64x2x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<64x2x64xf32>
    flow.return %a : tensor<64x2x64xf32>
  }
  func.return %r : tensor<64x2x64xf32>
}

// -----

// Two batch dims (batch, heads) and head dim 32: 16 keys per step, 8 query rows; 16 queries
// make a 16-row workgroup.

// CHECK-LABEL: func.func @two_batch_dims_head_dim_32
// CHECK:       distribution = [1, 1, 16, 0, 0, 32], vector_common_parallel = [1, 1, 8, 0, 0, 32], vector_reduction = [0, 0, 0, 16, 0, 0]
func.func @two_batch_dims_head_dim_32(%q: tensor<1x12x16x32xf32>, %k: tensor<1x12x32x32xf32>, %v: tensor<1x12x32x32xf32>) -> tensor<1x12x16x32xf32> {
  %s = arith.constant 0.17677669 : f32
  %r = flow.dispatch.region -> (tensor<1x12x16x32xf32>) {
    %e = tensor.empty() : tensor<1x12x16x32xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(b, h, m, k2, k1, n) -> (b, h, m, k1)>, affine_map<(b, h, m, k2, k1, n) -> (b, h, k2, k1)>, affine_map<(b, h, m, k2, k1, n) -> (b, h, k2, n)>, affine_map<(b, h, m, k2, k1, n) -> ()>, affine_map<(b, h, m, k2, k1, n) -> (b, h, m, n)>]> ins(%q, %k, %v, %s : tensor<1x12x16x32xf32>, tensor<1x12x32x32xf32>, tensor<1x12x32x32xf32>, f32) outs(%e : tensor<1x12x16x32xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<1x12x16x32xf32>
    flow.return %a : tensor<1x12x16x32xf32>
  }
  func.return %r : tensor<1x12x16x32xf32>
}

// -----

// Head dim 128, a causal [queries, keys] mask: 4 query rows x 8 keys, so the 4 x 8 x 128 score
// vector stays at 16 KB.

// CHECK-LABEL: func.func @head_dim_128_causal
// CHECK:       distribution = [1, 64, 0, 0, 128], vector_common_parallel = [1, 4, 0, 0, 128], vector_reduction = [0, 0, 8, 0, 0]
func.func @head_dim_128_causal(%q: tensor<4x128x128xf32>, %k: tensor<4x128x128xf32>, %v: tensor<4x128x128xf32>, %mask: tensor<128x128xf32>) -> tensor<4x128x128xf32> {
  %s = arith.constant 0.088388 : f32
  %r = flow.dispatch.region -> (tensor<4x128x128xf32>) {
    %e = tensor.empty() : tensor<4x128x128xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s, %mask : tensor<4x128x128xf32>, tensor<4x128x128xf32>, tensor<4x128x128xf32>, f32, tensor<128x128xf32>) outs(%e : tensor<4x128x128xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<4x128x128xf32>
    flow.return %a : tensor<4x128x128xf32>
  }
  func.return %r : tensor<4x128x128xf32>
}

// -----

// Left to IREE: an attention op outside any region (IREE forms its dispatch and picks its own
// config), f16, fewer queries than the 8-row tile, fewer keys than the 8-key step, and a head
// dim over 256.

// CHECK-LABEL: func.func @untiled
// CHECK-NOT:   compilation_info
// CHECK:       func.return
func.func @untiled(%q: tensor<2x64x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>, %qh: tensor<2x64x64xf16>, %kh: tensor<2x64x64xf16>, %vh: tensor<2x64x64xf16>, %q12: tensor<2x4x64xf32>, %k12: tensor<2x4x64xf32>, %v12: tensor<2x4x64xf32>, %qw: tensor<1x8x512xf32>, %kw: tensor<1x8x512xf32>, %vw: tensor<1x8x512xf32>) -> (tensor<2x64x64xf32>, tensor<2x64x64xf16>, tensor<2x4x64xf32>, tensor<2x64x64xf32>, tensor<1x8x512xf32>) {
  %s = arith.constant 0.125 : f32
  %sh = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<2x64x64xf32>
  %top = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<2x64x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32) outs(%e : tensor<2x64x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x64x64xf32>
  %half = flow.dispatch.region -> (tensor<2x64x64xf16>) {
    %eh = tensor.empty() : tensor<2x64x64xf16>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%qh, %kh, %vh, %sh : tensor<2x64x64xf16>, tensor<2x64x64xf16>, tensor<2x64x64xf16>, f16) outs(%eh : tensor<2x64x64xf16>) {
    ^bb0(%score: f16):
      iree_linalg_ext.yield %score : f16
    } -> tensor<2x64x64xf16>
    flow.return %a : tensor<2x64x64xf16>
  }
  %rows4 = flow.dispatch.region -> (tensor<2x4x64xf32>) {
    %e4 = tensor.empty() : tensor<2x4x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q12, %k, %v, %s : tensor<2x4x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32) outs(%e4 : tensor<2x4x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x4x64xf32>
    flow.return %a : tensor<2x4x64xf32>
  }
  %keys4 = flow.dispatch.region -> (tensor<2x64x64xf32>) {
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k12, %v12, %s : tensor<2x64x64xf32>, tensor<2x4x64xf32>, tensor<2x4x64xf32>, f32) outs(%e : tensor<2x64x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x64x64xf32>
    flow.return %a : tensor<2x64x64xf32>
  }
  %wide = flow.dispatch.region -> (tensor<1x8x512xf32>) {
    %ew = tensor.empty() : tensor<1x8x512xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%qw, %kw, %vw, %s : tensor<1x8x512xf32>, tensor<1x8x512xf32>, tensor<1x8x512xf32>, f32) outs(%ew : tensor<1x8x512xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<1x8x512xf32>
    flow.return %a : tensor<1x8x512xf32>
  }
  func.return %top, %half, %rows4, %keys4, %wide : tensor<2x64x64xf32>, tensor<2x64x64xf16>, tensor<2x4x64xf32>, tensor<2x64x64xf32>, tensor<1x8x512xf32>
}

// -----

// Partial tiles (a ViT's 197 tokens): 13 queries against the 8-row tile, 13 keys against the
// 8-key step get the tile, IREE masking the rest (13 is prime: no tile divides it); with
// partial-tiles=false they are left alone.

// CHECK-LABEL: func.func @partial_tiles
// CHECK:       compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 8, 0, 0, 64], vector_common_parallel = [1, 8, 0, 0, 64], vector_reduction = [0, 0, 8, 0, 0]>
// CHECK:       compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0, 0, 64], vector_common_parallel = [1, 8, 0, 0, 64], vector_reduction = [0, 0, 8, 0, 0]>
// NOPARTIAL-LABEL: func.func @partial_tiles
// NOPARTIAL-NOT:   compilation_info
// NOPARTIAL:       func.return
func.func @partial_tiles(%q: tensor<2x64x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>, %q13: tensor<2x13x64xf32>, %k13: tensor<2x13x64xf32>, %v13: tensor<2x13x64xf32>) -> (tensor<2x13x64xf32>, tensor<2x64x64xf32>) {
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x64x64xf32>
  %rows13 = flow.dispatch.region -> (tensor<2x13x64xf32>) {
    %e13 = tensor.empty() : tensor<2x13x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q13, %k, %v, %s : tensor<2x13x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32) outs(%e13 : tensor<2x13x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x13x64xf32>
    flow.return %a : tensor<2x13x64xf32>
  }
  %keys13 = flow.dispatch.region -> (tensor<2x64x64xf32>) {
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k13, %v13, %s : tensor<2x64x64xf32>, tensor<2x13x64xf32>, tensor<2x13x64xf32>, f32) outs(%e : tensor<2x64x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x64x64xf32>
    flow.return %a : tensor<2x64x64xf32>
  }
  func.return %rows13, %keys13 : tensor<2x13x64xf32>, tensor<2x64x64xf32>
}

// -----

// Lengths the 8 x 8 tile leaves partial but others divide (Whisper's 1500 frames): the tile of up
// to 12 rows and at least 4 keys that divides both, with the most rows x keys (then keys) in
// the vector budget: 10 x 6 at 60 x 64, and 60-row workgroups (no partial workgroup either);
// it divides, so partial-tiles=false takes it too.
// CHECK-LABEL: func.func @dividing_tiles
// CHECK:       compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 60, 0, 0, 64], vector_common_parallel = [1, 10, 0, 0, 64], vector_reduction = [0, 0, 6, 0, 0]>
// NOPARTIAL-LABEL: func.func @dividing_tiles
// NOPARTIAL:       vector_common_parallel = [1, 10, 0, 0, 64], vector_reduction = [0, 0, 6, 0, 0]
func.func @dividing_tiles(%q: tensor<2x60x64xf32>, %k: tensor<2x60x64xf32>, %v: tensor<2x60x64xf32>) -> tensor<2x60x64xf32> {
  %s = arith.constant 0.125 : f32
  %r = flow.dispatch.region -> (tensor<2x60x64xf32>) {
    %e = tensor.empty() : tensor<2x60x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> ins(%q, %k, %v, %s : tensor<2x60x64xf32>, tensor<2x60x64xf32>, tensor<2x60x64xf32>, f32) outs(%e : tensor<2x60x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x60x64xf32>
    flow.return %a : tensor<2x60x64xf32>
  }
  func.return %r : tensor<2x60x64xf32>
}

// -----

// A config already on the op (an IREE tuner spec's) is kept as written.

// CHECK-LABEL: func.func @configured_stays
// CHECK:       vector_common_parallel = [1, 2, 0, 0, 64], vector_reduction = [0, 0, 4, 0, 0]
// CHECK-NOT:   compilation_info
func.func @configured_stays(%q: tensor<2x64x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>) -> tensor<2x64x64xf32> {
  %s = arith.constant 0.125 : f32
  %r = flow.dispatch.region -> (tensor<2x64x64xf32>) {
    %e = tensor.empty() : tensor<2x64x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]> {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 16, 0, 0, 64], vector_common_parallel = [1, 2, 0, 0, 64], vector_reduction = [0, 0, 4, 0, 0]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<LinalgExtTileAndVectorize>>>} ins(%q, %k, %v, %s : tensor<2x64x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32) outs(%e : tensor<2x64x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<2x64x64xf32>
    flow.return %a : tensor<2x64x64xf32>
  }
  func.return %r : tensor<2x64x64xf32>
}

// -----

// Grouped-query attention as linalg-raise-attention{shared-kv-heads} leaves it (Llama: 2 K/V
// heads, 4 query heads per group, 64 tokens): two M dims, the group (d1) and the query rows
// (d2). The larger one gets the row tile, the group is walked one at a time like a batch dim.
// The decode step's (one query row per head) largest M dim is the group of 4, fewer rows than
// the tile: left to IREE.

// CHECK-LABEL: func.func @grouped_query_two_m_dims
// CHECK:       distribution = [1, 1, 64, 0, 0, 32], vector_common_parallel = [1, 1, 8, 0, 0, 32], vector_reduction = [0, 0, 0, 16, 0, 0]
// CHECK-NOT:   compilation_info
// CHECK:       func.return
func.func @grouped_query_two_m_dims(%q: tensor<2x4x64x32xf32>, %k: tensor<64x2x32xf32>, %v: tensor<64x2x32xf32>, %mask: tensor<64x64xf32>, %q1: tensor<2x4x1x32xf32>) -> (tensor<64x2x4x32xf32>, tensor<1x2x4x32xf32>) {
  %s = arith.constant 0.176776692 : f32
  %r = flow.dispatch.region -> (tensor<64x2x4x32xf32>) {
    %e = tensor.empty() : tensor<64x2x4x32xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d1, d5)>]> ins(%q, %k, %v, %s, %mask : tensor<2x4x64x32xf32>, tensor<64x2x32xf32>, tensor<64x2x32xf32>, f32, tensor<64x64xf32>) outs(%e : tensor<64x2x4x32xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<64x2x4x32xf32>
    flow.return %a : tensor<64x2x4x32xf32>
  }
  %d = flow.dispatch.region -> (tensor<1x2x4x32xf32>) {
    %e1 = tensor.empty() : tensor<1x2x4x32xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d1, d5)>]> ins(%q1, %k, %v, %s : tensor<2x4x1x32xf32>, tensor<64x2x32xf32>, tensor<64x2x32xf32>, f32) outs(%e1 : tensor<1x2x4x32xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<1x2x4x32xf32>
    flow.return %a : tensor<1x2x4x32xf32>
  }
  func.return %r, %d : tensor<64x2x4x32xf32>, tensor<1x2x4x32xf32>
}

// -----

// K read with its keys innermost, as linalg-attention-key-blocks leaves a long attention
// (Whisper's, 1504 padded keys here 64, 2 heads, 120 query rows, head dim 64): 2 query rows
// x 32 keys a step, the scores vectors over the keys; 60 rows a workgroup divide the 120.
// At head dim 128: 2 rows x 16 keys. Where the block does not divide the keys (40), the tile
// by the head dim (8 x 8), 40 rows a workgroup.
// CHECK-LABEL: func.func @keys_innermost
// CHECK:       distribution = [1, 60, 0, 0, 64], vector_common_parallel = [1, 2, 0, 0, 64], vector_reduction = [0, 0, 32, 0, 0]
// CHECK:       distribution = [1, 64, 0, 0, 128], vector_common_parallel = [1, 2, 0, 0, 128], vector_reduction = [0, 0, 16, 0, 0]
// CHECK:       distribution = [1, 40, 0, 0, 64], vector_common_parallel = [1, 8, 0, 0, 64], vector_reduction = [0, 0, 8, 0, 0]
func.func @keys_innermost(%q: tensor<120x2x64xf32>, %k: tensor<2x64x64xf32>, %v: tensor<2x64x64xf32>, %mask: tensor<64xf32>, %q2: tensor<64x1x128xf32>, %k2: tensor<1x128x32xf32>, %v2: tensor<1x32x128xf32>, %k3: tensor<2x64x40xf32>, %v3: tensor<2x40x64xf32>) -> (tensor<120x2x64xf32>, tensor<64x1x128xf32>, tensor<120x2x64xf32>) {
  %s = arith.constant 0.125 : f32
  %r = flow.dispatch.region -> (tensor<120x2x64xf32>) {
    %e = tensor.empty() : tensor<120x2x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k, %v, %s, %mask : tensor<120x2x64xf32>, tensor<2x64x64xf32>, tensor<2x64x64xf32>, f32, tensor<64xf32>) outs(%e : tensor<120x2x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<120x2x64xf32>
    flow.return %a : tensor<120x2x64xf32>
  }
  %r2 = flow.dispatch.region -> (tensor<64x1x128xf32>) {
    %e = tensor.empty() : tensor<64x1x128xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q2, %k2, %v2, %s : tensor<64x1x128xf32>, tensor<1x128x32xf32>, tensor<1x32x128xf32>, f32) outs(%e : tensor<64x1x128xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<64x1x128xf32>
    flow.return %a : tensor<64x1x128xf32>
  }
  %r3 = flow.dispatch.region -> (tensor<120x2x64xf32>) {
    %e = tensor.empty() : tensor<120x2x64xf32>
    %a = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4)>]> ins(%q, %k3, %v3, %s : tensor<120x2x64xf32>, tensor<2x64x40xf32>, tensor<2x40x64xf32>, f32) outs(%e : tensor<120x2x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<120x2x64xf32>
    flow.return %a : tensor<120x2x64xf32>
  }
  func.return %r, %r2, %r3 : tensor<120x2x64xf32>, tensor<64x1x128xf32>, tensor<120x2x64xf32>
}
