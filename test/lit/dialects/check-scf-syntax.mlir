// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// IREE's check assertions, scf.if with one unparenthesized result type, and a linalg.generic
// with a second attribute dictionary before `ins` (all as IREE's tests write them).

// CHECK-LABEL: func.func @checks
// CHECK: check.expect_almost_eq(%{{.*}}, %{{.*}}, atol 1.000000e-03) : tensor<3xf32>
// CHECK: check.expect_eq(%{{.*}}, %{{.*}}) : tensor<3xf32>
// CHECK: check.expect_true(%{{.*}}) : i1
func.func @checks(%a: tensor<3xf32>, %c: i1) {
  check.expect_almost_eq(%a, %a, atol 1.0e-03) : tensor<3xf32>
  check.expect_eq(%a, %a) : tensor<3xf32>
  check.expect_true(%c) : i1
  return
}

// -----

// CHECK-LABEL: func.func @if_single_result
// CHECK: scf.if %{{.*}} -> (tensor<?x4xf32>) {
func.func @if_single_result(%c: i1, %a: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %r = scf.if %c -> tensor<?x4xf32> {
    %e = tensor.empty(%n) : tensor<?x4xf32>
    scf.yield %e : tensor<?x4xf32>
  } else {
    scf.yield %a : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @generic_second_dict
// CHECK: linalg.generic
// CHECK-SAME: marker = "keep"
#id = affine_map<(d0) -> (d0)>
func.func @generic_second_dict(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} {marker = "keep"}
      ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
