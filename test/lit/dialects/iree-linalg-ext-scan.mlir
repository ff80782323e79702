// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// IREE's syntax: `dimension(d) inclusive(b)` before ins/outs, the accumulator as second output.
// CHECK-LABEL: util.func public @cumsum
// CHECK: = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%{{.*}} : tensor<8x32xi64>) outs(%{{.*}}, %{{.*}} : tensor<8x32xi64>, tensor<8xi64>) {
// CHECK: iree_linalg_ext.yield %{{.*}} : i64
// CHECK: } -> tensor<8x32xi64>, tensor<8xi64>
util.func public @cumsum(%x: tensor<8x32xi64>, %o: tensor<8x32xi64>, %a: tensor<8xi64>) -> tensor<8x32xi64> {
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<8x32xi64>) outs(%o, %a : tensor<8x32xi64>, tensor<8xi64>) {
  ^bb0(%run: i64, %e: i64):
    %s = arith.addi %run, %e : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<8x32xi64>, tensor<8xi64>
  util.return %r#0 : tensor<8x32xi64>
}

// -----

// An exclusive scan over dimension 0 of a 1-D tensor: the accumulator is a 0-D tensor.
// CHECK-LABEL: util.func public @exclusive_product
// CHECK: iree_linalg_ext.scan {tag} dimension(0) inclusive(false) ins(%{{.*}} : tensor<5xf32>) outs(%{{.*}}, %{{.*}} : tensor<5xf32>, tensor<f32>)
util.func public @exclusive_product(%x: tensor<5xf32>, %o: tensor<5xf32>, %a: tensor<f32>) -> (tensor<5xf32>, tensor<f32>) {
  %r:2 = iree_linalg_ext.scan {tag} dimension(0) inclusive(false) ins(%x : tensor<5xf32>) outs(%o, %a : tensor<5xf32>, tensor<f32>) {
  ^bb0(%run: f32, %e: f32):
    %p = arith.mulf %run, %e : f32
    iree_linalg_ext.yield %p : f32
  } -> tensor<5xf32>, tensor<f32>
  util.return %r#0, %r#1 : tensor<5xf32>, tensor<f32>
}
