// RUN: fusion-opt %s --split-input-file -p linalg-widen-mean-subtractions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-widen-mean-subtractions --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// A normalisation's centring: the f64 mean is subtracted in f64, rounded once.
// CHECK-LABEL: func.func @centre_on_wide_mean
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.constant 3.136000e+03 : f64
// CHECK-NEXT:      %[[M:.*]] = arith.divf %[[S]], %[[N]] : f64
// CHECK-NEXT:      %[[XW:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[XW]], %[[M]] : f64
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// STATS:       (mean subtractions widened) : 1
func.func @centre_on_wide_mean(%x: tensor<4x3136xf32>, %s: tensor<4xf64>) -> tensor<4x3136xf32> {
  %e = tensor.empty() : tensor<4x3136xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>, affine_map<(r, d) -> (r, d)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x3136xf32>, tensor<4xf64>) outs(%e : tensor<4x3136xf32>) {
  ^bb0(%in: f32, %sum: f64, %o: f32):
    %n = arith.constant 3136.0 : f64
    %m = arith.divf %sum, %n : f64
    %m32 = arith.truncf %m : f64 to f32
    %y = arith.subf %in, %m32 : f32
    linalg.yield %y : f32
  } -> tensor<4x3136xf32>
  func.return %c : tensor<4x3136xf32>
}

// -----

// The mean on the left, and its f32 value also used elsewhere in the payload: that use keeps
// the truncf.
// CHECK-LABEL: func.func @mean_minus_value_truncf_kept
// CHECK:         %[[M32:.*]] = arith.truncf %[[M:.*]] : f64 to f32
// CHECK:         %[[XW:.*]] = arith.extf %[[X:.*]] : f32 to f64
// CHECK-NEXT:    %[[D:.*]] = arith.subf %[[M]], %[[XW]] : f64
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[R]], %[[M32]] : f32
func.func @mean_minus_value_truncf_kept(%x: tensor<8xf32>, %m: tensor<8xf64>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>], iterator_types = ["parallel"]} ins(%x, %m : tensor<8xf32>, tensor<8xf64>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %mean: f64, %o: f32):
    %m32 = arith.truncf %mean : f64 to f32
    %y = arith.subf %m32, %in : f32
    %p = arith.mulf %y, %m32 : f32
    linalg.yield %p : f32
  } -> tensor<8xf32>
  func.return %c : tensor<8xf32>
}

// -----

// Negative: an f32 mean (nothing wider to subtract) and a truncation from f32 to f16 stay.
// CHECK-LABEL: func.func @narrow_means_unchanged
// CHECK-NOT:     arith.extf
// CHECK:         arith.subf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    arith.subf %{{.*}}, %{{.*}} : f16
// STATS:       (mean subtractions widened) : 0
func.func @narrow_means_unchanged(%x: tensor<8xf32>, %m: tensor<8xf32>, %h: tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf16>) {
  %e = tensor.empty() : tensor<8xf32>
  %eh = tensor.empty() : tensor<8xf16>
  %c, %d = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>], iterator_types = ["parallel"]} ins(%x, %m, %h : tensor<8xf32>, tensor<8xf32>, tensor<8xf16>) outs(%e, %eh : tensor<8xf32>, tensor<8xf16>) {
  ^bb0(%in: f32, %mean: f32, %half: f16, %o: f32, %oh: f16):
    %y = arith.subf %in, %mean : f32
    %mh = arith.truncf %mean : f32 to f16
    %z = arith.subf %half, %mh : f16
    linalg.yield %y, %z : f32, f16
  } -> (tensor<8xf32>, tensor<8xf16>)
  func.return %c, %d : tensor<8xf32>, tensor<8xf16>
}
