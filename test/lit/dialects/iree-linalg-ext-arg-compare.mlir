// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @argmax
// CHECK: iree_linalg_ext.arg_compare {iree_linalg_ext.split_reduction = [128 : i64]} dimension(1) ins(%{{.*}} : tensor<64x4096xf32>) outs(%{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xi32>)
// CHECK: arith.cmpf ogt
// CHECK: iree_linalg_ext.yield %{{.*}} : i1
// CHECK: -> tensor<64xf32>, tensor<64xi32>
util.func public @argmax(%x: tensor<64x4096xf32>, %v: tensor<64xf32>, %i: tensor<64xi32>) -> (tensor<64xf32>, tensor<64xi32>) {
  %r:2 = iree_linalg_ext.arg_compare {iree_linalg_ext.split_reduction = [128]} dimension(1)
      ins(%x : tensor<64x4096xf32>) outs(%v, %i : tensor<64xf32>, tensor<64xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %c : i1
  } -> tensor<64xf32>, tensor<64xi32>
  util.return %r#0, %r#1 : tensor<64xf32>, tensor<64xi32>
}

// -----

// CHECK-LABEL: util.func public @argmin_index_base
// CHECK: iree_linalg_ext.arg_compare dimension(0) ins(%{{.*}} : tensor<5xf32>) outs(%{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>) index_base(%{{.*}} : index)
util.func public @argmin_index_base(%x: tensor<5xf32>, %v: tensor<f32>, %i: tensor<i32>, %b: index) -> (tensor<f32>, tensor<i32>) {
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x : tensor<5xf32>) outs(%v, %i : tensor<f32>, tensor<i32>) index_base(%b : index) {
    ^bb0(%a: f32, %c: f32):
      %lt = arith.cmpf olt, %a, %c : f32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<f32>, tensor<i32>
  util.return %r#0, %r#1 : tensor<f32>, tensor<i32>
}
