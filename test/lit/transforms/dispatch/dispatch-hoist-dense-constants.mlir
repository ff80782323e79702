// RUN: fusion-opt %s --split-input-file -p dispatch-hoist-dense-constants | filecheck %s
// RUN: fusion-opt -p dispatch-hoist-dense-constants --print-iree-flags | filecheck %s --check-prefix=FLAGS

// The pass: fusionopt/transforms/dispatch/hoist_dense_constants.py. A float tensor constant that
// stores more than one value moves out of its region, and IREE is told not to clone it back,
// so regions equal but for such constants build as one executable.
// FLAGS: --iree-flow-inline-constants-max-byte-length=0

// -----

// A conv's bias (four values) moves in front of its region; the splat zero and the scalar stay.
// CHECK-LABEL: func.func @bias_hoisted
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = flow.dispatch.region -> (tensor<8x4xf32>) {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NOT:       arith.constant dense<[
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%x, %[[B]], %[[S]] :
// CHECK:         func.return %[[R]]
func.func @bias_hoisted(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = flow.dispatch.region -> (tensor<8x4xf32>) {
    %zero = arith.constant 0.0 : f32
    %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %half = arith.constant dense<0.5> : tensor<4xf32>
    %e = tensor.empty() : tensor<8x4xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bias, %half : tensor<8x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%a: f32, %b: f32, %h: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.mulf %s, %h : f32
      %m = arith.maximumf %t, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x4xf32>
    flow.return %y : tensor<8x4xf32>
  }
  func.return %r : tensor<8x4xf32>
}

// -----

// Negative: an integer table (a gather's indices, read per element) stays in its region; a
// float constant outside any region is not touched.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<[1.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      arith.constant dense<[1, 0]> : tensor<2xi64>
func.func @kept(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %w = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %r = flow.dispatch.region -> (tensor<2xf32>) {
    %idx = arith.constant dense<[1, 0]> : tensor<2xi64>
    %e = tensor.empty() : tensor<2xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%idx : tensor<2xi64>) outs(%e : tensor<2xf32>) {
    ^bb0(%i: i64, %o: f32):
      %c = arith.index_cast %i : i64 to index
      %v = tensor.extract %x[%c] : tensor<2xf32>
      linalg.yield %v : f32
    } -> tensor<2xf32>
    flow.return %g : tensor<2xf32>
  }
  func.return %r, %w : tensor<2xf32>, tensor<2xf32>
}
