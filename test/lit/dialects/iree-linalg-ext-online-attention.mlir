// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// IREE 3.13's syntax: `<indexing_maps = [...]>`, ins(q, k, v, scale), outs(acc, max, sum), the
// score region, three results.
// CHECK-LABEL: func.func @online_attention
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8xf16>, tensor<2x6x8xf16>, tensor<2x6x5xf16>, f32) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
// CHECK: iree_linalg_ext.yield %{{.*}} : f32
// CHECK: } -> tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
func.func @online_attention(%q: tensor<2x4x8xf16>, %k: tensor<2x6x8xf16>, %v: tensor<2x6x5xf16>, %scale: f32,
    %acc: tensor<2x4x5xf32>, %max: tensor<2x4xf32>, %sum: tensor<2x4xf32>) -> (tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %r:3 = iree_linalg_ext.online_attention <indexing_maps = [#q, #k, #v, #s, #o, #r, #r]>
      ins(%q, %k, %v, %scale : tensor<2x4x8xf16>, tensor<2x6x8xf16>, tensor<2x6x5xf16>, f32)
      outs(%acc, %max, %sum : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  func.return %r#0, %r#1, %r#2 : tensor<2x4x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A mask (8 maps, no segment sizes), the `<{...}>` form IREE also reads, a decomposition
// config kept as written, and dynamic sizes.
// CHECK-LABEL: func.func @masked_dynamic
// CHECK: iree_linalg_ext.online_attention <indexing_maps = [{{.*}}], decomposition_config = {use_exp2 = false}> ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x3xf32>, f32, tensor<?x?xi1>) outs(
// CHECK: } -> tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>
func.func @masked_dynamic(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x3xf32>, %scale: f32, %mask: tensor<?x?xi1>,
    %acc: tensor<?x3xf32>, %max: tensor<?xf32>, %sum: tensor<?xf32>) -> tensor<?x3xf32> {
  %r:3 = iree_linalg_ext.online_attention <{indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
        affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>, affine_map<(m, k1, k2, n) -> (m, k2)>,
        affine_map<(m, k1, k2, n) -> (m, n)>, affine_map<(m, k1, k2, n) -> (m)>, affine_map<(m, k1, k2, n) -> (m)>],
        decomposition_config = {use_exp2 = false}}>
      ins(%q, %k, %v, %scale, %mask : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x3xf32>, f32, tensor<?x?xi1>)
      outs(%acc, %max, %sum : tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>
  func.return %r#0 : tensor<?x3xf32>
}
