// RUN: fusion-opt %s --split-input-file -p linalg-merge-sibling-reductions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-merge-sibling-reductions{rewrite-variance=true}' | filecheck %s --check-prefix=SHIFTED

// By default a layer norm's two reductions stay two: the variance reads the mean, so they are
// not siblings (the one-root form measured no faster on CPU and slower on GPU).
// CHECK-LABEL: func.func @layer_norm_stats
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]} ins
// CHECK-NOT:     -> (tensor<4xf32>, tensor<4xf32>

// With rewrite-variance, s = sum(x), sy = sum(x - k), syy = sum((x - k)^2) (k = the row's first
// element, read through a constant-0 map) come from one reduction, and the variance is an
// elementwise function of them and k: one root, no cancellation at a large offset.
// SHIFTED-LABEL: func.func @layer_norm_stats
// SHIFTED-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// SHIFTED:         %[[S:.*]], %[[SY:.*]], %[[SYY:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, {{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>)
// SHIFTED-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[K:.*]]: f32, %[[ACC:.*]]: f32, %[[ACCY:.*]]: f32, %[[ACCYY:.*]]: f32):
// SHIFTED-NEXT:      %[[SUM:.*]] = arith.addf %[[IN]], %[[ACC]] : f32
// SHIFTED-NEXT:      %[[Y:.*]] = arith.subf %[[IN]], %[[K]] : f32
// SHIFTED-NEXT:      %[[SUMY:.*]] = arith.addf %[[Y]], %[[ACCY]] : f32
// SHIFTED-NEXT:      %[[YY:.*]] = arith.mulf %[[Y]], %[[Y]] : f32
// SHIFTED-NEXT:      %[[SUMYY:.*]] = arith.addf %[[YY]], %[[ACCYY]] : f32
// SHIFTED-NEXT:      linalg.yield %[[SUM]], %[[SUMY]], %[[SUMYY]] : f32, f32, f32
// SHIFTED:         %[[D:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[S]] :
// SHIFTED:         %[[V:.*]] = linalg.generic {indexing_maps = [{{.*}}, affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[S]], %[[SY]], %[[SYY]], %[[X]] :
// SHIFTED-NOT:     iterator_types = ["parallel", "reduction"]
// SHIFTED:         func.return %[[D]], %[[V]]
func.func @layer_norm_stats(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %m = arith.divf %sum, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%q : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %d, %v : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Any two reductions over the same input with the same maps merge.
// CHECK-LABEL: func.func @siblings
// CHECK:         %[[S:.*]], %[[M:.*]] = linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         func.return %[[S]], %[[M]]
// SHIFTED-LABEL: func.func @siblings
// SHIFTED:         %[[S:.*]], %[[M:.*]] = linalg.generic
func.func @siblings(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%g : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.maximumf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %s, %mx : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: different inputs are not siblings.
// SHIFTED-LABEL: func.func @different_inputs
// SHIFTED-COUNT-2: iterator_types = ["parallel", "reduction"]} ins
// CHECK-LABEL: func.func @different_inputs
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]} ins
// CHECK-NOT:     -> (tensor<4xf32>, tensor<4xf32>)
func.func @different_inputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %s, %t : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: the centered values subtract x's mean from y, so sum((y - m(sum(x)))^2) is no
// variance of x: nothing is rewritten, with or without rewrite-variance.
// CHECK-LABEL: func.func @centered_on_other_input
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]} ins
// SHIFTED-LABEL: func.func @centered_on_other_input
// SHIFTED-NOT:     affine_map<(d0, d1) -> (d0, 0)>
// SHIFTED-COUNT-2: iterator_types = ["parallel", "reduction"]} ins
// SHIFTED-NOT:     affine_map<(d0, d1) -> (d0, 0)>
func.func @centered_on_other_input(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %m = arith.divf %sum, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%q : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %v : tensor<4xf32>
}
