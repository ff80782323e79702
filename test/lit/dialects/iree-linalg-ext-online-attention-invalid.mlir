// RUN: fusion-opt %s --split-input-file --verify-diagnostics

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
func.func @missing_sum_map(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>, %scale: f32,
    %acc: tensor<2x4x5xf32>, %max: tensor<2x4xf32>, %sum: tensor<2x4xf32>) {
  // expected-error@+1 {{expected 7 indexing maps, got 6}}
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [#q, #k, #v, #s, #o, #r]>
      ins(%q, %k, %v, %scale : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>, f32)
      outs(%acc, %max, %sum : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  func.return
}

// -----

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
#rn = affine_map<(b, m, k1, k2, n) -> (b, n)>
func.func @max_indexed_by_n(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>, %scale: f32,
    %acc: tensor<2x4x5xf32>, %max: tensor<2x5xf32>, %sum: tensor<2x4xf32>) {
  // expected-error@+1 {{the max map must index exactly the batch and m dims}}
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [#q, #k, #v, #s, #o, #rn, #r]>
      ins(%q, %k, %v, %scale : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>, f32)
      outs(%acc, %max, %sum : tensor<2x4x5xf32>, tensor<2x5xf32>, tensor<2x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x5xf32>, tensor<2x5xf32>, tensor<2x4xf32>
  func.return
}

// -----

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
func.func @key_length_mismatch(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x7x5xf32>, %scale: f32,
    %acc: tensor<2x4x5xf32>, %max: tensor<2x4xf32>, %sum: tensor<2x4xf32>) {
  // expected-error@+1 {{dim d3 has size 6 and 7 (value)}}
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [#q, #k, #v, #s, #o, #r, #r]>
      ins(%q, %k, %v, %scale : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x7x5xf32>, f32)
      outs(%acc, %max, %sum : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  func.return
}

// -----

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
func.func @tensor_scale(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>, %scale: tensor<f32>,
    %acc: tensor<2x4x5xf32>, %max: tensor<2x4xf32>, %sum: tensor<2x4xf32>) {
  // expected-error@+1 {{the scale must be a scalar read through `() -> ()`}}
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [#q, #k, #v, #s, #o, #r, #r]>
      ins(%q, %k, %v, %scale : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>, tensor<f32>)
      outs(%acc, %max, %sum : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  func.return
}

// -----

func.func @missing_maps(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x5xf32>, %scale: f32,
    %acc: tensor<4x5xf32>, %max: tensor<4xf32>, %sum: tensor<4xf32>) {
  // expected-error@+7 {{properties dictionary is missing required attribute: indexing_maps}}
  %r:3 = iree_linalg_ext.online_attention
      ins(%q, %k, %v, %scale : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x5xf32>, f32)
      outs(%acc, %max, %sum : tensor<4x5xf32>, tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x5xf32>, tensor<4xf32>, tensor<4xf32>
  func.return
}
