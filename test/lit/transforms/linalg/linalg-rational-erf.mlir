// RUN: fusion-opt %s --split-input-file -p linalg-rational-erf | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-rational-erf --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// GELU, as torch exports it: erf(x / sqrt(2)). The erf is x * P(x^2) / Q(x^2) with the scale in
// the coefficients (P's first ~ 2/sqrt(pi) / sqrt(2) = sqrt(2/pi)) and the clamp at 3.9 * sqrt(2)
// on x itself: the division by sqrt(2) goes. The result is clamped to [-1, 1], and is exactly
// -1 (1) where x was clamped from below (above); the compares are unordered, so a NaN passes.
// STATS:         (erf operand scales folded) : 1
// STATS:         (erf ops as rationals) : 1
// CHECK-LABEL: func.func @gelu
// CHECK:         ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT:       arith.divf %[[A]]
// CHECK:           %[[LO:.*]] = arith.constant -5.51543283 : f32
// CHECK:           %[[HI:.*]] = arith.constant 5.51543283 : f32
// CHECK:           %[[GE:.*]] = arith.cmpf uge, %[[A]], %[[LO]] : f32
// CHECK:           %[[X0:.*]] = arith.select %[[GE]], %[[A]], %[[LO]] : f32
// CHECK:           %[[LE:.*]] = arith.cmpf ule, %[[X0]], %[[HI]] : f32
// CHECK:           %[[X:.*]] = arith.select %[[LE]], %[[X0]], %[[HI]] : f32
// CHECK:           %[[T:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-COUNT-5:   math.fma %{{.*}}, %[[T]], %{{.*}} : f32
// CHECK:           %[[C1:.*]] = arith.constant 0.797884285 : f32
// CHECK:           %[[P:.*]] = math.fma %{{.*}}, %[[T]], %[[C1]] : f32
// CHECK:           %[[XP:.*]] = arith.mulf %[[X]], %[[P]] : f32
// CHECK-COUNT-3:   math.fma %{{.*}}, %[[T]], %{{.*}} : f32
// CHECK:           %[[Q:.*]] = math.fma %{{.*}}, %[[T]], %{{.*}} : f32
// CHECK:           %[[R:.*]] = arith.divf %[[XP]], %[[Q]] : f32
// CHECK:           arith.cmpf uge, %[[R]]
// CHECK:           %[[LE1:.*]] = arith.cmpf ule
// CHECK:           %[[W:.*]] = arith.select %[[LE1]]
// CHECK:           %[[SAT:.*]] = arith.select %[[LE]], %[[W]], %{{.*}} : f32
// CHECK:           %[[ERF:.*]] = arith.select %[[GE]], %[[SAT]], %{{.*}} : f32
// CHECK-NOT:       math.erf
// CHECK:           arith.addf %[[ERF]], %{{.*}} : f32
func.func @gelu(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 5.000000e-01 : f32
    %sqrt2 = arith.constant 1.41421354 : f32
    %one = arith.constant 1.000000e+00 : f32
    %u = arith.divf %a, %sqrt2 : f32
    %r = math.erf %u : f32
    %s = arith.addf %r, %one : f32
    %h = arith.mulf %half, %s : f32
    %g = arith.mulf %a, %h : f32
    linalg.yield %g : f32
  } -> tensor<4x16xf32>
  func.return %y : tensor<4x16xf32>
}

// -----

// A positive constant factor on either side folds too (x * 0.5: the clamp at 7.8); a plain
// operand keeps the unscaled coefficients (the clamp at 3.9, P's first ~ 2/sqrt(pi)).
// STATS:         (erf operand scales folded) : 1
// STATS:         (erf ops as rationals) : 2
// CHECK-LABEL: func.func @scaled_and_plain
// CHECK:         ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT:       arith.mulf %[[A]]
// CHECK:           arith.constant -7.800000e+00 : f32
// CHECK:           arith.cmpf uge, %[[A]]
// CHECK-NOT:       math.erf
// CHECK:           linalg.yield
// CHECK:         ^bb0(%[[B:.*]]: f32, %{{.*}}: f32):
// CHECK:           arith.constant -3.900000e+00 : f32
// CHECK:           arith.cmpf uge, %[[B]]
// CHECK:           arith.constant 1.12837875 : f32
// CHECK-NOT:       math.erf
// CHECK:           linalg.yield
func.func @scaled_and_plain(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 5.000000e-01 : f32
    %u = arith.mulf %c, %a : f32
    %r = math.erf %u : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%b: f32, %o: f32):
    %r = math.erf %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  func.return %p, %q : tensor<8xf32>, tensor<8xf32>
}

// -----

// Scales that stay: a negative factor, and a scaled value something else reads too (the erf is
// rewritten on it as it is). An f64 erf is left alone.
// STATS:         (erf ops as rationals) : 2
// STATS-NOT:     erf operand scales folded
// CHECK-LABEL: func.func @left_alone
// CHECK:           %[[U:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf uge, %[[U]]
// CHECK:           linalg.yield
// CHECK:         ^bb0(
// CHECK:           %[[V:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.cmpf uge, %[[V]]
// CHECK:           arith.cmpf ule
// CHECK:           arith.cmpf ule
// CHECK:           arith.select
// CHECK:           arith.select
// CHECK:           %[[R:.*]] = arith.select
// CHECK:           arith.addf %[[R]], %[[V]] : f32
// CHECK:           math.erf %{{.*}} : f64
func.func @left_alone(%x: tensor<8xf32>, %d: tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf64>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant -2.000000e+00 : f32
    %u = arith.mulf %a, %c : f32
    %r = math.erf %u : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.41421354 : f32
    %v = arith.divf %a, %c : f32
    %r = math.erf %v : f32
    %t = arith.addf %r, %v : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %ed = tensor.empty() : tensor<8xf64>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%d : tensor<8xf64>) outs(%ed : tensor<8xf64>) {
  ^bb0(%a: f64, %o: f64):
    %r = math.erf %a : f64
    linalg.yield %r : f64
  } -> tensor<8xf64>
  func.return %p, %q, %w : tensor<8xf32>, tensor<8xf32>, tensor<8xf64>
}
